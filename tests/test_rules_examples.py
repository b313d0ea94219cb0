"""Every worked example of the rule book (section 8, ``rules_examples.json``) as a test.

Hands are played through the engine: each example builds an explicit deck whose order produces
the hand, the draws and the joker's place (the count C), writes a game record, replays it with
:func:`ginrummy.record.replay` and checks the hand result, the summary, the totals and, where the
example says so, the roles, the end of the game and the winner.  Examples that need a game
already at some score play the earlier hands for real.  Pure arithmetic examples also test the
functions of :mod:`ginrummy.scoring`.

Conventions (RECORD.md): table games deal one card at a time, non-dealer first; seat 0 deals the
first hand of classic, oklahoma and hollywood; in ``three`` seat 0 is the box (dealer), seat 1 the
captain, seat 2 the sitter.  In the solitaires seat 0 is the player and seat 1 the Joker.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import pseudo_audit
from ginrummy.actions import Action
from ginrummy.cards import JOKER, Card, full_pack, parse_cards
from ginrummy.engine import RECORD_FORMAT, State
from ginrummy.errors import IllegalAction, RecordError
from ginrummy.melds import best_discards, deadwood_after_discards, min_deadwood
from ginrummy.options import options_for
from ginrummy.record import replay, summary
from ginrummy.scoring import (
    HollywoodSheet,
    cut_for_roles,
    game_final,
    oklahoma_knock_limit,
    solitaire_points,
    table_hand_points,
    three_rotation,
)

EXAMPLES_FILE = Path(__file__).resolve().parent / "data" / "rules_examples.json"
DATA: dict[str, list[dict[str, Any]]] = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
EXAMPLES: dict[str, dict[str, Any]] = {e["id"]: e for section in DATA.values() for e in section}

CHECKS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {}


def check(*ids: str) -> Callable[[Callable[[dict[str, Any], dict[str, Any]], None]], Any]:
    """Register the test of one or more example ids; it is called with (inputs, expected)."""

    def register(fn: Callable[[dict[str, Any], dict[str, Any]], None]) -> Any:
        for i in ids:
            assert i not in CHECKS, f"two tests for {i}"
            CHECKS[i] = fn
        return fn

    return register


# ---------------------------------------------------------------------------------- card helpers
def cards(text: str | Iterable[str]) -> list[str]:
    """Card strings in record notation (``10h`` -> ``Th``)."""
    return [str(c) for c in parse_cards(text if isinstance(text, str) else list(text), allow_joker=True)]


def value(card: str) -> int:
    return Card.parse(card).value


def extensions(meld: Sequence[str]) -> set[str]:
    """Cards that would extend a meld by one (an independent statement of rule 0.9.2-0.9.3)."""
    ms = [Card.parse(c) for c in meld]
    if len({c.rank for c in ms}) == 1:  # a set
        return {str(Card.from_rank_suit(ms[0].rank, s)) for s in range(4)} - set(meld) if len(ms) == 3 else set()
    ranks = sorted(c.rank for c in ms)
    suit = ms[0].suit
    return {str(Card.from_rank_suit(r, suit)) for r in (ranks[0] - 1, ranks[-1] + 1) if 1 <= r <= 13}


def no_run(cards_: Iterable[Card]) -> bool:
    """No three consecutive ranks of one suit among ``cards_``."""
    by_suit: dict[int, set[int]] = {}
    for c in cards_:
        by_suit.setdefault(int(c.suit), set()).add(c.rank)
    return not any(r in rs and r + 1 in rs and r + 2 in rs for rs in by_suit.values() for r in range(1, 12))


def meldless(total: int, exclude: Iterable[str], n: int = 10, fixed: Sequence[str] = ()) -> list[str] | None:
    """``n`` cards, none in ``exclude``, worth ``total`` points, that form no meld, not even with the
    ``fixed`` cards (whole sets): no rank of a fixed set, no other rank three times, no three
    consecutive ranks of one suit.  This is checked here, independently of the engine."""
    banned = set(exclude) | set(fixed)
    fixed_cards = [Card.parse(c) for c in fixed]
    fixed_ranks = {c.rank for c in fixed_cards}
    pool = [c for c in full_pack() if str(c) not in banned and c.rank not in fixed_ranks]
    pool.sort(key=lambda c: (-c.value, int(c)))
    values = [c.value for c in pool]
    chosen: list[Card] = []

    def fits(c: Card) -> bool:
        return sum(1 for x in chosen if x.rank == c.rank) < 2 and no_run([*fixed_cards, *chosen, c])

    def walk(start: int, left: int) -> bool:
        k = n - len(chosen)
        if k == 0:
            return left == 0
        if left < k or left > 10 * k:
            return False
        for i in range(start, len(pool)):
            if sum(values[i : i + k]) < left:  # values only fall from here on
                return False
            if fits(pool[i]):
                chosen.append(pool[i])
                if walk(i + 1, left - values[i]):
                    return True
                chosen.pop()
        return False

    return [str(c) for c in chosen] if walk(0, total) else None


def dead_hand(total: int, exclude: Iterable[str]) -> list[str]:
    """Ten cards none in ``exclude`` whose deadwood is exactly ``total``: whole sets (3, 2, 1 or
    none of them, never a run) plus cards that meld with nothing."""
    banned = set(exclude)
    sets = [
        [str(Card.from_rank_suit(r, s)) for s in suits]
        for r in (12, 11, 10, 9, 6, 5, 7, 8, 4, 3, 2, 1, 13)
        for suits in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))
    ]
    sets = [s for s in sets if not banned & set(s)]
    for n_sets in (3, 2, 1, 0):
        if not (10 - 3 * n_sets) <= total <= 10 * (10 - 3 * n_sets):
            continue
        for combo in itertools.combinations(sets, n_sets):
            fixed = [c for s in combo for c in s]
            ranks = {Card.parse(s[0]).rank for s in combo}
            if len(ranks) < n_sets or not no_run(Card.parse(c) for c in fixed):
                continue
            rest = meldless(total, banned, 10 - 3 * n_sets, fixed)
            if rest is not None:
                return fixed + rest
    raise AssertionError(f"no hand with deadwood {total}")


def rest_of_pack(used: Iterable[str], *, joker: bool = False) -> list[str]:
    taken = set(used)
    return [str(c) for c in full_pack(joker=joker) if str(c) not in taken]


def mask(text: str | Iterable[str]) -> int:
    return sum(1 << c for c in parse_cards(text if isinstance(text, str) else list(text)))


def record(variant: str, hands: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"format": RECORD_FORMAT, "variant": variant, "options": dict(options or {}), "hands": hands}


def play(variant: str, hands: list[dict[str, Any]], options: dict[str, Any] | None = None) -> State:
    """Replay a record, and check that the state writes the same record back."""
    state = replay(record(variant, hands, options))
    again = state.to_record()
    assert [list(map(Action.parse, h["actions"])) for h in again["hands"]] == [
        list(map(Action.parse, h["actions"])) for h in hands
    ]
    assert [h["deck"] for h in again["hands"]] == [cards(h["deck"]) for h in hands]
    assert state.options == options_for(variant, options)
    return state


def last(state: State) -> dict[str, Any]:
    """The summary entry of the last hand, checked against the engine's hand result."""
    s = summary(state)
    h = s["hands"][-1]
    r = state.results[-1]
    assert h["points"] == list(r.points) and h["deadwood"] == list(r.deadwood) and h["result"] == r.result
    assert s["totals"] == state.totals and s["complete"] is state.is_hand_over
    return h


