"""``--lang`` is remembered only by a command that succeeded (docs/translating.md): a command line
that parses but whose command then fails (a missing record file) leaves settings.json as it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ginrummy import i18n
from ginrummy.cli import main
from ginrummy.commands import deadwood


def test_a_failed_command_remembers_no_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    missing = str(tmp_path / "missing.json")
    assert main(["--data-dir", data, "--lang", "lv", "replay", missing]) != 0
    assert "missing.json" in capsys.readouterr().err
    assert i18n.saved_language(data) is None and not (tmp_path / "data" / "settings.json").exists()
    i18n.save_language(data, "ko")
    before = (tmp_path / "data" / "settings.json").read_bytes()
    assert main(["--data-dir", data, "replay", "--lang", "lv", missing]) != 0  # after the command too
    assert (tmp_path / "data" / "settings.json").read_bytes() == before
    assert i18n.saved_language(data) == "ko"


def test_a_command_that_succeeded_remembers_its_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    assert main(["--data-dir", data, "--lang", "lv", "deadwood", "As", "2s", "3s", "Kd"]) == 0
    assert capsys.readouterr().out
    assert i18n.saved_language(data) == "lv"


def test_a_language_chosen_during_the_command_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The terminal app switches language itself (ctrl+l) and saves it: that later choice stays."""
    data = str(tmp_path / "data")

    def run(args: Any) -> int:
        i18n.save_language(data, "ko")  # as the app's own switch does
        return 0

    monkeypatch.setattr(deadwood, "run", run)
    assert main(["--data-dir", data, "--lang", "lv", "deadwood", "As"]) == 0
    assert i18n.saved_language(data) == "ko"
