"""The code standards, checked by the suite so CI holds them: ruff's lint and format, mypy strict."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]], ids=["lint", "format"])
def test_ruff(args: list[str]) -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    run = _run([ruff, *args])
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_mypy_strict() -> None:
    pytest.importorskip("mypy")
    run = _run([sys.executable, "-m", "mypy"])
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
