"""The game, not the hand: the chance of winning a game to a target from the two scores.

Where a game pays nothing but the win (no box and no game bonus, as in the EAAI challenge's
scoring), a hand's points matter only through the scores they lead to: ten points that reach the
target are worth the game, ten more after it nothing, and a gin's bonus is often wasted at the end.
:func:`win_chance` is the chance that the player to act wins the game from scores ``(a, b)``
under a plain model of equal players: each hand is won by either side with even odds, and the
winner scores a number of points drawn from :data:`WIN_POINTS` (a rough distribution of what a
won hand scores: knocks of a few points to gins with a big count).  The table is exact for that
model (a backward recursion over the scores).

:func:`game_correction` turns an action's outcomes (won with some points, or lost with some) into
a correction in points: the chance of winning the game it gives, divided by the local slope of
:func:`win_chance` (points for chance), minus its expected points.  Far from the target the chance
is about linear in points and the correction about zero; near it, it favours what ends the game
(or keeps the opponent from ending it) over what merely scores.

>>> round(win_chance(0, 0, 100), 3)
0.5
>>> win_chance(95, 0, 100) > win_chance(0, 95, 100)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from .expert_values import Params
from .knowledge import Knowledge, obs_variant

__all__ = [
    "WIN_POINTS",
    "game_correction",
    "game_of",
    "gin_hunter",
    "knock_for_game",
    "outcomes_of_knock",
    "outcomes_of_playing_on",
    "play_on_for_game",
    "points_a_win",
    "style_bias",
    "win_chance",
    "win_target",
]

WIN_POINTS: Final[tuple[tuple[int, float], ...]] = (
    (8, 0.12),
    (15, 0.14),
    (22, 0.12),
    (27, 0.20),
    (32, 0.20),
    (40, 0.14),
    (55, 0.08),
)
"""(points, chance): what the winner of a hand scores, roughly (mean 27.5)."""
MEAN_WIN: Final = sum(x * p for x, p in WIN_POINTS)

Outcomes = Sequence[tuple[float, float]]  # (points to the player to act; negative: to the opponent, chance)


@lru_cache(maxsize=8)
def _table(target: int) -> tuple[tuple[float, ...], ...]:
    t = max(1, target)
    w = [[0.0] * t for _ in range(t)]
    for a in range(t - 1, -1, -1):
        row = w[a]
        for b in range(t - 1, -1, -1):
            s = 0.0
            for x, p in WIN_POINTS:
                s += p * (1.0 if a + x >= t else w[a + x][b])
                s += p * (0.0 if b + x >= t else row[b + x])
            row[b] = s / 2.0
    return tuple(tuple(r) for r in w)


def win_chance(a: float, b: float, target: int) -> float:
    """The chance that the player with ``a`` points wins a game to ``target`` against ``b``."""
    if a >= target:
        return 1.0
    if b >= target:
        return 0.0
    table = _table(target)
    return table[max(0, int(a))][max(0, int(b))]


def outcomes_of_knock(win: float, lose: float, undercut: float) -> list[tuple[float, float]]:
    """A knock's outcomes: won by about ``win`` points (spread 0.4x to 1.6x), or undercut
    (chance ``undercut``) for about ``lose`` points."""
    ok = 1.0 - undercut
    out = [(win * f, ok / 3.0) for f in (0.4, 1.0, 1.6)]
    out += [(-(lose - 2.0), undercut / 2.0), (-(lose + 2.0), undercut / 2.0)]
    return out


def outcomes_of_playing_on(expected: float) -> list[tuple[float, float]]:
    """Playing on with ``expected`` points: the hand won or lost with :data:`WIN_POINTS`, with
    the chance of winning it that gives that expectation."""
    q = min(0.98, max(0.02, (expected / MEAN_WIN + 1.0) / 2.0))
    return [(float(x), q * p) for x, p in WIN_POINTS] + [(-float(x), (1.0 - q) * p) for x, p in WIN_POINTS]


def game_correction(outcomes: Outcomes, mine: int, theirs: int, target: int) -> float:
    """Points to add to an action's expected points so that actions compare by the chance of
    winning the game (see the module docstring); 0 where the game is decided."""
    w0 = win_chance(mine, theirs, target)
    slope = (win_chance(mine + MEAN_WIN, theirs, target) - win_chance(mine, theirs + MEAN_WIN, target)) / (
        2.0 * MEAN_WIN
    )
    if slope <= 1e-4:
        return 0.0
    g = 0.0
    e = 0.0
    for x, p in outcomes:
        e += x * p
        g += p * (win_chance(mine + x, theirs, target) if x >= 0 else win_chance(mine, theirs - x, target))
    return (g - w0) / slope - e


# --- the expert's use ------------------------------------------------------------------------------
Game = tuple[int, int, int]  # (my total, the opponent's, the target)


def win_target(observation: Mapping[str, Any]) -> int | None:
    """The target of a two-player game to a target that pays only its win (no box, no game
    bonus), else ``None``: read from the observation alone, before any card tracking."""
    v = obs_variant(observation)
    o: Mapping[str, Any] = observation.get("options") or {}
    if v is None or v.roles or v.target_option != "game_target" or o.get("box_bonus") or o.get("game_bonus"):
        return None
    totals = observation.get("totals") or []
    target = int(o.get("game_target") or 0)
    if len(totals) != 2 or target <= 0:
        return None
    return target


def game_of(k: Knowledge, observation: Mapping[str, Any]) -> Game | None:
    """(my total, the opponent's, the target) in a two-player game to a target that pays only
    its win (no box, no game bonus), else ``None``."""
    target = win_target(observation)
    if target is None:
        return None
    totals = observation.get("totals") or []
    return int(totals[k.seat]), int(totals[k.opp]), target


def play_on_for_game(game: Game | None, value: float, stock: int, wall: int) -> float:
    """``value`` (the expected points of playing on) corrected by the chance of winning the game."""
    if game is None or stock <= wall:
        return value
    return value + game_correction(outcomes_of_playing_on(value), *game)


def knock_for_game(game: Game | None, p: Params, dk: int, stock: int, undercut_bonus: float, under: float) -> float:
    """The correction of a knock with deadwood ``dk`` (undercut chance ``under``) by the chance
    of winning the game (0 where only points count)."""
    if game is None:
        return 0.0
    win = max(1.0, p.w0 + p.w_s * stock + p.w_dk * dk)
    return game_correction(outcomes_of_knock(win, undercut_bonus + 2.2, under), *game)


def points_a_win(k: Knowledge, observation: Mapping[str, Any]) -> tuple[int, float]:
    """(hands the opponent has won in this game, its points a hand won), from the public totals
    and hands won."""
    won = observation.get("hands_won") or []
    totals = observation.get("totals") or []
    if len(won) <= k.opp or len(totals) <= k.opp or not won[k.opp]:
        return 0, 0.0
    return int(won[k.opp]), float(totals[k.opp]) / float(won[k.opp])


def gin_hunter(k: Knowledge, observation: Mapping[str, Any], points: float) -> bool:
    """Whether the opponent has won its hands of this game with at least ``points`` a hand on
    average (gins, rarely knocks: a player that waits for gin with a low count)."""
    won, each = points_a_win(k, observation)
    return won > 0 and each >= points


def style_bias(k: Knowledge, observation: Mapping[str, Any], p: Params) -> float:
    """The knock bias for the opponent's style so far in the game (:class:`Params` ``hunter_*``
    and ``knocker_*``): 0 until it has won a hand."""
    won, each = points_a_win(k, observation)
    if won and each >= p.hunter_points:
        return p.hunter_knock_bias
    if won >= 2 and each < p.knocker_points:
        return p.knocker_knock_bias
    return 0.0
