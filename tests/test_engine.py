"""The engine under random legal play, every variant, against the rule book's invariants.

At every step: hand sizes follow the turn, no card comes or goes, and the seat to act is the one
the rules name.  At the end of every hand: every card is in exactly one place (a hand, the stock,
the discard pile, out of play), exactly one side scores (or nobody), the points follow from the
spread by rule 1.8 or 3.5-3.7, the totals are the sum of the hand points, and the game ends exactly
when the target is reached.  At every step of sampled hands (the first hands of each part of a run,
then a seeded fraction of the others; ``AUDIT_*``): every card is in exactly one place.  At every
step of fewer sampled hands (``PROBE_*``): illegal actions raise :class:`IllegalAction` and change
nothing, clones are independent, and undo takes an action back (the deal, each layoff, the action
that ends the hand, and a sample of the others).  At a sample of the other steps (``ILLEGAL_RATE``):
illegal actions change nothing.

``HANDS`` hands per variant run in the ``slow`` test (which the default run includes; ``-m "not
slow"`` leaves it out), ``QUICK_HANDS`` in the quick one.  A run is played in ``PARTS`` parts with
seeds of their own, in parallel processes where the machine allows: the same games either way.
"""

from __future__ import annotations

import copy
import doctest
import itertools
import json
import multiprocessing
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ginrummy.actions
import ginrummy.engine
import ginrummy.record
import ginrummy.scoring
from ginrummy.actions import NUM_ACTIONS, Action
from ginrummy.cards import JOKER, Card, CardSet
from ginrummy.engine import SEATS, State
from ginrummy.errors import IllegalAction, OptionError
from ginrummy.melds import best_defense, best_discards, is_meld, min_deadwood
from ginrummy.options import VARIANTS, option_help
from ginrummy.plain import score_lines
from ginrummy.scoring import HollywoodSheet, game_final, three_rotation
from pseudo_audit import plain as plain_text

HANDS = 10_000  # per variant, in the slow test
QUICK_HANDS = 1_000  # per variant, in the default run
SOLO = ("solitaire", "gin-solitaire")
FULL = (1 << 52) - 1

# Option sets a game may be played with (a new game picks one at random): defaults first.
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "classic": [
        {},
        {"preset": "classic", "next_dealer": "loser", "big_gin": True},
        {"undercut_on_tie": False, "next_dealer": "alternate", "layoffs": False, "game_target": 60},
        {"discard_drawn_upcard_allowed": True, "knock_limit": 5, "shutout": "double_total", "wall_cards": 4},
    ],
    "oklahoma": [{}, {"oklahoma_ace": "one", "spades_double": False, "game_target": 100, "big_gin": True}],
    "hollywood": [{}, {"hollywood_target": 60, "undercut_on_tie": False}],
    "three": [{}, {"end_bonuses": True, "gin_bonus": 20, "undercut_on_tie": False, "game_target": 60}],
    "solitaire": [
        {},
        {"scoring": "basic"},
        {"scoring": "none"},
        {"joker_in_deal": "lose", "big_gin": True, "count_includes_joker": True, "undercut_on_tie": True},
        {"end_before_first_draw": True, "game_target": 50},
    ],
    "gin-solitaire": [
        {},
        {"end_after_opening_discard": True, "big_gin": False, "undercut_on_tie": True, "count_includes_joker": True},
        {"big_gin_bonus": 25, "knock_limit": 3, "game_target": 60},
    ],
}


def choose(state: State, rng: random.Random) -> Action:
    """A random legal action, biased so that every kind of result happens: usually gin when it is
    legal, sometimes a knock, usually one of the best discards."""
    legal = state.legal_actions()
    if legal[-1].kind in ("gin", "knock"):  # they sort after the draws and discards (by action id)
        gins = [a for a in legal if a.kind == "gin"]
        if gins and rng.random() < 0.9:
            return gins[-1] if gins[-1].card is None and rng.random() < 0.5 else rng.choice(gins)  # big gin sorts last
        knocks = [a for a in legal if a.kind == "knock"]
        if knocks and rng.random() < 0.35:
            return rng.choice(knocks)
    if legal[0].kind == "discard" and rng.random() < 0.9:  # discards sort first in the discard phase
        _, best = best_discards(state.hands[state.current_player or 0])
        good = [a for a in legal if a.kind == "discard" and a.card is not None and best >> a.card & 1]
        if good:
            return rng.choice(good)
    return rng.choice(legal)


