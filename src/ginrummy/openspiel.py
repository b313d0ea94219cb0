"""Every variant as an OpenSpiel game (optional extra ``ginrummy[openspiel]``).

``import ginrummy.openspiel`` registers ``ginrummy_classic``, ``ginrummy_oklahoma``,
``ginrummy_hollywood``, ``ginrummy_three``, ``ginrummy_solitaire`` and ``ginrummy_gin_solitaire``
with :func:`pyspiel.register_game`; their parameters are the variant's options (rule book section 5)
plus ``max_moves``.

>>> import pyspiel
>>> import ginrummy.openspiel
>>> game = pyspiel.load_game("ginrummy_three", {"gin_bonus": 20})
>>> game.num_players(), game.num_distinct_actions(), game.get_parameters()["gin_bonus"]
(3, 213, 20)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

An episode is one hand, played on the :class:`ginrummy.engine.State` of the rest of the project:

* **Chance nodes.** The deal is one chance node per card, in the engine's dealing order (table
  games: ten cards to each hand one at a time, non-dealer first, then the upcard; solitaire: ten
  cards and the first draw; gin solitaire: eleven cards).  Every stock draw is a chance node
  right after the action that draws (``draw``; in the solitaires every discard, which the next
  card follows); when a solitaire hand ends by gin or a knock, the cards counted down to the
  joker are chance nodes too (rule 3.5).  Each outcome is a card id (0-51 as ``int(Card)``, 52
  the joker) with its uniform probability.  With solitaire's ``joker_in_deal="redeal"`` the joker
  is never dealt into the ten: redealing until it is not is the same distribution.
* **Players and actions.** The seats of the engine (``three``: the box and the captain act, the
  sitter never does; the solitaires: one player, the Joker never acts); actions are the ids of
  :class:`ginrummy.actions.Action` (213), their legality the engine's.  Layoffs are made by the
  engine, optimally (rule 1.8).
* **Returns** are the hand's points as the variant scores them: in two-player games the points of
  one seat minus the other's (zero-sum); in ``three`` each seat's points minus the mean of the
  other two (zero-sum; only the box or the captain ever scores, rule 2.5); in the solitaires the
  player's points minus the Joker's (``scoring="none"``: +1 for a win, -1 for a loss).  A hand
  that reaches ``max_moves`` player moves (take-and-discard cycles could go on for ever; random
  play never gets near the default 400) ends void, like the wall: returns 0.
* **Observations** come from the project's observer and hold only what the seat may know:
  the observation tensor is :func:`ginrummy.envs.encoding.encode_state` (``OBS_SIZE`` floats, see
  that module), the observation string a summary of
  :meth:`~ginrummy.engine.State.observation_masks`.  The information state (perfect recall) adds
  the seat's own history of the hand: the public actions and the cards it saw arrive in its
  hand, in order; the tensor holds them as tokens after the observation (see
  :func:`event_token`).
* :meth:`GinRummyState.resample_from_infostate` deals the cards a seat has not seen anew
  (uniformly, consistent with everything it saw): what Python's IS-MCTS needs.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import pyspiel

from . import i18n
from .actions import ACTIONS, NUM_ACTIONS, Action
from .cards import CARDS, JOKER, Card
from .engine import State
from .envs.encoding import OBS_SIZE, encode_state
from .errors import GinRummyError
from .observe import MaskObservation
from .options import Options, SolitaireOptions, options_for
from .variants import find_variant, variant_names

__all__ = [
    "GAME_NAMES",
    "MAX_MOVES",
    "GinRummyGame",
    "GinRummyObserver",
    "GinRummyState",
    "event_token",
    "game_name",
]

MAX_MOVES: Final = 400
"""Default of the ``max_moves`` parameter: player moves after which a hand ends void."""

GAME_NAMES: Final[dict[str, str]] = {v: "ginrummy_" + v.replace("-", "_") for v in variant_names()}
"""Variant -> registered OpenSpiel short name."""

_DRAW: Final = 0
_NUM_CARDS: Final = 53  # chance outcomes: the 52 cards and the joker
_ALL: Final = (1 << 52) - 1

# Information-state tokens (0 pads the tensor).
_SEAT_TOKENS: Final = 3 * NUM_ACTIONS  # an action a by seat s: 1 + s * NUM_ACTIONS + a
_SEEN: Final = 1 + _SEAT_TOKENS  # + card: the card arrived in the hand this seat sees
_PUBLIC: Final = _SEEN + _NUM_CARDS  # + card: a card turned face up for everyone (the upcard)
_NUM_TOKENS: Final = _PUBLIC + _NUM_CARDS


def event_token(kind: str, seat_or_card: int, action: int = 0) -> int:
    """The information-state token of an event: ``("action", seat, action_id)``, ``("seen",
    card)`` (a card arrived in the hand the seat sees), ``("public", card)`` (the upcard)."""
    if kind == "action":
        return 1 + seat_or_card * NUM_ACTIONS + action
    return (_SEEN if kind == "seen" else _PUBLIC) + seat_or_card


def game_name(variant: str) -> str:
    """The OpenSpiel short name of ``variant``."""
    return GAME_NAMES[variant]


def _cards(mask: int) -> str:
    return " ".join(str(CARDS[i]) for i in range(52) if mask >> i & 1) or "-"


def _points_bound(variant: str) -> float:
    """A bound on the absolute return of a hand (deadwood counts are at most 100)."""
    o = options_for(variant)
    bonus = max(abs(o.gin_bonus), abs(o.big_gin_bonus), abs(o.undercut_bonus))
    bound = 100 + 53 + bonus
    if find_variant(variant).upcard_sets_limit:
        bound *= 2  # rule 1b.3 (spades double) may be switched on
    return float(bound)


def _max_length(variant: str, max_moves: int) -> int:
    # Deal + each move and its chance draw + the count down to the joker.
    return 21 + 2 * max_moves + (_NUM_CARDS if find_variant(variant).solo else 0)


class GinRummyGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped
    """One variant's game; the subclasses registered by this module fix :attr:`VARIANT`."""

    VARIANT: str = "classic"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        variant = self.VARIANT
        params = dict(params or {})
        max_moves = int(params.get("max_moves", MAX_MOVES))
        if max_moves < 1:
            raise ValueError(i18n._("{name} must be at least 1, got {value}").format(name="max_moves", value=max_moves))
        super().__init__(_GAME_TYPES[variant], _game_info(variant, max_moves), params)
        given = dict(self.get_parameters())
        given.pop("max_moves", None)
        defaults = options_for(variant).to_dict()
        try:
            self.options = options_for(variant, {k: v for k, v in given.items() if defaults.get(k) != v})
        except GinRummyError as exc:
            raise ValueError(str(exc)) from exc
        self.variant = variant
        self.max_moves = max_moves
        facts = find_variant(variant)
        self.solo = facts.solo
        self.num_seats = 1 if self.solo else facts.seats

    def new_initial_state(self) -> GinRummyState:
        """A hand waiting for its deal (a chance node)."""
        return GinRummyState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GinRummyObserver:
        """The observer behind the observation (and, with perfect recall, information-state)
        strings and tensors."""
        if params:
            raise ValueError(i18n._("observation parameters are not supported; got {params}").format(params=params))
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return GinRummyObserver(iig_obs_type, self.max_game_length())


