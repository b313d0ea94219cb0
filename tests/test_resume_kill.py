"""Pocket the deck: kill ``ginrummy play --plain`` with SIGKILL in the middle of a hand, start it
again, and find the identical game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ginrummy.plain import public_record
from ginrummy.store import Store
from pseudo_audit import shown

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


class Player:
    """A ``ginrummy play --plain`` subprocess, read by a thread; ``ask`` sends a line and waits
    for the next prompt."""

    def __init__(self, data: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ginrummy.cli", "--data-dir", str(data), "play", "--plain", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            env=env,
        )
        self.out = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        while True:
            ch = self.proc.stdout.read(1)
            if not ch:
                return
            with self._lock:
                self.out += ch

    def wait_prompt(self, since: int, timeout: float = 60) -> str:
        end = time.time() + timeout
        while time.time() < end:
            with self._lock:
                text = self.out[since:]
            if text.endswith("> "):
                return shown("play --plain", text)  # (audited in the pseudo-locale run; read as in English)
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        raise AssertionError(f"no prompt; output so far:\n{self.out[-2000:]}")

    def ask(self, line: str) -> str:
        since = len(self.out)
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.wait_prompt(since)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def _move(screen: str) -> str:
    """A legal move read from the last ``Legal:`` line."""
    legal = [line for line in screen.splitlines() if line.startswith("Legal: ")][-1].removeprefix("Legal: ")
    for part in legal.split("; "):
        if part in ("pass", "draw"):
            return part
    for part in legal.split("; "):
        if part.startswith("discard one of "):
            return "discard " + part.split()[-1]
    raise AssertionError(legal)


def test_sigkill_mid_hand_then_resume_identical(tmp_path: Path) -> None:
    data = tmp_path / "data"
    p = Player(data, "--variant", "classic", "--opponent", "greedy", "--seed", "21")
    try:
        screen = p.wait_prompt(0)
        for _ in range(5):  # a few moves into the hand
            screen = p.ask(_move(screen))
        before = json.loads(p.ask("record").splitlines()[0].removeprefix("> "))
        assert len(before["hands"]) == 1 and len(before["hands"][0]["actions"]) >= 5
        [saved] = Store(data).saved_games()
        stored_before = Store(data).load_game(saved.id)
        assert stored_before is not None
        p.kill()  # no chance to clean up
    finally:
        p.close()
    # the database holds exactly the game as it stood
    store = Store(data)
    [again] = store.saved_games()
    assert again.id == saved.id
    resumed = store.load_game(saved.id)
    assert resumed is not None
    assert resumed.to_json() == stored_before.to_json()
    assert public_record(resumed) == before

    q = Player(data, "--resume")
    try:
        screen = q.wait_prompt(0)
        assert f"Game {saved.id}" in screen
        after = json.loads(q.ask("record").splitlines()[0].removeprefix("> "))
        assert after == before
        screen = q.ask(_move(screen))  # and play goes on
        assert "error" not in screen
        assert q.proc.stdin is not None
        q.proc.stdin.write("quit\n")
        q.proc.stdin.flush()
        assert q.proc.wait(timeout=30) == 0
    finally:
        q.close()