# ------------------------------------------------------------------------------ per-step checks
def check_cards(state: State) -> None:
    """Every card (and the joker in the solitaires) is in exactly one place."""
    v = state.variant
    seen = 0
    for m in state.hands:
        assert not seen & m
        seen |= m
    places = [state.stock, state.pile] if v == "solitaire" else [state.stock, state.pile, state.out_of_play]
    for pile in places:
        for c in pile:
            bit = 1 << c
            assert not seen & bit, f"{Card(c)} is in two places"
            seen |= bit
    if v == "solitaire":
        # rule 3.3: discards go under the joker, to the bottom of the deck, and are also listed
        out = state.out_of_play
        assert state.stock[: len(out)] == out[::-1]
        assert not state.pile
    elif v == "gin-solitaire":
        assert not state.pile
    else:
        assert not state.out_of_play
    if v in SOLO:
        want = FULL | 1 << JOKER
        if not seen >> JOKER & 1:  # the joker was dealt (rule 3.2): it is in the hand, which a mask cannot hold
            assert v == "solitaire" and state.is_hand_over and JOKER in state.logs[-1].deck[:10]
            want = FULL
        assert seen == want
    elif state.logs:
        assert seen == FULL


def check_turn(state: State) -> None:
    """Hand sizes and the seat to act follow the phase; no card comes or goes."""
    if state.is_hand_over:
        assert state.current_player is None and state.legal_actions() == []
        return
    seat = state.current_player
    active = state.active_seats
    assert seat is not None and seat in active
    hands = state.hands
    if state.variant in SOLO:
        assert hands[1] == 0
        assert hands[0].bit_count() == (10 if state.phase == "opening" else 11)
        return
    holding = 11 if state.phase == "discard" else 10
    other = active[1] if active[0] == seat else active[0]
    assert hands[seat].bit_count() == holding and hands[other].bit_count() == 10
    if state.variant == "three":
        assert hands[3 - seat - other] == 0  # the sitter holds no cards
    assert len(state.stock) + len(state.pile) + 20 + (holding == 11) == 52


# ------------------------------------------------------------------------------ per-hand checks
def values(cards: Any) -> int:
    return sum(Card(c).value for c in cards)


def meld_mask(cards: Any) -> int:
    return sum(1 << c for c in cards)


def layoffs_fit(melds: list[int], laid: list[Card]) -> bool:
    """Rule 0.9.3: the laid-off cards can be shared out among the knocker's melds so that every
    extended meld is still a meld."""
    for owners in itertools.product(range(len(melds)), repeat=len(laid)):
        grown = list(melds)
        for c, i in zip(laid, owners, strict=True):
            grown[i] |= 1 << c
        if all(is_meld(m) for m in grown):
            return True
    return False