def knock_legal(state: State, card: str) -> bool:
    """Whether ``knock card`` is legal; when it is not, applying it raises and changes nothing."""
    ok = Action.parse(f"knock {card}") in state.legal_actions()
    if not ok:
        before = state.to_record()
        with pytest.raises(IllegalAction):
            state.apply(f"knock {card}")
        assert state.to_record() == before
    return ok


@contextlib.contextmanager
def refused(kind: type[Exception], pattern: str) -> Iterator[None]:
    """Like ``pytest.raises(kind, match=pattern)``, matching the message as an English run shows it
    (the pseudo-locale's markers taken out: ``pseudo_audit.plain``)."""
    with pytest.raises(kind) as caught:
        yield
    assert re.search(pattern, pseudo_audit.plain(str(caught.value))), str(caught.value)


def where(hand: int, action: int) -> str:
    """The start of a RecordError message about an action (RECORD.md: field, hand, action)."""
    return rf"hands\[{hand}\] \(hand {hand + 1}\)\.actions\[{action}\] \(action {action + 1}, "


# ---------------------------------------------------------------------- solitaire hands (A and B)
def solo_hand(
    variant: str,
    hand10: str | list[str],
    end: str,
    *,
    counted: int = 0,
    before: int = 0,
    counted_cards: Sequence[str] = (),
    drawn: str | None = None,
) -> dict[str, Any]:
    """One solitaire hand (a record entry) that keeps ``hand10`` and ends by ``end``.

    ``end`` is ``gin``/``knock`` (discarding the card just drawn), ``joker`` (the joker is drawn),
    ``big-gin`` (``hand10`` then has eleven cards: the last is drawn and nothing is discarded), or
    ``none`` (the record stops holding eleven cards: a saved game).  ``before`` draws are thrown
    away first; ``counted`` cards (or ``counted_cards``) lie between the last draw and the joker.
    In gin-solitaire one more dealt card is the opening discard.
    """
    hand = cards(hand10)
    if end == "big-gin":
        hand, drawn = hand[:10], hand[10]
    spare = iter(rest_of_pack([*hand, *counted_cards, *([drawn] if drawn else [])]))
    top = list(hand)
    actions: list[str] = []
    if variant == "gin-solitaire":
        opening = next(spare)
        top.append(opening)
        actions.append(f"discard {opening}")
    pile = [next(spare) for _ in range(before)]
    actions += [f"discard {c}" for c in pile]
    if end != "joker":
        final = drawn or next(spare)
        pile.append(final)
        if end in ("gin", "knock"):
            actions.append(f"{end} {final}")
        elif end == "big-gin":
            actions.append("gin")
    between = list(counted_cards) if counted_cards else [next(spare) for _ in range(counted)]
    deck = [*top, *pile, *between, "JK", *spare]
    assert sorted(cards(deck)) == sorted(rest_of_pack([], joker=True))
    return {"deck": deck, "actions": actions}


def solo(variant: str, hand10: str | list[str], end: str, options: dict[str, Any] | None = None, **kw: Any) -> State:
    return play(variant, [solo_hand(variant, hand10, end, **kw)], options)


def after_draw(variant: str, hand10: str | list[str], options: dict[str, Any] | None = None) -> tuple[State, str]:
    """The state holding ``hand10`` plus one drawn card, before the decision, and that card."""
    h = solo_hand(variant, hand10, "none")
    state = play(variant, [h], options)
    assert state.phase == "discard" and len(state.hand(0)) == 11 and not state.is_hand_over
    return state, h["deck"][11 if variant == "gin-solitaire" else 10]


def points_deadwood(state: State, expected: dict[str, Any]) -> None:
    """Check the ``player``, ``joker`` and ``deadwood`` keys of a solitaire example."""
    h = last(state)
    if "player" in expected:
        assert h["points"][0] == expected["player"]
    if "joker" in expected:
        assert h["points"][1] == expected["joker"]
    if "deadwood" in expected:
        assert h["deadwood"][0] == expected["deadwood"]


def solo_game_to(variant: str, player: int, joker: int) -> list[dict[str, Any]]:
    """Earlier hands that bring a solitaire game to ``player`` v. ``joker`` (each below 100): the
    joker drawn against hands with that deadwood, then one or two gins with the right counts."""
    hands = []
    while joker:
        d = min(joker, 70)
        hands.append(solo_hand(variant, dead_hand(d, []), "joker"))
        joker -= d
    counts = [] if not player else [player - 25] if player <= 65 else [player - 50, 0]
    hands += [solo_hand(variant, GIN10, "gin", counted=c) for c in counts]
    return hands


# ------------------------------------------------------------------------- table hands (S and C)
def table_deck(
    nondealer: list[str], dealer: list[str], upcard: str | None = None, stock: Sequence[str] = ()
) -> list[str]:
    """RECORD.md: ten each, one at a time, non-dealer first; then the upcard; then the stock."""
    assert len(nondealer) == len(dealer) == 10
    dealt = [c for pair in zip(nondealer, dealer, strict=True) for c in pair]
    spare = iter(rest_of_pack([*dealt, *([upcard] if upcard else []), *stock]))
    deck = [*dealt, upcard or next(spare), *stock, *spare]
    assert sorted(cards(deck)) == sorted(rest_of_pack([]))
    return deck


def showdown_hand(
    knocker_is_dealer: bool,
    knocker10: list[str],
    defender10: list[str],
    action: str,
    *,
    upcard: str | None = None,
) -> dict[str, Any]:
    """A table hand where both refuse the upcard and the knocker ends on the first turn, throwing
    the card just drawn: ``action`` is ``knock``, ``gin``, ``knock | melds`` or ``big-gin`` (then
    ``knocker10`` has eleven cards and the last one is drawn).  A dealer knocker waits for the
    non-dealer to draw a card and throw it away."""
    k, drawn = list(knocker10), None
    if action == "big-gin":
        k, drawn = k[:10], k[10]
    spare = iter(rest_of_pack([*k, *defender10, *([upcard] if upcard else []), *([drawn] if drawn else [])]))
    up = upcard or next(spare)
    actions = ["pass", "pass", "draw"]
    if knocker_is_dealer:
        first = next(spare)
        stock = [first]
        actions += [f"discard {first}", "draw"]
    else:
        stock = []
    draw = drawn or next(spare)
    stock.append(draw)
    deck = table_deck(defender10, k, up, stock) if knocker_is_dealer else table_deck(k, defender10, up, stock)
    kind, bar, melds = action.partition("|")
    if kind.strip() == "big-gin":
        actions.append("gin")
    else:
        actions.append(f"{kind.strip()} {draw}" + (f" | {melds.strip()}" if bar else ""))
    return {"deck": deck, "actions": actions}


