"""Actions are atomic (issue 12, item 2): a refused action changes nothing.

Malformed and illegal actions (strings, integers, other objects, :class:`Action` values built by
hand, and knocks or gins declaring arrangements with duplicate cards, cards not held, or groups
that are not melds) are thrown at random positions of random games of every variant.  Each one
either raises :class:`IllegalAction` (a :class:`GinRummyError`) and leaves the record, every
seat's observation and every field of the state exactly as they were, or it is legal by an
independent check and is applied.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.actions import KINDS, NUM_ACTIONS, Action
from ginrummy.cards import CARDS, JOKER, Card, CardSet, full_pack
from ginrummy.engine import State
from ginrummy.errors import GinRummyError, IllegalAction, OptionError
from ginrummy.melds import best_arrangement, best_discards, is_meld
from ginrummy.options import VARIANTS, TableOptions, option_help
from ginrummy.record import replay

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "classic": [{}, {"discard_drawn_upcard_allowed": True, "big_gin": True}],
    "oklahoma": [{}],
    "hollywood": [{}],
    "three": [{}],
    "solitaire": [{}, {"end_before_first_draw": True, "big_gin": True}, {"scoring": "basic"}],
    "gin-solitaire": [{}, {"end_after_opening_discard": True}],
}
_CACHES = ("_legal", "_legal_ids", "_history")  # caches, and the undo stack (tested by undoing)


def play(variant: str, seed: int, steps: int) -> State:
    """A random game after ``steps`` decisions and deals, preferring ends of hands now and then."""
    rng = random.Random(seed)
    state = State.new(variant, rng.choice(OPTIONS[variant]))
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.needs_deal:
            state.deal(seed=rng.randrange(1 << 32))
            continue
        legal = state.legal_actions()
        enders = [a for a in legal if a.kind in ("knock", "gin")]
        state.apply(rng.choice(enders) if enders and rng.random() < 0.2 else rng.choice(legal))
    for _ in range(80):  # mostly stop where a seat may knock or go gin: declared melds are tried there
        if state.is_terminal or rng.random() < 0.05:
            break
        if any(a.kind in ("knock", "gin") for a in state.legal_actions()):
            break
        if state.needs_deal:
            state.deal(seed=rng.randrange(1 << 32))
        else:
            state.apply(_good(state, rng))
    return state


def _good(state: State, rng: random.Random) -> Action:
    """A random legal action that mostly keeps the hand's least deadwood (so knocks come)."""
    legal = state.legal_actions()
    if state.phase == "discard" and rng.random() < 0.9:
        _, best = best_discards(state.hands[state.current_player or 0])
        good = [a for a in legal if a.kind == "discard" and a.card is not None and best >> a.card & 1]
        if good:
            return rng.choice(good)
    return rng.choice(legal)


def snapshot(state: State) -> tuple[Any, ...]:
    obs = [state.observation(s) for s in range(state.num_seats)]
    fields = {k: v for k, v in state.__dict__.items() if k not in _CACHES}
    return state.to_record(), obs, copy.deepcopy(fields), [str(a) for a in state.legal_actions()]


def _held_once(state: State, act: Action) -> bool:
    """An independent check of a declared arrangement (rule 0.8): real melds of distinct held cards."""
    seat = state.current_player
    if seat is None or act.melds is None:
        return False
    kept = set(state.hand(seat)) - ({act.card} if act.card is not None else set())
    cards = [c for m in act.melds for c in m]
    return (
        len(cards) == len(set(cards))
        and set(cards) <= kept
        and all(is_meld(sum(1 << c for c in m)) and len(set(m)) == len(m) for m in act.melds)
    )