class GinRummyState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped
    """A hand of the game on an engine :class:`State` (:attr:`engine`)."""

    def __init__(self, game: GinRummyGame) -> None:
        super().__init__(game)
        # Everything that changes lives in one object whose copy is cheap: OpenSpiel clones a
        # Python state by deep-copying each attribute.
        self._h = _Hand(game)

    @property
    def engine(self) -> State:
        """The engine state of the hand (every card: not an observation)."""
        return self._h.engine

    # ------------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        if self._h._over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.engine.needs_deal or self._h._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.engine.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return list(self.engine.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        outcomes = self._chance_cards()
        p = 1.0 / len(outcomes)
        return [(int(c), p) for c in sorted(outcomes)]

    def _apply_action(self, action: int) -> None:
        self._h.strings.clear()
        if self.is_chance_node():
            self._apply_chance(Card(action) if action < 52 else JOKER)
            return
        g = self.engine
        seat = g.current_player
        assert seat is not None
        self._h._moves += 1
        token = event_token("action", seat, action)
        for ev in self._h._events:
            ev.append(token)
        if self._draws_next(action):
            self._h._pending = action
            return
        g.apply(action)
        self._after()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            card = str(JOKER) if action == 52 else str(CARDS[action])
            if self.engine.needs_deal:
                return f"deal {card}"
            return f"count {card}" if self._counting() else f"stock {card}"
        return str(Action.from_id(action))

    def is_terminal(self) -> bool:
        return self._h._over

    def returns(self) -> list[float]:
        return list(self._h._returns)

    def __str__(self) -> str:
        g = self.engine
        lines = [f"{g.variant} phase {g.phase} to act {g.current_player}"]
        for seat in range(g.num_seats if not self._h.rules.solo else 1):
            lines.append(f"seat {seat}: {_cards(g.hands[seat])}")
        if g.logs:
            lines.append(f"stock (top last): {' '.join(map(str, g.stock))}")
            lines.append(f"discard pile: {' '.join(map(str, g.pile or g.out_of_play)) or '-'}")
        if self._h._pending is not None:
            lines.append(f"waiting for the stock: {Action.from_id(self._h._pending)}")
        if g.hand_result is not None and self._h._over:
            lines.append(f"{g.hand_result.result} {list(g.hand_result.points)}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> GinRummyState:
        """A state with the same information state for ``player``: the cards it has not seen
        (the other hands' hidden cards and the stock) are dealt anew, uniformly.  The sampler, when
        given, is called once for a seed (OpenSpiel's ``UniformProbabilitySampler``)."""
        seed = int(probability_sampler() * 2**62) if probability_sampler is not None else random.getrandbits(62)
        rng = random.Random(seed)
        unseen = self._unseen(player)
        perm = list(unseen)
        rng.shuffle(perm)
        swap = dict(zip(unseen, perm, strict=True))
        history = self.history()
        if not any(swap.get(a, a) != a for a in history[self._h._hand_start :]):
            same: GinRummyState = self.clone()  # no card this seat has not seen was dealt yet (solitaires)
            return same
        new: GinRummyState = self.get_game().new_initial_state()
        for i, a in enumerate(history):
            if i >= self._h._hand_start and new.is_chance_node():
                a = swap.get(a, a)
            new.apply_action(a)
        return new

    def _unseen(self, player: int) -> list[int]:
        """Card ids ``player`` has not seen this hand (the stock, and the hidden cards of others)."""
        if self.engine.needs_deal:
            return []  # mid-deal or before: no decision to resample for
        unseen = self.engine.observation_masks(player).unseen
        return [i for i in range(52) if unseen >> i & 1]

    # ------------------------------------------------------------------ internals
    def _draws_next(self, action: int) -> bool:
        """Whether ``action`` takes the stock's next card (or, ending a solitaire hand, counts
        down to the joker): then a chance node comes first."""
        if not self._h.rules.solo:
            return action == _DRAW
        kind = ACTIONS[action].kind
        return kind in ("draw", "discard", "knock", "gin")

    def _counting(self) -> bool:
        return self._h._pending is not None and ACTIONS[self._h._pending].kind in ("knock", "gin")

    def _deal_size(self) -> int:
        g = self.engine
        if not self._h.rules.solo:
            return 21
        if _joker(g) == "after_deal":  # Gin Solitaire deals eleven (rule 4.1)
            return 11
        opts = g.options
        assert isinstance(opts, SolitaireOptions)
        if JOKER in self._h._deal[:10]:
            return 10  # rule 3.2 with joker_in_deal="lose": the hand ends at the deal
        return 10 if opts.end_before_first_draw else 11

    def _chance_cards(self) -> list[Card]:
        g = self.engine
        if g.needs_deal:
            pack = [*CARDS, JOKER] if _joker(g) == "in_pack" else list(CARDS)
            dealt = set(self._h._deal)
            out = [c for c in pack if c not in dealt]
            n = len(self._h._deal)
            if _joker(g) == "in_pack" and n < 10:
                opts = g.options
                assert isinstance(opts, SolitaireOptions)
                if opts.joker_in_deal == "redeal":
                    out.remove(JOKER)  # redealing until the joker is not dealt: the same distribution
            return out
        return self._stock_cards()

    def _stock_cards(self) -> list[Card]:
        """The cards the stock's next card can be: every card not yet drawn (solitaire: not the
        discards at the bottom; while counting, not the cards already counted)."""
        g = self.engine
        below = set(g.out_of_play) if _joker(g) == "in_pack" else set()
        counted = set(self._h._counted)
        return [c for c in g.stock if c not in below and c not in counted]

    def _apply_chance(self, card: Card) -> None:
        g = self.engine
        if g.needs_deal:
            if not self._h._deal:
                self._h._hand_start = len(self.history()) - 1
            self._h._deal.append(card)
            if len(self._h._deal) < self._deal_size():
                return
            pack = [*CARDS, JOKER] if _joker(g) == "in_pack" else list(CARDS)
            if _joker(g) == "after_deal":
                pack.append(JOKER)
            dealt = set(self._h._deal)
            deck = self._h._deal + [c for c in pack if c not in dealt]
            self._h._deal = []
            before = [g.observation_masks(p).held for p in range(self._h.rules.num_seats)]
            g.deal(deck)
            self._seen(before)
            if not self._h.rules.solo:
                up = event_token("public", int(deck[20]))
                for ev in self._h._events:
                    ev.append(up)
            self._after()
            return
        assert self._h._pending is not None
        if self._counting():
            self._h._counted.append(card)
            if card != JOKER:
                return
            self._arrange(self._h._counted)  # the counted cards, then the joker
            self._h._counted = []
        else:
            self._arrange([card])
        action, self._h._pending = self._h._pending, None
        before = [g.observation_masks(p).held for p in range(self._h.rules.num_seats)]
        g.apply(action)
        self._seen(before)
        self._after()

    def _arrange(self, cards: Sequence[Card]) -> None:
        """Put ``cards`` on top of the stock, the first on top (the chance outcomes decide the
        stock's next cards).  The deck of the hand's log is reordered with it, so that the
        engine's record still replays to this state."""
        g = self.engine
        stock = g.stock
        deck = g.logs[-1].deck
        for j, card in enumerate(cards):
            pos = len(stock) - 1 - j
            i = stock.index(card)
            if i == pos:
                continue
            other = stock[pos]
            stock[i], stock[pos] = other, card
            a, b = deck.index(card), deck.index(other)
            deck[a], deck[b] = other, card

    def _seen(self, before: Sequence[int]) -> None:
        """Record, for each seat, the cards that arrived in the hand it sees (its own; the sitter:
        the captain's), as its observer shows them."""
        for p, ev in enumerate(self._h._events):
            new = self.engine.observation_masks(p).held & ~before[p]
            ev.extend(event_token("seen", i) for i in range(52) if new >> i & 1)

    def _after(self) -> None:
        """End the episode when the hand is over (or ``max_moves`` is reached)."""
        g = self.engine
        if g.is_hand_over:
            res = g.hand_result
            assert res is not None
            self._h._over = True
            self._h._returns = _returns(g, [float(p) for p in res.points])
        elif self._h._moves >= self._h.rules.max_moves:
            self._h._over = self._h._void = True

    # ------------------------------------------------------------------ views
    def observation_masks(self, player: int) -> MaskObservation:
        return self.engine.observation_masks(player)

    def events(self, player: int) -> list[int]:
        """The information-state tokens of ``player`` so far (see :func:`event_token`)."""
        return list(self._h._events[player])


@dataclass(frozen=True)
class _Rules:
    variant: str
    options: Options
    max_moves: int
    solo: bool
    num_seats: int


class _Hand:
    """The changing part of a :class:`GinRummyState` (see there)."""

    def __init__(self, game: GinRummyGame) -> None:
        self.rules = _Rules(game.variant, game.options, game.max_moves, game.solo, game.num_seats)
        self.engine = State.new(game.variant, game.options)
        self._deal: list[Card] = []  # the cards dealt so far (a chance node while the deal runs)
        self._pending: int | None = None  # an action that waits for the stock's next card(s)
        self._counted: list[Card] = []  # solitaires: cards counted down to the joker so far
        self._moves = 0
        self._void = False  # max_moves reached
        self._over = False
        self._events: list[list[int]] = [[] for _ in range(game.num_seats)]
        self._returns = [0.0] * game.num_seats
        self._hand_start = 0  # len(history()) when the deal of this hand began
        self.strings: dict[tuple[int, bool], str] = {}  # the observers' strings of this state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        new = copy.copy(self)
        new.engine = self.engine.clone()
        if new.engine.logs:
            new.engine.logs[-1].deck = list(self.engine.logs[-1].deck)  # reordered by the draws
        new._deal = list(self._deal)
        new._counted = list(self._counted)
        new._events = [list(e) for e in self._events]
        new._returns = list(self._returns)
        new.strings = dict(self.strings)
        return new


def _joker(g: State) -> str:
    """Where the joker of ``g``'s variant is (:attr:`ginrummy.variants.Variant.joker`)."""
    return find_variant(g.variant).joker


def _returns(g: State, points: list[float]) -> list[float]:
    if find_variant(g.variant).solo:
        opts = g.options
        if isinstance(opts, SolitaireOptions) and opts.scoring == "none":
            res = g.hand_result
            assert res is not None
            return [1.0 if res.winner == 0 else -1.0]
        return [points[0] - points[1]]
    n = len(points)
    total = sum(points)
    return [p - (total - p) / (n - 1) for p in points]


class GinRummyObserver:
    """OpenSpiel's ``PyObserver`` for these games: ``tensor`` and ``dict`` views, ``set_from`` and
    ``string_from``.  Without perfect recall: the seat's current observation; with it, the
    observation followed by the seat's history of the hand as tokens (``history``)."""

    def __init__(self, iig_obs_type: Any, max_length: int) -> None:
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                i18n._("only the single-player observation (public and own private information) is supported")
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.history_length = max_length + 24 if self.perfect_recall else 0
        self.tensor = np.zeros(OBS_SIZE + self.history_length, np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor[:OBS_SIZE]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[OBS_SIZE:]

    def set_from(self, state: GinRummyState, player: int) -> None:
        self.tensor[:OBS_SIZE] = encode_state(state.engine, player)["observation"]
        if self.perfect_recall:
            ev = state._h._events[player][: self.history_length]
            hist = self.dict["history"]
            hist.fill(0)
            hist[: len(ev)] = ev

    def string_from(self, state: GinRummyState, player: int) -> str:
        key = (player, self.perfect_recall)
        text = state._h.strings.get(key)
        if text is None:
            text = state._h.strings[key] = self._string(state, player)
        return text

    def _string(self, state: GinRummyState, player: int) -> str:
        g = state.engine
        m = g.observation_masks(player)
        parts = [f"p{player} hand {m.hand_number} {m.phase}"]
        if m.hand_number:
            parts.append(f"held {_cards(m.held)}")
            if m.top >= 0:
                parts.append(f"top {CARDS[m.top]}")
            parts.append(f"discards {_cards(m.pile)}")
            if m.known:
                parts.append(f"known {_cards(m.known)}")
            parts.append(f"stock {m.stock_size} limit {m.knock_limit}")
            if m.roles is not None:
                parts.append(f"roles {m.roles}")
            elif m.dealer is not None:
                parts.append(f"dealer {m.dealer}")
        if m.to_act:
            parts.append("to act")
        if state._h._pending is not None:
            parts.append(f"waiting: {Action.from_id(state._h._pending)}")
        if state.is_terminal() and g.hand_result is not None:
            r = g.hand_result
            parts.append(f"result {r.result} {list(r.points)} unseen {_cards(m.unseen)}")
        if state._h._void:
            parts.append("void: max_moves")
        text = " | ".join(parts)
        if self.perfect_recall:
            text += " || " + " ".join(map(str, state._h._events[player]))
        return text


def _game_info(variant: str, max_moves: int) -> Any:
    facts = find_variant(variant)
    solo = facts.solo
    bound = _points_bound(variant)
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=_NUM_CARDS if solo else 52,
        num_players=1 if solo else facts.seats,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=None if solo else 0.0,
        max_game_length=_max_length(variant, max_moves),
    )


def _parameter_spec(variant: str) -> dict[str, Any]:
    spec: dict[str, Any] = dict(options_for(variant).to_dict())
    spec["max_moves"] = MAX_MOVES
    return spec


def _game_type(variant: str) -> Any:
    facts = find_variant(variant)
    solo = facts.solo
    n = 1 if solo else facts.seats
    return pyspiel.GameType(
        short_name=GAME_NAMES[variant],
        long_name=f"ginrummy {variant} (one hand)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(variant),
    )


_GAME_TYPES: Final = {v: _game_type(v) for v in GAME_NAMES}


def _game_class(variant: str) -> type[GinRummyGame]:
    name = "GinRummy" + "".join(w.title() for w in variant.split("-")) + "Game"
    cls = type(name, (GinRummyGame,), {"VARIANT": variant, "__doc__": f"The OpenSpiel game of {variant}."})
    cls.__module__ = __name__
    globals()[name] = cls  # picklable by name (OpenSpiel serialises states with pickle)
    return cls


GAME_CLASSES: Final[dict[str, type[GinRummyGame]]] = {v: _game_class(v) for v in GAME_NAMES}

_registered = set(pyspiel.registered_names())
for _variant, _cls in GAME_CLASSES.items():
    if GAME_NAMES[_variant] not in _registered:
        pyspiel.register_game(_GAME_TYPES[_variant], _cls)