def wall_hand(
    nondealer10: list[str] | None = None, dealer10: list[str] | None = None, knock: bool = False
) -> dict[str, Any]:
    """Both refuse the upcard, then each draws from the stock and throws the card away until a
    discard leaves two stock cards: 29 draws and the hand is void (rule 1.9, S-22).  With
    ``knock`` the non-dealer knocks instead of the last discard."""
    deck = table_deck(
        nondealer10 or cards("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d"), dealer10 or cards("Ah 3h 5h 7h 9h Jh Kh 2s 4s 6s")
    )
    stock = deck[21:]
    actions = ["pass", "pass"]
    for c in stock[:29]:
        actions += ["draw", f"discard {c}"]
    if knock:
        actions[-1] = f"knock {stock[28]}"
    return {"deck": deck, "actions": actions}


# A knocker's nine melded cards; a tenth card of value v gives deadwood v (rule 0.6).
KNOCK_MELDS = [cards("2c 3c 4c"), cards("Kh Kd Ks"), cards("9s Ts Js")]
KNOCK9 = [c for m in KNOCK_MELDS for c in m]
KNOCK_LAYOFFS = set().union(*(extensions(m) for m in KNOCK_MELDS))  # Ac 5c Kc 8s Qs
KNOCK_DEAD = {1: "Ah", 3: "3h", 4: "4h", 5: "5h", 6: "6h", 7: "7h", 8: "8h"}
KNOCK1 = [*KNOCK9, "Ah"]
TABLE_GIN = cards("2c 3c 4c Kh Kd Ks 8s 9s Ts Js")
GIN10 = "2c 3c 4c 7h 7d 7s 9s Ts Js Qs"  # the gin of A-01


class TableGame:
    """A table game written hand by hand: each new hand is built for the dealer (or roles) that the
    record so far gives, then the whole record is replayed."""

    def __init__(self, variant: str, options: dict[str, Any] | None = None) -> None:
        self.variant = variant
        self.options = dict(options or {})
        self.hands: list[dict[str, Any]] = []
        self.state = play(variant, [], self.options)

    def seats(self) -> tuple[int, int]:
        """(dealer, non-dealer) of the next hand."""
        if self.variant == "three":
            return self.state.roles[0], self.state.roles[1]
        return self.state.dealer, 1 - self.state.dealer

    def add(self, hand: dict[str, Any]) -> State:
        assert self.state.needs_deal
        self.hands.append(hand)
        self.state = play(self.variant, self.hands, self.options)
        return self.state

    def win(self, seat: int, points: int) -> State:
        """``seat`` wins ``points``: a knock with deadwood 1 against a hand worth ``points + 1``
        with nothing to lay off, or, for 55 points and more, gin against ``points - 25``."""
        dealer, nondealer = self.seats()
        assert seat in (dealer, nondealer)
        before = list(self.state.totals)
        if points >= 55:
            hand = showdown_hand(seat == dealer, TABLE_GIN, dead_hand(points - 25, TABLE_GIN), "gin")
        else:
            hand = showdown_hand(seat == dealer, KNOCK1, dead_hand(points + 1, [*KNOCK1, *KNOCK_LAYOFFS]), "knock")
        state = self.add(hand)
        assert state.results[-1].winner == seat and state.totals[seat] == before[seat] + points
        return state

    def void(self) -> State:
        state = self.add(wall_hand())
        assert state.results[-1].result == "draw"
        return state


