"""A finished game step by step, for the page's replay viewer: every deal and every action of its
record, with each seat's cards face up (a finished game's seeds are all revealed, so nothing in
it is secret any more).

The record is replayed once by :func:`ginrummy.record.replay`; the positions are then read off the
engine's own undo stack (each deal, action and layoff pushed a snapshot), newest first, so no rule
is applied here.  The moves are put in words by :func:`ginrummy.words.move_text`, as in the log.

>>> from ginrummy.session import Session
>>> s = Session.new("solitaire", {"scoring": "none"}, seats=["random", "joker"], deal_seed=1)
>>> while not s.state.game_over:
...     s.start_hand(); _ = s.run_computers()
>>> frames = replay_frames(s.state.to_record())["frames"]
>>> frames[0]["move"], frames[1]["move"].startswith("Hand 1")
('The game begins', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import Card
from ..engine import State
from ..errors import IllegalAction
from ..record import replay
from ..words import move_text

__all__ = ["MAX_FRAMES", "replay_frames"]

MAX_FRAMES = 5000  # a game longer than this is shown from its start up to this many positions


def _frame(st: State) -> dict[str, Any]:
    """One position: each seat's cards, the piles and the totals."""
    over = st.is_hand_over and st.hand_result is not None
    top = st.pile[-1] if st.pile else None
    return {
        "hand": st.hand_number,
        "phase": str(st.phase),
        "hands": [[str(c) for c in st.hand(seat)] if st.logs else [] for seat in range(st.num_seats)],
        "top": None if top is None else str(top),
        "pile": len(st.pile),
        "stock": len(st.stock),
        "to_act": st.current_player,
        "totals": list(st.totals),
        "result": st.hand_result.to_json() if over and st.hand_result is not None else None,
    }


def replay_frames(record: Mapping[str, Any]) -> dict[str, Any]:
    """The positions of a finished game's ``record``, from before the first deal to the end, each
    with ``move``, the step that led to it in words (a deal, or a move as the log words it)."""
    state = replay(record)
    players = list(state.players)
    steps: list[tuple[dict[str, Any], tuple[int, int]]] = []
    while True:
        log = state.logs[-1] if state.logs else None
        steps.append((_frame(state), (state.hand_number, len(log.actions) if log else 0)))
        try:
            state.undo()
        except IllegalAction:  # back before the first deal
            break
    steps.reverse()
    frames: list[dict[str, Any]] = []
    final = replay(record)  # the whole record, to name each step's action
    for i, (frame, (hand, n)) in enumerate(steps[:MAX_FRAMES]):
        if i == 0:
            frame["move"] = "The game begins"
        elif n == 0:
            frame["move"] = f"Hand {hand} is dealt"
        else:
            log = final.logs[hand - 1]
            seat, action = log.seats[n - 1], log.actions[n - 1]
            before = frames[-1]["hands"][seat] if seat is not None else []
            new = [c for c in frame["hands"][seat] if c not in before] if seat is not None else []
            taken = frames[-1]["top"] if action.kind == "take" else None
            drawn = next((c for c in new if c != taken), None) if action.kind != "take" else None
            frame["move"] = move_text(
                players,
                seat,
                action,
                viewer=None,
                you=False,
                taken=None if taken is None else Card.parse(taken),
                drawn=None if drawn is None else Card.parse(drawn),
                private=True,
            )
            frame["seat"] = seat
        frames.append(frame)
    return {
        "variant": state.variant,
        "players": players,
        "frames": frames,
        "final_totals": final.final_totals() if final.game_over else None,
    }
