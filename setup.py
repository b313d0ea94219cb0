"""The build's one custom step: compile the message catalogs (``.po`` -> ``.mo``) into the built
package, so that a wheel, ``pip install .`` and ``pip install -e .`` ship them.  Everything else is in
``pyproject.toml``.  (Run from a source tree with no ``.mo``, ``ginrummy.i18n`` compiles the ``.po``
in memory, to the same catalog.)"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def compile_catalogs(source: Path, target: Path) -> list[str]:
    """Compile every ``locale/<lang>/LC_MESSAGES/*.po`` under ``source`` to ``.mo`` under
    ``target`` (with Babel, as ``pybabel compile`` does; fuzzy entries left out); the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(source.glob("locale/*/LC_MESSAGES/*.po")):
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        with mo.open("wb") as f:
            write_mo(f, catalog)
        written.append(str(mo))
    return written


class BuildPyWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the .po of the source tree
            compile_catalogs(Path("src/ginrummy"), Path(self.build_lib) / "ginrummy")


if __name__ == "__main__":  # as setuptools runs it (tests import compile_catalogs)
    setup(cmdclass={"build_py": BuildPyWithCatalogs})
