"""Hints: the best action for a seat, every legal alternative ranked, and one sentence of why.

>>> from ginrummy.engine import State
>>> s = State.new("classic"); s.deal(seed=11)
>>> seat = s.current_player
>>> adv = advise(s.observation(seat), s.legal_actions(), "classic")
>>> adv.best in s.legal_actions() and {a for a, _ in adv.ranked} == set(s.legal_actions())
True

Table games use the ``expert``'s choice (:func:`ginrummy.agents.expert.choose`: its evaluation,
and its search of close calls where the rules in play turn that on).  The solitaires use the
solitaire planner's ``advise_solitaire`` when :mod:`ginrummy.agents.solitaire` provides it, and
otherwise a greedy ranking by deadwood and outs.  In ``three`` the sitter's observation (which
shows the captain's hand) is turned into the captain's view, so the sitter gets advice on the
captain's play.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import i18n
from ..actions import Action
from ..melds import best_discards, min_deadwood
from .expert import TABLE_VARIANTS, choose, evaluate, reason
from .knowledge import VALUES, card_mask, iter_cards
from .reasons import N_, Joined, Message, Value, move, ngettext

__all__ = ["Advice", "advise"]


@dataclass(frozen=True)
class Advice:
    """``best``: the recommended action; ``ranked``: every legal action with its estimated value,
    best first; ``why``: one sentence.

    Units of the values: in the table games, the expected points of the hand for the player to
    act, as the expert estimates them (positive: the player expects to score; a knock's value is
    its expected showdown result, a discard's the expected result of playing on), counting the box
    bonus that each hand won brings at the end of the game where the variant pays one.  In the
    solitaires, the planner's own estimate when it provides one, else *greedy points*: minus the
    deadwood kept plus half a point per out (unseen card that would lower it), with going out
    ranked first (gin 100, knock 50 minus the deadwood)."""

    best: Action
    ranked: list[tuple[Action, float]]
    why: Value  # data (ginrummy.agents.reasons), worded by ginrummy.words.reason_text for each reader


def advise(observation: Mapping[str, Any], legal: Sequence[Action], variant: str) -> Advice:
    """The advice for the seat whose observation this is (it must be that seat's turn, or the
    sitter's view in ``three``), choosing only among ``legal``."""
    legal = list(legal)
    if not legal:
        raise ValueError(i18n._("no legal action: nothing to advise"))
    if variant in TABLE_VARIANTS:
        return _table(_captain_view(observation), legal)
    return _solitaire(observation, legal, variant)


def _captain_view(obs: Mapping[str, Any]) -> Mapping[str, Any]:
    """Rule 2.2: the sitter advises on the captain's hand."""
    roles = obs.get("roles")
    if not roles or "captain_hand" not in obs or obs.get("seat") != roles.get("sitter"):
        return obs
    captain, box = roles["captain"], roles["box"]
    view = dict(obs)
    view["seat"] = captain
    view["hand"] = list(obs["captain_hand"])
    known = obs.get("known_cards") or {}
    view["known_cards"] = {str(box): list(known.get(str(box), []))}
    return view


def _table(obs: Mapping[str, Any], legal: list[Action]) -> Advice:
    # The expert's own choice (with its search of close calls where that is on), so that a hint
    # never names a weaker move than the computer would play in the seat.
    # (The search sees the values the computer's own evaluation gives, which leaves out actions
    # that cannot be best; every legal action's value, for the ranking, comes from a full one.)
    ev, best = choose(obs, legal)
    every = evaluate(obs, legal, full=True).values
    values = {a: every.get(a, float("-inf")) for a in legal}
    ranked = sorted(legal, key=lambda a: (a != best, -values[a], a.id))
    return Advice(best, [(a, round(values[a], 2)) for a in ranked], reason(ev, best))


# --- the solitaires -------------------------------------------------------------------------------
def _solitaire(obs: Mapping[str, Any], legal: list[Action], variant: str) -> Advice:
    # Duck typing: the planner lives in another module and may not offer advice (yet).
    try:
        module = importlib.import_module(f"{__package__}.solitaire")
    except ImportError:
        return _greedy_solo(obs, legal)
    planner: Callable[..., Any] | None = getattr(module, "advise_solitaire", None)
    if planner is None:
        return _greedy_solo(obs, legal)
    try:
        got = planner(obs, legal, variant)
    except TypeError:
        got = planner(obs, legal)
    adv = _coerce(got, legal)
    return adv if adv is not None else _greedy_solo(obs, legal)


def _coerce(got: Any, legal: list[Action]) -> Advice | None:
    """Accept the planner's answer as an Advice, an object with best/ranked/why, a
    (best, ranked, why) tuple, or a ranking; keep only legal actions, and all of them."""
    best: Any = None
    ranked: Any = None
    why: Value = ""
    if hasattr(got, "best") and hasattr(got, "ranked"):
        best, ranked, why = got.best, got.ranked, _why(getattr(got, "why", ""))
    elif isinstance(got, tuple) and len(got) == 3:
        best, ranked, why = got[0], got[1], _why(got[2])
    elif isinstance(got, Mapping):
        ranked = list(got.items())
    elif isinstance(got, list):
        ranked = got  # best first
        if got:
            best = got[0][0]
    else:
        return None

    def act(x: Any) -> Action | None:
        try:
            a = x if isinstance(x, Action) else Action.parse(str(x))
        except Exception:
            return None
        return a if a in legal else None

    values: dict[Action, float] = {}
    for item in ranked or []:
        try:
            a, v = act(item[0]), float(item[1])
        except (TypeError, ValueError, IndexError):
            continue
        if a is not None and a not in values:
            values[a] = v
    if not values:
        return None
    b = act(best) if best is not None else None
    if b is None:
        b = max(values, key=lambda a: values[a])
    low = min(values.values()) - 1.0
    for a in legal:  # everything legal is listed, unranked ones last
        values.setdefault(a, low)
    order = sorted(legal, key=lambda a: (a != b, -values[a], a.id))
    if not why:
        why = N_("{move}: the solitaire planner rates it best ({value}).", move=move(b), value=f"{values[b]:.3g}")
    return Advice(b, [(a, values[a]) for a in order], why)


def _why(got: Any) -> Value:
    """The planner's explanation: kept as data (a reason), or as text when it words its own."""
    return got if isinstance(got, (Message, Joined)) else str(got or "")


def _greedy_solo(obs: Mapping[str, Any], legal: list[Action]) -> Advice:
    hand = card_mask(obs.get("hand") or [])
    unseen = iter_cards(card_mask(obs.get("unseen") or []))
    values: dict[Action, float] = {}
    notes: dict[Action, Value] = {}
    for a in legal:
        if a.kind == "gin":
            kept = hand if a.card is None else hand & ~(1 << int(a.card))
            values[a] = 100.0 + (1.0 if a.card is None else 0.0)
            if a.card is None:
                notes[a] = N_("gin: every card is melded")
            else:
                notes[a] = N_("gin: every card is melded after throwing {card}", card=a.card)
        elif a.kind == "knock":
            kept = hand if a.card is None else hand & ~(1 << int(a.card))
            d = min_deadwood(kept)
            values[a] = 50.0 - d
            notes[a] = N_("knock with deadwood {deadwood}", deadwood=d)
        elif a.kind == "discard" and a.card is not None:
            kept = hand & ~(1 << int(a.card))
            d = min_deadwood(kept)
            outs = sum(1 for u in unseen if best_discards(kept | (1 << u))[0] < d)
            values[a] = -d + 0.5 * outs + 0.01 * VALUES[int(a.card)]
            notes[a] = ngettext(
                "keeps deadwood {deadwood} with {n} outs",
                "keeps deadwood {deadwood} with {n} outs",
                outs,
                deadwood=d,
                n=outs,
            )
        else:  # draw
            d = min_deadwood(hand)
            values[a] = -d
            notes[a] = N_("draw to improve deadwood {deadwood}", deadwood=d)
    best = max(legal, key=lambda a: (values[a], -a.id))
    ranked = sorted(legal, key=lambda a: (-values[a], a.id))
    why = N_("{move}: {note}.", move=move(best), note=notes[best])
    return Advice(best, [(a, round(values[a], 2)) for a in ranked], why)