def check_table_hand(state: State, before: dict[str, Any]) -> None:
    r = state.hand_result
    assert r is not None
    o = state.options
    pts = list(r.points)
    scorers = [i for i, p in enumerate(pts) if p]
    assert len(scorers) <= 1 and all(p >= 0 for p in pts)
    if r.result == "draw":  # rule 1.9: the wall
        assert not scorers and len(state.stock) == o.wall_cards and state.logs[-1].actions[-1].kind == "discard"
        return
    k = r.knocker
    assert k is not None and k in state.active_seats
    d = next(i for i in state.active_seats if i != k)
    last = next(a for a in reversed(state.logs[-1].actions) if a.kind != "layoff")
    assert last.kind in ("knock", "gin")
    big = last.kind == "gin" and last.card is None
    gin = last.kind == "gin"
    # the spreads: the knocker's melds and deadwood are his hand; the defender's melds, layoffs and deadwood are his
    assert all(is_meld(meld_mask(m)) for m in r.knocker_melds)
    assert meld_mask(c for m in r.knocker_melds for c in m) | meld_mask(r.knocker_unmatched) == state.hands[k]
    assert state.hands[k].bit_count() == (11 if big else 10)
    assert all(is_meld(meld_mask(m)) for m in r.defender_melds)
    dparts = [meld_mask(c for m in r.defender_melds for c in m), meld_mask(r.laid_off), meld_mask(r.defender_unmatched)]
    assert dparts[0] | dparts[1] | dparts[2] == state.hands[d] and sum(x.bit_count() for x in dparts) == 10
    dk, dd = values(r.knocker_unmatched), values(r.defender_unmatched)
    assert r.deadwood[k] == dk and r.deadwood[d] == dd
    if last.melds is None:
        assert dk == min_deadwood(state.hands[k])  # rule 0.8: the automatic spread is optimal
    assert dk == 0 if gin else 0 < dk <= state.knock_limit  # rules 0.7, 1.6
    # layoffs: none against gin, none without the option, and each one fits the knocker's melds (chained)
    if gin or not o.layoffs:
        assert r.laid_off == ()
    assert layoffs_fit([meld_mask(m) for m in r.knocker_melds], list(r.laid_off))
    explicit = any(a.kind == "layoff" for a in state.logs[-1].actions)
    best = best_defense(r.knocker_melds, state.hands[d], layoffs=o.layoffs and not gin).deadwood
    assert dd == best if not explicit else dd >= best  # rule 0.9.4
    # rule 1.8 (and 1b.3)
    mult = 2 if state.variant == "oklahoma" and o.spades_double and state.upcard.suit == 3 else 1
    want = [0] * state.num_seats
    if big:
        want[k], result = dd + o.big_gin_bonus, "big-gin"
    elif gin:
        want[k], result = dd + o.gin_bonus, "gin"
    elif dk < dd:
        want[k], result = dd - dk, "knock"
    elif dk > dd or o.undercut_on_tie:
        want[d], result = dk - dd + o.undercut_bonus, "undercut"
    else:
        result = "knock"
    assert r.result == result and pts == [p * mult for p in want]
    assert r.winner == (scorers[0] if scorers else None)
    assert r.explanation


def check_solo_hand(state: State, before: dict[str, Any]) -> None:
    r = state.hand_result
    assert r is not None
    o = state.options
    scoring = getattr(o, "scoring", "knock")
    pts = list(r.points)
    assert len([p for p in pts if p]) <= 1 and all(p >= 0 for p in pts)
    hand = state.hands[0]
    if r.result == "redeal":  # rule 3.2
        assert pts == [0, 0] and JOKER in state.logs[-1].deck[:10] and o.joker_in_deal == "redeal"
        return
    d = min_deadwood(hand)
    assert r.deadwood == (d, 0)
    if r.result == "joker":  # rules 3.3, 4.3: the joker came first (or was dealt, rule 3.2)
        assert r.counted is None and pts == [0, 0 if scoring == "none" else d]
        assert hand.bit_count() == (9 if JOKER in state.logs[-1].deck[:10] else 10)
        if hand.bit_count() == 10:
            assert state.stock[-1] == JOKER
        return
    # the player ended the hand: count the cards above the joker (rule 3.8)
    above = len(state.stock) - 1 - state.stock.index(JOKER)
    assert list(r.counted_cards) == state.stock[::-1][:above]
    c = above + (1 if o.count_includes_joker else 0)
    assert r.counted == c
    last = state.logs[-1].actions[-1]
    big = last.kind == "gin" and hand.bit_count() == 11
    assert hand.bit_count() == (11 if big else 10)
    assert d == 0 if last.kind == "gin" else 0 < d <= state.knock_limit
    if scoring == "none":
        want, result = [0, 0], "gin" if not big else "big-gin"
    elif scoring == "basic":
        want, result = [c, 0], "gin" if not big else "big-gin"
        assert last.kind == "gin"  # no knocking in basic scoring
    elif big:
        want, result = [c + o.big_gin_bonus, 0], "big-gin"
    elif last.kind == "gin":
        want, result = [c + o.gin_bonus, 0], "gin"
    elif c > d:
        want, result = [c - d, 0], "knock"
    elif d > c or o.undercut_on_tie:
        want, result = [0, d - c + o.undercut_bonus], "undercut"
    else:
        want, result = [0, 0], "knock"
    assert (r.result, pts) == (result, want)


