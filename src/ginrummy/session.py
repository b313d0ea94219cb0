"""A game in play for the front ends: the engine state, who sits in each seat (a person or a
computer player), fair deals with a commitment shown before each deal, hints, and a JSON form
for saving after every action.

Front ends (terminal, browser) drive a :class:`Session`; they never apply rules themselves and
show each person only :meth:`Session.observation` of that person's seat.

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

from .actions import Action
from .agents import Agent, make_agent
from .engine import SOLO, State
from .errors import GinRummyError, IllegalAction
from .fair import commitment, fresh_commitment
from .options import Options

__all__ = ["HUMAN", "SESSION_FORMAT", "Session"]

HUMAN = "human"
SESSION_FORMAT = "ginrummy-session/1"


class Session:
    """One game with its seats.  ``seats[i]`` is ``"human"`` or an agent name (``expert``...).

    In the solitaires seat 1 is the Joker and never acts; in ``three`` the sitter's seat kind
    only decides who gives advice.
    """

    def __init__(self, state: State, seats: Sequence[str], *, deal_seed: int | None = None) -> None:
        if len(seats) != state.num_seats:
            raise GinRummyError(f"{state.variant} has {state.num_seats} seats, got {len(seats)} seat kinds")
        self.state = state
        self.seats = list(seats)
        self.deal_seed = deal_seed  # tests and simulations: derive deal seeds from this; None = secrets
        self._pending: tuple[int, str] | None = None  # secret seed and its public commitment
        self._agents: dict[int, Agent] = {}
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
            seats = [HUMAN] + ["expert" if variant not in SOLO else "joker"] * (state.num_seats - 1)
        return cls(state, seats, deal_seed=deal_seed)

    def _is_joker(self, seat: int) -> bool:
        return self.state.variant in SOLO and seat == 1

    # -- deals ----------------------------------------------------------------------------------
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

    def start_hand(self) -> None:
        """Deal the next hand from the committed seed."""
        if not self.state.needs_deal:
            raise IllegalAction("the hand in play is not over" if not self.state.is_terminal else "the game is over")
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

    def human_to_act(self) -> int | None:
        seat = self.state.current_player
        return seat if seat is not None and self.is_human(seat) else None

    def act(self, seat: int, action: Action | str | int) -> None:
        """A person's action for ``seat``; rejected (nothing changes) if it is not that seat's turn."""
        act = action if isinstance(action, Action) else None
        if act is None and isinstance(action, str):
            act = Action.parse(action)
        if act is not None and act.kind == "layoff":
            # Explicit layoffs come from the defender after a knock, when nobody is "to act".
            result = self.state.hand_result
            if result is None or result.knocker in (None, seat) or seat not in self.state.active_seats:
                raise IllegalAction(f"seat {seat} is not the defender: no layoff")
            self.state.apply(act)
            self._changed()
            return
        if self.state.current_player != seat:
            who = self.state.current_player
            raise IllegalAction(f"it is not seat {seat}'s turn" + ("" if who is None else f" (seat {who} is to act)"))
        self.state.apply(action)
        self._changed()

    def computer_step(self) -> tuple[int, Action, str | None] | None:
        """Let the computer seat to act take one action; None if a person (or nobody) is to act."""
        seat = self.state.current_player
        if seat is None or seat not in self._agents:
            return None
        decision = self._agents[seat].decide(self.state.observation(seat), self.state.legal_actions())
        self.state.apply(decision.action)
        self._changed()
        return seat, decision.action, decision.explanation

    def run_computers(self, limit: int = 1000) -> list[tuple[int, Action, str | None]]:
        """Computer seats play until a person must act or the hand ends."""
        done: list[tuple[int, Action, str | None]] = []
        while len(done) < limit:
            step = self.computer_step()
            if step is None:
                break
            done.append(step)
        return done

    def observation(self, seat: int) -> dict[str, Any]:
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
        if st.variant == "three" and st.logs and seat == 3 - st.hand_dealer - st.hand_nondealer:
            seat = st.hand_nondealer  # rule 2.2: the sitter sees the captain's hand and advises on it
        if st.current_player != seat:
            raise IllegalAction(f"no hint: seat {seat} is not to act")
        return seat

    def hint(self, seat: int) -> Any:
        """The advisor's recommendation for ``seat`` (its turn, or the sitter advising the captain)."""
        from .agents.advisor import advise

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
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Session:
        from .record import replay

        if not isinstance(data, Mapping) or data.get("format") != SESSION_FORMAT:
            raise GinRummyError(f"not a saved game (expected format {SESSION_FORMAT!r})")
        state = replay(data["record"])
        s = cls(state, data["seats"], deal_seed=data.get("deal_seed"))
        pending = data.get("pending")
        if pending is not None:
            s._pending = (int(pending[0]), str(pending[1]))
        return s
