"""A game in play for the front ends: the engine state, who sits in each seat (a person or a
computer player), fair deals with a commitment shown before each deal, hints, and a JSON form
for saving after every action.

Front ends (terminal, plain, browser) drive a :class:`Session`; they never apply rules themselves
and show each person only :meth:`Session.observation` of that person's seat, and the session's move
log as that seat may read it (:meth:`Session.log_text`, built by :mod:`ginrummy.words`): the public
moves, with a stock draw's card and a computer player's reasons only for a seat that may see that
hand, or once the hand is over.

>>> s = Session.new("solitaire", seats=["human", "joker"], deal_seed=1)
>>> s.commitment_for_next_deal() is not None
True
>>> s.start_hand(); s.state.hand_number
1
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import words
from .actions import Action
from .agents import Agent, make_agent, reasons
from .agents.advisor import Advice, advise
from .cards import Card
from .engine import Cut, State
from .errors import GinRummyError, IllegalAction
from .fair import commitment, fresh_commitment
from .i18n import _, ngettext
from .melds import Arrangement
from .movelog import MoveEvent, MoveLog, Roles
from .observe import Observation
from .options import Options
from .variants import find_variant, variant_names

__all__ = [
    "HUMAN",
    "SESSION_FORMAT",
    "Arrangement",
    "ComputerPlayerError",
    "Cut",
    "MoveEvent",
    "Roles",
    "Session",
    "make_session",
    "public_record",
    "viewer_seat",
]

HUMAN = "human"
SESSION_FORMAT = "ginrummy-session/1"


class ComputerPlayerError(GinRummyError):
    """A computer player failed to move.  Its message names the player only: the agent's own
    error (chained as ``__cause__``, for logs) may list the cards it holds."""


class Session(MoveLog):
    """One game with its seats.  ``seats[i]`` is ``"human"`` or an agent name (``expert``...).

    In the solitaires seat 1 is the Joker and never acts; in ``three`` the sitter's seat kind
    only decides who gives advice.
    """

    def __init__(self, state: State, seats: Sequence[str], *, deal_seed: int | None = None) -> None:
        if len(seats) != state.num_seats:
            raise GinRummyError(
                ngettext(
                    "{variant} has {seats} seats, got {n} seat kind",
                    "{variant} has {seats} seats, got {n} seat kinds",
                    len(seats),
                ).format(variant=state.variant, seats=state.num_seats, n=len(seats))
            )
        self.state = state
        self.seats = list(seats)
        self.deal_seed = deal_seed  # tests and simulations: derive deal seeds from this; None = secrets
        self._pending: tuple[int, str] | None = None  # secret seed and its public commitment
        self._agents: dict[int, Agent] = {}
        # What the session saw of each move beyond the public action: (hand, index) -> (taken,
        # drawn, reason).  Moves made before a resume lack it (their public words are the same).
        self._notes: dict[tuple[int, int], tuple[Card | None, Card | None, reasons.Value | None]] = {}
        self._suggestion: tuple[tuple[int, int], tuple[int, Advice] | None] | None = None
        self.takebacks = 0  # moves taken back (take_back): a game with takebacks is marked so in the history
        self.first_cut: Cut | None = None  # the cut for the first deal or the roles (cut), for cut_lines
        self.on_change: Callable[[Session], None] | None = None
        for i, kind in enumerate(self.seats):
            if kind != HUMAN and not self._is_joker(i):
                self._agents[i] = make_agent(kind, state.variant, seed=None if deal_seed is None else deal_seed + i)

    @classmethod
    def new(
        cls,
        variant: str,
        options: Mapping[str, Any] | Options | None = None,
        players: Sequence[str] | None = None,
        seats: Sequence[str] | None = None,
        *,
        deal_seed: int | None = None,
    ) -> Session:
        state = State.new(variant, options, players)
        if seats is None:
            seats = [HUMAN] + ["joker" if find_variant(variant).solo else "expert"] * (state.num_seats - 1)
        return cls(state, seats, deal_seed=deal_seed)

    def _is_joker(self, seat: int) -> bool:
        return find_variant(self.state.variant).solo and seat == 1

    # -- deals ----------------------------------------------------------------------------------
    def cut_for_first_deal(self) -> Cut | None:
        """:meth:`cut` when a cut is due: not in the solitaires, not once a hand is dealt, not twice
        (then None).  :attr:`first_cut` keeps it, saved with the game, for
        :func:`ginrummy.words.cut_lines`."""
        st = self.state
        if find_variant(st.variant).solo or st.logs or self.first_cut is not None:
            return None
        return self.cut()

    def commitment_for_next_deal(self) -> str | None:
        """The SHA-256 commitment to the next hand's seed, to show before it is dealt."""
        if not self.state.needs_deal:
            return None
        if self._pending is None:
            n = self.state.hand_number + 1
            if self.deal_seed is None:
                self._pending = fresh_commitment(n)
            else:
                digest = hashlib.sha256(f"ginrummy-session-seed:{self.deal_seed}:{n}".encode()).digest()
                seed = int.from_bytes(digest, "big")
                self._pending = (seed, commitment(n, seed))
            self._changed()  # the commitment is shown now: save its seed before anyone sees it
        return self._pending[1]

    def cut(self) -> Cut:
        """Cut for the first deal (rule 1.2) or for three's roles (rule 2.1, ``cut_ties``), before
        the first hand; the cards come from the session's ``deal_seed`` (tests) or a fresh secret
        seed.  The result is kept in the options, so the record says who dealt first."""
        seed = None
        if self.deal_seed is not None:
            seed = int.from_bytes(hashlib.sha256(f"ginrummy-session-cut:{self.deal_seed}".encode()).digest(), "big")
        result = self.state.cut(seed=seed)
        self.first_cut = result
        self._changed()
        return result

    def start_hand(self) -> None:
        """Deal the next hand from the committed seed."""
        if not self.state.needs_deal:
            raise IllegalAction(
                _("the hand in play is not over") if not self.state.is_terminal else _("the game is over")
            )
        self.commitment_for_next_deal()
        assert self._pending is not None
        seed, commit = self._pending
        self._pending = None
        self.state.deal(seed=seed, commitment=commit)
        self._changed()

    # -- turns ----------------------------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def to_act(self) -> int | None:
        return self.state.current_player

    @property
    def watched(self) -> bool:
        """No seat is a person's: they watch computer players (a solitaire played by the planner).
        Such a game is not the person's, so it is not filed in their history as theirs."""
        return HUMAN not in self.seats

    def human_to_act(self) -> int | None:
        seat = self.state.current_player
        return seat if seat is not None and self.is_human(seat) else None

    def act(self, seat: int, action: Action | str | int) -> MoveEvent:
        """A person's action for ``seat``; rejected (nothing changes) if it is not that seat's turn."""
        act = action if isinstance(action, Action) else None
        if act is None and isinstance(action, str):
            act = Action.parse(action)
        if act is not None and act.kind == "layoff":
            # Explicit layoffs come from the defender after a knock, when nobody is "to act".
            result = self.state.hand_result
            if result is None or result.knocker in (None, seat) or seat not in self.state.active_seats:
                raise IllegalAction(_("seat {seat} is not the defender: no layoff").format(seat=seat))
            if self.state.is_terminal:  # as layoff_options: a finished game's result stands
                raise IllegalAction(_("the game is over: no layoff"))
            return self._apply(seat, act)
        if self.state.current_player != seat:
            who = self.state.current_player
            raise IllegalAction(
                _("it is not seat {seat}'s turn").format(seat=seat)
                if who is None
                else _("it is not seat {seat}'s turn (seat {other} is to act)").format(seat=seat, other=who)
            )
        return self._apply(seat, action)

    def _apply(
        self, seat: int, action: Action | str | int, reason: reasons.Value | None = None, *, computer: bool = False
    ) -> MoveEvent:
        """Apply one action and note what this session saw of it (the card taken, the card drawn)."""
        st = self.state
        hand, index = st.hand_number, len(st.logs[-1].actions) if st.logs else 0
        before = set(st.hand(seat)) if st.logs else set()
        top = st.pile[-1] if st.pile else None
        try:
            st.apply(action)
        except GinRummyError as exc:
            if computer:  # an illegal choice is the agent's bug; its action may name the cards it holds
                raise ComputerPlayerError(words.computer_failed(st.players[seat])) from exc
            raise
        log = st.logs[-1]
        act = log.actions[index]
        new = set(st.hand(seat)) - before
        taken = top if act.kind == "take" else None
        drawn = next(iter(new - {taken}), None) if act.kind != "take" and len(new - {taken}) == 1 else None
        if any(h != hand for h, _i in self._notes):
            self._notes = {k: v for k, v in self._notes.items() if k[0] == hand}  # the hand in play only
        self._notes[(hand, index)] = (taken, drawn, reason)
        self._changed()
        return MoveEvent(hand, index, log.seats[index], act, taken, drawn, reason)

    def computer_step(self) -> MoveEvent | None:
        """Let the computer seat to act take one action; None if a person (or nobody) is to act.
        Raises :class:`ComputerPlayerError` (nothing changed) if the computer player fails."""
        seat = self.state.current_player
        if seat is None or seat not in self._agents:
            return None
        try:
            decision = self._agents[seat].decide(self.state.observation(seat), self.state.legal_actions())
        except Exception as exc:  # an agent's bug: say which player, never its message (it may list its hand)
            raise ComputerPlayerError(words.computer_failed(self.state.players[seat])) from exc
        return self.play_computer(seat, decision.action, decision.explanation)

    def play_computer(self, seat: int, action: Action | str, reason: reasons.Value | None = None) -> MoveEvent:
        """A computer seat's decision (worked out here or in a worker process) and its reasons
        (data, worded for each viewer: :mod:`ginrummy.agents.reasons`), which the move log keeps
        private until the hand is over."""
        if self.state.current_player != seat or self.is_human(seat):
            raise IllegalAction(_("seat {seat} is not a computer player to act").format(seat=seat))
        return self._apply(seat, action, reason, computer=True)

    def run_computers(self, limit: int = 1000) -> list[MoveEvent]:
        """Computer seats play until a person must act or the hand ends."""
        done: list[MoveEvent] = []
        while len(done) < limit:
            step = self.computer_step()
            if step is None:
                break
            done.append(step)
        return done

    # -- taking back ------------------------------------------------------------------------------
    def takeback_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back a move now, in one line; None if it may.  Takebacks are for
        a person playing against the computer: not at a table of several people, not in a game
        watched, not once the hand is over (its cards were shown), and not across a deal: the
        moves of the hand in play, back to that person's last decision."""
        st = self.state
        if not 0 <= seat < len(self.seats) or not self.is_human(seat):
            return _("only a person's moves can be taken back")
        if sum(k == HUMAN for k in self.seats) > 1:
            return _("takebacks are for games against the computer, not between people")
        if st.is_terminal:
            return _("the game is over and filed: its moves cannot be taken back")
        if st.is_hand_over:
            return _("the hand is over and its cards were shown: its moves cannot be taken back")
        if not st.logs or seat not in st.logs[-1].seats:
            return _("you have made no move in this hand to take back")
        return None

    def can_undo(self, seat: int) -> bool:
        """May ``seat`` take back a decision now (:meth:`take_back`)?"""
        return self.takeback_refusal(seat) is None

    def undo(self, seat: int) -> int:
        """:meth:`take_back`, returning the number of actions taken back."""
        return len(self.take_back(seat))

    def take_back(self, seat: int) -> list[MoveEvent]:
        """Undo back to ``seat``'s last decision in this hand (the computers' moves after it too),
        so that it is that person's turn again as it was; returns the moves undone, in order.
        The game counts a takeback (:attr:`takebacks`, saved and shown in the history).  Refused
        with :class:`IllegalAction` (nothing changes) when :meth:`takeback_refusal` says why."""
        why = self.takeback_refusal(seat)
        if why is not None:
            raise IllegalAction(why)
        st = self.state
        log = st.logs[-1]
        last = max(i for i, s in enumerate(log.seats) if s == seat)
        undone = self.moves()[last:]
        saved = self.to_json()
        try:
            for _event in undone:
                st.undo()
        except GinRummyError:  # the undo stack was not kept: put the game back as it was
            self.restore(saved)
            raise IllegalAction(_("this game cannot take moves back")) from None
        hand = st.hand_number
        self._notes = {k: v for k, v in self._notes.items() if k[0] != hand or k[1] < last}
        self._suggestion = None
        self.takebacks += 1
        self._changed()
        return undone

    # -- choices a person may make ------------------------------------------------------------------
    def arrangements(self, seat: int, action: Action | str) -> list[Arrangement]:
        """Rule 0.8 (``knocker_arrangement=choose``): the melds ``seat``, to act, may declare with
        the knock or gin ``action`` (named without melds), least deadwood first; the person picks
        one and plays it as ``knock 7h | 3h4h5h KcKdKs`` (:meth:`declare`).  Raises
        :class:`IllegalAction` when it is not ``seat``'s turn or ``action`` is no such knock or gin."""
        if self.state.current_player != seat:
            raise IllegalAction(_("it is not seat {seat}'s turn").format(seat=seat))
        return self.state.declarable_arrangements(action)

    def spread_choices(self, seat: int, action: Action | str) -> list[Arrangement]:
        """The arrangements to offer a person who plays the knock ``action``: :meth:`arrangements`
        when ``knocker_arrangement=choose`` and there is more than one; else empty, and ``action``
        is played as it is (the engine spreads its best arrangement; a gin melds every card)."""
        st = self.state
        act = action if isinstance(action, Action) else Action.parse(action)
        if getattr(st.options, "knocker_arrangement", "auto") != "choose" or not self.is_human(seat):
            return []
        if act.kind != "knock" or act.melds is not None or st.current_player != seat:
            return []
        found = self.arrangements(seat, act)
        return found if len(found) > 1 else []

    def declare(self, seat: int, action: Action | str, arrangement: Arrangement) -> MoveEvent:
        """Play the knock ``action`` spreading ``arrangement`` (one of :meth:`arrangements`)."""
        act = action if isinstance(action, Action) else Action.parse(action)
        return self.act(seat, Action(act.kind, act.card, tuple(arrangement.melds)))

    def layoff_options(self, seat: int) -> list[Card]:
        """After a knock: the cards ``seat`` (the defender) may lay off now, to choose its layoffs
        itself (``layoff 8h`` through :meth:`act`; the first replaces the engine's automatic choice,
        then each adds one); empty when ``seat`` is not a defender who may lay off."""
        st = self.state
        result = st.hand_result
        if result is None or result.knocker in (None, seat) or seat not in st.active_seats or st.is_terminal:
            return []
        if not self.is_human(seat) or self.defender() != seat:
            return []
        return st.layoff_options()

    # -- facts the front ends show ------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """The seat names, safe to print (:func:`ginrummy.words.clean_name`)."""
        return words.clean_names(self.state.players)

    @property
    def game_target(self) -> int:
        """The points that end the game (Hollywood: each of its three games)."""
        st = self.state
        return words.target_of({"variant": st.variant, "options": st.options.to_dict()})

    def defender(self) -> int | None:
        """The seat that defended the knock (or gin) that ended the hand; None if nobody knocked."""
        st = self.state
        result = st.hand_result
        if result is None or result.knocker is None:
            return None
        others = [s for s in st.active_seats if s != result.knocker]
        return others[0] if len(others) == 1 else None

    def sitter_suggestion(self) -> tuple[int, Advice] | None:
        """Three: a computer sitter's suggestion to a captain who is a person, worked out once a
        position; None when there is none (a person sits, or the captain is not to act)."""
        roles = self.roles()
        st = self.state
        if roles is None or st.is_hand_over or st.current_player != roles.captain:
            return None
        if self.is_human(roles.sitter) or not self.is_human(roles.captain):
            return None
        key = (st.hand_number, len(st.logs[-1].actions))
        if self._suggestion is None or self._suggestion[0] != key:
            try:
                advice: tuple[int, Advice] | None = (roles.sitter, self.hint(roles.sitter))
            except Exception:  # advice is a courtesy: a failing advisor never stops the game (nor shows its error)
                advice = None
            self._suggestion = (key, advice)
        return self._suggestion[1]

    def sitter_text(self) -> str | None:
        """The computer sitter's suggestion in words, for the captain and the sitter (None: none)."""
        suggestion = self.sitter_suggestion()
        if suggestion is None:
            return None
        sitter, advice = suggestion
        return words.sitter_line(self.state.players, sitter, advice.best, advice.why)

    def observation(self, seat: int) -> Observation:
        obs = self.state.observation(seat)
        if self.state.needs_deal:
            obs["next_commitment"] = self.commitment_for_next_deal()
        if self.state.logs and self.state.is_hand_over:
            log = self.state.logs[-1]
            if log.seed is not None:
                obs["revealed_seed"] = str(log.seed)  # after the hand: anyone may check the deal
        obs["seat_kinds"] = list(self.seats)
        return obs

    def advised_seat(self, seat: int) -> int:
        """The seat whose decision a hint for ``seat`` is about: its own on its turn, or (the
        sitter in three) the captain's; raises :class:`IllegalAction` when there is none."""
        st = self.state
        roles = self.roles()
        if roles is not None and seat == roles.sitter:
            seat = roles.captain  # rule 2.2: the sitter sees the captain's hand and advises on it
        if st.current_player != seat:
            raise IllegalAction(_("no hint: seat {seat} is not to act").format(seat=seat))
        return seat

    def hint(self, seat: int) -> Advice:
        """The advisor's recommendation for ``seat`` (its turn, or the sitter advising the captain)."""
        target = self.advised_seat(seat)
        st = self.state
        return advise(st.observation(target), st.legal_actions(), st.variant)

    # -- saving ---------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def to_json(self) -> dict[str, Any]:
        """Everything needed to resume, including the secret pending seed: keep it server-side."""
        return {
            "format": SESSION_FORMAT,
            "record": self.state.to_record(),
            "seats": list(self.seats),
            "deal_seed": self.deal_seed,
            "pending": None if self._pending is None else [str(self._pending[0]), self._pending[1]],
            "notes": [
                [h, i, None if t is None else str(t), None if d is None else str(d), reasons.to_json(r)]
                for (h, i), (t, d, r) in sorted(self._notes.items())
            ],
            "takebacks": self.takebacks,
            "cut": None if self.first_cut is None else _cut_json(self.first_cut),
        }

    def restore(self, saved: Mapping[str, Any]) -> None:
        """Put this session back to ``saved`` (its :meth:`to_json` at the last save): the state,
        the committed next seed and the move notes; its seats and computer players stay."""
        back = Session.from_json(saved)
        self.state = back.state
        self._pending = back._pending
        self._notes = back._notes
        self.takebacks = back.takebacks
        self.first_cut = back.first_cut
        self._suggestion = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        from .record import replay

        if not isinstance(data, Mapping) or data.get("format") != SESSION_FORMAT:
            raise GinRummyError(_("not a saved game (expected format {format})").format(format=repr(SESSION_FORMAT)))
        state = replay(data["record"])
        s = cls(state, data["seats"], deal_seed=data.get("deal_seed"))
        pending = data.get("pending")
        if pending is not None:
            s._pending = (int(pending[0]), str(pending[1]))
        for note in data.get("notes") or []:  # what the session saw of the moves (older saves: none)
            try:
                h, i, t, d, r = note
                s._notes[(int(h), int(i))] = (
                    None if t is None else Card.parse(str(t)),
                    None if d is None else Card.parse(str(d)),
                    _saved_reason(r),
                )
            except (TypeError, ValueError, GinRummyError):
                continue  # a damaged note loses only its words, never the game
        takebacks = data.get("takebacks", 0)
        s.takebacks = takebacks if isinstance(takebacks, int) and not isinstance(takebacks, bool) else 0
        try:
            s.first_cut = None if data.get("cut") is None else _cut_from_json(data["cut"])
        except (TypeError, ValueError, KeyError, GinRummyError):
            s.first_cut = None  # a damaged cut loses only its words: the record keeps who dealt first
        return s