def check_hand_end(state: State, before: dict[str, Any]) -> None:
    """After a hand: its score, the totals, the game's end, dealers and roles."""
    r = state.hand_result
    assert r is not None and state.results[-1] is r
    (check_solo_hand if state.variant in SOLO else check_table_hand)(state, before)
    o = state.options
    scorer = r.winner if any(r.points) else None
    totals = list(before["totals"])
    if scorer is not None:
        totals[scorer] += r.points[scorer]
    assert state.totals == totals
    assert state.totals == [sum(x.points[i] for x in state.results) for i in range(state.num_seats)]
    assert state.hands_won == [
        sum(1 for x in state.results if any(x.points) and x.winner == i) for i in range(state.num_seats)
    ]
    v = state.variant
    if v == "hollywood":
        sheet = HollywoodSheet(o.hollywood_target)
        for x in state.results:
            if any(x.points) and x.winner is not None:
                sheet.enter(x.winner, x.points[x.winner])
        assert state.hollywood is not None and state.hollywood.to_json() == sheet.to_json()
        assert state.game_over == sheet.over
    elif v == "solitaire" and o.scoring == "none":
        assert state.game_over == (r.result != "redeal")
        if state.game_over:
            assert state.winner == (0 if r.result in ("gin", "big-gin") else 1)
    else:
        assert state.game_over == (max(state.totals) >= o.game_target)  # rules 1.10, 2.7, 3.10, 4.7
        if state.game_over:
            assert state.totals[state.winner] == max(state.totals)
            assert sorted(state.totals).count(max(state.totals)) == 1  # only one side scores a hand
    if state.game_over:
        assert state.phase == "over" and not state.needs_deal and state.is_terminal
        if v in ("classic", "oklahoma") or (v == "three" and o.end_bonuses):
            kw = {"game_bonus": o.game_bonus, "box_bonus": o.box_bonus, "shutout": o.shutout}
            assert state.final_totals() == game_final(state.totals, state.hands_won, **kw)
        elif v != "hollywood":
            assert state.final_totals() == state.totals
    else:
        assert state.needs_deal and state.winner is None
    if v == "three":  # rule 2.6
        outcome = "void" if scorer is None else "box" if scorer == before["roles"][0] else "team"
        assert state.roles == three_rotation(before["roles"], outcome)
    elif v in ("classic", "oklahoma", "hollywood"):  # rule 1.2
        nd = o.next_dealer
        if scorer is None:
            want = before["dealer"]
        else:
            want = scorer if nd == "winner" else 1 - scorer if nd == "loser" else 1 - before["dealer"]
        assert state.dealer == want


# ------------------------------------------------------------------------------ sampled checks
def snapshot(state: State, full: bool = True) -> tuple[Any, ...]:
    """What an action may change.  ``full``: every public attribute of the engine (the hand logs,
    from which the record is written, included), every seat's observation, the legal actions and
    the layoff options; else (cheaper, for the lone illegal-action probes) the engine's card and
    turn fields, the hand's actions and the acting seat's view."""
    seat = state.current_player or 0
    if full:
        fields = {}
        for name, x in vars(state).items():
            if name.startswith("_"):
                continue  # caches and undo bookkeeping: seen through the observations, legal actions and layoffs
            if name == "logs":
                x = [(lg.deck[:], lg.seed, lg.actions[:], lg.seats[:], lg.commitment) for lg in x]
            elif name == "hollywood":
                x = copy.deepcopy(x)
            elif isinstance(x, list):
                x = x[:]  # of ints, cards, strings or frozen results
            fields[name] = x
        obs = [state.observation(s) for s in range(state.num_seats)]
        return (fields, obs, state.legal_actions(), state.layoff_options())
    return (
        list(state.hands),
        list(state.stock),
        list(state.pile),
        list(state.out_of_play),
        (state.phase, state.current, state.taken, state.passes, state.dealer, state.roles),
        (list(state.totals), list(state.hands_won), state.game_over, state.winner, len(state.results)),
        [str(a) for a in state.logs[-1].actions] if state.logs else None,
        len(state.logs),
        state.observation(seat),
    )


def random_illegal(state: State, rng: random.Random) -> Action:
    legal = set(state.legal_actions())
    while True:
        a = Action.from_id(rng.randrange(NUM_ACTIONS))
        if a not in legal and a.kind != "layoff":
            return a
        if a.kind == "layoff" and a.card not in state.layoff_options():
            return a


