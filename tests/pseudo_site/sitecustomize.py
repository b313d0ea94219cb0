"""The pseudo-locale run of the suite, in the commands the tests start (``tests/pseudo_audit.py``):
when ``GINRUMMY_TEST_LANG=xx``, ``ginrummy.i18n`` is switched to ``xx`` as it is imported, as
the test process is.  On ``PYTHONPATH`` only in that run (``conftest.py`` puts it there)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

if os.environ.get("GINRUMMY_TEST_LANG") == "xx":
    _spec = importlib.util.spec_from_file_location(
        "ginrummy_pseudo_audit", Path(__file__).resolve().parent.parent / "pseudo_audit.py"
    )
    assert _spec is not None and _spec.loader is not None
    _audit = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_audit)

    class _SwitchOnImport:
        """Switches ``ginrummy.i18n`` to the pseudo-locale once it is imported."""

        @staticmethod
        def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
            if name != "ginrummy.i18n":
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
                return spec
            exec_module = spec.loader.exec_module

            def run(module: Any) -> None:
                exec_module(module)
                _audit.switch_language(module)

            spec.loader.exec_module = run  # type: ignore[method-assign]
            return spec

    sys.meta_path.insert(0, _SwitchOnImport)
