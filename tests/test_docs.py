"""The documentation runs: every module's doctests, and every ```python block of the README and
docs/ (``>>>`` sessions as doctests, programs executed as written)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import ginrummy
from ginrummy import i18n

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(ginrummy.__path__, "ginrummy.") if m.name != "ginrummy.__main__"
    )


@pytest.mark.parametrize("name", _modules())
def test_module_doctests(name: str) -> None:
    module = importlib.import_module(name)
    with i18n.using("en"):  # the examples are written in English (also in the pseudo-locale run)
        result = doctest.testmod(module, optionflags=FLAGS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def _python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


SESSIONS = [(p, i, b) for p in PAGES for i, b in enumerate(_python_blocks(p)) if b.lstrip().startswith(">>>")]
PROGRAMS = [(p, i, b) for p in PAGES for i, b in enumerate(_python_blocks(p)) if not b.lstrip().startswith(">>>")]


@pytest.mark.parametrize(("page", "index", "code"), SESSIONS, ids=[f"{p.name}-{i}" for p, i, _ in SESSIONS])
def test_page_sessions(page: Path, index: int, code: str) -> None:
    """A ``>>>`` block of a page is a doctest (the fence ends its last expected output)."""
    test = doctest.DocTestParser().get_doctest(code, {}, f"{page.name}[python block {index}]", str(page), 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    with i18n.using("en"):  # the examples are written in English (also in the pseudo-locale run)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.english("the pages' programs print the library's values with their own English words")
@pytest.mark.parametrize(("page", "index", "code"), PROGRAMS, ids=[f"{p.name}-{i}" for p, i, _ in PROGRAMS])
def test_page_programs_run(page: Path, index: int, code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, f"{page.name}[python block {index}]", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.strip(), "the example prints what it promises"
