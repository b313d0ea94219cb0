"""The expert's search of close calls (ginrummy.agents.search): sampled worlds and play-outs."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from ginrummy.actions import Action
from ginrummy.agents import make_agent, search
from ginrummy.agents.expert import DEFAULT, evaluate
from ginrummy.agents.knowledge import VALUES, Knowledge, card_mask, obs_rng
from ginrummy.agents.search import Rules, close_options, playout, sample_worlds, search_close_call
from ginrummy.cards import Card
from ginrummy.engine import State
from ginrummy.melds import min_deadwood
from test_expert_game import assert_same_play

EAAI = {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}


def _discard(card: str) -> Action:
    return Action("discard", Card.parse(card))


def _queens_position() -> dict[str, Any]:
    """Seat 0 to discard Qh or Ks (the same deadwood either way); the opponent took Qd and Qc from
    the pile, so Qh makes them a set."""
    options = State.new("classic", options=EAAI).options.to_dict()
    hand = ["2c", "3c", "4c", "5d", "6d", "7d", "9s", "9h", "9c", "Qh", "Ks"]
    return {
        "variant": "classic",
        "seat": 0,
        "options": options,
        "hand_number": 1,
        "phase": "discard",
        "current_player": 0,
        "totals": [0, 0],
        "hands_won": [0, 0],
        "knock_limit": 10,
        "upcard": "Qd",
        "discard_pile": ["2h", "3h"],
        "stock_size": 29,
        "hand_sizes": [11, 10],
        "hand": hand,
        "known_cards": {"1": ["Qd", "Qc"]},
        "history": [
            {"seat": 1, "action": "take"},
            {"seat": 1, "action": "discard 2h"},
            {"seat": 0, "action": "draw"},
            {"seat": 0, "action": "discard Qc"},
            {"seat": 1, "action": "take"},
            {"seat": 1, "action": "discard 3h"},
            {"seat": 0, "action": "draw"},
        ],
    }


def test_the_search_turns_away_from_a_discard_that_makes_the_opponent_a_set() -> None:
    obs = _queens_position()
    qh, ks = _discard("Qh"), _discard("Ks")
    p = dataclasses.replace(DEFAULT, search=64)
    # Told the two are equal and the expert's pick is Qh, the search finds Ks clearly better.
    got = search_close_call(obs, {qh: 0.0, ks: 0.0}, qh, p, seed=1)
    assert got is not None
    assert got.best == ks
    gain, se = got.gains[ks]
    assert gain > 2.0 * se > 0.0
    # ...and it keeps Ks when that is the expert's pick.
    again = search_close_call(obs, {qh: 0.0, ks: 0.0}, ks, p, seed=1)
    assert again is not None and again.best == ks


def test_the_search_keeps_the_expert_choice_between_equal_options() -> None:
    # Two discards that leave the same cards up to a suit nobody can use: no clear gain, no change.
    obs = _queens_position()
    obs["hand"] = ["2c", "3c", "4c", "5d", "6d", "7d", "9s", "9h", "9c", "Kh", "Ks"]
    kh, ks = _discard("Kh"), _discard("Ks")
    p = dataclasses.replace(DEFAULT, search=32)
    for first in (kh, ks):
        got = search_close_call(obs, {kh: 0.0, ks: 0.0}, first, p, seed=2)
        assert got is not None and got.best == first


def test_bounds_worlds_options_and_determinism() -> None:
    obs = _queens_position()
    values = {_discard("Qh"): 0.0, _discard("Ks"): -0.2, _discard("Qh"): 0.0, _discard("9s"): -0.5}
    p = dataclasses.replace(DEFAULT, search=12, search_options=2)
    got = search_close_call(obs, values, _discard("Qh"), p, seed=3)
    assert got is not None
    assert got.worlds == 12 and got.playouts == 24 and len(got.means) == 2
    assert search_close_call(obs, values, _discard("Qh"), p, seed=3) == got  # reproducible
    # Options outside the window, or a search of 0 worlds, mean no search at all.
    assert search_close_call(obs, {_discard("Qh"): 0.0, _discard("9s"): -5.0}, _discard("Qh"), p, seed=3) is None
    assert search_close_call(obs, values, _discard("Qh"), dataclasses.replace(DEFAULT, search=0), seed=3) is None
    # Where the hand's points count (the default rules' box bonus) the search is off unless asked.
    scored = _queens_position()
    scored["options"] = State.new("classic").options.to_dict()
    assert search_close_call(scored, values, _discard("Qh"), p, seed=3) is None
    on = dataclasses.replace(p, search_points=True)
    assert (got := search_close_call(scored, values, _discard("Qh"), on, seed=3)) is not None and got.worlds == 12
    # Gin is never second-guessed.
    gin = Action("gin", Card.parse("Ks"))
    assert close_options({gin: 30.0, _discard("Qh"): 29.5}, gin, p) == [gin]


def test_worlds_match_what_the_seat_has_seen() -> None:
    obs = _queens_position()
    k = Knowledge.from_observation(obs)
    worlds = sample_worlds(k, DEFAULT, obs_rng(1, obs, "search"), 20)
    for w in worlds:
        assert w.opponent & card_mask(["Qd", "Qc"]) == card_mask(["Qd", "Qc"])  # what they took
        assert w.opponent.bit_count() == 10 and len(w.stock) == 29
        assert not w.opponent & k.hand and not w.opponent & card_mask(["2h", "3h"])
        assert sum(1 << c for c in w.stock) | w.opponent == k.unseen | k.opp_known


def test_a_playout_scores_the_hand_by_the_rules() -> None:
    hand0 = card_mask(["2c", "3c", "4c", "5d", "6d", "7d", "9s", "9h", "9c", "Ks"])  # 8d makes it gin (throwing Ks)
    hand1 = card_mask(["Ac", "3d", "5h", "7s", "8c", "Jd", "Qs", "Kd", "2d", "4h"])
    s6, s5, s4, d8 = (int(Card.parse(x)) for x in ("6s", "5s", "4s", "8d"))
    # Seat 0 draws 8d (the stock is used from its end), throws Ks and goes gin: 25 + seat 1's count.
    stock = [s6, s5, s4, d8]
    assert playout((hand0, hand1), int(Card.parse("2h")), stock, 0, Rules(), (0, 0), DEFAULT) == 25 + 60
    assert stock == [s6, s5, s4]
    # Seat 1 to move first draws 8d and keeps it (it throws a ten-point card); seat 0 draws 4s and
    # the wall (two cards) is reached: the hand is void.
    assert playout((hand0, hand1), int(Card.parse("2h")), [s6, s5, s4, d8], 1, Rules(), (0, 0), DEFAULT) == 0
    # Nothing happens before the wall: the hand is void.
    assert playout((hand0, hand1), int(Card.parse("2h")), [s6, s5, s4], 0, Rules(), (0, 0), DEFAULT) == 0
    assert min_deadwood(hand1) == 60


def test_the_search_reads_only_the_observation() -> None:
    # The opponent's hidden cards and the stock's order may be anything the seat cannot tell apart:
    # swap hidden cards between them and nothing the searching seat sees or decides changes.
    s = State.new("classic", options=EAAI)
    s.deal(seed=11)
    agent = make_agent("expert", "classic", seed=4, search=24, search_window=3.0)
    for _ in range(12):
        seat = s.current_player
        assert seat is not None
        s.apply(agent.act(s.observation(seat), s.legal_actions()))
    seat = s.current_player
    assert seat is not None
    other = s.clone()
    opp = 1 - seat
    hidden = [c for c in range(52) if other.hands[opp] >> c & 1 and not other.known[opp] >> c & 1]
    a, b = hidden[0], int(other.stock[0])
    other.hands[opp] = other.hands[opp] & ~(1 << a) | 1 << b
    other.stock[0] = Card(a)
    other.stock.reverse()
    obs, obs2 = s.observation(seat), other.observation(seat)
    assert obs == obs2
    legal = s.legal_actions()
    ev = evaluate(obs, legal, full=True)
    p = dataclasses.replace(DEFAULT, search=24, search_window=50.0, search_knock_window=50.0)
    assert search_close_call(obs, ev.values, ev.best, p, 5) == search_close_call(obs2, ev.values, ev.best, p, 5)
    assert agent.decide(obs, legal) == agent.decide(obs2, legal)


def test_levels_below_the_expert_do_not_search(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = search.search_close_call

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "search_close_call", counted)
    s = State.new("classic", options=EAAI)
    s.deal(seed=2)
    advanced = make_agent("advanced", "classic", seed=1, search=24)
    expert = make_agent("expert", "classic", seed=1, search=24)
    plain = make_agent("expert", "classic", seed=1, search=0)
    counts = []
    for agent in (advanced, plain, expert):
        calls.clear()
        for _ in range(3):
            seat = s.current_player
            assert seat is not None
            agent.decide(s.observation(seat), s.legal_actions())
        counts.append(len(calls))
    # The advanced level judges with noise and does not search, nor does the expert told search=0;
    # with search, the expert looks for a close call at every decision.
    assert counts[0] == 0 and counts[1] == 0 and counts[2] == 3


def test_the_playouts_discard_that_keeps_partners() -> None:
    # search_keep: the least deadwood plus `keep` points a card of the rest the discard could meld
    # with.  Deadwood Ah 2h (2h pairs with 2c too), Kh Ks (a pair) and 9c (alone): least deadwood
    # throws a king, keep=2 the lone 9c (one point more of deadwood, two of partners fewer).
    hand = card_mask(["2c", "3c", "4c", "5d", "6d", "7d", "Ah", "2h", "Kh", "Ks", "9c"])
    c, d = search._discard(hand, -1)
    assert Card(c).rank == Card.parse("Ks").rank and d == 1 + 2 + 10 + 9
    assert search._discard_keep(hand, -1, 2.0) == (int(Card.parse("9c")), 1 + 2 + 10 + 10)
    assert search._discard_keep(hand, int(Card.parse("9c")), 2.0) == (c, d)  # never the card just taken
    assert search._discard_keep(hand, -1, 0.5) == (c, d)  # a small weight keeps the least deadwood
    # Exact: the same card as trying every discard (min_deadwood of the rest, plus the partners;
    # a gin first), on seeded random hands.
    rng = random.Random(5)
    for keep in (1.0, 2.0, 4.0):
        for _ in range(300):
            cards = rng.sample(range(52), 11)
            h = sum(1 << x for x in cards)
            taken = rng.choice([-1, cards[0]])
            each = [(min_deadwood(h & ~(1 << x)), x) for x in cards if x != taken]
            if min(dx for dx, _ in each) == 0:
                each = [t for t in each if t[0] == 0]
            key = min((dx + keep * (search._PARTNERS[x] & h).bit_count(), -VALUES[x], -x, x, dx) for dx, x in each)
            assert search._discard_keep(h, taken, keep) == (key[3], key[4])


def test_the_default_window_and_where_the_search_runs() -> None:
    # Discards within four points of the expert's choice are searched (one point before
    # 2026-12-04, two, then three, before 2026-12-07), four options at most (three before), and
    # knocks against playing on within three points (not searched before 2026-12-07).
    assert (DEFAULT.search_window, DEFAULT.search_knock_window, DEFAULT.search_options) == (4.0, 3.0, 4)
    qh, ks, s9, c8, d7 = _discard("Qh"), _discard("Ks"), _discard("9s"), _discard("8c"), _discard("7d")
    assert close_options({qh: 0.0, ks: -1.5, s9: -2.5, c8: -3.5, d7: -3.9}, qh, DEFAULT) == [qh, ks, s9, c8]
    assert close_options({qh: 0.0, s9: -2.5, d7: -4.5}, qh, DEFAULT) == [qh, s9]  # the window, not the cap of 4
    knock, far = Action("knock", Card.parse("Ks")), Action("knock", Card.parse("9s"))
    assert close_options({qh: 0.0, knock: -0.5, far: -3.5}, qh, DEFAULT) == [qh, knock]
    assert close_options({knock: 0.0, qh: -2.9, s9: -3.1}, knock, DEFAULT) == [knock, qh]
    # Under the default rules (box and game bonus: the hand's points count) the search is off, so the
    # default expert plays exactly as without it.
    searching = make_agent("expert", "classic", seed=1)
    plain = make_agent("expert", "classic", seed=1, search=0)
    assert_same_play(searching, plain, deals=3)