def throw(state: State, action: Any) -> None:
    """Apply ``action``; if refused, the refusal must be the library's and nothing may change."""
    before = snapshot(state)
    legal = [str(a) for a in state.legal_actions()]
    honest = _declared_honestly(state, action)
    try:
        state.apply(action)
    except GinRummyError as exc:
        assert isinstance(exc, IllegalAction), (action, exc)
        assert str(exc) and "\n" not in str(exc)
        assert snapshot(state) == before, f"{action!r} was refused ({exc}) but changed the state"
        return
    # Accepted: it must have been legal.
    act = action if isinstance(action, Action) else None
    if isinstance(action, str):
        act = Action.parse(action)
    elif isinstance(action, int) and not isinstance(action, bool):
        act = Action.from_id(action)
    assert act is not None, f"{action!r} was accepted"
    if act.melds is not None:
        assert honest, f"{act} was accepted with a bad arrangement"
    elif act.kind == "layoff":
        pass  # checked by the engine's layoff options; the defender's own cards
    else:
        assert str(act) in legal or (act.kind == "knock" and str(Action("gin", act.card)) in legal), act


def _declared_honestly(state: State, action: Any) -> bool:
    try:
        act = Action.parse(action) if isinstance(action, str) else action
    except GinRummyError:
        return False
    return isinstance(act, Action) and _held_once(state, act)


card_st = st.sampled_from([*CARDS, JOKER])
garbage_st = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-5, max_value=NUM_ACTIONS + 5),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=True),
    st.binary(max_size=8),
    st.lists(st.integers(0, 60), max_size=3),
    st.builds(lambda k, c: f"{k} {c}", st.sampled_from([*KINDS, "DISCARD", "Knock", "melds"]), card_st),
    st.builds(
        lambda k, c, ms: f"{k} {c} | " + " ".join("".join(str(x) for x in m) for m in ms),
        st.sampled_from(["knock", "gin", "discard", "layoff"]),
        card_st,
        st.lists(st.lists(card_st, min_size=1, max_size=5), max_size=4),
    ),
)


@st.composite
def hand_actions(draw: st.DrawFn, state: State) -> Any:
    """Knocks and gins with arrangements built from the hand to act, then spoiled."""
    seat = state.current_player
    if seat is None:
        return draw(garbage_st)
    hand = list(state.hand(seat))
    if not hand:
        return draw(garbage_st)
    enders = [a.card for a in state.legal_actions() if a.kind in ("knock", "gin") and a.card is not None]
    discard = draw(st.sampled_from(enders or hand))
    kept = [c for c in hand if c != discard]
    melds = [list(m) for m in best_arrangement(sum(1 << c for c in kept)).melds] or [kept[:3]]
    how = draw(st.sampled_from(["duplicate", "twice_below", "foreign", "break", "same", "shared"]))
    i = draw(st.integers(0, len(melds) - 1))
    m = melds[i]
    if how == "duplicate":
        m.insert(draw(st.integers(0, len(m))), draw(st.sampled_from(m)))
    elif how == "twice_below":  # Th Th has the bits of Jh: the trick of issue 12
        m.sort()
        if m[0] % 13:
            m[0:1] = [CARDS[m[0] - 1]] * 2
    elif how == "foreign":
        others = [c for c in CARDS if c not in kept]
        m[draw(st.integers(0, len(m) - 1))] = draw(st.sampled_from(others))
    elif how == "break":
        m.pop(draw(st.integers(0, len(m) - 1)))
    elif how == "shared" and kept:
        melds.append([*m[:2], draw(st.sampled_from(kept))])
    ends = [a.kind for a in state.legal_actions() if a.kind in ("knock", "gin") and a.card == discard]
    kind = draw(st.sampled_from([*ends, "knock", "gin"]))
    card = None if draw(st.booleans()) and kind == "gin" else discard
    if draw(st.booleans()):
        return f"{kind}{' ' + str(card) if card is not None else ''} | " + " ".join("".join(map(str, x)) for x in melds)
    try:
        return Action(kind, card, tuple(tuple(x) for x in melds))
    except IllegalAction:
        return f"{kind} {card} | " + " ".join("".join(map(str, x)) for x in melds)