def check_illegal(state: State, rng: random.Random, before: tuple[Any, ...] | None = None) -> None:
    """Illegal actions (by object, by id, unparsable) and an untimely deal raise and change
    nothing.  ``before``: the state's full snapshot; without it, the cheap one is compared."""
    full = before is not None
    if before is None:
        before = snapshot(state, full=False)
    for _ in range(3):
        a = random_illegal(state, rng)
        with pytest.raises(IllegalAction):
            state.apply(a)
        with pytest.raises(IllegalAction):
            state.apply(a.id)
    with pytest.raises(IllegalAction):
        state.apply("discard JK")
    if not state.needs_deal:
        with pytest.raises(IllegalAction):
            state.deal(seed=1)
    assert snapshot(state, full) == before, "an illegal action changed the state"


def check_clone(state: State, action: Action, before: tuple[Any, ...]) -> State:
    """Apply ``action`` to a clone: the original (whose full snapshot is ``before``) must not
    change.  Returns the clone, which the caller compares with the original once that has applied
    ``action`` too."""
    twin = state.clone()
    twin.apply(action)
    assert snapshot(state) == before, "applying an action to a clone changed the original"
    if twin.logs:
        assert twin.logs[-1].actions is not state.logs[-1].actions
    return twin


def check_undo(state: State, action: Action, before: tuple[Any, ...]) -> None:
    """Apply ``action`` and undo it: the state is back to ``before`` (its full snapshot)."""
    state.apply(action)
    state.undo()
    assert snapshot(state) == before, f"undo did not take back {action}"


def check_undo_deal(state: State) -> None:
    record = state.to_record()
    state.undo()
    assert len(state.to_record()["hands"]) == len(record["hands"]) - 1 and state.needs_deal
    hand = record["hands"][-1]
    if "seed" in hand:
        state.deal(seed=hand["seed"])
    else:
        state.deal(hand["deck"])
    assert state.to_record() == record


# ------------------------------------------------------------------------------ the driver
# Sampling.  Playing a step costs about 20 microseconds; the card-place audit adds a third of that,
# a lone illegal-action probe fifteen times as much, and the full probes (illegal actions, clone,
# undo, each compared on full snapshots: every engine field, every seat's observation) a hundred
# times as much.  So they run on a deterministic sample: every step of the first hands of each
# part, then of a seeded fraction of the rest, drawn from a generator of their own so that the
# sampling does not change which games are played.  A bug that shows in some kind of step shows
# again and again over 10,000 hands, so the sample meets it; and every hand still gets the cheap
# per-step checks and the end-of-hand checks.
AUDIT_FIRST, AUDIT_RATE = 100, 0.05  # hands whose every step gets the card-place audit
PROBE_FIRST, PROBE_RATE = 2, 0.0015  # hands whose every step gets the probes (illegal, clone, undo)
UNDO_RATE = 0.05  # steps of a probed hand that also get undone (its last step always is)
ILLEGAL_RATE = 0.005  # steps of the other hands that get the illegal-action probe alone
PARTS = 2  # each run is split in this many parts, with seeds of their own, played in parallel


def random_games(variant: str, hands: int, seed: str) -> Iterator[dict[str, int]]:
    """Play ``hands`` hands of random games, checking them as the module's docstring says; yields
    per-game result counts."""
    rng = random.Random(seed)  # the games
    sample = random.Random(f"{seed} checks")  # the checks: which hands and steps, which illegal actions
    played = 0
    while played < hands:
        state = State.new(variant, rng.choice(OPTION_SETS[variant]))
        counts: dict[str, int] = {}
        while not state.is_terminal and played < hands:
            assert state.needs_deal
            before = {"totals": list(state.totals), "dealer": state.dealer, "roles": state.roles}
            probe = played < PROBE_FIRST or sample.random() < PROBE_RATE
            audit = probe or played < AUDIT_FIRST or sample.random() < AUDIT_RATE
            if probe:
                check_illegal(state, sample, snapshot(state))
            state.deal(seed=rng.getrandbits(64))
            played += 1
            if probe:
                check_undo_deal(state)
                start = state.clone()
                now = snapshot(state)
            while not state.is_hand_over:
                if audit:
                    check_cards(state)
                check_turn(state)
                action = choose(state, rng)
                if probe:
                    check_illegal(state, sample, now)
                    twin = check_clone(state, action, now)
                    if twin.is_hand_over or sample.random() < UNDO_RATE:
                        check_undo(state, action, now)
                    state.apply(action)
                    now = snapshot(state)
                    assert now == snapshot(twin), f"{action} did not do the same to a clone"
                else:
                    if sample.random() < ILLEGAL_RATE:
                        check_illegal(state, sample)
                    state.apply(action)
            check_cards(state)
            check_turn(state)
            result = state.hand_result
            assert result is not None
            if result.result in ("knock", "undercut"):
                maybe_lay_off(state, rng, probe)
            if probe:
                for a in state.logs[-1].actions[len(start.logs[-1].actions) :]:
                    start.apply(a)  # the hand replayed by another copy, from its deal: the same record
                assert start.to_record() == state.to_record()
            check_hand_end(state, before)
            counts[result.result] = counts.get(result.result, 0) + 1
        yield counts


