"""Post-game analysis of the solitaires: each decision of a finished game against the planner's.

For every decision the player had (two or more legal actions) the planner values every legal
action from the same observation the player had; the *loss* of a decision is the planner's value
of its best action minus its value of the action played (never negative), in the objective's
units: expected points in the scored modes, chance of gin with ``scoring=none``.  Per game:

* **accuracy**: the share of decisions that match the planner's choice or lose at most
  ``tolerance`` (the planner's estimates come from sampling, so near-ties are not errors);
* **expected loss**: the sum of the losses, what the player's choices cost on average;
* per hand, the **expected** result at the first decision (the planner's first choice: exact if it
  goes out, else :func:`~ginrummy.agents.solitaire.rollout_value` of playing on, a realistic and
  slightly low estimate) and the actual result, so ``luck = actual - (expected - loss)`` shows
  roughly how much of a result was the joker's place and the cards rather than play.

The values are the planner's own estimates (:func:`ginrummy.agents.solitaire.evaluate_actions`):
exact for going out now, the two-draw hold model for playing on.  That model sees the gin outs and
the pairs of cards that make gin within two draws; early in a hand, when no discard has either,
discards differ only by the structure they keep and their deadwood, so the losses the analysis
reports there are small (and with ``scoring=none`` about zero): it judges the decisions close to
gin, and the knocks, most sharply.

>>> from ginrummy.engine import State
>>> s = State.new("solitaire", {"scoring": "none"}); s.deal(seed=5)
>>> while not s.is_hand_over:
...     s.apply(s.legal_actions()[0])
>>> a = analyse_record(s.to_record(), rollouts=8)
>>> a.decisions > 0 and 0.0 <= a.accuracy <= 1.0 and a.expected_loss >= 0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .agents.reasons import N_, NP_, Message, Value, move_in_sentence, ngettext
from .agents.solitaire import PlannerAgent, SoloRules, rollout_value
from .errors import GinRummyError, RecordError
from .i18n import _
from .variants import solo_variants
from .words import RESULT_NAMES, reason_text

__all__ = ["Analysis", "DecisionReview", "HandReview", "analyse_record", "analyse_state"]

ANALYSIS_FORMAT = "ginrummy-analysis/1"


@dataclass(frozen=True)
class DecisionReview:
    """One decision: what was played, what the planner prefers, and the difference."""

    hand: int  # 1-based hand number
    action_index: int  # index of the decision in the hand (the solitaire opening's unwritten draw counts)
    draws: int  # cards drawn so far this hand
    cards: tuple[str, ...]  # the hand held when deciding
    played: str
    best: str
    played_value: float
    best_value: float
    loss: float
    matches: bool  # the planner's choice, or within the tolerance of it
    values: tuple[tuple[str, float], ...]  # every legal action, best first

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "action_index": self.action_index,
            "draws": self.draws,
            "cards": list(self.cards),
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 4),
            "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
            "matches": self.matches,
            "values": [[a, round(v, 4)] for a, v in self.values],
        }


@dataclass(frozen=True)
class HandReview:
    number: int
    result: str
    points: tuple[int, int]  # (player, joker)
    actual: float  # in the objective's units: 1/0 for gin/no gin, or net points
    expected: float | None  # the expected result at the hand's first decision (None: no decision)
    loss: float
    decisions: tuple[DecisionReview, ...]

    @property
    def luck(self) -> float | None:
        """Actual result minus what the play was expected to give (``expected - loss``)."""
        return None if self.expected is None else self.actual - (self.expected - self.loss)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "result": self.result,
            "points": list(self.points),
            "actual": self.actual,
            "expected": None if self.expected is None else round(self.expected, 4),
            "loss": round(self.loss, 4),
            "luck": None if self.luck is None else round(self.luck, 4),
            "decisions": [d.to_json() for d in self.decisions],
        }


@dataclass
class Analysis:
    """A game's review.  ``units`` is ``points`` or ``gin chance``."""

    variant: str
    objective: str
    units: str
    tolerance: float
    hands: list[HandReview] = field(default_factory=list)

    @property
    def reviews(self) -> list[DecisionReview]:
        return [d for h in self.hands for d in h.decisions]

    @property
    def decisions(self) -> int:
        return len(self.reviews)

    @property
    def matches(self) -> int:
        return sum(1 for d in self.reviews if d.matches)

    @property
    def accuracy(self) -> float:
        """Share of decisions matching the planner (within the tolerance); 1.0 with no decision."""
        n = self.decisions
        return self.matches / n if n else 1.0

    @property
    def expected_loss(self) -> float:
        return sum(d.loss for d in self.reviews)

    def worst(self, k: int = 3) -> list[DecisionReview]:
        """The ``k`` costliest decisions that do not match the planner's (a matching one may differ
        from its choice by less than the tolerance: no mistake to show)."""
        return sorted((d for d in self.reviews if not d.matches and d.loss > 0), key=lambda d: -d.loss)[:k]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": ANALYSIS_FORMAT,
            "variant": self.variant,
            "objective": self.objective,
            "units": self.units,
            "tolerance": self.tolerance,
            "decisions": self.decisions,
            "matches": self.matches,
            "accuracy": round(self.accuracy, 4),
            "expected_loss": round(self.expected_loss, 4),
            "hands": [h.to_json() for h in self.hands],
        }

    def summary_messages(self) -> list[Message]:
        """The few lines for people as data, one catalog message a line
        (:mod:`ginrummy.agents.reasons`), worded for each reader by :func:`ginrummy.words.reason_text`
        (or :func:`ginrummy.finish.analysis_lines`) in the reader's language."""
        if self.units == "points":
            head = N_(
                "{decisions} decisions, {matches} as the planner plays (accuracy {accuracy}); "
                "expected loss {loss} points.",
                decisions=self.decisions,
                matches=self.matches,
                accuracy=f"{self.accuracy:.0%}",
                loss=self._fmt(self.expected_loss),
            )
        else:
            head = N_(
                "{decisions} decisions, {matches} as the planner plays (accuracy {accuracy}); "
                "expected loss {loss} of gin chance.",
                decisions=self.decisions,
                matches=self.matches,
                accuracy=f"{self.accuracy:.0%}",
                loss=self._fmt(self.expected_loss),
            )
        lines = [head]
        for h in self.hands:
            if h.expected is None:
                continue
            lines.append(
                N_(
                    "Hand {number}: {result}, result {actual}, expected {expected}, play cost {cost}, luck {luck}.",
                    number=h.number,
                    result=_result_name(h.result),
                    actual=self._fmt(h.actual),
                    expected=self._fmt(h.expected),
                    cost=self._fmt(h.loss),
                    luck=self._fmt(h.luck or 0.0, sign=True),
                )
            )
        for d in self.worst():
            lines.append(
                ngettext(
                    # TRANSLATORS: the English says "draws" for one too (tests read it)
                    "Hand {hand}, after {draws} draws: played {played}, the planner prefers {best} (cost {cost}).",
                    "Hand {hand}, after {draws} draws: played {played}, the planner prefers {best} (cost {cost}).",
                    d.draws,
                    hand=d.hand,
                    draws=d.draws,
                    played=_move(d.played),
                    best=_move(d.best),
                    cost=self._fmt(d.loss),
                )
            )
        return lines

    def summary(self) -> str:
        """:meth:`summary_messages` in words, in the current language (:mod:`ginrummy.i18n`)."""
        return "\n".join(reason_text(m) for m in self.summary_messages())

    def _fmt(self, x: float, sign: bool = False) -> str:
        if self.units == "points":
            return f"{x:+.1f}" if sign else f"{x:.1f}"
        return f"{x:+.1%}" if sign else f"{x:.1%}"


