"""The ``expert``'s constants (:class:`Params`) and its fitted value models: the expected points of
playing on (:func:`play_on_value`) and of knocking (:func:`knock_points`, with the undercut chance
of :func:`undercut_chance`).  See :mod:`ginrummy.agents.expert`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

__all__ = ["DEFAULT", "Params", "hand_value", "knock_points", "play_on_value", "undercut_chance"]


@dataclass(frozen=True)
class Params:
    """The expert's constants.  Deadwood points unless said otherwise; the value models were
    fitted by least squares on hands of the expert against ``greedy`` and against itself, with
    the knock decision randomised to see both branches (points of the hand for the player)."""

    lam: float = 1.5  # weight of the next draw's expected saving ("outs")
    danger: float = 4.0  # cost of a discard that surely makes a meld for the opponent
    take_penalty: float = 1.0  # taking shows the opponent a card of ours
    shortlist: int = 6  # discards whose potential is computed (the rest are clearly worse)
    margin: float = 12.0  # ...within this much of the best plain deadwood
    # Playing on, at the end of a turn with effective deadwood M and S stock cards:
    #   c0 - c_m * M + c_s * S points (0 when the discard reaches the wall).
    c0: float = 7.2
    c_m: float = 1.07
    c_s: float = 0.594
    # Knocking with deadwood K: undercut chance u = logistic(u0 + u_s * S + u_dk * K); otherwise
    # the knocker wins about w0 + w_s * S + w_dk * K; an undercut costs the bonus + 2.2.
    u0: float = -1.47
    u_s: float = -0.121
    u_dk: float = 0.25
    w0: float = -4.1
    w_s: float = 1.01
    w_dk: float = -0.43
    # The opponent's deadwood against a gin: about dd0 + dd_s * S.
    dd0: float = 4.0
    dd_s: float = 0.8
    gin_weight: float = 1.0  # weight of the chance of gin within the next draws (see gin_draws)
    gin_draws: float = 2.5  # draws over which that chance counts (fewer near the wall)
    # The box (line) bonus paid at the end of the game for each hand won: playing on wins minus
    # loses the hand about v0 + v_m * M + v_s * S of the time (clamped to -1..1); a knock
    # 1 - 2u.  box_weight scales how much of the bonus counts.
    box_weight: float = 1.0
    v0: float = -0.0744
    v_m: float = -0.0497
    v_s: float = 0.0448
    three_win_worth: float = 10.0  # three: a won hand's worth for the next hand's roles
    knock_bias: float = 0.0  # points a knock must beat playing on by
    # ... and in a game without a box bonus (the EAAI scoring), where the expert turns into a gin
    # hunter.  Experiments: -5 won more games against MARJJ_v5 (a gin hunter) but significantly
    # fewer against SimpleGinRummyPlayer (a quick knocker), so it is off (docs/strength.md).
    nobox_knock_bias: float = 0.0
    # Where the game pays only its win (no box, no game bonus), value the knock and the discards by
    # the chance of winning the game at the current scores (ginrummy.agents.gamevalue; measured in
    # docs/strength.md: more games won against MARJJ_v5 and against the expert without it).
    game_aware: bool = True
    # Weight of the chance of gin through two new cards (pairs of stock cards that complete a gin
    # together, neither alone), valued like the one-draw gin chance (gin bonus + their count).
    pair_weight: float = 0.0
    # Without a box bonus: a knock bias against an opponent that has won its hands with at least
    # hunter_points a hand on average so far in the game (a gin hunter, which waits with a low count;
    # against a quick knocker such as SimpleGinRummyPlayer knocking sooner costs, docs/strength.md).
    hunter_knock_bias: float = -5.0
    hunter_points: float = 22.0
    # ... and against a quick knocker: one that has won at least two hands, with fewer than
    # knocker_points a hand on average (small knocks), which a defender with a low count undercuts.
    knocker_knock_bias: float = 0.0
    knocker_points: float = 15.0
    knock_model: str = "fit"  # "fit" (the models above) or "sample" (sampled showdowns)
    samples: int = 32  # opponent hands sampled by the "sample" model
    extra: int = 2  # ...each drawn with this many cards more, keeping their best ten
    greedy_draw: bool = False  # experiments: take only what lowers the deadwood
    # Added to the undercut log-odds for each card the opponent took from the pile and still
    # holds: its melds are further along than the stock size says (A/B of 2026-12-02,
    # docs/strength.md).
    u_took: float = 0.3
    late_knock_stock: int = -1  # experiments: at or below this many stock cards, knock whenever legal
    draw_replace: float = 0.0  # experiments: weight of a stock card's expected saving by replacing the worst card
    # Weaker play (the levels below expert, see ginrummy.agents.levels):
    memory: int = -1  # buried pile cards remembered, the most recent first (-1: all)
    pickups: bool = True  # remembers the cards the opponent took from the pile
    noise: float = 0.0  # spread (points, one standard deviation) of the error in judging each option
    # The search of close calls (ginrummy.agents.search): sampled worlds a decision (0: off), the
    # options within search_window points of the best (knocks against playing on within
    # search_knock_window; 0: not searched), at most search_options of them; another option
    # replaces the expert's choice when better by search_z standard errors and search_gain points
    # (measured in docs/strength.md: more games won against MARJJ_v5, better verdicts in play-outs
    # from the true positions; search=24 with search_z=1 changed more decisions for no gain;
    # a window of 2 points instead of 1 won more games against MARJJ_v5 on two seeds, 2026-12-04;
    # 3 instead of 2, +1.6 points of percentage on 1,000 fresh deal pairs, 2026-12-07; then a
    # window of 4, knocks searched within 3 and four options, each +0.1 to +0.5 alone, together
    # +0.95 on 2,000 fresh deal pairs: 60.2% of 4,000 games, 2026-12-07).
    search: int = 48
    search_window: float = 4.0
    search_knock_window: float = 3.0
    search_options: int = 4
    search_z: float = 2.0
    search_gain: float = 0.5
    search_outs: float = 2.5  # the play-outs' knock rule: effective deadwood = plain - this
    # The play-outs' discard: the least deadwood (0), or the least deadwood plus this many points
    # for each card of the rest it could meld with (rank mates, suit neighbours at one or two).
    search_keep: float = 0.0
    # ... also where the hand's points count (a box or game bonus: the default rules); measured
    # there without a significant gain, so the search is on only where the game pays just its win.
    search_points: bool = False


DEFAULT: Final = Params()


def play_on_value(m: float, stock: int, wall: int, params: Params = DEFAULT, box: float = 0.0) -> float:
    """Expected points of playing on with effective deadwood ``m`` and ``stock`` cards left (0 if
    the hand is void at the wall), counting ``box`` points for each hand won."""
    if stock <= wall:
        return 0.0
    value = params.c0 - params.c_m * m + params.c_s * stock
    if box:
        edge = params.v0 + params.v_m * m + params.v_s * stock
        value += box * params.box_weight * max(-1.0, min(1.0, edge))
    return value


def undercut_chance(dk: int, stock: int, params: Params = DEFAULT, shift: float = 0.0) -> float:
    """The chance that a knock with deadwood ``dk`` and ``stock`` cards left is undercut
    (``shift``: added to the log-odds)."""
    return 1.0 / (1.0 + math.exp(-(params.u0 + params.u_s * stock + params.u_dk * dk + shift)))


def knock_points(
    dk: int,
    stock: int,
    undercut_bonus: float,
    gin_bonus: float,
    params: Params = DEFAULT,
    box: float = 0.0,
    shift: float = 0.0,
) -> float:
    """Expected points of knocking now with deadwood ``dk`` (0: gin) and ``stock`` cards left,
    counting ``box`` points for each hand won."""
    if dk == 0:
        return gin_bonus + max(5.0, params.dd0 + params.dd_s * stock) + box * params.box_weight
    u = undercut_chance(dk, stock, params, shift)
    win = max(1.0, params.w0 + params.w_s * stock + params.w_dk * dk)
    return (1.0 - u) * win - u * (undercut_bonus + 2.2) + box * params.box_weight * (1.0 - 2.0 * u)


def hand_value(m: float, stock: int, params: Params = DEFAULT) -> float:
    """:func:`play_on_value` away from the wall."""
    return play_on_value(m, stock, -1, params)
