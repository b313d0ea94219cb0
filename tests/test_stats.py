"""Statistics players look for (issue 14): per variant, opponent and level, with gins, undercuts,
streaks, best and worst hands and games, the running average; watched games in nobody's history."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.session import Session
from ginrummy.store import FinishedGame, Store
from ginrummy.store.stats import _streaks, hand_outcomes, opponent_of, summarise, variant_stats
from pseudo_audit import plain


def _game(
    gid: str, hands: list[tuple[str, int | None, list[int]]], final: list[int], winner: int | None, **kw: Any
) -> FinishedGame:
    """A two-seat history row: each hand as (result, knocker, points)."""
    fields: dict[str, Any] = {
        "id": gid,
        "variant": "classic",
        "players": ["You", "Expert"],
        "seats": ["human", "expert"],
        "player_seat": 0,
        "started_at": "2026-01-01T00:00:00Z",
        "finished_at": f"2026-01-0{len(gid)}T00:00:00Z",
        "hands": len(hands),
        "totals": final,
        "final_totals": final,
        "winner": winner,
        "hand_points": [p for _, _, p in hands],
        "record": {},
        "summary": {"hands": [{"result": r, "knocker": k, "points": p} for r, k, p in hands]},
    }
    fields.update(kw)
    return FinishedGame(**fields)


GAMES = [
    # gin of mine; my knock undercut; the opponent's knock
    _game("g1", [("gin", 0, [30, 0]), ("undercut", 0, [0, 25]), ("knock", 1, [0, 12])], [130, 37], 0),
    # I undercut the opponent's knock; the opponent's big gin
    _game("g2", [("undercut", 1, [20, 0]), ("big-gin", 1, [0, 31])], [20, 131], 1),
    _game("g3", [("knock", 0, [9, 0])], [100, 0], 0),
]


def test_the_figures_of_some_games() -> None:
    s = summarise(GAMES)
    assert (s["games"], s["wins"], s["losses"], s["hands"]) == (3, 2, 1, 6)
    assert s["win_rate"] == pytest.approx(2 / 3)
    assert (s["gins"], s["big_gins"], s["knocks"], s["undercut"], s["undercuts"]) == (1, 0, 2, 1, 1)
    assert s["streak"] == {"current": 1, "best": 1, "worst": 1}
    assert s["points_per_hand"] == pytest.approx((30 - 25 - 12 + 20 - 31 + 9) / 6)
    assert s["scored_per_hand"] == pytest.approx((30 + 20 + 9) / 6)
    assert s["running_average"] == [round(-7 / 3, 3), round(-18 / 5, 3), -1.5]
    assert s["game_averages"] == [round(-7 / 3, 3), -5.5, 9.0]
    assert s["best_hand"] == {
        "game": "g1",
        "hand": 1,
        "points": 30,
        "result": "gin",
        "finished_at": GAMES[0].finished_at,
    }
    assert (s["worst_hand"]["game"], s["worst_hand"]["hand"], s["worst_hand"]["points"]) == ("g2", 2, -31)
    assert (s["best_game"]["game"], s["best_game"]["margin"]) == ("g3", 100)
    assert (s["worst_game"]["game"], s["worst_game"]["margin"]) == ("g2", -111)
    assert json.loads(json.dumps(s)) == s  # JSON-ready


def test_streaks() -> None:
    assert _streaks([True, True, False, True, True, True, False, False]) == {"current": -2, "best": 3, "worst": 2}
    assert _streaks([]) == {"current": 0, "best": 0, "worst": 0}


def test_games_filed_without_knockers_count_the_same_in_two_seat_games() -> None:
    """Rows filed before the knocker was kept: who knocked follows from who scored."""
    old = [replace(g, summary={"hands": [{"result": h["result"]} for h in g.summary["hands"]]}) for g in GAMES]
    assert [h.knocker for h in hand_outcomes(old[0])] == [0, 0, 1]
    assert summarise(old) == summarise(GAMES)


def test_by_opponent_and_by_level() -> None:
    beginner = replace(GAMES[2], id="g4", seats=["human", "beginner"])
    greedy = replace(GAMES[1], id="g5", seats=["human", "greedy"])
    three = replace(GAMES[2], id="g6", variant="three", seats=["expert", "human", "beginner"], player_seat=1)
    assert opponent_of(three) == "beginner + expert"
    st = variant_stats([*GAMES, beginner, greedy, three], ("beginner", "casual", "expert"))
    assert list(st) == ["classic", "three"]
    c = st["classic"]
    assert c["games"] == 5
    assert {k: v["games"] for k, v in c["by_opponent"].items()} == {"beginner": 1, "expert": 3, "greedy": 1}
    assert list(c["by_level"]) == ["beginner", "expert"] and c["by_level"]["expert"] == summarise(GAMES)
    assert st["three"]["by_level"] == {}


def _finished_session(seats: list[str], seed: int, *, undo: bool = False) -> Session:
    """A game to 30 by seeded random moves (every seat's, through Session.act); with ``undo`` the
    person takes back their first decision once."""
    s = Session.new("classic", {"game_target": 30}, seats=seats, deal_seed=seed)
    rng = random.Random(seed)
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
            continue
        seat = s.to_act
        assert seat is not None
        legal = s.state.legal_actions()
        ends = [a for a in legal if a.kind in ("knock", "gin")]
        s.act(seat, ends[0] if ends and rng.random() < 0.7 else rng.choice(legal))
        if undo and s.takebacks == 0 and s.can_undo(0):
            s.undo(0)
    return s


def test_a_watched_game_is_in_nobodys_history(tmp_path: Path) -> None:
    """Regression: a game only computers played was filed as seat 0's and counted in its stats."""
    store = Store(tmp_path)
    store.finish_game("w", _finished_session(["greedy", "expert"], 1))
    assert store.history() == [] and store.stats() == {}
    [g] = store.history(watched=True)
    assert g.watched and g.player_seat == -1 and not g.won
    store.close()


def test_the_store_files_knockers_and_answers_by_opponent(tmp_path: Path) -> None:
    store = Store(tmp_path)
    sessions = {"a": _finished_session(["human", "beginner"], 2), "b": _finished_session(["human", "expert"], 3)}
    for gid, s in sessions.items():
        store.finish_game(gid, s)
    st = store.stats()["classic"]
    assert st["games"] == 2 and set(st["by_opponent"]) == {"beginner", "expert"} == set(st["by_level"])
    # the counts agree with the engine's own hand results
    results = [r for s in sessions.values() for r in s.state.results]
    assert st["gins"] == sum(r.result in ("gin", "big-gin") and r.knocker == 0 for r in results)
    assert st["knocks"] == sum(r.result in ("knock", "undercut") and r.knocker == 0 for r in results)
    assert st["undercut"] == sum(r.result == "undercut" and r.knocker == 0 for r in results)
    assert st["undercuts"] == sum(r.result == "undercut" and r.knocker == 1 for r in results)
    assert st["hands"] == len(results)
    assert store.stats(opponent="expert")["classic"]["games"] == 1
    assert store.stats(opponent="nobody-like-this") == {}
    store.close()


def test_the_stats_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path)
    store.finish_game("a", _finished_session(["human", "beginner"], 2))
    store.finish_game("b", _finished_session(["human", "expert"], 3))
    store.close()
    assert main(["--data-dir", str(tmp_path), "stats"]) == 0
    out = capsys.readouterr().out
    assert "gins" in out and "streak now" in out and "against beginner (level)" in out and "best hand" in out
    assert main(["--data-dir", str(tmp_path), "stats", "--json", "--opponent", "beginner"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["classic"]["games"] == 1 and list(st["classic"]["by_opponent"]) == ["beginner"]


def test_games_played_with_takebacks_can_be_left_out(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.finish_game("a", _finished_session(["human", "expert"], 2, undo=True))
    store.finish_game("b", _finished_session(["human", "expert"], 3))
    assert [g.takebacks for g in store.history()] == [1, 0]
    assert store.stats()["classic"]["games"] == 2
    assert store.stats(takebacks=False)["classic"]["games"] == 1
    store.close()


def _two_opponents(tmp_path: Path) -> Store:
    store = Store(tmp_path)
    store.finish_game("a", _finished_session(["human", "beginner"], 2))
    store.finish_game("b", _finished_session(["human", "expert"], 3))
    return store


def test_the_figures_are_worded_once_for_every_front_end(tmp_path: Path) -> None:
    """ginrummy.statwords words the figures the command, the terminal and the page show."""
    from ginrummy.i18n import using
    from ginrummy.statwords import opponent_sections, stats_lines

    store = _two_opponents(tmp_path)
    st = store.stats()["classic"]
    store.close()
    lines = [plain(line) for line in stats_lines(st)]
    assert any(line.startswith("gins ") for line in lines) and any("streak now" in line for line in lines)
    assert [plain(h) for h, _ in opponent_sections(st)] == ["against beginner (level)", "against expert (level)"]
    with using("ko"):
        korean = stats_lines(st)
    assert len(korean) == len(lines) and all(any("\uac00" <= ch <= "\ud7a3" for ch in line) for line in korean)


def test_the_terminal_shows_the_figures_per_opponent(tmp_path: Path) -> None:
    import asyncio

    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import StatsScreen

    _two_opponents(tmp_path).close()

    async def run() -> None:
        app = GinRummyApp(computer_delay=0, deal_seed=1, store=Store(tmp_path))
        async with app.run_test(size=(120, 40)) as pilot:
            app.push_screen(StatsScreen())
            await pilot.pause()
            texts = [str(w.render()) for w in app.screen.query(".stat-text")]
            shown = plain("\n".join(texts))
            assert "gins " in shown and "streak now" in shown and "best hand" in shown
            assert "against beginner (level)" in shown and "against expert (level)" in shown

    asyncio.run(run())


def test_the_page_gets_the_figures_in_its_language(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from ginrummy.web.server import create_app

    _two_opponents(tmp_path).close()
    app = create_app(tmp_path, computer_delay=0, deal_seed=5)
    with TestClient(app, client=("127.0.0.1", 50000), base_url="http://127.0.0.1:8000") as local:
        st = local.get("/api/stats").json()["variants"]["classic"]
        assert any(plain(line).startswith("gins ") for line in st["lines"])
        assert [plain(o["heading"]) for o in st["opponents"]] == ["against beginner (level)", "against expert (level)"]
        lv = local.get("/api/stats?lang=lv").json()["variants"]["classic"]
        assert len(lv["lines"]) == len(st["lines"]) and lv["lines"] != st["lines"]