@settings(max_examples=100, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 90),
    data=st.data(),
)
def test_refused_actions_change_nothing(variant: str, seed: int, steps: int, data: st.DataObject) -> None:
    state = play(variant, seed, steps)
    for _ in range(3):
        action = data.draw(st.one_of(garbage_st, hand_actions(state), hand_actions(state)))
        throw(state, action)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 90),
    kind=st.sampled_from(KINDS),
    card=st.one_of(st.none(), card_st, st.integers(-3, 70)),
    melds=st.one_of(
        st.none(),
        st.lists(st.lists(st.one_of(card_st, st.integers(-2, 60), st.text(max_size=3)), max_size=4), max_size=3),
    ),
)
def test_hand_built_action_objects(variant: str, seed: int, steps: int, kind: str, card: Any, melds: Any) -> None:
    """``Action`` values built by hand with any card or meld values: refused by the library's error."""
    state = play(variant, seed, steps)
    try:
        act = Action(kind, card, melds)
    except GinRummyError as exc:
        assert isinstance(exc, IllegalAction)
        return
    throw(state, act)


# --- the examples --------------------------------------------------------------------
def _classic_deck(nondealer: str, dealer: str, upcard: str, stock_top: str) -> list[Card]:
    """A classic deck: seat 1 (the non-dealer) gets ``nondealer``, seat 0 ``dealer``."""
    nd, d = CardSet.parse(nondealer), CardSet.parse(dealer)
    up, top = list(CardSet.parse(upcard)), list(CardSet.parse(stock_top))
    used = set(nd) | set(d) | set(up) | set(top)
    rest = [c for c in full_pack() if c not in used]
    deck: list[Card] = []
    for a, b in zip(list(nd), list(d), strict=True):
        deck += [a, b]
    return deck + up + top + rest


def test_duplicate_bit_trick_is_refused_in_classic() -> None:
    state = State.new("classic")
    state.deal(_classic_deck("Jh Qh Kh 7c 7d 7s Ac 2d As 3c", "2c 4c 6c 8c Tc Qd 2h 4h 6h 8h", "Kd", "Qc"))
    for a in ("pass", "pass", "draw"):
        state.apply(a)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="twice"):
        state.apply("knock Qc | ThThQhKh 7c7d7s")
    assert snapshot(state) == before
    assert replay(state.to_record()).to_record() == state.to_record()
    state.apply("knock Qc | JhQhKh 7c7d7s")  # the honest declaration is legal
    assert state.hand_result is not None and state.hand_result.result == "knock"


@pytest.mark.parametrize("variant", ["solitaire", "gin-solitaire"])
def test_duplicate_bit_trick_is_refused_in_the_solitaires(variant: str) -> None:
    hand = CardSet.parse("Jh Qh Kh 7c 7d 7s Ac 2d As 3c")
    top = Card.parse("Qc")
    rest = [c for c in full_pack(joker=True) if c not in hand and c != top]
    if variant == "gin-solitaire":
        state = State.new(variant, {"end_after_opening_discard": True})
        state.deal([*hand, top, *rest])
    else:
        state = State.new(variant)
        state.deal([*hand, top, *rest])
    before = snapshot(state)
    for text in ("knock Qc | ThThQhKh 7c7d7s", "gin Qc | ThJhQhKh 7c7d7s AcAs2d3c", "knock Qc | 8h9hTh 7c7d7s"):
        with pytest.raises(IllegalAction):
            state.apply(text)
        assert snapshot(state) == before
    state.apply("knock Qc | JhQhKh 7c7d7s")
    assert state.hand_result is not None and state.hand_result.deadwood[0] == 7


