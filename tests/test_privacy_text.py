"""Privacy of every text: over whole seeded games of every variant, no text shown to a seat names a
card that seat may not know (issue 12, item 1).

A seat may know its own cards, the cards the rules made public (the upcard, the discard pile, every
card named in an action, cards taken from the pile), and, for the sitter in three-player gin, the
captain's hand (rule 2.2); once a hand is over, the cards its result shows (the spread at a
knock or gin; nothing more when the hand ends at the wall).  The texts audited are the session's
move log and reasons for every seat (the library), every line plain mode prints, every line the
terminal app writes in its log, its status and sitter lines and its notifications, and the
messages of the browser's tables.  Each front end is audited at the moment it shows a text, from
the session's own state at that moment.

A computer player's failure is audited too: an agent whose error lists its hand must not get that
hand onto anyone's screen.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import pseudo_audit
from ginrummy.actions import Action
from ginrummy.agents import Agent, Decision, register
from ginrummy.cards import Card
from ginrummy.engine import SOLO, State
from ginrummy.options import VARIANTS
from ginrummy.plain import PlainGame
from ginrummy.session import ComputerPlayerError, Session, make_session
from ginrummy.store import Store
from ginrummy.words import clean_name, default_players, move_text, reason_text
from pseudo_audit import plain, shown

CARD = re.compile(r"(?:10|[A2-9TJQK])[cdhs]")
CARDS_TOKEN = re.compile(r"(?:(?:10|[A2-9TJQK])[cdhs])+")
SPLIT = re.compile(r"[\s,.:;()|=+!?\[\]{}\"'/—–-]+")
NO_SUIT_SYMBOLS = str.maketrans("", "", "♣♦♥♠")
FAILING_AGENT = "privacy-failing"

# Whole games, kept short by their targets (the library plays full-length ones).
SHORT = {
    "classic": {"game_target": 30},
    "oklahoma": {"game_target": 30},
    "hollywood": {"hollywood_target": 15},
    "three": {"game_target": 25},
    "solitaire": {"game_target": 25},
    "gin-solitaire": {"game_target": 25},
}

# The terminal app plays slower (keys through Textual's pilot): games to a few points.
TINY = {
    "classic": {"game_target": 10},
    "oklahoma": {"game_target": 10},
    "hollywood": {"hollywood_target": 5},
    "three": {"game_target": 10},
    "solitaire": {"game_target": 10},
    "gin-solitaire": {"game_target": 10},
}


def computers(variant: str) -> list[str]:
    """Computer players in every seat that plays (the solitaires: the planner against the Joker)."""
    if variant in SOLO:
        return ["planner", "joker"]
    return ["expert"] * (3 if variant == "three" else 2)


def person_and_computers(variant: str) -> list[str]:
    if variant in SOLO:
        return ["human", "joker"]
    return ["human"] + ["expert"] * (2 if variant == "three" else 1)


# ------------------------------------------------------------------------------------ what a seat may know
def cards_named(text: str) -> set[str]:
    """Every card a text names (``7h``, ``10h``, ``7♥h``, runs written ``7h-8h-9h`` or ``7c7d7s``)."""
    out: set[str] = set()
    for token in SPLIT.split(text.translate(NO_SUIT_SYMBOLS)):
        if CARDS_TOKEN.fullmatch(token):
            out.update(str(Card.parse(c)) for c in CARD.findall(token))
    return out


def may_know(st: State, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may know now, from the game's state."""
    known: set[Card] = set()
    if not st.logs:
        return set()
    if seat is not None:
        known |= set(st.hand(seat))
    if st.upcard is not None:
        known.add(st.upcard)
    known |= set(st.pile)
    for mask in st.known:
        known |= {Card(c) for c in range(52) if mask >> c & 1}
    for action in st.logs[-1].actions:
        if action.card is not None:
            known.add(action.card)
        for meld in action.melds or ():
            known |= set(meld)
    if st.variant == "three" and seat is not None:
        box, captain = st.hand_dealer, st.hand_nondealer
        if seat == 3 - box - captain:
            known |= set(st.hand(captain))  # rule 2.2: the sitter sees the captain's hand
    names = {str(c) for c in known}
    if st.hand_result is not None and st.is_hand_over:
        names |= cards_named(json.dumps(st.hand_result.to_json()))  # the showdown is public
    if st.variant in SOLO and seat == 0:
        names |= {str(Card(c)) for c in range(52)}  # the player's own discards and draws, and the unseen
    return names


