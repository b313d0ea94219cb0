"""The import contracts of pyproject.toml: layers that import only downward, and no import circle
anywhere in the package (import-linter reads imports inside functions too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept() -> None:
    pytest.importorskip("importlinter")
    run = subprocess.run(
        [sys.executable, "-c", "import sys, importlinter.cli as c; sys.exit(c.lint_imports(no_cache=True))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