# --- options (State.new) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "options", "named"),
    [
        ("classic", {"gin_bonus": "abc"}, "gin_bonus"),
        ("classic", {"gin_bonus": "--5"}, "gin_bonus"),
        ("classic", {"gin_bonus": "²"}, "gin_bonus"),
        ("classic", {"gin_bonus": "9" * 5000}, "gin_bonus"),
        ("classic", {"gin_bonus": 10**5000}, "gin_bonus"),
        ("classic", {"gin_bonus": 2.5}, "gin_bonus"),
        ("classic", {"gin_bonus": True}, "gin_bonus"),
        ("classic", {"gin_bonus": None}, "gin_bonus"),
        ("classic", {"gin_bonus": [25]}, "gin_bonus"),
        ("classic", {"preset": []}, "preset"),
        ("classic", {"preset": {"a": 1}}, "preset"),
        ("classic", {"preset": "nope"}, "preset"),
        ("solitaire", {"preset": "modern"}, "preset"),
        ("classic", {"layoffs": "maybe"}, "layoffs"),
        ("classic", {"layoffs": []}, "layoffs"),
        ("classic", {"next_dealer": ["winner"]}, "next_dealer"),
        ("classic", {"next_dealer": 1}, "next_dealer"),
        ("three", {"cut_ties": {}}, "cut_ties"),
        ("classic", {"no_such": 1}, "no_such"),
        ("classic", {5: 1}, "5"),
        ("classic", {("a",): 1}, "('a',)"),
        ("classic", {"\ud800": 1}, "\\ud800"),
        ("classic", [("gin_bonus", 1)], "options of classic"),
        ("classic", "gin_bonus=1", "options of classic"),
        ("classic", 7, "options of classic"),
        ("solitaire", {"scoring": "\x1b[2J"}, "scoring"),
        ("nope", {}, "variant"),
        (["classic"], {}, "variant"),
        (None, {}, "variant"),
    ],
)
def test_bad_options_raise_the_options_error(variant: Any, options: Any, named: str) -> None:
    with pytest.raises(OptionError) as info:
        State.new(variant, options)
    message = str(info.value)
    assert named in message and "\n" not in message and len(message) < 400
    assert "\x1b" not in message  # a control character is shown escaped, never sent to a terminal


@pytest.mark.parametrize("players", ["ab", b"ab", 3, [1, 2], ["A"], ["A", "B", "C"], [["A"], "B"]])
def test_bad_player_names_raise_the_options_error(players: Any) -> None:
    with pytest.raises(OptionError, match="player"):
        State.new("classic", None, players)


def test_option_values_in_words_still_work() -> None:
    s = State.new("classic", {"gin_bonus": " +20 ", "layoffs": "no", "preset": "classic", "knock_limit": "007"})
    o = s.options
    assert isinstance(o, TableOptions)
    assert (o.gin_bonus, o.layoffs, o.undercut_bonus, o.knock_limit) == (20, False, 10, 7)


json_st = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8,
)


@settings(max_examples=100, derandomize=True, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    options=st.one_of(
        st.dictionaries(
            st.one_of(st.sampled_from([n for v in VARIANTS for n, *_ in option_help(v)] + ["preset"]), st.text()),
            json_st,
            max_size=4,
        ),
        json_st,
    ),
)
def test_any_options_are_accepted_or_refused_with_the_options_error(variant: str, options: Any) -> None:
    try:
        State.new(variant, options)
    except OptionError as exc:
        assert "\n" not in str(exc)


# --- undo by push/pop (issue 13 item 4) ------------------------------------------------------------
@settings(max_examples=20, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), steps=st.integers(1, 120))
def test_undo_takes_back_each_step_exactly(variant: str, seed: int, steps: int) -> None:
    """Every deal, action and layoff is taken back to exactly the state before it (record, every
    observation, every field), all the way to the new game; playing the same steps again gives
    the same game."""
    rng = random.Random(seed)
    state = State.new(variant, rng.choice(OPTIONS[variant]))
    seen = [snapshot(state)]
    done: list[Any] = []
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.needs_deal:
            step: Any = ("deal", rng.randrange(1 << 32))
            state.deal(seed=step[1])
        else:
            options = state.layoff_options() if state.is_hand_over else []
            step = f"layoff {rng.choice(options)}" if options and rng.random() < 0.5 else _good(state, rng)
            state.apply(step)
        done.append(step)
        seen.append(snapshot(state))
    final = state.to_record()
    for want in reversed(seen[:-1]):
        state.undo()
        assert snapshot(state) == want
    with pytest.raises(IllegalAction, match="nothing to undo"):
        state.undo()
    for step in done:
        if isinstance(step, tuple):
            state.deal(seed=step[1])
        else:
            state.apply(step)
    assert state.to_record() == final


def test_undo_of_a_clone_leaves_the_original_alone() -> None:
    state = play("hollywood", 4, 400)
    record, twin = state.to_record(), state.clone()
    while True:
        try:
            twin.undo()
        except IllegalAction:
            break
    assert twin.to_record()["hands"] == [] and state.to_record() == record
    state.undo()
    assert replay(state.to_record()).to_record() == state.to_record()


