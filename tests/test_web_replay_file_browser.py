"""The page's replay viewer on a record file, in a real browser: the lobby's "Replay a record file",
the file picker and the pasted record (sent to the server, checked whole), stepping forwards and
back by move and by hand, a file of several records, and a bad record that gets one line and
changes nothing.  Debian's chromium through Playwright, phone and desktop; seeded records; every
wait is for a condition.  Screenshots go to $GINRUMMY_SCREENSHOTS (else a temporary directory)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pseudo_audit import shown
from test_record import random_game
from test_web_app_phone import DESKTOP, PHONE, Phone, serve
from test_web_browser import (
    axe_problems,
    chromium_browser,  # noqa: F401 (the shared fixture 'browser')
)

pytestmark = [pytest.mark.browser]
sync_api = pytest.importorskip("playwright.sync_api")

from ginrummy.record import dumps, replay  # noqa: E402
from ginrummy.replays import replay_steps  # noqa: E402


def record_of(variant: str, seed: int = 5, **kw: Any) -> dict[str, Any]:
    return random_game(variant, random.Random(seed), max_hands=3, **kw).to_record()


def text(page: Any, id_: str) -> str:
    """The element's text as an English run shows it (the pseudo-locale's markers audited, then taken out)."""
    return shown("page", str(page.inner_text(f"#{id_}")))


def wait_text(page: Any, id_: str, start: str) -> None:
    page.wait_for_function(  # (the pseudo-locale's markers left out)
        "([id, s]) => document.getElementById(id).textContent.replace(/[\u27e6\u27e7]/g, '').startsWith(s)",
        arg=[id_, start],
    )


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_record_file_opens_in_the_replay_viewer(browser: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    record = record_of("classic")
    steps = replay_steps(record, viewer=None, opening=True)
    deals = [i for i, s in enumerate(steps) if s.index == -1 and s.hand > 0]
    path = tmp_path / "game.json"
    path.write_text(dumps(record), encoding="utf-8")
    server, base = serve(tmp_path / "data", seed=3)
    p = Phone(browser, base, size, touch=size == PHONE)
    try:
        p.goto("/")
        p.press("#open-record")
        p.page.wait_for_selector("#view-replay:not([hidden])")
        assert p.page.is_hidden("#replay-viewer") and p.page.is_visible("#record-form")
        p.shot("record-form")
        p.page.set_input_files("#record-file", str(path))  # choosing the file opens it
        p.page.wait_for_selector("#replay-viewer:not([hidden])")
        assert text(p.page, "replay-move") == "The game begins."
        assert text(p.page, "replay-title").startswith("Replay: ")
        assert p.page.is_hidden("#record-choice")  # one record: nothing to choose
        # by move
        p.press("#replay-next")
        wait_text(p.page, "replay-move", "Hand 1 is dealt.")
        assert p.page.locator("#replay-board .replay-seat").count() == 2  # both hands face up
        assert p.page.locator("#replay-board .replay-seat .card").count() == 20
        p.press("#replay-next")
        wait_text(p.page, "replay-pos", "Step 2 ")
        assert text(p.page, "replay-move") != "Hand 1 is dealt."
        p.press("#replay-back")
        wait_text(p.page, "replay-pos", "Step 1 ")
        # by hand: the buttons and PgDn / PgUp
        p.press("#replay-hand-next")
        wait_text(p.page, "replay-pos", f"Step {deals[1]} of")
        wait_text(p.page, "replay-move", "Hand 2 is dealt.")
        p.page.keyboard.press("ArrowRight")
        wait_text(p.page, "replay-pos", f"Step {deals[1] + 1} of")
        p.press("#replay-hand-back")  # back to this hand's deal
        wait_text(p.page, "replay-pos", f"Step {deals[1]} of")
        p.page.keyboard.press("PageUp")  # then the hand before
        wait_text(p.page, "replay-pos", f"Step {deals[0]} of")
        p.page.keyboard.press("PageDown")
        p.page.keyboard.press("PageDown")
        wait_text(p.page, "replay-pos", f"Step {deals[2]} of")
        p.shot("record-replay-step")
        p.page.keyboard.press("End")
        if replay(record).game_over:
            p.page.locator("#replay-final").wait_for()
        wait_text(p.page, "replay-pos", f"Step {len(steps) - 1} of")
        assert p.page.is_disabled("#replay-next") and p.page.is_disabled("#replay-hand-next")
        p.shot("record-replay-end")
        assert axe_problems(p.page) == []
        assert p.page.evaluate("document.documentElement.scrollWidth") <= size[0]

        # a bad record: one line under the form, the replay shown stays as it was
        shown = (text(p.page, "replay-pos"), text(p.page, "replay-move"), text(p.page, "replay-board"))
        p.page.set_input_files("#record-file", [])
        bad = dict(record, hands=[*record["hands"][:1], {**record["hands"][1], "actions": ["layoff As"]}])
        p.page.fill("#record-text", json.dumps(bad))
        p.press("#record-open")
        p.page.wait_for_selector("#record-error:not([hidden])")
        error = text(p.page, "record-error")
        assert error.startswith("This record cannot be shown: hands[1] (hand 2).actions[0] (action 1, 'layoff As')")
        assert "\n" not in error
        assert (text(p.page, "replay-pos"), text(p.page, "replay-move"), text(p.page, "replay-board")) == shown
        p.shot("record-bad")
        p.page.fill("#record-text", "")
        p.press("#record-open")
        wait_text(p.page, "record-error", "Choose a record file or paste a record first.")
        refused = "the server responded with a status of 400"  # the bad record's answer, as the console notes it
        assert [e for e in p.errors if refused not in e] == [] and len(p.errors) == 1, p.errors
        p.press("#replay-close")
        p.page.wait_for_selector("#view-lobby:not([hidden])")
    finally:
        p.close()
        server.stop()


def test_a_pasted_file_of_several_records(browser: Any, tmp_path: Path) -> None:
    records = [record_of("solitaire", 8), record_of("three", 9), record_of("gin-solitaire", 10, stop_inside=True)]
    server, base = serve(tmp_path / "data", seed=3)
    p = Phone(browser, base, PHONE)
    try:
        p.goto("/")
        p.press("#open-record")
        p.page.fill("#record-text", "".join(json.dumps(r) + "\n" for r in records))
        p.press("#record-open")
        p.page.wait_for_selector("#replay-viewer:not([hidden])")
        assert p.page.is_visible("#record-choice")
        assert [shown("page", t) for t in p.page.locator("#record-choice option").all_inner_texts()] == [
            "record 1 of 3",
            "record 2 of 3",
            "record 3 of 3",
        ]
        first = p.page.text_content("#replay-title")  # as it is (with the pseudo-locale's markers)
        p.page.select_option("#record-choice", "1")  # the three-player game
        p.page.wait_for_function("t => document.getElementById('replay-title').textContent !== t", arg=first)
        assert p.page.locator("#replay-board .replay-seat").count() == 3  # before the deal: the three players
        p.page.keyboard.press("ArrowRight")
        wait_text(p.page, "replay-move", "Hand 1 is dealt.")
        assert p.page.locator("#replay-board .replay-seat").count() == 2  # the sitter holds no cards
        second = p.page.text_content("#replay-title")  # as it is (with the pseudo-locale's markers)
        p.page.select_option("#record-choice", "2")  # a saved game: it stops inside a hand
        p.page.wait_for_function("t => document.getElementById('replay-title').textContent !== t", arg=second)
        p.page.keyboard.press("End")
        p.page.wait_for_function("() => !!document.querySelector('#replay-board .badge')")
        assert p.page.locator("#replay-final").count() == 0
        p.shot("record-several")
        assert not p.errors, p.errors
    finally:
        p.close()
        server.stop()