def maybe_lay_off(state: State, rng: random.Random, probe: bool = False) -> None:
    """Sometimes the defender lays off explicitly (RECORD.md ``layoff``), one card or several;
    ``probe``: each layoff is also applied to a clone and undone first."""
    if rng.random() < 0.3:
        for _ in range(rng.randrange(1, 4)):
            options = state.layoff_options()
            if not options:
                break
            action = Action("layoff", rng.choice(options))
            if probe:
                now = snapshot(state)
                twin = check_clone(state, action, now)
                check_undo(state, action, now)
                state.apply(action)
                assert snapshot(state) == snapshot(twin)
            else:
                state.apply(action)


def play(variant: str, hands: int, seed: str) -> dict[str, int]:
    """One part of a run: ``hands`` hands from ``seed``; the result counts."""
    total: dict[str, int] = {}
    try:
        for counts in random_games(variant, hands, seed):
            for k, n in counts.items():
                total[k] = total.get(k, 0) + n
    except BaseException as e:
        e.add_note(f"random play of {variant}: the part with seed {seed!r}")
        raise
    assert sum(total.values()) == hands
    return total


def run(variant: str, hands: int, seed: int) -> dict[str, int]:
    """``hands`` hands of ``variant`` in ``PARTS`` parts of their own seeds: in parallel where the
    machine has the cores and ``fork`` (the parts inherit this module, assertion rewriting
    included), else one after the other.  The same games either way."""
    shares = [(variant, hands // PARTS + (i < hands % PARTS), f"{variant} {seed} {i}") for i in range(PARTS)]
    workers = min(PARTS, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(workers) as pool:  # the first failure ends them all
            parts = pool.starmap(play, shares)
    else:
        parts = [play(*share) for share in shares]
    total: dict[str, int] = {}
    for counts in parts:
        for k, n in counts.items():
            total[k] = total.get(k, 0) + n
    assert sum(total.values()) == hands
    return total


EXPECTED_RESULTS = {
    "classic": {"gin", "knock", "undercut", "draw"},
    "oklahoma": {"gin", "knock", "undercut", "draw"},
    "hollywood": {"gin", "knock", "undercut", "draw"},
    "three": {"gin", "knock", "undercut", "draw"},
    "solitaire": {"gin", "knock", "undercut", "joker", "redeal"},
    "gin-solitaire": {"gin", "knock", "undercut", "joker", "big-gin"},
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_play(variant: str) -> None:
    results = run(variant, QUICK_HANDS, seed=VARIANTS.index(variant))
    assert EXPECTED_RESULTS[variant] <= set(results), results


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_play_10000_hands(variant: str) -> None:
    results = run(variant, HANDS, seed=100 + VARIANTS.index(variant))
    assert EXPECTED_RESULTS[variant] <= set(results), results


# ------------------------------------------------------------------------------ targeted tests
def test_doctests() -> None:
    for module in (ginrummy.engine, ginrummy.record, ginrummy.actions, ginrummy.scoring):
        assert doctest.testmod(module).failed == 0


def test_new_game_errors() -> None:
    with pytest.raises(OptionError, match="unknown variant"):
        State.new("poker")
    with pytest.raises(OptionError, match="3 seats"):
        State.new("three", players=["a", "b"])
    with pytest.raises(OptionError, match="unknown option"):
        State.new("classic", {"jokers": 2})
    for v in VARIANTS:
        s = State.new(v)
        assert s.num_seats == SEATS[v] and s.needs_deal and s.current_player is None and s.legal_actions() == []
        with pytest.raises(IllegalAction):
            s.apply("draw")
        with pytest.raises(IllegalAction, match="nothing to undo"):
            s.undo()
        with pytest.raises(IllegalAction):
            s.deal(["As"], seed=3)
        with pytest.raises(IllegalAction):
            s.observation(SEATS[v])


def test_action_ids_round_trip_and_legal_order() -> None:
    for i in range(NUM_ACTIONS):
        a = Action.from_id(i)
        assert a.id == i and Action.parse(str(a)) == a
    s = State.new("classic")
    s.deal(seed=11)
    s.apply(1)  # take the upcard by id
    legal = s.legal_actions()
    assert [a.id for a in legal] == sorted(a.id for a in legal)
    taken = s.taken
    assert taken is not None and Action("discard", taken) not in legal  # rule 1.5
    other = next(a for a in legal if a.kind == "discard")
    s.apply(str(other))
    assert s.current_player == s.hand_dealer and s.phase == "draw"


def test_same_seed_same_game_and_apply_forms_agree() -> None:
    for v in VARIANTS:
        a, b, c = State.new(v), State.new(v), State.new(v)
        rng = random.Random(3)
        for st in (a, b, c):
            st.deal(seed=2024)
        while not a.is_hand_over:
            act = choose(a, rng)
            a.apply(act)
            b.apply(str(act))
            c.apply(act.id)
        assert a.to_record() == b.to_record() == c.to_record()
        assert [a.observation(i) for i in range(a.num_seats)] == [c.observation(i) for i in range(c.num_seats)]


def test_declared_arrangement_errors_leave_the_state_alone() -> None:
    # seat 1 (the non-dealer) holds 2c3c4c KhKdKs 9sTsJs Ah and draws 5d
    nd = ["2c", "3c", "4c", "Kh", "Kd", "Ks", "9s", "Ts", "Js", "Ah"]
    dl = ["Ad", "3d", "6d", "8d", "Qd", "2h", "4h", "6h", "8h", "Th"]
    deck = [c for pair in zip(nd, dl, strict=True) for c in pair] + ["5s", "5d"]
    rest = [str(c) for c in CardSet((1 << 52) - 1) if str(c) not in deck]
    s = State.new("classic")
    s.deal(deck + rest)
    for a in ("pass", "pass", "draw"):
        s.apply(a)
    before = snapshot(s)
    for bad, why in (
        ("knock 5d | 2c3c4c KhKdKs 9sTs", "not a meld"),
        ("knock 5d | 2c3c4c KhKdKs 8s9sTs", "not in the hand"),
        ("knock 5d | 2c3c4c 2c3c4c", "shares a card"),
        ("knock 5d | 2c3c4c", "knocking needs"),
        ("gin 5d | 2c3c4c KhKdKs 9sTsJs", "not legal"),
        ("knock | 2c3c4c KhKdKs 9sTsJs", "not legal"),
    ):
        with pytest.raises(IllegalAction, match=why):
            s.apply(bad)
        assert snapshot(s) == before
    s.apply("knock 5d | 9sTsJs KhKdKs 2c3c4c")
    r = s.hand_result
    assert r is not None and r.deadwood[1] == 1 and [str(c) for c in r.knocker_unmatched] == ["Ah"]
    assert s.to_record()["hands"][0]["actions"][-1] == "knock 5d | 9sTsJs KdKhKs 2c3c4c"  # as declared, in that order


def test_layoff_actions() -> None:
    # S-18 as a game: the non-dealer knocks with 4s5s6s; the dealer lays off 3s, 7s, 8s one by one
    nd = ["4s", "5s", "6s", "Jd", "Jc", "Jh", "Ac", "2c", "3c", "2d"]
    dl = ["3s", "7s", "8s", "Kc", "Kd", "Kh", "9d", "2h", "5h", "9c"]
    deck = [c for pair in zip(nd, dl, strict=True) for c in pair] + ["Qs", "Qh"]
    rest = [str(c) for c in CardSet((1 << 52) - 1) if str(c) not in deck]
    s = State.new("classic")
    s.deal(deck + rest)
    for a in ("pass", "pass", "draw", "knock Qh"):
        s.apply(a)
    assert s.hand_result is not None and s.hand_result.points == (0, 23)
    assert sorted(map(str, s.layoff_options())) == ["3s", "7s"]
    with pytest.raises(IllegalAction, match="cards that can be laid off"):
        s.apply("layoff 8s")  # not yet: it needs the 7s first
    s.apply("layoff 7s")
    assert sorted(map(str, s.layoff_options())) == ["3s", "8s"]
    assert s.hand_result.points == (0, 34)  # 3s and 8s stay deadwood: 3 + 8 + 9 + 2 + 5 + 9 = 36, less 2
    s.apply("layoff 8s")
    s.apply("layoff 3s")
    assert s.hand_result.points == (0, 23) and s.layoff_options() == []
    with pytest.raises(IllegalAction, match="no layoff is possible now"):
        s.apply("layoff 9d")
    s.undo()
    assert [str(c) for c in s.hand_result.laid_off] == ["7s", "8s"]


def test_three_seats_in_play_until_the_next_deal() -> None:
    """Regression: once a three-player hand was over, ``active_seats`` (and so the observations)
    already followed the next hand's roles, and the box who had just lost saw an empty hand."""
    s = State.new("three")
    s.deal(seed=4)
    rng = random.Random(0)
    while not s.is_hand_over or not s.results or s.results[-1].winner not in (1,):
        if s.is_hand_over:
            s.deal(seed=rng.getrandbits(64))
            assert s.active_seats == (s.roles[0], s.roles[1])
        else:
            s.apply(choose(s, rng))
    assert s.roles == (1, 2, 0) and s.active_seats == (0, 1)  # the team won: P2 boxes next time
    box = s.observation(0)
    assert box["hand"] == [str(c) for c in s.hand(0)] and len(box["hand"]) == 10
    assert s.observation(2)["hand"] == [] and "captain_hand" in s.observation(2)
    s.deal(seed=9)
    assert s.active_seats == (1, 2) and s.observation(0)["hand"] == []


def test_docs_option_tables_match_the_code() -> None:
    """docs/rules.md section 5 lists every option of every variant as ``option_help`` gives it."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    for variant in VARIANTS:
        table = text.split(f"#### `{variant}`\n", 1)[1].lstrip("\n").split("\n\n", 1)[0]
        rows = [[cell.strip().strip("`") for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
        want = []
        for name, default, doc, allowed in option_help(variant):
            shown = json.dumps(default).strip('"')
            values = ", ".join(json.dumps(a).strip('"') for a in allowed) if allowed else "integer"
            want.append([name, shown, values, doc])
        assert [[r[0], r[1], "integer" if r[2].startswith("integer") else r[2], r[3]] for r in rows] == want


def test_spades_double_boxes() -> None:
    """Rule 1b.3: a hand won on a spade upcard counts two boxes with ``spades_double_boxes``, one
    without; the same game played both ways differs by exactly that many box bonuses."""
    doubled_wins = 0
    for game in range(6):
        rng = random.Random(game)
        plain = State.new("oklahoma", {"game_target": 60})
        boxed = State.new("oklahoma", {"game_target": 60, "spades_double_boxes": True})
        for hand in itertools.count():
            if plain.is_terminal:
                break
            for st in (plain, boxed):
                st.deal(seed=game * 1000 + hand)
            while not plain.is_hand_over:
                act = choose(plain, rng)
                plain.apply(act)
                boxed.apply(act.id)
        assert boxed.is_terminal and plain.totals == boxed.totals
        assert plain.boxes() == plain.hands_won
        extra = [0, 0]
        for r in boxed.results:
            assert r.doubled == (r.result not in ("draw", "redeal") and r.explanation[-1].startswith("Spades double"))
            if r.doubled and any(r.points):
                assert r.winner is not None and r.to_json()["doubled"] is True
                extra[r.winner] += 1
        doubled_wins += sum(extra)
        assert boxed.boxes() == [w + e for w, e in zip(boxed.hands_won, extra, strict=True)]
        assert boxed.observation(0)["boxes"] == boxed.boxes() and "boxes" not in plain.observation(0)
        n = boxed.boxes()[1]
        assert f"({n} box{'es' if n != 1 else ''})" in plain_text("\n".join(score_lines(boxed.observation(1))))
        bonus = boxed.options.box_bonus  # type: ignore[union-attr]
        # The shutout doubles the game bonus, not the boxes: the difference is the extra boxes alone.
        assert [b - p for b, p in zip(boxed.final_totals(), plain.final_totals(), strict=True)] == [
            bonus * e for e in extra
        ]
    assert doubled_wins > 0  # the seeds above do play spade hands
    with pytest.raises(OptionError, match="spades_double_boxes"):
        State.new("classic", {"spades_double_boxes": True})