def _saved_reason(data: Any) -> reasons.Value | None:
    """A move's reasons as saved: data (worded again in the language of now), or the text of a
    game saved before reasons were data (shown as it was written); damaged ones are dropped."""
    if data is None:
        return None
    try:
        return reasons.from_json(data)
    except (ValueError, TypeError, RecursionError):
        return None


def _cut_json(cut: Cut) -> dict[str, Any]:
    return {
        "rounds": [[[seat, str(card)] for seat, card in r] for r in cut.rounds],
        "order": list(cut.order),
        "dealer": cut.dealer,
        "roles": None if cut.roles is None else list(cut.roles),
    }


def _cut_from_json(data: Mapping[str, Any]) -> Cut:
    roles = data.get("roles")
    return Cut(
        tuple(tuple((int(seat), Card.parse(str(card))) for seat, card in r) for r in data["rounds"]),
        tuple(int(x) for x in data["order"]),
        int(data["dealer"]),
        None if roles is None else (int(roles[0]), int(roles[1]), int(roles[2])),
    )


# ---------------------------------------------------------------------------------------------
# Starting and viewing games: the helpers every front end shares
# ---------------------------------------------------------------------------------------------
def make_session(
    variant: str,
    *,
    options: Mapping[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    players: Sequence[str] | None = None,
    name: str = "You",
    deal_seed: int | None = None,
    cut: bool = False,
) -> Session:
    """A new session from the start-screen choices; ``seats`` defaults to the person against experts,
    ``players`` to :func:`ginrummy.words.default_players` (the same names in every front end).
    ``cut``: cut for the first deal (or the roles) now (:meth:`Session.cut_for_first_deal`)."""
    if variant not in variant_names():
        raise GinRummyError(
            _("unknown variant {variant}; choose one of {variants}").format(
                variant=repr(variant), variants=", ".join(variant_names())
            )
        )
    v = find_variant(variant)
    if seats is None:
        seats = [HUMAN, "joker"] if v.solo else [HUMAN] + ["expert"] * (v.seats - 1)
    seats = list(seats)
    if v.solo and len(seats) == 2:
        seats[1] = "joker"
    if players is None:
        players = words.default_players(variant, seats, name)
    session = Session.new(variant, dict(options or {}), list(players), seats, deal_seed=deal_seed)
    if cut:
        session.cut_for_first_deal()
    return session


def viewer_seat(session: Session) -> int:
    """The seat whose view a single-screen front end shows: the person to act, else the first person."""
    to_act = session.human_to_act()
    if to_act is not None:
        return to_act
    return next((i for i, k in enumerate(session.seats) if k == HUMAN), 0)


def public_record(session: Session) -> dict[str, Any]:
    """The game record as a player may see it: the hand in play keeps its seed secret (only its
    commitment is shown) until the hand is over."""
    record = session.state.to_record()
    if record["hands"] and not session.state.is_hand_over:
        hand = record["hands"][-1]
        hand.pop("seed", None)
        hand.pop("deck", None)
    return record
