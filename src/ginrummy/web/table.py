"""One game in the browser: a :class:`Table` holds its session, its seats (people with seat
tokens, computer players), the connections at each seat, and what each seat is told.

The server is authoritative: each connection receives only :meth:`Session.observation` of its own
seat plus the table's public facts (:meth:`Table.public`).  A connection is anything with the
:class:`Client` shape (the server's :class:`~ginrummy.web.connection.Client`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

from .. import i18n
from ..agents import available_agents
from ..engine import Cut
from ..finish import analysis_lines
from ..session import HUMAN, Session
from ..variants import solo_variants
from ..words import computer_failed, display_names, final_part_text, reason_text, result_lines
from .protocol import variant_facts

__all__ = ["JOKER_SEAT", "Client", "Table", "default_opponent", "default_player"]


class Client(Protocol):
    """A connection at a seat, as a table sees it: it is sent messages and errors, and it is
    detached (``table`` and ``seat`` set to None) when its seat is given away."""

    table: Table | None
    seat: int | None

    def send(self, msg: dict[str, Any]) -> None: ...

    def error(self, code: str, message: str, *, ref: str | None = None, seq: int | None = None) -> None: ...


SOLO = solo_variants()  # the solitaires (one person against the Joker), from the registry

JOKER_SEAT = "joker"
_OPPONENT_PREFERENCE = ("expert", "planner", "greedy", "random")


def default_opponent(variant: str) -> str | None:
    """The strongest computer player available for ``variant`` (None in the solitaires)."""
    return None if variant in SOLO else default_player(variant)


def default_player(variant: str) -> str | None:
    """The strongest computer player that plays ``variant`` (in the solitaires, the player's seat)."""
    agents = available_agents(variant)
    for name in _OPPONENT_PREFERENCE:
        if name in agents:
            return name
    return agents[0] if agents else None


class Table:
    """One game in the browser: its session, seats, connections and the sitter's suggestion."""

    def __init__(
        self,
        game_id: str,
        session: Session,
        *,
        kind: str,
        hints: bool,
        claimed: set[int],
        invites: dict[int, str] | None = None,
        ready: set[int] | None = None,
    ) -> None:
        self.game_id = game_id
        self.session = session
        self.kind = kind  # "solo" (one person and computers) or "table" (people invited)
        self.invites = dict(invites or {})  # open seat -> its own invitation code (the creator sees them)
        self.hints = hints
        self.claimed = set(claimed)  # person seats that have a token
        self.conns: dict[int, set[Client]] = {}
        self.ready: set[int] = set(ready or ())  # kept in the seat book: survives a restart
        now = time.monotonic()
        self.away_since: dict[int, float] = {i: now for i in self.claimed}  # person seats with no connection
        self.replace_after = 120.0  # seconds a person may be away before the creator may replace them
        self.wakeups: dict[int, asyncio.TimerHandle] = {}
        # the sitter's suggestion: from (seat), action, text (a person's note, or the computer
        # sitter's reasons as data, worded for each reader)
        self.suggestion: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.failure: str | None = None  # the name of a computer player that failed to move
        self.suggested_at: tuple[int, int, int] | None = None  # the position a computer sitter advised on
        self.last_seen = time.monotonic()
        self.analysis: dict[str, Any] | None = None  # a finished solitaire's analysis, once worked out
        self.analysing: asyncio.Task[None] | None = None
        self.cut: Cut | None = None  # the cut for the first deal (kept in memory until the deal)

    # -- who sits where ---------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.session.state.variant

    def person_seats(self) -> list[int]:
        return [i for i, k in enumerate(self.session.seats) if k == HUMAN]

    def open_seats(self) -> list[int]:
        return [i for i in self.person_seats() if i not in self.claimed]

    def seat_kind(self, seat: int) -> str:
        kind = self.session.seats[seat]
        if kind == HUMAN:
            return "person" if seat in self.claimed else "open"
        if kind == JOKER_SEAT or (self.variant in SOLO and seat == 1):
            return "joker"
        return "computer"

    @property
    def creator(self) -> int | None:
        """The seat of the person who created a table for friends (they manage its invitations)."""
        return 0 if self.kind == "table" else None

    @property
    def invite(self) -> str | None:
        """The invitation of the first open seat (the one to share when only one seat is open)."""
        return self.invites[min(self.invites)] if self.invites else None

    def replaceable(self) -> list[int]:
        """The creator may give these seats to a computer or a new link: open seats, and seats whose
        person has been away ``replace_after`` seconds."""
        if self.kind != "table":
            return []
        now = time.monotonic()
        out = []
        for seat in self.person_seats():
            if seat == self.creator:
                continue
            away = self.away_since.get(seat)
            if seat not in self.claimed or (away is not None and now - away >= self.replace_after):
                out.append(seat)
        return out

    # -- what a seat is told ----------------------------------------------------------------------
    def public(self, seat: int) -> dict[str, Any]:
        """The table's facts for ``seat``: seats, presence, the score sheet, the invitation, and the
        sitter's suggestion for the captain and the sitter only."""
        st = self.session.state
        seats = []
        for i in range(st.num_seats):
            kind = self.seat_kind(i)
            entry: dict[str, Any] = {"name": st.players[i], "kind": kind, "you": i == seat}
            if kind == "computer":
                entry["agent"] = self.session.seats[i]
            if kind in ("person", "open"):
                entry["connected"] = bool(self.conns.get(i))
                entry["ready"] = i in self.ready
            seats.append(entry)
        sheet = [{"hand": n, "result": r.result, "points": list(r.points)} for n, r in enumerate(st.results, start=1)]
        info: dict[str, Any] = {
            "game": self.game_id,
            "kind": self.kind,
            "seat": seat,
            "seats": seats,
            "shown_names": display_names(st.players),  # the seats' names in the viewer's language
            "invite": self.invite if seat == self.creator else None,
            "hints": self.hints,
            "sheet": sheet,
            "waiting_for": self.open_seats(),
            "facts": variant_facts(st.variant),
        }
        roles = self.session.roles()
        info["roles"] = None if roles is None else roles._asdict()  # three: box, captain, sitter
        info["defender"] = self.session.defender()  # who defended the knock or gin that ended the hand
        info["target"] = self.session.game_target
        # after a knock, the cards a person defending may lay off by their own choice (rule 0.9.3;
        # the engine laid off the best already): each ``layoff`` replaces the automatic choice
        defending = st.is_hand_over and not st.game_over and self.session.defender() == seat
        info["layoffs"] = [str(c) for c in st.layoff_options()] if defending and self.session.is_human(seat) else []
        info["watching"] = self.session.watched  # computer players only: the person watches seat 0
        info["undo"] = self.kind == "solo" and self.session.can_undo(seat)  # a decision to take back now
        info["takebacks"] = self.session.takebacks
        info["choose_melds"] = getattr(st.options, "knocker_arrangement", "auto") == "choose"
        if self.cut is not None and not st.logs:  # the cut for the first deal, shown until it is dealt
            info["cut"] = {
                "rounds": [[[s, str(c)] for s, c in r] for r in self.cut.rounds],
                "order": list(self.cut.order),
                "dealer": self.cut.dealer,
                "roles": None if self.cut.roles is None else list(self.cut.roles),
            }
        if self.suggestion is not None and roles is not None and seat in (roles.captain, roles.sitter):
            info["suggestion"] = {**self.suggestion, "text": reason_text(self.suggestion.get("text"))}
        if self.failure is not None:  # the computer player that failed, in the viewer's language
            info["failure"] = computer_failed(self.failure)
        if st.game_over:  # the final total of each seat line by line: every bonus on its own line
            parts = st.final_parts()  # (each line in the viewer's words)
            info["final_parts"] = [[[final_part_text(part), part.points] for part in seat] for seat in parts]
        if self.analysing is not None or self.analysis is not None:
            # a finished solitaire: its accuracy and the analysis' lines for people (None: still working)
            a = self.analysis
            info["analysis"] = None if a is None else {"accuracy": a.get("accuracy"), "summary": analysis_lines(a)}
        if seat == self.creator:
            info["invites"] = {str(k): v for k, v in sorted(self.invites.items())}
            info["replaceable"] = self.replaceable()
            info["replace_after"] = self.replace_after
        return info

    def state_message(self, seat: int, seq: int | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "state", "obs": self.session.observation(seat), "table": self.public(seat)}
        res = msg["obs"].get("result")
        if res and res.get("explanation") and i18n.current_language() != "en":
            # the engine's English explanation of the hand's score, said again from the catalog
            res["explanation"] = result_lines(res["explanation"], msg["obs"]["players"], self.session.seats)
        msg["log"] = self.session.log_text(seat)  # this hand's moves in words, as this seat may read them
        if seq is not None:
            msg["seq"] = seq
        return msg

    def broadcast(self, acting: Client | None = None, seq: int | None = None) -> None:
        """Send every connection its own seat's state (the acting one gets its ``seq`` back)."""
        for seat, conns in self.conns.items():
            if not conns:
                continue
            worded: dict[str, dict[str, Any]] = {}  # each language's words, built once per seat
            for conn in list(conns):
                lang = getattr(conn, "lang", "en")
                if lang not in worded:
                    with i18n.using(lang):
                        worded[lang] = self.state_message(seat)
                msg = worded[lang]
                if conn is acting and seq is not None:
                    conn.send({**msg, "seq": seq})
                else:
                    conn.send(msg)

    def computer_to_act(self) -> bool:
        seat = self.session.to_act
        return seat is not None and not self.session.is_human(seat)
