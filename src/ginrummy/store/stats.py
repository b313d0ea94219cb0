"""The statistics players look for, made from the history of finished games: per variant, and
within it per opponent and per playing level, the games and wins, points per hand, gins,
undercuts, streaks, the best and worst hands and games, and the running average over time.

Pure functions over :class:`~ginrummy.store.finished.FinishedGame` rows (oldest first), so that
every front end asks one thing (:meth:`ginrummy.store.Store.stats`) and shows the same figures.
A game that only computers played (watched) is in nobody's history and never reaches here.

>>> summarise([])["games"], summarise([])["streak"]
(0, {'current': 0, 'best': 0, 'worst': 0})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError
from ..options import ThreeOptions
from ..scoring import three_rotation
from ..variants import find_variant
from .finished import FinishedGame

__all__ = ["HandOutcome", "hand_outcomes", "opponent_of", "summarise", "variant_stats"]

GINS = ("gin", "big-gin")


@dataclass(frozen=True)
class HandOutcome:
    """One hand of a finished game, from the person's seat."""

    number: int
    """1-based, counting the hands that were played (a solitaire redeal is not a hand)."""
    result: str
    """How it ended: gin, big-gin, knock, undercut, joker, draw (the wall)."""
    net: int
    """The person's points minus the other seats' together."""
    scored: int
    """The person's own points."""
    knocker: int | None
    """The seat that knocked or went gin (None: nobody, or unknown)."""
    sat_out: bool = False
    """Three-player Gin: the person was the sitter, who holds no cards and never scores (rules 2.2,
    2.5): not a hand the person played, so in none of the per-hand figures."""


def hand_outcomes(game: FinishedGame) -> list[HandOutcome]:
    """The hands of ``game`` as the person saw them.  The knocker comes from the summary filed with
    the game (``knocker`` on each hand); for a game filed without it, it follows from who scored
    (the knocker scores a gin or a knock, the defender an undercut; in three-player Gin, of the box
    and the captain of that hand).  In three-player Gin each hand also says whether the person sat
    it out as the sitter (:func:`three_roles`)."""
    p = game.player_seat
    hands = [h for h in game.summary.get("hands", ()) if isinstance(h, dict) and h.get("result") != "redeal"]
    roles = three_roles(game)
    out = []
    for i, pts in enumerate(game.hand_points):
        info = hands[i] if i < len(hands) else {}
        result = str(info.get("result", ""))
        mine = pts[p] if p < len(pts) else 0
        these = roles[i] if i < len(roles) else None
        knocker = info.get("knocker") if "knocker" in info else _knocker_from_points(result, pts, these)
        sat_out = these is not None and these[2] == p
        out.append(HandOutcome(i + 1, result, mine - (sum(pts) - mine), mine, knocker, sat_out))
    return out


def _scorer(pts: Sequence[int]) -> int | None:
    """The one seat that scored in a hand (None: nobody did, or not one seat alone)."""
    scorers = [i for i, x in enumerate(pts) if x > 0]
    return scorers[0] if len(scorers) == 1 else None


def _knocker_from_points(result: str, pts: Sequence[int], roles: tuple[int, int, int] | None = None) -> int | None:
    if result not in (*GINS, "knock", "undercut"):
        return None
    if roles is None and len(pts) != 2:
        return None
    scorer = _scorer(pts)
    if scorer is None:
        return None
    if result != "undercut":
        return scorer
    players = (0, 1) if roles is None else roles[:2]  # who held cards: both seats, or the box and the captain
    return players[1] if scorer == players[0] else players[0]


