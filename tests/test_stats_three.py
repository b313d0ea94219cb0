"""Three-player statistics (rule book section 2): the sitter holds no cards and never scores, so a
hand the person sat out as the sitter is none of the person's hands: the captain's undercut, gin or
knock in it counts for the captain alone, in no figure of the sitter's."""

from __future__ import annotations

from pathlib import Path

from ginrummy.agents import make_agent
from ginrummy.finish import file_finished_game
from ginrummy.session import Session
from ginrummy.store import Store
from ginrummy.store.stats import hand_outcomes, three_roles

PERSON = 1  # the seat of the person (the first human seat)


def _three_player_game() -> tuple[Session, list[dict[str, int]]]:
    """A seeded game to 150, every seat played by the greedy player, and the roles of each hand as
    the engine showed them: in hand 20 the box (seat 0) knocks, the captain (seat 2) undercuts it
    and the person (seat 1) sits."""
    agent = make_agent("greedy", "three")
    s = Session.new("three", {"game_target": 150}, seats=["expert", "human", "beginner"], deal_seed=8)
    roles = []
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
            roles.append(s.state.observation(PERSON)["roles"])
            continue
        seat = s.to_act
        assert seat is not None
        s.act(seat, agent.decide(s.state.observation(seat), s.state.legal_actions()).action)
    return s, roles


def test_the_sitters_figures_leave_out_the_hands_sat_out(tmp_path: Path) -> None:
    session, roles = _three_player_game()
    results = session.state.results
    assert len(results) == len(roles) == 21
    undercut = results[19]
    assert (undercut.result, undercut.knocker, undercut.winner) == ("undercut", 0, 2)
    assert roles[19] == {"box": 0, "captain": 2, "sitter": PERSON}

    store = Store(tmp_path)
    assert file_finished_game(store, "t1", session) is None  # no analysis for a table game
    [game] = store.history()
    st = store.stats()["three"]
    store.close()
    assert game.player_seat == PERSON

    # the roles the statistics work out from the record are the ones the engine played
    assert three_roles(game) == [(r["box"], r["captain"], r["sitter"]) for r in roles]
    sat = [r["sitter"] == PERSON for r in roles]
    assert [h.sat_out for h in hand_outcomes(game)] == sat
    played = [r for r, out in zip(results, sat, strict=True) if not out]
    assert 0 < len(played) < len(results)

    assert (st["hands"], st["sat_out"]) == (len(played), sum(sat))
    mine = [r for r in played if r.knocker == PERSON]
    assert st["gins"] == sum(r.result in ("gin", "big-gin") for r in mine)
    assert st["knocks"] == sum(r.result in ("knock", "undercut") for r in mine)
    assert st["undercut"] == sum(r.result == "undercut" for r in mine)
    assert st["undercuts"] == sum(r.result == "undercut" and r.winner == PERSON for r in played)
    net = [r.points[PERSON] - (sum(r.points) - r.points[PERSON]) for r in played]
    assert st["points_per_hand"] == sum(net) / len(played)
    assert st["scored_per_hand"] == sum(r.points[PERSON] for r in played) / len(played)
    assert st["game_averages"] == [round(sum(net) / len(played), 3)]
    # the best and worst hands are hands the person played, never the captain's undercut
    for key in ("best_hand", "worst_hand"):
        assert not sat[st[key]["hand"] - 1]
    assert st["worst_hand"]["points"] == min(net) and st["best_hand"]["points"] == max(net)
    # the game's own figures stay the person's: the final totals are individual (rule 2.7)
    assert st["games"] == 1 and st["best_game"]["final_totals"] == list(session.state.final_totals())


def test_a_three_player_game_filed_without_knockers_counts_the_same(tmp_path: Path) -> None:
    """Rows filed before the knocker was kept: in three-player Gin it follows from who scored and
    the hand's roles (the box or the captain)."""
    from dataclasses import replace

    session, _roles = _three_player_game()
    store = Store(tmp_path)
    file_finished_game(store, "t1", session)
    [game] = store.history()
    store.close()
    old = replace(game, summary={"hands": [{"result": h["result"]} for h in game.summary["hands"]]})
    assert [h.knocker for h in hand_outcomes(old)] == [r.knocker for r in session.state.results]
    from ginrummy.store.stats import summarise

    assert summarise([old]) == summarise([game])