# ================================================================================ variant A
@check("A-01", "A-02", "A-03", "A-04", "A-04b", "A-05", "A-09")
def _solitaire_end(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {k: i[k] for k in ("undercut_on_tie",) if k in i}
    state = solo("solitaire", i["hand10"], i["event"], opts, counted=i["C"])
    r = state.hand_result
    assert r is not None and r.knocker == 0 and r.counted == i["C"] == len(r.counted_cards) == last(state)["counted"]
    assert r.result == i["event"] or (r.result == "undercut" and i["event"] == "knock")
    points_deadwood(state, e)
    assert state.totals == [e["player"], e["joker"]]
    if "knock_legal" in e:
        assert knock_legal(*after_draw("solitaire", i["hand10"])) is e["knock_legal"]
    o = options_for("solitaire", opts)
    assert solitaire_points(
        i["event"],
        counted=i["C"],
        deadwood=min_deadwood(mask(i["hand10"])),
        gin_bonus=o.gin_bonus,
        big_gin_bonus=o.big_gin_bonus,
        undercut_bonus=o.undercut_bonus,
        undercut_on_tie=o.undercut_on_tie,
    )[1:] == (e["player"], e["joker"])


@check("A-06", "A-07", "A-15", "A-22")
def _solitaire_joker(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {"scoring": i["scoring"]} if "scoring" in i else {}
    state = solo("solitaire", i["hand10"], "joker", opts)
    r = state.hand_result
    assert r is not None and r.result == "joker" and r.counted is None and r.winner == 1
    assert state.hand(0) == mask(i["hand10"])
    h = last(state)
    assert h["points"] == [e.get("player", 0), e["joker"]]
    assert h["deadwood"][0] == e.get("deadwood", e["joker"]) == e["joker"]  # the Joker scores the deadwood
    if "knock_legal" in e:
        assert knock_legal(*after_draw("solitaire", i["hand10"])) is e["knock_legal"]


@check("A-08", "B-13")
def _cannot_knock_11(i: dict[str, Any], e: dict[str, Any]) -> None:
    for variant in ("solitaire", "gin-solitaire"):
        assert min_deadwood(mask(i["hand10"])) == e["deadwood"]
        state, drawn = after_draw(variant, i["hand10"])
        assert deadwood_after_discards(int(state.hand(0)))[Card.parse(drawn)] == e["deadwood"]
        assert knock_legal(state, drawn) is e["knock_legal"]
        assert last(solo(variant, i["hand10"], "joker"))["points"] == [0, e["deadwood"]]


@check("A-10")
def _joker_dealt_redeal(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {"joker_in_deal": i["joker_in_deal"]}
    dealt = {"deck": ["JK", *rest_of_pack([])], "actions": []}
    state = play("solitaire", [dealt], opts)
    h = last(state)
    assert h["result"] == "redeal" and h["points"] == [e["player"], e["joker"]] and state.totals == [0, 0]
    assert e["redeal"] and state.needs_deal and not state.game_over  # the next hand deals all 53 again
    state = play("solitaire", [dealt, solo_hand("solitaire", GIN10, "gin", counted=3)], opts)
    assert [r.result for r in state.results] == ["redeal", "gin"] and state.totals == [28, 0]
    with refused(RecordError, where(0, 0)):  # nothing is played in a redealt hand
        replay(record("solitaire", [{**dealt, "actions": ["discard 2c"]}]))


@check("A-11")
def _joker_dealt_lose(i: dict[str, Any], e: dict[str, Any]) -> None:
    real = cards(i["dealt_real_cards"])
    deck = [*real[:4], "JK", *real[4:], *rest_of_pack(real)]
    state = play("solitaire", [{"deck": deck, "actions": []}], {"joker_in_deal": i["joker_in_deal"]})
    h = last(state)
    assert h["result"] == "joker" and h["deadwood"][0] == e["deadwood"] and h["points"] == [e["player"], e["joker"]]
    assert e["result"] == "loss" and state.results[-1].winner == 1 and state.hand(0) == mask(real)


@check("A-12")
def _counting(i: dict[str, Any], e: dict[str, Any]) -> None:
    top = cards(i["deck_top_first"])
    k = top.index("JK")
    for variant in ("solitaire", "gin-solitaire"):
        for opts, want in (({}, e["C"]), ({"count_includes_joker": True}, e["C_if_count_includes_joker"])):
            state = solo(variant, "5c 6c 7c 8h 8d 8s Th Jh Qh Kh", "gin", opts, counted_cards=top[:k])
            r = state.hand_result
            assert r is not None and r.counted == want == last(state)["counted"]
            assert [str(c) for c in r.counted_cards] == top[:k]
            assert state.stock[-k - 1 :] == [Card.parse(c) for c in reversed(top[: k + 1])]  # 4c on top
            assert last(state)["points"] == [want + 25, 0]


@check("A-13", "B-16")
def _solo_game_end_gin(i: dict[str, Any], e: dict[str, Any]) -> None:
    variant = "solitaire" if i is EXAMPLES["A-13"]["inputs"] else "gin-solitaire"
    b = i["before"]
    earlier = solo_game_to(variant, b["player"], b["joker"])
    state = play(variant, earlier)
    assert state.totals == [b["player"], b["joker"]] and not state.game_over and len(state.results) >= 2
    state = play(variant, [*earlier, solo_hand(variant, GIN10, i["event"], counted=i["C"])])
    assert state.totals == [e["after"]["player"], e["after"]["joker"]]
    s = summary(state)
    assert s["game_over"] is e["game_over"] is True and s["winner"] == 0 and e["winner"] == "player"
    assert s["complete"] and state.final_totals() == s["totals"] and "final" not in s  # no bonuses (3.10)
    assert state.is_terminal and state.phase == "over" and state.legal_actions() == []
    with pytest.raises(IllegalAction):
        state.deal(seed=1)
    with refused(RecordError, r"hands\[\d+\] \(hand \d+\): the game was already over"):
        replay(record(variant, [*earlier, solo_hand(variant, GIN10, "gin"), solo_hand(variant, GIN10, "gin")]))


@check("A-14")
def _solo_game_end_joker(i: dict[str, Any], e: dict[str, Any]) -> None:
    b = i["before"]
    earlier = solo_game_to("solitaire", b["player"], b["joker"])
    assert play("solitaire", earlier).totals == [b["player"], b["joker"]]
    state = play("solitaire", [*earlier, solo_hand("solitaire", i["hand10"], "joker")])
    assert last(state)["deadwood"][0] == e["deadwood"]
    assert state.totals == [e["after"]["player"], e["after"]["joker"]]
    assert state.game_over is e["game_over"] and state.winner == 1 and e["winner"] == "joker"


@check("A-16")
def _unscored(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {"scoring": i["scoring"]}
    gin = solo("solitaire", GIN10, "gin", opts, counted=5)
    assert e["gin"] == "win" and gin.results[-1].result == "gin" and gin.winner == 0 and gin.game_over
    lost = solo("solitaire", GIN10, "joker", opts)
    assert e["joker"] == "loss" and lost.results[-1].result == "joker" and lost.winner == 1 and lost.game_over
    assert gin.totals == lost.totals == [0, 0]
    hand = "3h 4h 5h Kc Kd Ks 8d 9d Td 6c"  # deadwood 6
    state, drawn = after_draw("solitaire", hand, opts)
    assert any(a.kind == "knock" for a in state.legal_actions()) is e["knock_available"] is False
    assert not knock_legal(state, drawn)
    assert knock_legal(*after_draw("solitaire", hand))  # the knock scoring mode offers it


@check("A-17")
def _big_gin_solitaire(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand11 = cards(i["hand11"])
    assert min_deadwood(mask(hand11)) == e["deadwood11"]
    ten = [c for c in hand11 if c != "5h"]
    on = solo("solitaire", [*ten, "5h"], "big-gin", {"big_gin": True}, counted=i["C"])
    h = last(on)
    assert h["result"] == "big-gin" and h["points"] == [e["big_gin_on"], 0] and h["counted"] == i["C"]
    assert on.hand(0) == mask(hand11)
    # with big gin off the player must discard and scores ordinary gin
    state = play("solitaire", [solo_hand("solitaire", ten, "none", drawn="5h")])
    assert state.hand(0) == mask(hand11)
    assert Action("gin") not in state.legal_actions() and Action.parse("gin 5h") in state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply("gin")
    off = solo("solitaire", ten, "gin", counted=i["C"], drawn="5h")
    assert last(off)["result"] == "gin" and last(off)["points"] == [e["big_gin_off"], 0]


@check("A-18", "A-19")
def _knock_counts(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand = [*KNOCK9, KNOCK_DEAD[1]] if i["D"] == 1 else "3h 4h 5h Kc Kd Ks 8d 9d Td Jc"
    for c in i["C"] if isinstance(i["C"], list) else [i["C"]]:
        want = e[f"C={c}"] if f"C={c}" in e else [e["player"], e["joker"]]
        state = solo("solitaire", hand, "knock", counted=c)
        assert last(state)["deadwood"][0] == i["D"] and last(state)["points"] == want
        if f"C={c}_undercut_on_tie" in e:
            state = solo("solitaire", hand, "knock", {"undercut_on_tie": True}, counted=c)
            assert last(state)["points"] == e[f"C={c}_undercut_on_tie"] and last(state)["result"] == "undercut"


@check("A-21")
def _basic_gin(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {"scoring": i["scoring"]}
    state = solo("solitaire", i["hand10"], "gin", opts, counted=i["C"])
    assert last(state)["points"] == [e["player"], e["joker"]] and last(state)["result"] == "gin"
    # holding eleven, discarding a meld card would leave deadwood <= 10: basic mode offers no knock
    s, drawn = after_draw("solitaire", i["hand10"], opts)
    assert Action.parse(f"gin {drawn}") in s.legal_actions()
    assert any(a.kind == "knock" for a in s.legal_actions()) is e["knock_available"] is False
    s, drawn = after_draw("solitaire", i["hand10"])
    assert any(a.kind == "knock" for a in s.legal_actions())


@check("A-23")
def _source_example(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand = "9h Th Jh Qh Kh Jc Jd Js 3d 5s"  # melds, then deadwood a 3 and a 5
    assert min_deadwood(mask(hand)) == i["D"]
    state = solo("solitaire", hand, i["event"], counted=i["C"])
    assert last(state)["points"] == [e["player"], e["joker"]] and last(state)["deadwood"][0] == i["D"]


@check("A-20", "B-15")
def _position_arithmetic(i: dict[str, Any], e: dict[str, Any]) -> None:
    variant = "solitaire" if "draws_before_knock" in i else "gin-solitaire"
    draws = i.get("draws_before_knock", i.get("draws"))
    p = i["joker_position"]
    dealt = 11 if variant == "gin-solitaire" else 10
    h = solo_hand(variant, "3h 4h 5h Kc Kd Ks 8d 9d Td 6c", "knock", before=draws - 1, counted=p - draws - 1)
    assert h["deck"][dealt:].index("JK") + 1 == p  # the joker's place in the deck (or the draw pile)
    if variant == "solitaire":
        assert len(h["deck"]) - dealt == e["deck_size"]
    state = play(variant, [h])
    r = state.hand_result
    assert r is not None and r.counted == e["C"] == p - draws - 1
    assert len(state.logs[-1].actions) == draws + (variant == "gin-solitaire")  # draws are not actions
    if variant == "solitaire":  # every discard went to the bottom of the deck, under the joker
        assert state.stock[:draws] == [Card.parse(a.split()[1]) for a in reversed(h["actions"])]
        assert len(state.stock) - 1 - state.stock.index(JOKER) == e["C"]  # C cards lie above the joker


# ================================================================================ variant B
@check("B-01")
def _gin_solitaire_setup(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = State.new("gin-solitaire")
    state.deal(seed=12345)
    assert len(state.stock) == e["draw_pile"] and JOKER in state.stock and len(state.hand(0)) == 11
    assert state.phase == "discard" and state.opening and state.current_player == 0
    assert e["max_non_joker_draws"] == sum(1 for c in state.stock if c != JOKER)
    for seed in range(200):  # the joker is never dealt
        assert JOKER not in state.deck_for_seed(seed)[:11]
    assert e["joker_in_hand_possible"] is False
    with refused(RecordError, r"hands\[0\] \(hand 1\)\.deck: .*joker"):
        replay(record("gin-solitaire", [{"deck": ["JK", *rest_of_pack([])], "actions": []}]))


@check("B-02")
def _opening_discard(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand11 = cards(i["hand11"])
    best, discards = best_discards(mask(hand11))
    assert best == e["deadwood_after"] and discards >> Card.parse(e["best_discard"]) & 1
    deck = [*hand11, "JK", *rest_of_pack(hand11)]
    knock = f"knock {e['best_discard']}"
    for opts, may in (
        ({}, e["may_end_now"]),
        ({"end_after_opening_discard": True}, e["may_end_now_if_knock_after_opening_discard"]),
    ):
        state = play("gin-solitaire", [{"deck": deck, "actions": []}], opts)
        assert state.opening and state.phase == "discard"
        assert (Action.parse(knock) in state.legal_actions()) is may
        assert any(a.kind in ("knock", "gin") for a in state.legal_actions()) is may
    state = play("gin-solitaire", [{"deck": deck, "actions": [knock]}], {"end_after_opening_discard": True})
    assert last(state)["deadwood"][0] == e["deadwood_after"] and last(state)["counted"] == 0
    with refused(RecordError, where(0, 0)):
        replay(record("gin-solitaire", [{"deck": deck, "actions": [knock]}]))


@check("B-03")
def _gin_solitaire_knock_after_draw(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand11 = cards(i["hand11"])
    # dealt: the eleven without the 2s, plus a spare card thrown away at the opening; then the 2s is drawn
    h = solo_hand("gin-solitaire", [c for c in hand11 if c != "2s"], "none", drawn="2s", counted=i["C"])
    state = play("gin-solitaire", [h])
    assert state.hand(0) == mask(hand11) and not state.opening
    state.apply("knock 9c")
    points_deadwood(state, e)
    assert last(state)["counted"] == i["C"]


@check("B-04", "B-05")
def _gin_solitaire_joker(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = solo("gin-solitaire", i["hand10"], "joker")
    assert state.hand(0) == mask(i["hand10"]) and last(state)["result"] == "joker"
    points_deadwood(state, e)
    if e["deadwood"] <= 10:  # B-05: the knock declined on the turn before was legal
        h = solo_hand("gin-solitaire", i["hand10"], "joker", before=1)
        state = play("gin-solitaire", [{"deck": h["deck"], "actions": h["actions"][:1]}])
        assert knock_legal(state, h["actions"][1].split()[1])
        assert last(play("gin-solitaire", [h]))["points"] == [0, e["joker"]]


@check("B-06", "B-07", "B-08", "B-09", "B-11", "B-12")
def _gin_solitaire_end(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = solo("gin-solitaire", i["hand10"], i["event"], counted=i["C"])
    assert last(state)["counted"] == i["C"]
    points_deadwood(state, e)
    if "joker_if_undercut_on_tie" in e:
        state = solo("gin-solitaire", i["hand10"], i["event"], {"undercut_on_tie": True}, counted=i["C"])
        assert last(state)["points"] == [0, e["joker_if_undercut_on_tie"]]
    if "knock_legal" in e:
        assert knock_legal(*after_draw("gin-solitaire", i["hand10"])) is e["knock_legal"]


@check("B-10")
def _gin_solitaire_big_gin(i: dict[str, Any], e: dict[str, Any]) -> None:
    assert min_deadwood(mask(i["hand11"])) == e["deadwood11"]
    state = solo("gin-solitaire", i["hand11"], "big-gin", counted=i["C"])
    assert last(state)["result"] == "big-gin" and last(state)["points"] == [e["player"], 0]
    state = solo("gin-solitaire", i["hand11"], "big-gin", {"big_gin_bonus": 25}, counted=i["C"])
    assert last(state)["points"] == [e["player_if_big_gin_bonus_25"], 0]


@check("B-14")
def _best_discard_gin(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand11 = cards(i["hand11"])
    best, discards = best_discards(mask(hand11))
    assert best == e["deadwood_after"] and discards == mask(e["best_discard"])
    assert deadwood_after_discards(mask(hand11))[Card.parse("7h")] == 3
    state = play("gin-solitaire", [solo_hand("gin-solitaire", hand11[:10], "none", drawn=hand11[10])])
    legal = state.legal_actions()
    assert [a for a in legal if a.kind == "gin"] == [Action.parse(f"gin {e['best_discard']}")]
    assert Action.parse("knock 7h") in legal


@check("B-17")
def _opening_all_melded(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand11 = cards(i["hand11"])
    assert best_discards(mask(hand11))[0] == e["deadwood_after_best_discard"]
    deck = [*hand11, "JK", *rest_of_pack(hand11)]
    for opts in ({}, {"end_after_opening_discard": True}):
        state = play("gin-solitaire", [{"deck": deck, "actions": []}], opts)
        assert (Action("gin") in state.legal_actions()) is e["big_gin_allowed"]
        with refused(RecordError, where(0, 0)):
            replay(record("gin-solitaire", [{"deck": deck, "actions": ["gin"]}], opts))
    state = play("gin-solitaire", [{"deck": deck, "actions": ["gin 5h"]}], {"end_after_opening_discard": True})
    assert last(state)["result"] == "gin" and last(state)["points"] == [25, 0]  # the joker was next: C = 0
    # by default: discard the 5h, draw, and declare the gin then
    spare = rest_of_pack(hand11)
    deck = [*hand11, spare[0], spare[1], spare[2], "JK", *spare[3:]]
    state = play("gin-solitaire", [{"deck": deck, "actions": ["discard 5h", f"gin {spare[0]}"]}])
    assert last(state)["points"] == [27, 0]


# ================================================================================ variant C
P = {"P1": 0, "P2": 1, "P3": 2}


@check("C-01")
def _cut_roles(i: dict[str, Any], e: dict[str, Any]) -> None:
    names = list(i["cuts"])
    roles, recuts = cut_for_roles([Card.parse(i["cuts"][n]) for n in names])
    assert recuts == [] and [names[r] for r in roles if r is not None] == [e["box"], e["captain"], e["sitter"]]
    assert e["dealer"] == e["box"]
    # RECORD.md: the first hand's roles follow seat order, as if the cut had fallen so
    state = State.new("three", players=names)
    state.deal(seed=99)
    assert state.hand_dealer == 0 and state.hand_nondealer == 1 and state.current_player == 1
    assert [len(state.hand(s)) for s in range(3)] == [10, 10, 0]
    assert len(state.stock) == e["stock_after_upcard"] and len(state.pile) == 1


@check("C-02")
def _cut_ties(i: dict[str, Any], e: dict[str, Any]) -> None:
    for cut, text in zip(i["cuts"], (e["case1"], e["case2"], e["case3"]), strict=True):
        want_roles: list[int | None] = [None, None, None]
        want_recuts: list[list[int]] = []
        for part in (p.strip() for p in text.split(";")):  # e.g. "P3 sitter; P1,P2 re-cut"
            who, what = part.split(" ", 1)
            if what == "re-cut":
                want_recuts.append([0, 1, 2] if who == "all" else [P[x] for x in who.split(",")])
            else:
                want_roles[("box", "captain", "sitter").index(what)] = P[who]
        assert cut_for_roles([Card.parse(c) for c in cut]) == (want_roles, want_recuts)
    suits = [cut_for_roles([Card.parse(c) for c in cut], cut_ties="suit_order") for cut in i["cuts"]]
    assert suits == [([1, 0, 2], []), ([0, 2, 1], []), ([2, 1, 0], [])]  # c < d < h < s: nobody re-cuts


def three_showdown(i: dict[str, Any], options: dict[str, Any] | None = None) -> State:
    """Roles (P1, P2, P3) = (box, captain, sitter); the example's knocker ends on its first turn
    with the arrangement the example declares."""
    if "knocker_melds" in i:
        melds = [cards(m) for m in i["knocker_melds"]]
        knocker10 = [c for m in melds for c in m] + cards(i["knocker_deadwood_cards"])
        action = "knock | " + " ".join("".join(m) for m in melds)
    else:
        knocker10, action = cards(i["knocker_hand"]), "gin"
    state = play("three", [showdown_hand(i["knocker"] == "box", knocker10, cards(i["defender_hand"]), action)], options)
    assert state.hand_result is not None and state.hand_result.knocker == (0 if i["knocker"] == "box" else 1)
    return state


def box_captain(state: State, e: dict[str, Any]) -> None:
    h = last(state)
    assert h["points"][0] == e.get("box", 0) and h["points"][1] == e.get("captain", 0)
    assert h["points"][2] == 0 and state.totals == h["points"]  # the sitter never scores
    if "box_won" in e:
        assert (state.results[-1].winner == 0) is e["box_won"]
    if "roles_after" in e:
        assert list(state.roles) == [P[x] for x in e["roles_after"]]


@check("C-03", "C-04", "C-05", "C-06", "C-15", "C-16", "C-17")
def _three_hand(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = three_showdown(i)
    r = state.hand_result
    assert r is not None and r.knocker is not None
    h = last(state)
    if "knocker_deadwood" in e:
        assert h["deadwood"][r.knocker] == e["knocker_deadwood"]
    if "defender_deadwood" in e:
        assert h["deadwood"][1 - r.knocker] == e["defender_deadwood"]
    if "laid_off" in e:
        assert sorted(str(c) for c in r.laid_off) == sorted(cards(e["laid_off"]))
    if "knocker_melds" in i:
        assert sorted(map(mask, i["knocker_melds"])) == sorted(mask(map(str, m)) for m in r.knocker_melds)
    if r.result in ("gin", "big-gin"):
        assert r.laid_off == ()
    box_captain(state, e)


@check("C-07")
def _gin_v_zero(i: dict[str, Any], e: dict[str, Any]) -> None:
    box = cards("Ac 2c 3c 4c 8d 8h 8s Jh Qh Kh")
    captain = cards("5d 6d 7d 9c 9h 9d 2s 3s 4s 5s")
    assert min_deadwood(mask(captain)) == i["defender_deadwood"]
    state = play("three", [showdown_hand(True, box, captain, i["event"])])
    assert last(state)["deadwood"] == [0, 0, 0] and last(state)["result"] == "gin"
    box_captain(state, e)
    o = options_for("three")
    assert table_hand_points(
        knocker_deadwood=0,
        defender_deadwood=i["defender_deadwood"],
        gin=True,
        big_gin=False,
        gin_bonus=o.gin_bonus,
        big_gin_bonus=o.big_gin_bonus,
        undercut_bonus=o.undercut_bonus,
        undercut_on_tie=o.undercut_on_tie,
    )[1:] == (e["box"], e["captain"])


@check("C-08")
def _c06_gin_bonus_20(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = three_showdown(EXAMPLES["C-06"]["inputs"], {"gin_bonus": i["gin_bonus"]})
    assert last(state)["deadwood"][1] == i["defender_deadwood"]
    box_captain(state, e)


@check("C-09")
def _c04_undercut_25(i: dict[str, Any], e: dict[str, Any]) -> None:
    state = three_showdown(EXAMPLES["C-04"]["inputs"], {"undercut_bonus": i["undercut_bonus"]})
    assert last(state)["deadwood"][:2] == [i["defender_deadwood"], i["knocker_deadwood"]]
    assert last(state)["result"] == "undercut"
    box_captain(state, e)


@check("C-18")
def _box_undercut(i: dict[str, Any], e: dict[str, Any]) -> None:
    box = cards("Ac 2c 3c 8h 8d 8s Jd Qd Kd 6c")  # deadwood 6
    captain = cards("4h 5h 6h 9c 9d 9s Th Jh Qh 2s")  # deadwood 2, nothing to lay off
    state = play("three", [showdown_hand(True, box, captain, "knock")])
    assert last(state)["deadwood"][:2] == [i["knocker_deadwood"], i["defender_deadwood"]]
    assert last(state)["result"] == "undercut"
    box_captain(state, e)


@check("C-10", "C-14")
def _three_totals(i: dict[str, Any], e: dict[str, Any]) -> None:
    before = {k[:2]: v for k, v in i["totals_before"].items()}
    game = TableGame("three")
    for who in ("P2", "P3", "P1"):  # the team wins three hands: each captain scores once, roles come back
        assert game.seats()[1] == P[who]
        game.win(P[who], before[who])
    assert game.state.totals == [before["P1"], before["P2"], before["P3"]] and game.state.roles == (0, 1, 2)
    assert not game.state.game_over
    state = game.win(1, int(i["hand"].split()[-1].lstrip("+")))  # the captain P2 wins the hand
    assert state.totals == [e["totals_after"][p] for p in ("P1", "P2", "P3")]
    assert state.game_over is e.get("game_over", False)
    if state.game_over:
        assert state.winner == P[e["winner"]] and summary(state)["winner"] == 1
        assert state.final_totals() == state.totals and "final" not in summary(state)  # no bonuses (2.7)


@check("C-11")
def _three_void(i: dict[str, Any], e: dict[str, Any]) -> None:
    game = TableGame("three")
    game.win(0, 5)  # the box wins: (P1, P3, P2)
    game.win(2, 5)  # the box loses to captain P3: (P3, P2, P1)
    assert list(game.state.roles) == [P[x] for x in i["roles"]]
    state = game.void()
    h = last(state)
    assert h["result"] == "draw" and h["points"] == [e["score"]] * 3
    assert len(state.stock) == i["stock"] and state.logs[-1].actions[-1].kind == "discard"
    assert list(state.roles) == [P[x] for x in e["roles_after"]] and state.totals == [5, 0, 5]
    state.deal(seed=5)
    assert state.hand_dealer == P[e["next_dealer"]] and state.hand_nondealer == P["P2"]


@check("C-12")
def _three_first_turn(i: dict[str, Any], e: dict[str, Any]) -> None:
    deck = table_deck(cards("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d"), cards("Ah 3h 5h 7h 9h Jh Kh 2s 4s 6s"), "8s")
    state = play("three", [{"deck": deck, "actions": ["pass", "take"]}])
    assert state.current_player == P["P1"] and state.phase == "discard"
    assert (Action.parse("discard 8s") in state.legal_actions()) is e["box_may_discard_upcard"]
    with pytest.raises(IllegalAction, match="8s"):
        state.apply("discard 8s")
    state.apply("discard Kh")
    assert state.current_player == P["P2"] and e["next_to_play"] == "captain"
    assert [str(a) for a in state.legal_actions()] == ["draw", "take"]
    both = play("three", [{"deck": deck, "actions": ["pass", "pass"]}])
    assert e["both_pass"] == "captain draws from stock"
    assert both.current_player == P["P2"] and [str(a) for a in both.legal_actions()] == ["draw"]


@check("C-13")
def _rotation(i: dict[str, Any], e: dict[str, Any]) -> None:
    expected = [tuple(P[x] for x in r) for r in e["roles_after_each_hand"]]
    kinds = {"box wins": "box", "box loses": "team", "void": "void"}
    roles = tuple(P[x] for x in i["start"])
    for outcome, want in zip(i["outcomes"], expected, strict=True):
        roles = three_rotation(roles, kinds[outcome])  # type: ignore[arg-type]
        assert roles == want
    game = TableGame("three")
    for outcome, want in zip(i["outcomes"], expected, strict=True):
        box, captain = game.seats()
        state = game.void() if outcome == "void" else game.win(box if outcome == "box wins" else captain, 3)
        assert state.roles == want
    assert [h["result"] for h in summary(game.state)["hands"]] == ["knock", "knock", "draw", "knock", "knock"]


@check("C-19")
def _three_knock_limit(i: dict[str, Any], e: dict[str, Any]) -> None:
    hand = cards(i["hand10"])
    assert min_deadwood(mask(hand)) == e["deadwood"]
    h = showdown_hand(False, hand, rest_of_pack(hand)[:10], "knock")
    state = play("three", [{"deck": h["deck"], "actions": h["actions"][:-1]}])
    assert state.knock_limit == 10 and knock_legal(state, h["actions"][-1].split()[1]) is e["knock_legal"]
    with refused(RecordError, where(0, 3) + "'knock"):
        replay(record("three", [h]))


# ================================================================================ two-handed S
def classic_showdown(
    knocker_dw: int,
    defender_dw: int,
    *,
    gin: bool = False,
    big_gin: bool = False,
    options: dict[str, Any] | None = None,
    variant: str = "classic",
    upcard: str | None = None,
) -> State:
    """The non-dealer (seat 1) ends the first hand with deadwood ``knocker_dw`` (or gin) against a
    hand with deadwood ``defender_dw`` and nothing to lay off."""
    up = [upcard] if upcard else []
    if big_gin:
        knocker, action = cards("Ah 2h 3h 4h 5h 6c 6d 6s Jd Qd Kd"), "big-gin"
    elif gin:
        knocker, action = TABLE_GIN, "gin"
    else:
        knocker, action = [*KNOCK9, KNOCK_DEAD[knocker_dw]], "knock"
    if gin and defender_dw == 0:
        defender = cards("Ad 2d 3d 4d 8c 8h 8d 5h 6h 7h")
    else:
        defender = dead_hand(defender_dw, [*knocker, *KNOCK_LAYOFFS, *up])
    state = play(variant, [showdown_hand(False, knocker, defender, action, upcard=upcard)], options)
    r = state.hand_result
    assert r is not None and r.knocker == 1 and r.laid_off == ()
    assert list(r.deadwood) == [defender_dw, knocker_dw]
    return state


@check("S-01", "S-02", "S-03", "S-04", "S-20")
def _knock_scores(i: dict[str, Any], e: dict[str, Any]) -> None:
    opts = {k: i[k] for k in ("undercut_bonus", "undercut_on_tie") if k in i}
    state = classic_showdown(i["knocker_deadwood"], i["defender_deadwood"], options=opts)
    assert last(state)["points"] == [e["defender"], e["knocker"]]
    o = options_for("classic", opts)
    assert table_hand_points(
        knocker_deadwood=i["knocker_deadwood"],
        defender_deadwood=i["defender_deadwood"],
        gin=False,
        big_gin=False,
        gin_bonus=o.gin_bonus,
        big_gin_bonus=o.big_gin_bonus,
        undercut_bonus=o.undercut_bonus,
        undercut_on_tie=o.undercut_on_tie,
    )[1:] == (e["knocker"], e["defender"])
    if e["knocker"] == e["defender"] == 0:  # S-20: nobody won the hand; the same dealer deals again
        assert state.hands_won == [0, 0] and state.results[-1].winner is None and state.dealer == 0
    else:
        winner = 1 if e["knocker"] else 0
        assert state.hands_won[winner] == 1 and state.results[-1].winner == winner and state.dealer == winner


@check("S-05", "S-06", "S-07", "S-08")
def _gin_scores(i: dict[str, Any], e: dict[str, Any]) -> None:
    big = bool(i.get("big_gin"))
    opts = {**({"gin_bonus": i["gin_bonus"]} if "gin_bonus" in i else {}), **({"big_gin": True} if big else {})}
    state = classic_showdown(0, i["defender_deadwood"], gin=True, big_gin=big, options=opts)
    assert last(state)["result"] == ("big-gin" if big else "gin")
    assert last(state)["points"] == [e.get("defender", 0), e["knocker"]]


@check("S-09", "S-10", "S-11")
def _oklahoma_limit(i: dict[str, Any], e: dict[str, Any]) -> None:
    up = i["upcard"]
    assert oklahoma_knock_limit(Card.parse(up), "gin_only") == e["limit"]
    others = rest_of_pack([up])
    state = play("oklahoma", [{"deck": table_deck(others[:10], others[10:20], up), "actions": []}])
    assert state.knock_limit == e["limit"] and str(state.upcard) == up
    if "deadwood" in i:  # the non-dealer holds deadwood 6 after its draw: no knock; with 5 it may
        for dw, legal in ((i["deadwood"], e["knock_legal"]), (e["limit"], True)):
            knocker = [*KNOCK9, KNOCK_DEAD[dw]]
            h = showdown_hand(False, knocker, dead_hand(40, [*knocker, up]), "knock", upcard=up)
            s = play("oklahoma", [{"deck": h["deck"], "actions": h["actions"][:-1]}])
            assert knock_legal(s, h["actions"][-1].split()[1]) is legal
    if e["limit"] == 0:  # an ace: gin only; with oklahoma_ace=one a knock with 1
        assert oklahoma_knock_limit(Card.parse(up), "one") == 1
        h = showdown_hand(False, KNOCK1, dead_hand(40, [*KNOCK1, up]), "knock", upcard=up)
        opening = {"deck": h["deck"], "actions": h["actions"][:-1]}
        drawn = h["actions"][-1].split()[1]
        assert not knock_legal(play("oklahoma", [opening]), drawn)
        one = play("oklahoma", [opening], {"oklahoma_ace": "one"})
        assert one.knock_limit == 1 and knock_legal(one, drawn)
        g = showdown_hand(False, TABLE_GIN, dead_hand(30, [*TABLE_GIN, up]), "gin", upcard=up)
        assert last(play("oklahoma", [g]))["points"] == [0, 55]


@check("S-12", "S-13")
def _spades_double(i: dict[str, Any], e: dict[str, Any]) -> None:
    gin = bool(i.get("gin"))
    kd = 0 if gin else i["knocker_deadwood"]
    state = classic_showdown(kd, i["defender_deadwood"], gin=gin, variant="oklahoma", upcard=i["upcard"])
    assert state.knock_limit == e.get("limit", 10)
    assert last(state)["points"] == [0, e["knocker"]]
    assert any("Spades double" in line for line in state.results[-1].explanation)
    off = classic_showdown(
        kd, i["defender_deadwood"], gin=gin, variant="oklahoma", upcard=i["upcard"], options={"spades_double": False}
    )
    assert last(off)["points"] == [0, e["knocker"] // 2]


@check("S-14")
def _game_end(i: dict[str, Any], e: dict[str, Any]) -> None:
    (a_pts, a_won), (b_pts, b_won) = i["A"], i["B"]
    o = options_for("classic")
    final = game_final(
        [a_pts, b_pts], [a_won, b_won], game_bonus=o.game_bonus, box_bonus=o.box_bonus, shutout=o.shutout
    )
    assert final == [e["A"], e["B"]]
    # a real game: A (seat 0) wins 20, 20, 20, 20 and 24; B wins 20, 20 and 21
    game = TableGame("classic")
    for seat, pts in [(0, 20), (1, 20), (0, 20), (1, 20), (0, 20), (1, 21), (0, 20), (0, 24)]:
        assert not game.state.game_over
        game.win(seat, pts)
    state = game.state
    assert state.totals == [a_pts, b_pts] and state.hands_won == [a_won, b_won]
    assert state.game_over and state.winner == 0
    s = summary(state)
    assert s["final"] == state.final_totals() == [e["A"], e["B"]] and s["final"][0] - s["final"][1] == e["margin"]


@check("S-15")
def _shutout(i: dict[str, Any], e: dict[str, Any]) -> None:
    (a_pts, a_won), (b_pts, b_won) = i["A"], i["B"]
    for shutout in ("double_game_bonus", "double_total", "none"):
        assert game_final([a_pts, b_pts], [a_won, b_won], game_bonus=100, box_bonus=25, shutout=shutout) == [
            e[shutout],
            0,
        ]
        game = TableGame("classic", {"shutout": shutout})
        for pts in (20, 20, 20, 50):
            game.win(0, pts)
        state = game.state
        assert state.totals == [a_pts, b_pts] and state.hands_won == [a_won, b_won] and state.game_over
        assert state.final_totals() == [e[shutout], 0] == summary(state)["final"]


@check("S-16", "S-17")
def _hollywood(i: dict[str, Any], e: dict[str, Any]) -> None:
    hands = [(0 if h[0] == "A" else 1, int(h[2:])) for h in i["hands"]]
    want = {"games": [[g["A"], g["B"]] for g in e["games"]], "closed": e["closed"]}
    sheet = HollywoodSheet(100)
    for seat, pts in hands:
        sheet.enter(seat, pts)
    assert sheet.to_json() == want
    game = TableGame("hollywood")
    for seat, pts in hands:
        game.win(seat, pts)
    assert game.state.hollywood is not None and game.state.hollywood.to_json() == want
    assert summary(game.state)["hollywood"] == want and not game.state.game_over


@check("S-18", "S-19")
def _layoffs(i: dict[str, Any], e: dict[str, Any]) -> None:
    melds = [cards(m) for m in i["knocker_melds"]]
    knocker = [c for m in melds for c in m] + cards(i["knocker_deadwood_cards"])
    h = showdown_hand(False, knocker, cards(i["defender_hand"]), "knock | " + " ".join("".join(m) for m in melds))
    state = play("classic", [h])
    r = state.hand_result
    assert r is not None and r.knocker == 1
    assert sorted(str(c) for c in r.laid_off) == sorted(cards(e["laid_off"]))
    assert last(state)["deadwood"][0] == e["defender_deadwood"] and last(state)["points"] == [0, e["knocker"]]
    # the same cards laid off one by one with layoff actions (RECORD.md) give the same score
    h["actions"] += [f"layoff {c}" for c in cards(e["laid_off"])]
    explicit = play("classic", [h])
    assert last(explicit)["deadwood"][0] == e["defender_deadwood"] and last(explicit)["points"] == [0, e["knocker"]]


@check("S-21")
def _classic_preset(i: dict[str, Any], e: dict[str, Any]) -> None:
    o = options_for("classic", {"preset": "classic"})
    assert (o.gin_bonus, o.undercut_bonus, o.box_bonus) == (i["gin_bonus"], i["undercut_bonus"], 20)
    for opts in ({"preset": "classic"}, {"gin_bonus": i["gin_bonus"], "undercut_bonus": i["undercut_bonus"]}):
        assert last(classic_showdown(3, 9, options=opts))["points"] == [0, e["knock_3_v_9"]]
        assert last(classic_showdown(8, 4, options=opts))["points"] == [e["undercut_8_v_4"], 0]
        assert last(classic_showdown(0, 12, gin=True, options=opts))["points"] == [0, e["gin_v_12"]]


@check("S-22")
def _wall(i: dict[str, Any], e: dict[str, Any]) -> None:
    h = wall_hand()
    assert len(play("classic", [{"deck": h["deck"], "actions": []}]).stock) == i["stock_after_deal"]
    state = play("classic", [h])
    assert sum(1 for a in state.logs[-1].actions if a.kind == "draw") == e["max_draws_before_void"]
    assert last(state)["result"] == "draw" and last(state)["points"] == [e["score"]] * 2
    assert e["same_dealer"] and state.dealer == 0 and len(state.stock) == 2 and state.needs_deal
    # before the last discard the hand goes on: the player who drew the 29th card may still knock
    early = play("classic", [{"deck": h["deck"], "actions": h["actions"][:-1]}])
    assert early.phase == "discard" and len(early.stock) == 2 and early.current_player == 1
    nd = cards("Ac 2c 3c 5d 6d 7d 9h Th Jh Ks")  # deadwood 10 (the Ks)
    dl = dead_hand(40, [*nd, "4c", "4d", "8d", "8h", "Qh"])
    knocked = play("classic", [wall_hand(nd, dl, knock=True)])
    assert last(knocked)["result"] == "knock" and len(knocked.stock) == 2
    assert last(knocked)["points"] == [0, 30]


# ================================================================================ the tests
def test_every_example_has_a_test() -> None:
    assert sorted(CHECKS) == sorted(EXAMPLES)
    assert len(EXAMPLES) == sum(len(v) for v in DATA.values())


@pytest.mark.parametrize("example_id", list(EXAMPLES))
def test_rules_example(example_id: str) -> None:
    example = EXAMPLES[example_id]
    CHECKS[example_id](example["inputs"], example["expected"])