class Auditor:
    """Collects texts as they are shown and the hidden cards they name."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.checked = 0  # texts shown during a hand (the ones that could leak)
        self.hands: set[int] = set()

    def check(self, session: Session, viewer: int | None, text: str, where: str) -> None:
        st = session.state
        if not st.logs:
            return  # before the first deal nobody holds a card
        self.checked += 1
        self.hands.add(st.hand_number)
        hidden = cards_named(text) - may_know(st, viewer)
        if hidden:
            self.problems.append(f"{where}, hand {st.hand_number}, seat {viewer}: {sorted(hidden)} in {text!r}")

    def assert_clean(self, minimum: int = 1) -> None:
        assert not self.problems, "\n".join(self.problems[:10])
        assert self.checked >= minimum, f"only {self.checked} texts were audited"


def test_the_auditor_catches_the_old_leak() -> None:
    """The texts plain mode and the terminal printed before the fix are caught."""
    session = Session.new("classic", seats=["human", "expert"], deal_seed=7)
    session.start_hand()
    st = session.state
    computer = st.current_player if st.current_player != 0 else 1
    hidden = sorted(set(map(str, st.hand(computer))) - may_know(st, 0))
    auditor = Auditor()
    old = f"Expert discards {hidden[0]} (Discard {hidden[0]}: it leaves deadwood 19 and keeps {'-'.join(hidden[1:4])})"
    auditor.check(session, 0, old, "old plain mode")
    assert auditor.problems and hidden[1] in auditor.problems[0]
    assert cards_named("keeps 7h-8h-9h, 7♥h and 10s; 7c7d7s") == {"7h", "8h", "9h", "Ts", "7c", "7d", "7s"}
    assert cards_named("The Jh, Three") == {"Jh"}


# ------------------------------------------------------------------------------------ the library
def audit_session_texts(session: Session, auditor: Auditor) -> None:
    seats: list[int | None] = [*range(session.state.num_seats), None]
    for viewer in seats:
        for line in session.log_text(viewer) + session.reasons_text(viewer):
            auditor.check(session, viewer, line, "log")
    roles = session.roles()
    text = session.sitter_text()
    if text is not None and roles is not None:
        for viewer in (roles.captain, roles.sitter):
            auditor.check(session, viewer, text, "sitter")


@pytest.mark.parametrize("variant", VARIANTS)
def test_library_move_log_of_whole_games(variant: str) -> None:
    seats = computers(variant)
    if variant == "three":
        seats = ["expert", "human", "expert"]  # a person captains sometimes: the computer sitter suggests
    session = make_session(variant, seats=seats, deal_seed=101)
    auditor = Auditor()
    while not session.state.is_terminal:
        if session.state.needs_deal:
            session.start_hand()
            continue
        person = session.human_to_act()
        if person is not None:
            session.act(person, session.hint(person).best)
        else:
            assert session.computer_step() is not None
        audit_session_texts(session, auditor)
    auditor.assert_clean(minimum=20)
    assert len(auditor.hands) >= 2
    # the reasons are kept: shown to the computer's own seat, and to everyone once the hands are shown
    last = session.moves()
    if variant not in SOLO:
        mover = next(e for e in last if e.reason)
        said = reason_text(mover.reason)
        assert said and said in " ".join(session.reasons_text(mover.seat))
        assert session.hands_shown() == (said in " ".join(session.reasons_text(None)))


def test_the_log_keeps_a_draw_and_the_reasons_for_their_seat_only() -> None:
    session = make_session("classic", seats=["expert", "expert"], deal_seed=5)
    session.start_hand()
    while not any(e.action.kind == "draw" for e in session.moves()):
        session.computer_step()
    draw = next(e for e in session.moves() if e.action.kind == "draw")
    assert draw.drawn is not None and draw.reason
    assert draw.seat is not None
    other = 1 - draw.seat
    own = session.move_text(draw, draw.seat)
    seen = session.move_text(draw, other)
    assert str(draw.drawn) in own and reason_text(draw.reason) in own
    assert plain(seen) == f"{session.names[draw.seat]} draws from the stock"
    assert session.move_text(draw, None) == seen
    mover = session.names[draw.seat]
    assert not [line for line in map(plain, session.reasons_text(other)) if line.startswith((mover + ":", mover + ","))]
    # a take names the card taken (public), with no reason for the other seat
    while not session.state.is_hand_over:
        session.computer_step()
    theirs = [line for line in map(plain, session.reasons_text(other)) if line.startswith((mover + ":", mover + ","))]
    assert bool(theirs) == session.hands_shown()  # the review, when the hands were shown


def test_notes_survive_saving_and_resuming() -> None:
    session = make_session("classic", seats=["expert", "expert"], deal_seed=5)
    session.start_hand()
    for _ in range(6):
        session.computer_step()
    back = Session.from_json(session.to_json())
    assert back.moves() == session.moves()
    assert [back.log_text(v) for v in (0, 1, None)] == [session.log_text(v) for v in (0, 1, None)]


# ------------------------------------------------------------------------------------ names
def test_names_are_escaped_and_the_same_everywhere() -> None:
    assert clean_name("Eve\u202e\x1b[2J") == "Eve\\u202e\\x1b[2J"
    assert clean_name("Zoë Ω") == "Zoë Ω"
    assert default_players("three", ["human", "expert", "expert"]) == ["You", "Expert", "Expert 2"]
    assert default_players("classic", ["human", "human"]) == ["Player 1", "Player 2"]
    text = move_text(["Eve\u202e", "B"], 0, Action.parse("discard 7h"), viewer=1)
    assert plain(text) == "Eve\\u202e discards 7h"


# ------------------------------------------------------------------------------------ failures
class _FailingAgent(Agent):
    """Fails the way a buggy agent might: its error lists the cards it holds."""

    name = FAILING_AGENT

    def decide(self, observation: dict[str, Any], legal: Sequence[Action]) -> Decision:
        raise ValueError(f"cannot decide holding {' '.join(observation['hand'])}")


class _IllegalAgent(Agent):
    """Chooses an action that is not legal, naming a card it holds."""

    name = FAILING_AGENT + "-illegal"

    def decide(self, observation: dict[str, Any], legal: Sequence[Action]) -> Decision:
        return Decision(Action.parse(f"knock {observation['hand'][0]}"))


@pytest.fixture(autouse=True, scope="module")
def _failing_agents() -> Any:
    from ginrummy.agents import base

    register(FAILING_AGENT, VARIANTS)(_FailingAgent)
    register(FAILING_AGENT + "-illegal", VARIANTS)(_IllegalAgent)
    yield
    base._REGISTRY.pop(FAILING_AGENT, None)
    base._REGISTRY.pop(FAILING_AGENT + "-illegal", None)


@pytest.mark.parametrize("agent", [FAILING_AGENT, FAILING_AGENT + "-illegal"])
def test_a_failing_computer_player_names_no_card(agent: str) -> None:
    session = make_session("classic", seats=[agent, "human"], deal_seed=3)
    session.start_hand()
    if session.human_to_act() is not None:
        session.act(1, "pass")
    before = session.state.to_record()
    with pytest.raises(ComputerPlayerError) as info:
        session.computer_step()
    assert not cards_named(str(info.value)) and "failed" in str(info.value)
    assert session.state.to_record() == before  # nothing changed


def test_plain_mode_reports_a_failing_computer_in_one_line(tmp_path: Path) -> None:
    session = make_session("classic", seats=["human", FAILING_AGENT], deal_seed=3)
    out = io.StringIO()
    game = PlainGame(session, Store(tmp_path), "g1", inp=io.StringIO("deal\npass\n" * 3), out=out)
    assert game.run() == 1
    errors = [line for line in out.getvalue().splitlines() if "error:" in line]
    assert errors and all(not cards_named(line) for line in errors), errors
    assert "Traceback" not in out.getvalue()


# ------------------------------------------------------------------------------------ plain mode
def choose(session: Session, seat: int) -> str:
    from test_tui import choose as quick

    obs = session.observation(seat)
    pile = obs.get("discard_pile") or []
    return quick(obs["hand"], obs["legal_actions"], pile[-1] if pile else None)


class AuditedOut(io.StringIO):
    """Plain mode's stdout: every line is audited as it is written."""

    def __init__(self, session: Session, auditor: Auditor, viewer: Callable[[], int]) -> None:
        super().__init__()
        self.session, self.auditor, self.viewer = session, auditor, viewer
        self.partial = ""

    def write(self, text: str) -> int:
        self.partial += text
        while "\n" in self.partial:
            line, self.partial = self.partial.split("\n", 1)
            self.auditor.check(self.session, self.viewer(), line, "plain")
        return super().write(text)