def _move(text: str) -> Value:
    """A move of a review (its notation) named in a sentence, in the reader's words when worded."""
    try:
        return move_in_sentence(Action.parse(text))
    except GinRummyError:
        return text


def analyse_record(
    record: Mapping[str, Any],
    *,
    tolerance: float | None = None,
    rollouts: int = 256,
    objective: str = "auto",
    seed: int = 0,
) -> Analysis:
    """Review a solitaire game record (finished or not) decision by decision.

    ``tolerance`` defaults to 0.5 points (scored) or 0.01 gin chance (``scoring=none``);
    ``rollouts`` sets the planner's sampling per decision (more than in play, for steadier values).
    """
    from .engine import State
    from .record import replay

    if not isinstance(record, Mapping):
        raise RecordError(_("record: a record is a JSON object"))
    variant = record.get("variant")
    if variant not in solo_variants():
        raise RecordError(
            _("variant: analysis covers the solitaires ({variants}), not {variant}").format(
                variants=", ".join(solo_variants()), variant=repr(variant)
            )
        )
    replay(record)  # validates the whole record first (clear errors)
    state = State.new(str(variant), record.get("options") or {}, record.get("players"))
    rules = SoloRules.of(str(variant), state.options.to_dict(), objective)
    if tolerance is None:
        tolerance = 0.01 if rules.objective == "win" else 0.5
    planner = PlannerAgent(str(variant), seed=seed, rollouts=rollouts, objective=objective)
    out = Analysis(
        str(variant), rules.objective, "gin chance" if rules.objective == "win" else "points", float(tolerance)
    )
    for number, hand in enumerate(record.get("hands") or [], 1):
        if "seed" in hand:
            state.deal(seed=hand["seed"], commitment=hand.get("commitment"))
        else:
            state.deal(hand["deck"], commitment=hand.get("commitment"))
        reviews: list[DecisionReview] = []
        expected: float | None = None
        texts = list(hand.get("actions") or [])
        if state.phase == "opening" and texts and Action.parse(texts[0]).card is not None:
            texts.insert(0, "draw")  # RECORD.md: the opening's draw is not written, but it was a decision
        for i, text in enumerate(texts):
            act = Action.parse(text)
            legal = state.legal_actions()
            if state.current_player == 0 and len(legal) > 1:
                obs = state.observation(0)
                report = planner.evaluate(obs, legal)
                values = dict(report.values)
                base = Action(act.kind, act.card)  # an arrangement named in a knock is the same decision
                best, best_v = report.values[0]
                played_v = values.get(base, best_v)
                if expected is None:
                    expected = _expected(rules, obs, best, best_v, rollouts, seed)
                loss = max(0.0, best_v - played_v)
                reviews.append(
                    DecisionReview(
                        hand=number,
                        action_index=i,
                        draws=len(obs.get("hand") or ()) + len(obs.get("discards") or ()) - rules.dealt,
                        cards=tuple(obs.get("hand") or ()),
                        played=str(act),
                        best=str(best),
                        played_value=played_v,
                        best_value=best_v,
                        loss=loss,
                        matches=base == best or loss <= tolerance,
                        values=tuple((str(a), v) for a, v in report.values),
                    )
                )
            state.apply(act)
        res = state.hand_result if state.is_hand_over else None
        if res is None:
            result, points, actual = "unfinished", (0, 0), 0.0
        else:
            result, points = res.result, (int(res.points[0]), int(res.points[1]))
            if rules.objective == "win":
                actual = 1.0 if res.result in ("gin", "big-gin") else 0.0
            else:
                actual = float(points[0] - points[1])
        if res is not None and res.result == "redeal":
            continue
        out.hands.append(
            HandReview(
                number,
                result,
                points,
                actual,
                expected,
                sum(d.loss for d in reviews),
                tuple(reviews),
            )
        )
    return out


def _result_name(kind: str) -> Value:
    """How a hand ended, named in each reader's words (:func:`ginrummy.words.result_name` as data)."""
    return NP_("how a hand ended", RESULT_NAMES[kind]) if kind in RESULT_NAMES else kind


def _expected(rules: SoloRules, obs: Mapping[str, Any], best: Action, best_v: float, rollouts: int, seed: int) -> float:
    """The expected result of the hand from this decision with the planner's choice."""
    if best.kind in ("gin", "knock"):
        return best_v  # exact
    from .agents.solitaire import _CARD_INDEX

    hand = 0
    for c in obs.get("hand") or ():
        hand |= 1 << _CARD_INDEX[c]
    if best.card is not None:
        hand &= ~(1 << int(best.card))
    unseen = [_CARD_INDEX[c] for c in obs.get("unseen") or ()]
    return rollout_value(rules, hand, unseen, rollouts=rollouts, seed=seed)


def analyse_state(state: Any, **kwargs: Any) -> Analysis:
    """Review a game in progress or finished (a :class:`~ginrummy.engine.State`)."""
    return analyse_record(state.to_record(), **kwargs)