def three_roles(game: FinishedGame) -> list[tuple[int, int, int] | None]:
    """Three-player Gin: each hand's roles (box, captain, sitter), from the first hand's (the
    record's options ``first_box``, ``first_captain``, set by the cut) and the rotation after each
    hand by who scored (rule 2.6, :func:`ginrummy.scoring.three_rotation`); None for every hand of
    the other variants or of a record whose first roles cannot be read."""
    unknown: list[tuple[int, int, int] | None] = [None] * len(game.hand_points)
    try:
        if not find_variant(game.variant).roles:
            return unknown
    except OptionError:  # a variant this version does not know
        return unknown
    options = game.record.get("options") if isinstance(game.record, dict) else None
    options = options if isinstance(options, dict) else {}
    box, captain = options.get("first_box", _THREE.first_box), options.get("first_captain", _THREE.first_captain)
    if type(box) is not int or type(captain) is not int or box == captain or not {box, captain} <= {0, 1, 2}:
        return unknown
    roles = (box, captain, 3 - box - captain)
    out: list[tuple[int, int, int] | None] = []
    for pts in game.hand_points:
        out.append(roles)
        scorer = _scorer(pts)
        roles = three_rotation(roles, "void" if scorer is None else "box" if scorer == roles[0] else "team")
    return out


_THREE = ThreeOptions()


def opponent_of(game: FinishedGame) -> str:
    """Who the person played against: the other seats' players (``expert``, ``beginner``,
    ``joker``...), one name when they are all the same, else joined by `` + ``."""
    others = [k for i, k in enumerate(game.seats) if i != game.player_seat]
    names = sorted(set(others))
    return " + ".join(names) if names else "nobody"


def _streaks(wins: Iterable[bool]) -> dict[str, int]:
    """``current``: the run at the end (wins positive, losses negative); ``best``: the longest run
    of wins; ``worst``: the longest run of losses."""
    current = best = worst = 0
    for won in wins:
        if won:
            current = current + 1 if current > 0 else 1
            best = max(best, current)
        else:
            current = current - 1 if current < 0 else -1
            worst = max(worst, -current)
    return {"current": current, "best": best, "worst": worst}


