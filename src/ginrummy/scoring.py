"""Scoring rules as pure functions, so the engine and the tests share one statement of each rule.

>>> table_hand_points(knocker_deadwood=5, defender_deadwood=17, gin=False, big_gin=False,
...                   gin_bonus=25, big_gin_bonus=31, undercut_bonus=25, undercut_on_tie=True)
('knock', 12, 0)
>>> solitaire_points("knock", counted=15, deadwood=6, gin_bonus=25, big_gin_bonus=31,
...                  undercut_bonus=25, undercut_on_tie=False)
('knock', 9, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from .cards import Card

__all__ = [
    "FinalPart",
    "HollywoodSheet",
    "cut_for_roles",
    "game_final",
    "game_final_parts",
    "oklahoma_knock_limit",
    "solitaire_points",
    "table_hand_points",
    "three_rotation",
]


def table_hand_points(
    *,
    knocker_deadwood: int,
    defender_deadwood: int,
    gin: bool,
    big_gin: bool,
    gin_bonus: int,
    big_gin_bonus: int,
    undercut_bonus: int,
    undercut_on_tie: bool,
) -> tuple[str, int, int]:
    """Rule 1.8: (result, knocker's points, defender's points); exactly one side scores, or none."""
    if big_gin:
        return "big-gin", defender_deadwood + big_gin_bonus, 0  # 1.8.2
    if gin:
        return "gin", defender_deadwood + gin_bonus, 0  # 1.8.1: gin is never undercut
    if knocker_deadwood < defender_deadwood:
        return "knock", defender_deadwood - knocker_deadwood, 0  # 1.8.3
    if knocker_deadwood > defender_deadwood or undercut_on_tie:
        return "undercut", 0, knocker_deadwood - defender_deadwood + undercut_bonus  # 1.8.4
    return "knock", 0, 0  # 1.8.5: a tie that is not an undercut scores nothing


def solitaire_points(
    event: str,
    *,
    counted: int,
    deadwood: int,
    gin_bonus: int,
    big_gin_bonus: int,
    undercut_bonus: int,
    undercut_on_tie: bool,
    scoring: str = "knock",
) -> tuple[str, int, int]:
    """Rules 3.5-3.9 and 4.3-4.6: (result, player's points, the Joker's points).

    ``event`` is ``gin``, ``big-gin``, ``knock`` or ``joker``; ``counted`` is C, the cards turned
    down to the joker; ``deadwood`` is D, the player's deadwood.
    """
    if scoring == "none":
        return ("joker" if event == "joker" else event), 0, 0
    if event == "joker":
        return "joker", 0, deadwood  # the Joker scores the deadwood
    if scoring == "basic":
        return event, counted, 0  # basic: the count is the score, no bonus
    if event == "big-gin":
        return "big-gin", counted + big_gin_bonus, 0
    if event == "gin":
        return "gin", counted + gin_bonus, 0
    if counted > deadwood:
        return "knock", counted - deadwood, 0
    if deadwood > counted or undercut_on_tie:
        return "undercut", 0, deadwood - counted + undercut_bonus
    return "knock", 0, 0


@dataclass(frozen=True)
class FinalPart:
    """One line of a final total (rules 1.10, 1c.3, 2.7): what it counts, as data, and its points.
    Front ends word it (``words.final_part_text``); :attr:`what` is the English line.

    >>> FinalPart("box", 50, hands=2, bonus=25).what
    'box bonus: 2 hands won × 25'
    >>> FinalPart("game_bonus", 100, game=2).what
    'game 2: game bonus'
    """

    kind: Literal["hands", "box", "game_bonus", "game_bonus_doubled", "shutout_doubled"]
    points: int
    hands: int = 0  # "box": the hands won
    bonus: int = 0  # "box": the bonus a hand; "game_bonus_doubled": the game bonus doubled
    game: int = 0  # Hollywood: which of the three games (1 to 3); 0 for a game of one

    @property
    def what(self) -> str:
        """The line in English (logs, tests, a library user's print)."""
        line = {
            "hands": "points of the hands",
            "box": f"box bonus: {self.hands} hand{'s' if self.hands != 1 else ''} won × {self.bonus}",
            "game_bonus": "game bonus",
            "game_bonus_doubled": f"game bonus, doubled for a shutout: 2 × {self.bonus}",
            "shutout_doubled": "shutout: the total doubled",
        }[self.kind]
        return f"game {self.game}: {line}" if self.game else line


def game_final(
    hand_points: Sequence[int],
    hands_won: Sequence[int],
    *,
    game_bonus: int,
    box_bonus: int,
    shutout: str,
) -> list[int]:
    """Rule 1.10: each player's final total (hand points plus end-of-game bonuses)."""
    parts = game_final_parts(hand_points, hands_won, game_bonus=game_bonus, box_bonus=box_bonus, shutout=shutout)
    return [sum(part.points for part in seat) for seat in parts]


def game_final_parts(
    hand_points: Sequence[int],
    hands_won: Sequence[int],
    *,
    game_bonus: int,
    box_bonus: int,
    shutout: str,
    game: int = 0,
) -> list[list[FinalPart]]:
    """Rule 1.10 line by line: for each player, the parts that add up to the final total (the hand
    points, the box bonus, the game bonus, a shutout's doubling); ``game`` numbers Hollywood's.

    >>> [part.what for part in game_final_parts([104, 0], [4, 0], game_bonus=100, box_bonus=25,
    ...                                           shutout="double_game_bonus")[0]]
    ['points of the hands', 'box bonus: 4 hands won × 25', 'game bonus, doubled for a shutout: 2 × 100']
    """
    winner = max(range(len(hand_points)), key=lambda i: hand_points[i])
    parts: list[list[FinalPart]] = []
    for p, w in zip(hand_points, hands_won, strict=True):
        seat = [FinalPart("hands", p, game=game)]
        if box_bonus and w:
            seat.append(FinalPart("box", box_bonus * w, hands=w, bonus=box_bonus, game=game))
        parts.append(seat)
    shut = all(p == 0 for i, p in enumerate(hand_points) if i != winner)
    if shut and shutout == "double_game_bonus":
        parts[winner].append(FinalPart("game_bonus_doubled", game_bonus * 2, bonus=game_bonus, game=game))
    else:
        parts[winner].append(FinalPart("game_bonus", game_bonus, game=game))
    if shut and shutout == "double_total":
        total = sum(part.points for part in parts[winner])
        parts[winner].append(FinalPart("shutout_doubled", total, game=game))
    return parts


@dataclass
class HollywoodSheet:
    """Rule 1c: three games scored at once. ``games[g][seat]`` is None until that seat has an entry."""

    target: int = 100
    games: list[list[int | None]] = field(default_factory=lambda: [[None, None] for _ in range(3)])
    entries: list[list[int]] = field(default_factory=lambda: [[0, 0] for _ in range(3)])
    closed: list[bool] = field(default_factory=lambda: [False, False, False])

    def enter(self, seat: int, points: int) -> list[int]:
        """Enter a won hand (rule 1c.2); returns the games it went into."""
        into = [g for g in range(3) if not self.closed[g] and self.games[g][seat] is not None]
        fresh = [g for g in range(3) if not self.closed[g] and self.games[g][seat] is None]
        if fresh:
            into.append(fresh[0])
        for g in sorted(into):
            self.games[g][seat] = (self.games[g][seat] or 0) + points
            self.entries[g][seat] += 1
            if (self.games[g][seat] or 0) >= self.target:
                self.closed[g] = True  # rule 1c.3
        return sorted(into)

    @property
    def over(self) -> bool:
        return all(self.closed)

    def settle(self, game: int, *, game_bonus: int, box_bonus: int, shutout: str) -> list[int]:
        """Rule 1c.3: one closed game settled with the rule 1.10 bonuses."""
        pts = [x or 0 for x in self.games[game]]
        return game_final(pts, self.entries[game], game_bonus=game_bonus, box_bonus=box_bonus, shutout=shutout)

    def settle_parts(self, game: int, *, game_bonus: int, box_bonus: int, shutout: str) -> list[list[FinalPart]]:
        """:meth:`settle` line by line (:func:`game_final_parts`), each part numbered with its game."""
        pts = [x or 0 for x in self.games[game]]
        return game_final_parts(
            pts, self.entries[game], game_bonus=game_bonus, box_bonus=box_bonus, shutout=shutout, game=game + 1
        )

    def to_json(self) -> dict[str, object]:
        return {"games": [list(g) for g in self.games], "closed": list(self.closed)}


def three_rotation(roles: tuple[int, int, int], outcome: str) -> tuple[int, int, int]:
    """Rule 2.6: roles (box, captain, sitter) after a hand the ``box`` won, the ``team`` won, or
    that was ``void`` (wall, or a tie nobody scored)."""
    box, captain, sitter = roles
    if outcome == "box":
        return (box, sitter, captain)
    if outcome == "team":
        return (captain, sitter, box)
    return roles


def cut_for_roles(cuts: Sequence[Card], *, cut_ties: str = "recut") -> tuple[list[int | None], list[list[int]]]:
    """Rule 2.1: from each player's cut card, the roles decided so far and the groups that re-cut.

    Returns ``(roles, recuts)``: ``roles[i]`` is the player index in role i (box, captain, sitter) or
    None while undecided; ``recuts`` lists groups of tied players who cut again for those places.
    With ``cut_ties='suit_order'`` suits break ties (clubs low, spades high) and nobody re-cuts.
    """

    def key(i: int) -> tuple[int, ...]:
        c = cuts[i]
        return (c.rank, int(c.suit)) if cut_ties == "suit_order" else (c.rank,)

    order = sorted(range(len(cuts)), key=key, reverse=True)
    roles: list[int | None] = [None] * len(cuts)
    recuts: list[list[int]] = []
    pos = 0
    while pos < len(order):
        group = [i for i in order if key(i) == key(order[pos])]
        if len(group) == 1:
            roles[pos] = group[0]
        else:
            recuts.append(sorted(group))
        pos += len(group)
    return roles, recuts


def oklahoma_knock_limit(upcard: Card, oklahoma_ace: str) -> int:
    """Rule 1b.1-1b.2: the knock limit is the upcard's value; an ace means gin only (or 1)."""
    if upcard.rank == 1:
        return 0 if oklahoma_ace == "gin_only" else 1
    return upcard.value
