"""A finished game step by step, for the page's replay viewer: every deal and every action of its
record, with each seat's cards face up (a finished game's seeds are all revealed, so nothing in
it is secret any more).

The positions and their words are :func:`ginrummy.replays.replay_steps`', the terminal's replay
viewer's too; this module only puts them in the page's message.

>>> from ginrummy.session import Session
>>> s = Session.new("solitaire", {"scoring": "none"}, seats=["random", "joker"], deal_seed=1)
>>> while not s.state.game_over:
...     s.start_hand(); _ = s.run_computers()
>>> frames = replay_frames(s.state.to_record())["frames"]
>>> frames[0]["move"], frames[1]["move"].startswith("Hand 1")
('The game begins.', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RecordError
from ..i18n import _, current_language, ngettext
from ..record import decode, parse_records
from ..replays import ReplayStep, replay_game

__all__ = ["MAX_FRAMES", "MAX_RECORD_BYTES", "record_frames", "replay_frames"]

MAX_FRAMES = 5000  # a game longer than this is shown from its start up to this many positions
MAX_RECORD_BYTES = 256 * 1024
"""The largest record file the page may send (about two hundred hands of explicit decks)."""


def _frame(step: ReplayStep) -> dict[str, Any]:
    """One position: the move that led to it, each seat's cards, the piles and the totals."""
    frame: dict[str, Any] = {
        "hand": step.hand,
        "phase": step.phase,
        "hands": [list(cards) for cards in step.hands],
        "top": step.pile[-1] if step.pile else None,
        "pile": len(step.pile),
        "stock": step.stock,
        "to_act": step.to_act,
        "totals": list(step.totals),
        "result": step.outcome,
        "move": step.text,
    }
    if step.outcome and step.result and current_language() != "en":
        # the engine's English explanation of the hand's score, said again from the catalog
        frame["result"] = {**step.outcome, "explanation": list(step.result[1:])}
    if step.seat is not None:
        frame["seat"] = step.seat
    return frame


def replay_frames(record: Mapping[str, Any]) -> dict[str, Any]:
    """The positions of a finished game's ``record``, from before the first deal to the end, each
    with ``move``, the step that led to it in words (a deal, or a move as the log words it)."""
    game = replay_game(record, viewer=None, opening=True, limit=MAX_FRAMES)
    final = game.final
    return {
        "variant": final.variant,
        "players": list(final.players),
        "frames": [_frame(step) for step in game.steps],
        "truncated": game.truncated,
        "final_totals": final.final_totals() if final.game_over else None,
    }


def record_frames(data: bytes, index: int = 0) -> dict[str, Any]:
    """A record file the page sent (``data``: its bytes, one record or several as ``ginrummy
    export`` writes them), its record ``index`` (0-based) step by step: :func:`replay_frames`
    with ``records``, how many the file holds, and ``record``, which one this is.

    The whole file is read as the ``replay`` command reads it and the chosen record is checked
    whole before a position is made: anything wrong raises :class:`~ginrummy.errors.RecordError`,
    one line naming the record, its field, hand and action (the other records of a file are
    checked when they are chosen).

    >>> record_frames(b'{"variant": "canasta", "hands": []}')
    Traceback (most recent call last):
    ...
    ginrummy.errors.RecordError: variant: unknown variant 'canasta'; expected one of classic, ...
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(_("record: larger than {size} KiB, too large to send").format(size=MAX_RECORD_BYTES // 1024))
    records = parse_records(decode(data))
    if not 0 <= index < len(records):
        held = ngettext("the file holds {n} record", "the file holds {n} records", len(records))
        raise RecordError(
            _("record: no record {number}: {held}").format(number=index + 1, held=held.format(n=len(records)))
        )
    try:
        frames = replay_frames(records[index])
    except RecordError as exc:
        if len(records) == 1:
            raise
        raise RecordError(_("records[{i}] (record {n}): {error}").format(i=index, n=index + 1, error=exc)) from None
    return {"records": len(records), "record": index, **frames}