def test_the_engine_imports_no_record_code() -> None:
    """engine.py imports neither the record module nor fair deals, not even inside a function."""
    import ast
    import inspect

    import ginrummy.engine

    tree = ast.parse(inspect.getsource(ginrummy.engine))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    assert not [n for n in names if n.split(".")[-1] in ("record", "fair", "replay") or "record." in n]


# --- HandResult.defender, StrEnums, CardSet operators (issue 13 item 4) ----------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_results_say_who_defended(variant: str) -> None:
    state = State.new(variant)
    rng = random.Random(7)
    seen = 0
    while not state.is_terminal and seen < 6:
        if state.needs_deal:
            state.deal(seed=rng.randrange(1 << 32))
            continue
        state.apply(_good(state, rng))
        r = state.hand_result
        if r is None:
            continue
        seen += 1
        if r.knocker is None:
            assert r.defender is None
        elif variant in ("solitaire", "gin-solitaire"):
            assert (r.knocker, r.defender) == (0, 1)
        else:
            assert {r.knocker, r.defender} == {state.hand_dealer, state.hand_nondealer}
        assert "defender" not in r.to_json()
    assert seen


def test_phases_and_result_kinds_are_str_enums_with_the_old_strings() -> None:
    import json
    from enum import StrEnum

    from ginrummy.engine import HandResult, Phase, ResultKind

    assert issubclass(Phase, StrEnum) and issubclass(ResultKind, StrEnum)
    assert [p.value for p in Phase] == ["deal", "upcard", "draw", "discard", "opening", "over"]
    assert [k.value for k in ResultKind] == ["gin", "big-gin", "knock", "undercut", "joker", "draw", "redeal"]
    assert HandResult("knock", (1, 0), (0, 1)).result is ResultKind.KNOCK
    state = play("classic", 3, 200)
    obs = state.observation(0)
    assert type(obs["phase"]) is str and obs["phase"] == state.phase
    if state.hand_result is not None:
        assert json.dumps(state.hand_result.to_json())  # plain JSON, the same text as before
        assert type(state.hand_result.to_json()["result"]) is str


def test_card_set_operators_return_card_sets() -> None:
    a, b = CardSet.parse("As 2s 3s"), CardSet.parse("3s 4s")
    for value, want in (
        (a + b, "As 2s 3s 4s"),
        (a | b, "As 2s 3s 4s"),
        (a & b, "3s"),
        (a - b, "As 2s"),
        (a ^ b, "As 2s 4s"),
        (int(a) & b, "3s"),
    ):
        assert type(value) is CardSet and value == CardSet.parse(want)
    assert type(~a) is CardSet and len(~a) == 49 and not (~a & a)
    assert a + a == a  # a union, never a sum of masks


def test_a_game_without_an_undo_stack_plays_the_same() -> None:
    rng_a, rng_b = random.Random(9), random.Random(9)
    a, b = State.new("three"), State.new("three", undo=False)
    for state, rng in ((a, rng_a), (b, rng_b)):
        for _ in range(300):
            if state.is_terminal:
                break
            if state.needs_deal:
                state.deal(seed=rng.randrange(1 << 32))
            else:
                state.apply(_good(state, rng))
    assert a.to_record() == b.to_record()
    with pytest.raises(IllegalAction, match="no undo stack"):
        b.undo()


@pytest.mark.parametrize("deck", [5, "AcAd", [], [1.5], [["Ac"]], ["Ac"] * 52, ["Zz"]])
def test_a_bad_deck_is_refused_and_nothing_is_dealt(deck: Any) -> None:
    state = State.new("classic")
    before = snapshot(state)
    with pytest.raises(GinRummyError):
        state.deal(deck)
    assert snapshot(state) == before and state.needs_deal


@pytest.mark.parametrize("seat", [-1, 2, "0", 1.0, True, None])
def test_observations_of_no_seat_are_refused(seat: Any) -> None:
    state = play("classic", 1, 10)
    with pytest.raises(IllegalAction, match="no seat"):
        state.observation(seat)
    with pytest.raises(IllegalAction, match="no seat"):
        state.observation_masks(seat)
