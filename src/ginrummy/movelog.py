"""The move log of a game in play: what the session saw of each move (:class:`MoveEvent`), the
roles of three-player gin, and the privacy rule of the log (who may read a move's private part),
for :class:`ginrummy.session.Session`, which inherits it (:class:`MoveLog`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from . import words
from .actions import Action
from .agents.reasons import Value
from .cards import Card
from .engine import State
from .variants import find_variant

__all__ = ["MoveEvent", "MoveLog", "Roles"]


@dataclass(frozen=True)
class MoveEvent:
    """One move of a hand as the session saw it.  ``seat``, ``action`` and ``taken`` are public;
    ``drawn`` (the card a stock draw gave, or a solitaire's next card) and ``reason`` (a computer
    player's reasons, about its own cards) are private to the seats that may see that hand,
    until the hand is over (:meth:`Session.may_see`).  ``reason`` is data
    (:mod:`ginrummy.agents.reasons`), worded for each viewer in the viewer's language; text only
    in a game saved before reasons were data (shown as it was written)."""

    hand: int  # 1-based hand number
    index: int  # position among the hand's actions
    seat: int | None
    action: Action
    taken: Card | None = None
    drawn: Card | None = None
    reason: Value | None = None


class Roles(NamedTuple):
    """Three-player gin: who is in the box, who captains, who sits out (and sees the captain's hand)."""

    box: int
    captain: int
    sitter: int


class MoveLog:
    """The move log of :class:`ginrummy.session.Session`: its moves of a hand, the roles, and the
    words of each move for one viewer, built by :mod:`ginrummy.words`."""

    state: State
    # What the session saw of each move beyond the public action: (hand, index) -> (taken, drawn, reason).
    _notes: dict[tuple[int, int], tuple[Card | None, Card | None, Value | None]]

    def moves(self, hand: int | None = None) -> list[MoveEvent]:
        """The moves of ``hand`` (default: the hand in play, or the one just over), in order."""
        st = self.state
        n = st.hand_number if hand is None else hand
        if not 1 <= n <= len(st.logs):
            return []
        log = st.logs[n - 1]
        out = []
        for i, (act, seat) in enumerate(zip(log.actions, log.seats, strict=True)):
            taken, drawn, reason = self._notes.get((n, i), (None, None, None))
            out.append(MoveEvent(n, i, seat, act, taken, drawn, reason))
        return out

    def roles(self) -> Roles | None:
        """Three: the box, captain and sitter of the hand in play (or just over); None otherwise."""
        st = self.state
        if not find_variant(st.variant).roles or not st.logs:
            return None
        box, captain = st.hand_dealer, st.hand_nondealer
        return Roles(box, captain, 3 - box - captain)

    def sees_hand(self, viewer: int | None, seat: int | None) -> bool:
        """May ``viewer`` see ``seat``'s cards during the hand: its own, or the sitter the captain's
        (rule 2.2).  ``None`` is a spectator, who sees no hand."""
        if viewer is None or seat is None:
            return False
        if viewer == seat:
            return True
        roles = self.roles()
        return roles is not None and viewer == roles.sitter and seat == roles.captain

    def hands_shown(self, hand: int | None = None) -> bool:
        """Is ``hand`` (default: the latest) over with the hands laid on the table (a knock or a
        gin: the spread)?  A hand that ends at the wall shows no cards, so what was drawn in it
        stays private (in the solitaires only the player has a view, and it sees its own)."""
        st = self.state
        if (hand is not None and hand != st.hand_number) or not st.is_hand_over or st.hand_result is None:
            return False
        return st.hand_result.knocker is not None and not find_variant(st.variant).solo

    def may_see(self, viewer: int | None, event: MoveEvent) -> bool:
        """May ``viewer`` read ``event``'s private part (the card drawn, the computer's reasons)?
        Its own seat (or the sitter the captain's) always; anyone once the hands are shown."""
        return self.sees_hand(viewer, event.seat) or self.hands_shown(event.hand)

    def move_text(self, event: MoveEvent, viewer: int | None, *, you: bool = True) -> str:
        """``event`` in words for ``viewer`` (``you=False``: names, even for the viewer's own moves)."""
        return words.move_text(
            self.state.players,
            event.seat,
            event.action,
            viewer=viewer,
            you=you,
            taken=event.taken,
            drawn=event.drawn,
            reason=event.reason,
            private=self.may_see(viewer, event),
        )

    def log_text(self, viewer: int | None, hand: int | None = None, *, you: bool = True) -> list[str]:
        """The move log of ``hand`` (default: the latest) as ``viewer`` may read it."""
        return [self.move_text(e, viewer, you=you) for e in self.moves(hand)]

    def reasons_text(self, viewer: int | None, hand: int | None = None) -> list[str]:
        """The computer players' reasons for their moves of ``hand``, for ``viewer``: the hand's
        review once it is over with the hands shown; otherwise only a seat's own (or the
        captain's, for the sitter)."""
        return [
            words.reason_line(self.state.players, e.seat, e.action, e.reason)
            for e in self.moves(hand)
            if e.reason and self.may_see(viewer, e)
        ]
