"""The solitaire's post-game analysis summary is data until shown (issue 18): worked out in any
language (a web worker started by a Latvian page), it is worded for each reader in the reader's
language, from the table's memory and from the history alike; a summary filed as text before it
was data still shows as it was written."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from ginrummy.analysis import analyse_record
from ginrummy.finish import analysis_lines, file_finished_game, solitaire_analysis
from ginrummy.i18n import using
from ginrummy.session import HUMAN, Session, make_session
from ginrummy.store import Store
from test_tui import choose  # the same quick policy

HANGUL = re.compile("[\uac00-\ud7a3]")
LATVIAN = re.compile("[āēīūčģķļņšž]")


def _finished_solitaire(seed: int = 3) -> Session:
    s = make_session("solitaire", options={"scoring": "none"}, seats=[HUMAN, "joker"], deal_seed=seed)
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
            continue
        seat = s.human_to_act()
        assert seat is not None
        obs = s.observation(seat)
        pile = obs.get("discard_pile") or []
        s.act(seat, choose(obs["hand"], obs["legal_actions"], pile[-1] if pile else None))
    return s


def _words(analysis: dict[str, object]) -> dict[str, list[str]]:
    out = {}
    for lang in ("en", "ko", "lv"):
        with using(lang):
            out[lang] = analysis_lines(analysis)
    return out


def test_the_summary_is_data_worded_for_each_reader() -> None:
    session = _finished_solitaire()
    with using("lv"):  # whoever finished the game
        analysis = solitaire_analysis(session, rollouts=4)
    assert analysis is not None and len(analysis["summary"]) >= 2
    assert all(isinstance(line, dict) and "msg" in line for line in analysis["summary"])  # no words yet
    assert json.loads(json.dumps(analysis)) == analysis  # filed and sent as JSON
    words = _words(analysis)
    assert len(words["en"]) == len(words["ko"]) == len(words["lv"]) == len(analysis["summary"])
    assert all(HANGUL.search(line) for line in words["ko"])
    assert not any(HANGUL.search(line) or LATVIAN.search(line) for line in words["en"])
    assert words["en"][0].startswith(f"{analysis['decisions']} decisions, {analysis['matches']} as the planner")
    assert LATVIAN.search(words["lv"][0]) and words["lv"] != words["en"]
    # the same lines as the analysis' own summary() in each language
    review = analyse_record(session.state.to_record(), rollouts=4)
    for lang in ("en", "ko", "lv"):
        with using(lang):
            assert review.summary().splitlines() == words[lang]


def test_a_failed_analysis_says_so_in_the_readers_language(monkeypatch: pytest.MonkeyPatch) -> None:
    import ginrummy.finish as finish

    def broken(record: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(finish.analysis, "analyse_record", broken)
    with using("lv"):
        failed = solitaire_analysis(_finished_solitaire())
    assert failed is not None and failed["error"] == "RuntimeError: boom"
    words = _words(failed)
    assert words["en"] == ["(The analysis failed: boom)"]
    assert HANGUL.search(words["ko"][0]) and "boom" in words["ko"][0]


starlette = pytest.importorskip("starlette")

from ginrummy.web.table import Table  # noqa: E402
from ginrummy.web.thinker import Thinker  # noqa: E402


@pytest.mark.parametrize("workers", [0, 1], ids=["inline", "worker-process"])
def test_the_page_of_a_korean_viewer_reads_it_in_korean(workers: int) -> None:
    """The analysis is worked out for a Latvian page (in a worker process, or inline); every
    connection reads it in its own language."""
    session = _finished_solitaire()
    thinker = Thinker(workers=workers)
    try:
        with using("lv"):
            analysis = asyncio.run(thinker.analyse(session))
    finally:
        thinker.stop()
    assert analysis is not None
    table = Table("g1", session, kind="solo", hints=False, claimed={0})
    table.analysis = analysis
    shown = {}
    for lang in ("en", "ko", "lv"):
        with using(lang):
            shown[lang] = table.public(0)["analysis"]["summary"]
    assert shown == _words(analysis)
    assert all(HANGUL.search(line) for line in shown["ko"])
    assert not any(HANGUL.search(line) for line in shown["lv"] + shown["en"])


def test_the_history_keeps_it_as_data_and_old_text_shows_as_written(tmp_path: Path) -> None:
    store = Store(tmp_path)
    session = _finished_solitaire()
    with using("lv"):
        filed = file_finished_game(store, "g1", session)
    old_lines = ["25 decisions, 14 as the planner plays (accuracy 56%); expected loss 1.5 points."]
    store.finish_game("g2", _finished_solitaire(5), {"accuracy": 0.56, "summary": [*old_lines, {"bogus": 1}]})
    games = {g.id: g for g in store.history()}
    store.close()
    assert games["g1"].analysis == filed
    with using("ko"):
        assert all(HANGUL.search(line) for line in analysis_lines(games["g1"].analysis))
        assert analysis_lines(games["g2"].analysis) == old_lines  # as written; a damaged line left out
    assert analysis_lines(None) == [] and analysis_lines({"summary": "not a list"}) == []
