"""Stepping through a finished game, forwards and back: the positions of a game record, one after
each deal and each action, for the front ends' replay viewers.

The game is over, so every hand is shown face up (a record holds every deal's seed or deck: anyone
holding it can see every card).  Each step's words come from :mod:`ginrummy.words`, the one place
that turns moves into text.  A record read from a file is checked whole first
(:func:`ginrummy.record.replay`): a bad one raises :class:`~ginrummy.errors.RecordError` naming its
field, hand and action, before any position is made.

>>> from ginrummy.session import make_session
>>> s = make_session("solitaire", deal_seed=3)
>>> s.start_hand(); _ = s.act(0, s.state.legal_actions()[0])
>>> steps = replay_steps(s.state.to_record())
>>> [step.text for step in steps][:2]
['Hand 1 is dealt.', 'You discard 5c and draw 8d']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import words
from .actions import Action
from .i18n import _
from .record import check, new_state, replay

if TYPE_CHECKING:
    from .engine import State

__all__ = ["ReplayStep", "ReplayedGame", "replay_game", "replay_steps"]


@dataclass(frozen=True)
class ReplayStep:
    """One position of a replayed game: after the deal of ``hand`` (``index`` -1) or after its
    ``index``-th action (0-based)."""

    hand: int
    index: int
    seat: int | None
    """Who acted (None for the deal)."""
    text: str
    """The step in words: the deal, or the move with the card drawn (the game is over)."""
    hands: tuple[tuple[str, ...], ...]
    """Every seat's cards, face up."""
    pile: tuple[str, ...]
    """The discard pile, top last (the solitaires: the cards discarded)."""
    stock: int
    """Cards left in the stock (the solitaires: the deck)."""
    totals: tuple[int, ...]
    result: tuple[str, ...] = ()
    """At the end of a hand: how it ended and the points, line by line."""
    phase: str = ""
    to_act: int | None = None
    """Whose turn it is at this position (None: the hand is over)."""
    outcome: dict[str, Any] | None = None
    """At the end of a hand: the result as data (:meth:`ginrummy.engine.HandResult.to_json`)."""


@dataclass(frozen=True)
class ReplayedGame:
    """A record replayed: its positions and the game as it stands at the record's end."""

    steps: list[ReplayStep]
    final: State
    """The game after the record's last action (:func:`ginrummy.record.replay`)."""
    truncated: bool
    """More positions than ``limit``: ``steps`` are the first ones."""


def replay_steps(
    record: Mapping[str, Any], *, viewer: int | None = 0, opening: bool = False, limit: int | None = None
) -> list[ReplayStep]:
    """Every position of ``record``, in order (:class:`~ginrummy.errors.RecordError` names a fault).
    ``viewer``: the seat whose moves read "You" (None: every seat by name); ``opening``: begin with
    the position before the first deal (hand 0); ``limit``: at most this many positions."""
    return replay_game(record, viewer=viewer, opening=opening, limit=limit).steps


def replay_game(
    record: Mapping[str, Any], *, viewer: int | None = 0, opening: bool = False, limit: int | None = None
) -> ReplayedGame:
    """:func:`replay_steps` with the final game.  The whole record is checked before the first
    position is made (a fault anywhere raises :class:`~ginrummy.errors.RecordError` naming the
    field, the hand and the action, as ``ginrummy replay`` reports it)."""
    final = replay(record)  # checks everything: the deck a seed deals, each action's legality
    checked = check(record)
    state = new_state(checked)
    players = words.clean_names(state.players)
    seats = ["human" if i == viewer else "computer" for i in range(state.num_seats)]
    steps: list[ReplayStep] = []

    def snap(hand: int, index: int, seat: int | None, text: str) -> None:
        result: tuple[str, ...] = ()
        r = state.hand_result
        if state.is_hand_over and r is not None:
            head = _("Hand {number}: {result}.").format(number=hand, result=words.result_name(str(r.result)))
            result = (head, *words.result_lines(r.explanation, players, seats))
        steps.append(
            ReplayStep(
                hand,
                index,
                seat,
                text,
                tuple(tuple(str(c) for c in state.hand(s)) if state.logs else () for s in range(state.num_seats)),
                tuple(str(c) for c in (state.out_of_play if state.facts.solo else state.pile)),
                len(state.stock),
                tuple(state.totals),
                result,
                str(state.phase),
                state.current_player,
                r.to_json() if state.is_hand_over and r is not None else None,
            )
        )

    if opening:
        snap(0, -1, None, _("The game begins."))

    full = False
    for hand in checked.hands:
        if limit is not None and len(steps) >= limit:
            full = True
            break
        if hand.seed is not None:
            state.deal(seed=hand.seed, commitment=hand.commitment)
        else:
            assert hand.deck is not None
            state.deal(hand.deck, commitment=hand.commitment)
        snap(hand.number, -1, None, _("Hand {number} is dealt.").format(number=hand.number))
        for text in hand.actions:
            action = Action.parse(text)
            if state.phase == "opening" and action.card is not None:
                state.apply(Action.parse("draw"))  # RECORD.md: the solitaire opening's draw is not written
            seat = state.current_player if action.kind != "layoff" else None
            before = set(state.hand(seat)) if seat is not None else set()
            top = state.pile[-1] if state.pile else None
            state.apply(action)
            log = state.logs[-1]
            seat = log.seats[-1]
            new = set(state.hand(seat)) - before if seat is not None else set()
            taken = top if action.kind == "take" else None
            drawn = next(iter(new - {taken}), None) if len(new - {taken}) == 1 else None
            move = words.move_text(
                players, seat, log.actions[-1], viewer=viewer, taken=taken, drawn=drawn, private=True
            )
            snap(hand.number, len(log.actions) - 1, seat, move)
            if limit is not None and len(steps) > limit:
                full = True
                break
    return ReplayedGame(steps[:limit] if limit is not None else steps, final, full)
