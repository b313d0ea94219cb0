"""Playing one deal (or one game) of a job, and the exact line of a solitaire hand."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..agents import Agent
from ..agents.solitaire import SoloRules
from ..cards import JOKER, Card
from ..engine import State
from ..errors import GinRummyError
from ..melds import min_deadwood
from ..options import SolitaireOptions
from ..variants import find_variant
from .jobs import DealOutcome, SimJob, _derive, agent_seed, deal_seed


# --- solitaire lines -----------------------------------------------------------------------------
@dataclass(frozen=True)
class SoloLine:
    """One solitaire deal played with the joker taken out (moved to the bottom).

    ``deadwood[k]`` is the deadwood held after ``k`` draws; ``end`` is (draws, event, deadwood)
    when the player went out (gin, big-gin, knock), else None.
    """

    deadwood: tuple[int, ...]
    end: tuple[int, str, int] | None
    decisions: int
    slots: int  # places the joker may take: the real cards of the deck, plus one

    def outcome(self, rules: Any, above: int) -> tuple[float, float]:
        """(points, win) with ``above`` real cards above the joker, for a :class:`SoloRules`."""
        if self.end is not None and self.end[0] <= above:
            k, event, dead = self.end
            win = 1.0 if event in ("gin", "big-gin") else 0.0
            return float(_points(rules, event, above - k, dead)), win
        return float(_points(rules, "joker", 0, self.deadwood[above])), 0.0

    def win_rate(self, rules: Any) -> float:
        """The chance that the player wins the hand over every place of the joker: gin with
        ``scoring=none``, else scoring any points."""
        wins = 0.0
        for j in range(self.slots):
            p, g = self.outcome(rules, j)
            wins += g if rules.scoring == "none" else float(p > 0)
        return wins / self.slots

    def expected(self, rules: Any) -> tuple[float, float]:
        """(expected points, chance of gin) over every place of the joker."""
        n = self.slots
        pts = 0.0
        wins = 0.0
        for j in range(n):
            p, w = self.outcome(rules, j)
            pts += p
            wins += w
        return pts / n, wins / n


def _points(rules: Any, event: str, counted: int, deadwood: int) -> int:
    if rules.scoring == "none":
        return 0
    return int(rules.end_value(event, counted, deadwood))


def _points_rules(variant: str, options: Mapping[str, Any]) -> Any:
    r = SoloRules.of(variant, options)
    if r.objective != "points" and r.scoring != "none":  # pragma: no cover - of() gives points here
        r = SoloRules.of(variant, options, "points")
    return r


def solo_line(variant: str, options: Mapping[str, Any], agent: Agent, deck: Sequence[int]) -> SoloLine:
    """Play ``agent`` on a solitaire deck (top first; the joker's place is ignored: it is moved to
    the bottom) and return the line of play."""
    st = State.new(variant, dict(options), undo=False)
    dealt = find_variant(variant).dealt
    cards = [int(c) for c in deck]
    if JOKER in cards[:dealt]:
        raise GinRummyError("the joker is in the deal: no line to play")
    real = [c for c in cards if c != JOKER]
    st.deal([Card(c) for c in [*real, JOKER]])
    dw: list[int] = []
    if dealt == 10:  # a ten-card hand: its deadwood before the first draw (eleven dealt: discard first)
        dw.append(min_deadwood(sum(1 << c for c in real[:dealt])))
    end: tuple[int, str, int] | None = None
    decisions = 0
    while not st.is_hand_over:
        obs = st.observation(0)
        legal = st.legal_actions()
        act = agent.act(obs, legal)
        decisions += 1
        hand = st.hands[0]
        drawn = hand.bit_count() + len(st.out_of_play) - dealt
        if act.kind in ("gin", "knock"):
            kept = hand if act.card is None else hand & ~(1 << int(act.card))
            event = "big-gin" if act.kind == "gin" and act.card is None and hand.bit_count() == 11 else act.kind
            end = (drawn, event, min_deadwood(kept))
        elif act.kind == "discard" and act.card is not None:
            dw.append(min_deadwood(hand & ~(1 << int(act.card))))
        st.apply(act)
    return SoloLine(tuple(dw), end, decisions, 53 - dealt)


# --- playing one deal ----------------------------------------------------------------------------
_AGENTS: dict[tuple[str, str, int, int], Agent] = {}


def _agent(job: SimJob, position: int) -> Agent:
    spec = job.specs[position]
    key = (str(spec), job.variant, job.seed, position)
    ag = _AGENTS.get(key)
    if ag is None:
        ag = spec.make(job.variant, agent_seed(job.seed, position))
        _AGENTS[key] = ag
    return ag


def _deck(job: SimJob, index: int, *, redeal: bool = True) -> tuple[list[int], int]:
    """The deck of deal ``index`` and its seed; with ``redeal``, redealt while a solitaire deal
    holds the joker (rule 3.2's default; exact scoring always plays a joker-free deal)."""
    probe = State.new(job.variant, dict(job.options))
    attempt = 0
    while True:
        seed = deal_seed(job.seed, index, attempt)
        deck = [int(c) for c in probe.deck_for_seed(seed)]
        if not redeal or find_variant(job.variant).joker != "in_pack" or JOKER not in deck[:10]:
            return deck, seed
        attempt += 1


def _players(job: SimJob, seating: tuple[int, ...]) -> list[str] | None:
    """Records name each seat after its agent (the solitaires: the agent and the Joker)."""
    if not job.records:
        return None
    names = [str(job.specs[p]) for p in seating]
    return [*names, "Joker"] if job.solo else names


def _joker_dealt_loses(job: SimJob) -> bool:
    """Rule 3.2 'lose': in the solitaire whose Joker may be dealt, a dealt Joker loses the hand."""
    if find_variant(job.variant).joker != "in_pack":
        return False
    opts = State.new(job.variant, dict(job.options)).options
    return isinstance(opts, SolitaireOptions) and opts.joker_in_deal == "lose"


MAX_HANDS = 1000
"""A game that has not ended after this many hands is stopped (a safeguard; it never happens with
the shipped agents)."""


def play_game(job: SimJob, index: int, seating: tuple[int, ...]) -> DealOutcome:
    """Game ``index`` to the target; hand ``k`` of every game ``index`` is dealt from the same seed
    whatever the seating (mirrored games share their deals hand by hand)."""
    t0 = time.perf_counter()
    st = State.new(job.variant, dict(job.options), players=_players(job, seating), undo=False)
    agents = [_agent(job, p) for p in seating]
    decisions = 0
    hands = 0
    while not st.is_terminal and hands < MAX_HANDS:
        st.deal(seed=_derive("game", job.seed, index, hands))
        hands += 1
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            st.apply(agents[seat].act(st.observation(seat), st.legal_actions()))
            decisions += 1
    finals = st.final_totals()
    if job.solo:
        points: tuple[float, ...] = (float(finals[0] - finals[1]),)
        wins: tuple[float, ...] = (1.0 if st.winner == 0 else 0.0,)
    else:
        points = tuple(float(x) for x in finals)
        wins = tuple(1.0 if st.winner == s else 0.0 for s in range(st.num_seats))
    record = st.to_record() if job.records else None
    return DealOutcome(index, seating, points, wins, f"{hands} hands", decisions, time.perf_counter() - t0, record)


def play_deal(job: SimJob, index: int) -> list[DealOutcome]:
    """Every seating of deal (or game) ``index``."""
    if job.games:
        return [play_game(job, index, seating) for seating in job.seatings()]
    deck, seed = _deck(job, index)
    lose = _joker_dealt_loses(job)
    if lose and not job.exact:
        deck, seed = _deck(job, index, redeal=False)  # rule 3.2 'lose': a dealt joker loses the hand
    out = []
    for seating in job.seatings():
        t0 = time.perf_counter()
        if job.solo and job.exact:
            agent = _agent(job, seating[0])
            line = solo_line(job.variant, job.options, agent, deck)
            rules = _points_rules(job.variant, job.options)
            pts, _gin = line.expected(rules)
            win = line.win_rate(rules)
            if lose:
                # The joker is in the ten dealt with chance 10/53; the hand is then lost holding the
                # first nine real cards (rule 3.2), whatever the player would have done.
                nine = min_deadwood(sum(1 << c for c in deck[:9]))
                p = 10 / 53
                pts = (1 - p) * pts + p * _points(rules, "joker", 0, nine)
                win = (1 - p) * win
            out.append(DealOutcome(index, seating, (pts,), (win,), "exact", line.decisions, time.perf_counter() - t0))
            continue
        st = State.new(job.variant, dict(job.options), players=_players(job, seating), undo=False)
        st.deal(seed=seed)
        agents = [_agent(job, p) for p in seating]
        decisions = 0
        while not st.is_hand_over:
            seat = st.current_player
            assert seat is not None
            act = agents[seat].act(st.observation(seat), st.legal_actions())
            st.apply(act)
            decisions += 1
        res = st.hand_result
        assert res is not None
        record = st.to_record() if job.records else None
        if job.solo:
            net = float(res.points[0] - res.points[1])
            won = 1.0 if res.winner == 0 and res.result != "joker" else 0.0
            out.append(
                DealOutcome(index, seating, (net,), (won,), res.result, decisions, time.perf_counter() - t0, record)
            )
        else:
            wins = tuple(1.0 if res.winner == s else 0.0 for s in range(st.num_seats))
            out.append(
                DealOutcome(
                    index,
                    seating,
                    tuple(float(p) for p in res.points),
                    wins,
                    res.result,
                    decisions,
                    time.perf_counter() - t0,
                    record,
                )
            )
    return out


def _play_chunk(job: SimJob, indices: Sequence[int]) -> list[DealOutcome]:
    out: list[DealOutcome] = []
    for i in indices:
        out.extend(play_deal(job, i))
    return out