class Moves(io.StringIO):
    """Plain mode's stdin: deals, asks for the hand, a hint and the reasons now and then, and plays."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.turn = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        s = self.session
        if s.state.is_terminal:
            return "quit\n"
        if s.state.needs_deal:
            return "deal\n"
        seat = s.human_to_act()
        assert seat is not None
        self.turn += 1
        extra = {3: "hint", 5: "why", 7: "hand", 9: "score"}.get(self.turn % 10)
        if extra:
            return extra + "\n"
        return choose(s, seat) + "\n"


@pytest.mark.parametrize("variant", VARIANTS)
def test_plain_mode_whole_games(variant: str, tmp_path: Path) -> None:
    session = make_session(variant, seats=person_and_computers(variant), options=SHORT[variant], deal_seed=202)
    auditor = Auditor()
    game = PlainGame(session, Store(tmp_path), "g1", inp=Moves(session), analyse=False)
    game.out = AuditedOut(session, auditor, lambda: game.viewer)
    assert game.run() == 0
    assert session.state.is_terminal
    auditor.assert_clean(minimum=10)
    if variant == "three":
        text = game.out.getvalue()
        assert "(the sitter) suggests:" in text  # the computer sitter's suggestion, now in plain mode too


# ------------------------------------------------------------------------------------ the terminal app
@pytest.mark.slow  # about 4 s of CPU a game (keys through the pilot); the suite runs it
@pytest.mark.parametrize("variant", VARIANTS)
def test_terminal_app_whole_games(variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("textual")
    from textual.app import App
    from textual.widgets import RichLog, Static

    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import GameScreen
    from test_tui import play_one_hand

    auditor = Auditor()
    current: list[GameScreen] = []

    def audit(text: Any, where: str) -> None:
        if current:
            screen = current[0]
            auditor.check(screen.session, screen.viewer, str(text), where)

    original_write = RichLog.write

    def write(self: RichLog, content: Any, *args: Any, **kwargs: Any) -> Any:
        audit(content, "log")
        return original_write(self, content, *args, **kwargs)

    original_notify = App.notify

    def notify(self: App[Any], message: Any, *args: Any, **kwargs: Any) -> None:
        audit(message, "notification")
        original_notify(self, message, *args, **kwargs)

    original_update = Static.update

    def update(self: Static, content: Any = "", *args: Any, **kwargs: Any) -> None:
        if self.id in ("status", "captain", "info", "opponents", "melds"):
            audit(getattr(content, "plain", content), f"#{self.id}")
        original_update(self, content, *args, **kwargs)

    monkeypatch.setattr(RichLog, "write", write)
    monkeypatch.setattr(App, "notify", notify)
    monkeypatch.setattr(Static, "update", update)

    async def run() -> None:
        start = {"variant": variant, "seats": person_and_computers(variant), "options": TINY[variant]}
        # no database: saving every action is the store's business (tested there) and slow on a busy disk
        app = GinRummyApp(store=None, computer_delay=0, deal_seed=300, start=start, analyse=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            current.append(screen)
            hands = 0
            while not screen.session.state.is_terminal:
                await play_one_hand(pilot, app)
                hands += 1
                assert hands < 60

    asyncio.run(run())
    auditor.assert_clean(minimum=5)


# ------------------------------------------------------------------------------------ the browser's tables
# Keys of a web message that hold no text for people: the observation (audited on its own), the
# cut for the first deal (dealt face up: its cards are public), and random identifiers (game ids,
# seat tokens, invitation links: '...-9d8d5d' names no card).
NOT_TEXT = ("obs", "cut", "game", "token", "invite", "invites", "deleted")


def message_strings(value: Any) -> list[str]:
    """Every string of a web message a person may read (what :data:`NOT_TEXT` names left out)."""
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in NOT_TEXT for s in message_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in message_strings(v)]
    return [value] if isinstance(value, str) else []


def test_web_tables_messages_and_failures(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from ginrummy.web.tables import TableManager

    class Conn:
        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        def send(self, msg: dict[str, Any]) -> None:
            self.sent.append(msg)

    async def run() -> None:
        for variant in VARIANTS:
            # Seeded deals: a secret deal can end a solitaire game to 60 before anyone acts.
            manager = TableManager(Store(tmp_path / variant), computer_delay=0, deal_seed=202)
            await manager.start()
            try:
                table, seat, _ = await manager.create_solo(variant, SHORT[variant], None, "Ann")
                conn = Conn()
                await manager.attach(table, seat, conn)  # type: ignore[arg-type]
                auditor = Auditor()
                s = table.session
                for _ in range(3000):
                    if table.driver is not None:
                        await table.driver
                    for msg in conn.sent:
                        for text in message_strings(msg):
                            auditor.check(s, seat, text, f"web {msg.get('type')}")
                    conn.sent.clear()
                    if s.state.is_terminal:
                        break  # after auditing what the last action sent
                    if s.state.needs_deal:
                        await manager.deal(table, seat, conn, None)  # type: ignore[arg-type]
                    elif s.human_to_act() == seat:
                        await manager.act(table, seat, choose(s, seat), conn, None)  # type: ignore[arg-type]
                assert s.state.is_terminal, variant
                auditor.assert_clean(minimum=5)
                assert s.state.players == default_players(variant, s.seats, "Ann")  # one naming everywhere
                assert not cards_named(str(table.public(seat).get("failure", "")))
            finally:
                await manager.shutdown()
        # a computer player that fails with its hand in its error: the table says only that it failed
        manager = TableManager(Store(tmp_path / "failing"), computer_delay=0, deal_seed=202)
        await manager.start()
        try:
            table, seat, _ = await manager.create_solo("classic", None, FAILING_AGENT, "Ann")
            conn = Conn()
            await manager.attach(table, seat, conn)  # type: ignore[arg-type]
            await manager.deal(table, seat, conn, None)  # type: ignore[arg-type]
            for _ in range(5):
                if table.driver is not None:
                    await table.driver
                if table.failure:
                    break
                if table.session.human_to_act() == seat:
                    await manager.act(table, seat, "pass", conn, None)  # type: ignore[arg-type]
            assert table.failure  # the name of the computer that failed; worded for each viewer:
            assert "failed" in str(table.public(seat).get("failure", ""))
            auditor = Auditor()
            for msg in conn.sent:
                for text in message_strings(msg):
                    auditor.check(table.session, seat, text, "web failure")
            auditor.assert_clean()
        finally:
            await manager.shutdown()

    asyncio.run(run())


def test_terminal_app_reports_a_failing_computer_without_its_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("textual")
    from textual.app import App

    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import GameScreen

    pseudo_audit.AUDIT.data.update(FAILING_AGENT.capitalize().split("-"))  # its seat's name: data

    shown: list[str] = []
    original_notify = App.notify

    def notify(self: App[Any], message: Any, *args: Any, **kwargs: Any) -> None:
        shown.append(str(message))
        original_notify(self, message, *args, **kwargs)

    monkeypatch.setattr(App, "notify", notify)

    async def run() -> None:
        start = {"variant": "classic", "seats": ["human", FAILING_AGENT], "options": {}}
        app = GinRummyApp(store=Store(tmp_path), computer_delay=0, deal_seed=3, start=start, analyse=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("n")
            session = screen.session
            for _ in range(2000):
                if any("failed" in m for m in shown):
                    break
                if session.human_to_act() is not None:
                    await pilot.press("p")
                await asyncio.sleep(0.003)
            assert session.to_act == 1  # the game waits, unchanged, at the computer's turn

    asyncio.run(run())
    failures = [m for m in shown if "failed" in m]
    assert failures and not any(cards_named(m) for m in failures), failures


def test_names_with_control_characters_reach_no_screen_raw(tmp_path: Path) -> None:
    session = make_session(
        "classic",
        seats=["human", "expert"],
        players=["Eve\u202e\x1b[2J", "Bo\u200b"],
        options={"game_target": 10},
        deal_seed=4,
    )
    out = io.StringIO()
    game = PlainGame(session, Store(tmp_path), "g1", inp=Moves(session), out=out, analyse=False)
    assert game.run() == 0
    text = out.getvalue()
    assert "\x1b" not in text and "\u202e" not in text and "\u200b" not in text
    assert "Eve\\u202e\\x1b[2J" in text and "Bo\\u200b" in text


def test_terminal_app_shows_names_as_typed_never_as_markup(tmp_path: Path) -> None:
    """A name like ``[/b]`` crashed a Textual markup parser and ``[@click=app.quit]`` made a live
    link; names (from old records too) are text everywhere on the screen."""
    pytest.importorskip("textual")
    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import GameScreen, StartScreen
    from test_tui import text_of

    names = ["a[/b]x", "[@click=app.quit]E", "[red]Bo"]
    store = Store(tmp_path)

    async def play() -> None:
        start = {"variant": "three", "seats": ["human", "expert", "expert"], "players": names, "options": {}}
        app = GinRummyApp(store=store, computer_delay=0, deal_seed=30, start=start, analyse=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            await pilot.press("n")
            await pilot.pause()
            info = text_of(screen.query_one("#info"))
            assert all(n in info for n in names), info
            await pilot.press("c")  # the score sheet, names as column heads
            await pilot.pause()
            assert app.is_running

    async def menu() -> None:
        app = GinRummyApp(store=store, computer_delay=0, analyse=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            saved = app.screen.query_one("#saved")
            prompt = str(saved.get_option_at_index(0).prompt)  # type: ignore[attr-defined]
            assert all(n in prompt for n in names), prompt

    asyncio.run(play())
    asyncio.run(menu())


def test_a_shared_terminal_tells_moves_without_the_drawn_card(tmp_path: Path) -> None:
    """Two people at one terminal (plain mode's hot seat): the move lines stay on the shared
    screen, so they name no drawn card; each person sees the card in the hand shown at their turn."""
    session = make_session("classic", seats=["human", "human"], options={"game_target": 10}, deal_seed=4)
    out = io.StringIO()
    game = PlainGame(session, Store(tmp_path), "g1", inp=Moves(session), out=out, analyse=False)
    assert game.run() == 0
    lines = shown("plain mode", out.getvalue()).splitlines()
    draws = [line for line in lines if "draws from the stock" in line]
    assert draws and all(line.rstrip(".").endswith("draws from the stock") for line in draws), draws[:3]
    assert not any(line.startswith("> You ") for line in lines)  # nobody is "you" at a shared terminal