def summarise(games: Sequence[FinishedGame]) -> dict[str, Any]:
    """The figures of some games (oldest first), JSON-ready:

    ``games``, ``wins``, ``losses``, ``win_rate``, ``hands`` (the hands the person played: in
    three-player Gin not those sat out as the sitter, who holds no cards and never scores, counted
    in ``sat_out``; every per-hand figure below counts the hands played only); ``points_per_hand``
    (the person's points minus the opponents', per hand) and ``scored_per_hand`` (the person's own);
    ``running_average`` (points per hand over all games so far, one value per game) and
    ``game_averages`` (each game's own points per hand); ``gins`` (hands the person won by gin or
    big gin), ``big_gins``, ``knocks`` (hands the person knocked), ``undercuts`` (the person
    undercut a knock) and ``undercut`` (the person's knocks that were undercut); ``streak``
    (``current``, ``best``, ``worst``: see :func:`_streaks`); ``best_hand`` and ``worst_hand``
    (``game``, ``hand``, ``points``, ``result``, ``finished_at``: the person's net points, the
    first such hand on a tie), ``best_game`` and ``worst_game`` (``game``, ``margin``: the person's
    final total minus the best other seat's, ``final_totals``, ``finished_at``), None without games;
    ``accuracy`` (the mean, where analysed), ``accuracy_history`` and ``takeback_games`` (games
    in which moves were taken back)."""
    s: dict[str, Any] = {
        "games": len(games),
        "wins": sum(g.won for g in games),
        "losses": 0,
        "win_rate": 0.0,
        "hands": 0,
        "sat_out": 0,
        "points_per_hand": 0.0,
        "scored_per_hand": 0.0,
        "running_average": [],
        "game_averages": [],
        "gins": 0,
        "big_gins": 0,
        "knocks": 0,
        "undercuts": 0,
        "undercut": 0,
        "streak": _streaks(g.won for g in games),
        "best_hand": None,
        "worst_hand": None,
        "best_game": None,
        "worst_game": None,
        "accuracy": None,
        "accuracy_history": [],
        "takeback_games": sum(g.takebacks > 0 for g in games),
    }
    net_all = scored_all = 0
    best_hand: tuple[int, dict[str, Any]] | None = None
    worst_hand: tuple[int, dict[str, Any]] | None = None
    best_game: tuple[int, dict[str, Any]] | None = None
    worst_game: tuple[int, dict[str, Any]] | None = None
    for g in games:
        p = g.player_seat
        game_net = 0
        every = hand_outcomes(g)
        outcomes = [h for h in every if not h.sat_out]
        s["sat_out"] += len(every) - len(outcomes)
        for h in outcomes:
            game_net += h.net
            scored_all += h.scored
            mine = h.knocker == p
            if h.result in GINS and mine:
                s["gins"] += 1
                s["big_gins"] += h.result == "big-gin"
            elif h.result in ("knock", "undercut") and mine:
                s["knocks"] += 1
                s["undercut"] += h.result == "undercut"
            elif h.result == "undercut" and h.knocker is not None and h.scored > 0:
                s["undercuts"] += 1
            entry = {"game": g.id, "hand": h.number, "points": h.net, "result": h.result, "finished_at": g.finished_at}
            if best_hand is None or h.net > best_hand[0]:
                best_hand = (h.net, entry)
            if worst_hand is None or h.net < worst_hand[0]:
                worst_hand = (h.net, entry)
        net_all += game_net
        s["hands"] += len(outcomes)
        s["running_average"].append(round(net_all / s["hands"], 3) if s["hands"] else 0.0)
        s["game_averages"].append(round(game_net / len(outcomes), 3) if outcomes else 0.0)
        finals = g.final_totals
        others = [t for i, t in enumerate(finals) if i != p]
        margin = (finals[p] if p < len(finals) else 0) - (max(others) if others else 0)
        ge = {"game": g.id, "margin": margin, "final_totals": list(finals), "finished_at": g.finished_at}
        if best_game is None or margin > best_game[0]:
            best_game = (margin, ge)
        if worst_game is None or margin < worst_game[0]:
            worst_game = (margin, ge)
        if g.accuracy is not None:
            s["accuracy_history"].append(g.accuracy)
    s["losses"] = s["games"] - s["wins"]
    s["win_rate"] = s["wins"] / s["games"] if s["games"] else 0.0
    s["points_per_hand"] = net_all / s["hands"] if s["hands"] else 0.0
    s["scored_per_hand"] = scored_all / s["hands"] if s["hands"] else 0.0
    for key, pick in (("best_hand", best_hand), ("worst_hand", worst_hand)):
        s[key] = None if pick is None else pick[1]
    for key, pick in (("best_game", best_game), ("worst_game", worst_game)):
        s[key] = None if pick is None else pick[1]
    acc = s["accuracy_history"]
    s["accuracy"] = sum(acc) / len(acc) if acc else None
    return s


def variant_stats(games: Sequence[FinishedGame], levels: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """Per variant (in the order first played): :func:`summarise` of its games, with
    ``by_opponent`` (the same figures per :func:`opponent_of`) and ``by_level`` (those of the
    opponents named in ``levels``, the playing levels, in that order)."""
    by_variant: dict[str, list[FinishedGame]] = {}
    for g in games:
        by_variant.setdefault(g.variant, []).append(g)
    level_names = list(levels)
    out: dict[str, dict[str, Any]] = {}
    for variant, vgames in by_variant.items():
        s = summarise(vgames)
        by_opp: dict[str, list[FinishedGame]] = {}
        for g in vgames:
            by_opp.setdefault(opponent_of(g), []).append(g)
        s["by_opponent"] = {name: summarise(gs) for name, gs in sorted(by_opp.items())}
        s["by_level"] = {name: s["by_opponent"][name] for name in level_names if name in s["by_opponent"]}
        out[variant] = s
    return out
