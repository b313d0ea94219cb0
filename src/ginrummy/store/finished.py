"""A game in the history (:class:`FinishedGame`), and reading one back from its row."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..i18n import _
from .values import _BadValue, _integer, _json, _json_list, _json_object, _number, _text, _when

__all__ = ["FinishedGame"]


@dataclass(frozen=True)
class FinishedGame:
    """A game in the history: its record, its summary and the points of each hand."""

    id: str
    variant: str
    players: list[str]
    seats: list[str]
    player_seat: int  # the person's seat (the first human seat; -1: a watched game, computers only)
    started_at: str
    finished_at: str
    hands: int
    totals: list[int]
    final_totals: list[int]
    winner: int | None
    hand_points: list[list[int]]
    record: dict[str, Any] = field(repr=False)
    summary: dict[str, Any] = field(repr=False)
    accuracy: float | None = None
    analysis: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def won(self) -> bool:
        return not self.watched and self.winner == self.player_seat

    @property
    def takebacks(self) -> int:
        """Decisions taken back with undo in this game (0 for games filed before they were counted)."""
        value = self.summary.get("takebacks", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    @property
    def watched(self) -> bool:
        """Only computers played (somebody watched): the game is in nobody's history.  Games filed
        before this was kept have seat 0 as their ``player_seat``; their seats tell."""
        return self.player_seat < 0 or "human" not in self.seats

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _finished(r: tuple[Any, ...]) -> FinishedGame:
    """A history row as a :class:`FinishedGame`; :class:`_BadValue` names the first damaged value."""
    hand_points = _json(r[11], "hand_points")
    if not isinstance(hand_points, list) or not all(
        isinstance(p, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in p) for p in hand_points
    ):
        raise _BadValue(_("{name} is not a list of lists of integers").format(name="hand_points"))
    accuracy = r[14]
    if accuracy is not None:
        accuracy = _number(accuracy, "accuracy")
    winner = r[10]
    if winner is not None:
        winner = _integer(winner, "winner")
    return FinishedGame(
        id=_text(r[0], "id"),
        variant=_text(r[1], "variant"),
        players=_json_list(r[2], "players", str),
        seats=_json_list(r[3], "seats", str),
        player_seat=_integer(r[4], "player_seat"),
        started_at=_when(r[5], "started_at"),
        finished_at=_when(r[6], "finished_at"),
        hands=_integer(r[7], "hands"),
        totals=_json_list(r[8], "totals", int),
        final_totals=_json_list(r[9], "final_totals", int),
        winner=winner,
        hand_points=hand_points,
        record=_json_object(r[12], "record"),
        summary=_json_object(r[13], "summary"),
        accuracy=accuracy,
        analysis=None if r[15] is None else _json_object(r[15], "analysis"),
    )
