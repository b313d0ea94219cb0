"""Privacy of the browser app: over whole games, no message to a client carries a card its seat
may not know, the order of the stock, an unrevealed seed, or a saved session.

Every message the server sends goes through one place (``Connection.send``); the test taps it and,
at the moment of sending, computes from the server's own state what that seat may know: its own
cards, the cards the rules have made public (the upcard, the discard pile, every card named in an
action, cards taken from the pile, the spread at the showdown), and, for the sitter in three-player
gin, the captain's hand (rule 2.2).  Each card named anywhere in the message (in lists, in action
strings, in explanations) must be in that set.  The clients' own records are compared with the tap
so that the tap provably saw every message.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ginrummy.cards import Card, CardSet
from ginrummy.engine import SOLO, State
from ginrummy.melds import deadwood_after_discards
from ginrummy.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LOCAL = ("127.0.0.1", 50000)
BASE = "http://127.0.0.1:8000"
HOST = {"host": "127.0.0.1:8000"}  # the Host a browser on this computer sends (TestClient would send testserver)
CARD = re.compile(r"(?:10|[A2-9TJQK])[cdhs]")
CARDS_TOKEN = re.compile(r"(?:(?:10|[A2-9TJQK])[cdhs])+")
SPLIT = re.compile(r"[\s,.:;()|=+!?\[\]{}\"']+")
FORBIDDEN_KEYS = {"stock", "deck", "seed", "pending", "record", "session", "deal_seed", "hands", "token_sha256"}


# ------------------------------------------------------------------------------------ what a seat may know
def cards_in(value: Any, out: set[str]) -> None:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            cards_in(k, out)
            cards_in(v, out)
    elif isinstance(value, list):
        for v in value:
            cards_in(v, out)
    elif isinstance(value, str):
        for token in SPLIT.split(value):
            if CARDS_TOKEN.fullmatch(token):
                out.update(CARD.findall(token))


def keys_in(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            keys_in(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_in(v, out)


def lists_in(value: Any, out: list[list[str]]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            lists_in(v, out)
    elif isinstance(value, list):
        if value and all(isinstance(v, str) and CARD.fullmatch(v) for v in value):
            out.append(value)
        for v in value:
            lists_in(v, out)


def may_know(st: State, seat: int) -> set[str]:
    """The cards ``seat`` may know right now, from the server's state."""
    known: set[Card] = set()
    if not st.logs:
        return set()
    known |= set(st.hand(seat))
    if st.upcard is not None:
        known.add(st.upcard)
    known |= set(st.pile) | set(st.out_of_play)
    for mask in st.known:
        known |= {Card(c) for c in range(52) if mask >> c & 1}
    for action in st.logs[-1].actions:
        if action.card is not None:
            known.add(action.card)
        for meld in action.melds or ():
            known |= set(meld)
    if st.variant == "three":
        box, captain = st.hand_dealer, st.hand_nondealer
        if seat == 3 - box - captain:
            known |= set(st.hand(captain))  # rule 2.2: the sitter sees the captain's hand
    names = {str(c) for c in known}
    if st.hand_result is not None and st.is_hand_over:
        cards_in(st.hand_result.to_json(), names)  # the showdown is public
    if st.variant in SOLO and seat == 0:
        names |= {str(Card(c)) for c in range(52)}  # every unseen card is "somewhere in the deck"
    return names


def hidden_runs(st: State) -> list[list[str]]:
    """The order of the cards nobody may see yet: the stock, top first, less the cards the player
    put there or the count to the joker turned face up."""
    shown = {str(c) for c in st.out_of_play}  # solitaire: your discards go under the joker (rule 3.3)
    if st.hand_result is not None:
        shown |= {str(c) for c in st.hand_result.counted_cards}
    return [[str(c) for c in reversed(st.stock) if str(c) not in shown]]


def is_run_of(cards: list[str], order: list[str], length: int = 4) -> bool:
    """True if ``cards`` holds ``length`` consecutive cards of ``order`` in that order (or reversed).

    A list in the pack's own order (the unseen cards, a sorted hand) says nothing about the
    stock's order, even where a shuffled stock happens to hold a few of its cards in a row."""
    if len(cards) < length:
        return False
    ids = [int(Card.parse(c)) for c in cards]
    if ids == sorted(ids) or ids == sorted(ids, reverse=True):
        return False
    pos = {c: i for i, c in enumerate(order)}
    for seq in (cards, cards[::-1]):
        run = 1
        for a, b in itertools.pairwise(seq):
            run = run + 1 if a in pos and b in pos and pos[b] == pos[a] + 1 else 1
            if run >= length:
                return True
    return False


class Auditor:
    """The tap: checks each message when it is sent, and keeps it for the comparison."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.problems: list[str] = []
        self.checked = 0
        self.cards_seen = 0

    def __call__(self, conn: Any, msg: dict[str, Any], text: str) -> None:
        self.sent.append(text)
        table, seat = conn.table, conn.seat
        keys: set[str] = set()
        keys_in(msg, keys)
        if keys & FORBIDDEN_KEYS:
            self.problems.append(f"forbidden keys {keys & FORBIDDEN_KEYS} in {text[:200]}")
        if "ginrummy-session" in text:
            self.problems.append("a session JSON was sent")
        if table is None or seat is None:
            named: set[str] = set()
            cards_in(msg, named)
            if named:
                self.problems.append(f"cards {named} sent to a client without a seat")
            return
        session = table.session
        st = session.state
        self.checked += 1
        allowed = may_know(st, seat)
        if getattr(table, "cut", None) is not None and not st.logs:  # the cut for the first deal is face up: public
            allowed |= {str(c) for r in table.cut.rounds for _, c in r}
        named = set()
        cards_in(msg, named)
        self.cards_seen += len(named)
        if named - allowed:
            self.problems.append(
                f"seat {seat} of {st.variant} was sent {sorted(named - allowed)} (hand {st.hand_number}, "
                f"phase {st.phase}): {text[:300]}"
            )
        lists: list[list[str]] = []
        lists_in(msg, lists)
        for order in hidden_runs(st):
            for cards in lists:
                if is_run_of(cards, order):
                    self.problems.append(
                        f"seat {seat} was sent a run of the stock in order: {cards} (hand {st.hand_number}, "
                        f"phase {st.phase}, stock top first {order}): {text[:600]}"
                    )
        # seeds: the current hand's while it is played, the next hand's always
        secrets_now = []
        if st.logs and not st.is_hand_over and st.logs[-1].seed is not None:
            secrets_now.append(str(st.logs[-1].seed))
        pending = getattr(session, "_pending", None)
        if pending is not None:
            secrets_now.append(str(pending[0]))
        for s in secrets_now:
            if s in text:
                self.problems.append(f"an unrevealed seed was sent to seat {seat}")
        if st.variant in SOLO and msg.get("type") == "state":
            obs = msg["obs"]
            unseen = obs.get("unseen", [])
            if unseen != sorted(unseen, key=lambda c: int(Card.parse(c))):
                self.problems.append("the unseen cards were not sent in card order")
            if obs.get("cards_above_joker_max") not in (None, len(unseen), 0):
                self.problems.append("the joker's position leaked through cards_above_joker_max")


# ------------------------------------------------------------------------------------ clients
class Client:
    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.seq = 0
        self.obs: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.received: list[str] = []
        self.recv()

    def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        raw = self.ws.portal.call(receive)
        assert raw["type"] == "websocket.send", raw
        self.received.append(raw["text"])
        msg = json.loads(raw["text"])
        if msg["type"] == "state":
            self.obs, self.table = msg["obs"], msg["table"]
        return msg

    def drain(self) -> None:
        """Read whatever is still on its way."""
        while True:
            try:
                self.recv(timeout=0.3)
            except TimeoutError:
                return

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        self.ws.send_json({**msg, "seq": self.seq})
        while True:
            reply = self.recv()
            if reply.get("seq") == self.seq:
                return reply

    def until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if pred(msg):
                return msg

    def await_obs(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        if self.obs is not None and pred(self.obs):
            return self.obs
        return self.until(lambda m: m["type"] == "state" and pred(m["obs"]))["obs"]

    def seat_request(self, msg: dict[str, Any]) -> dict[str, Any]:
        self.ws.send_json(msg)
        joined = self.until(lambda m: m["type"] in ("joined", "error"))
        assert joined["type"] == "joined", joined
        self.until(lambda m: m["type"] == "state")
        return joined


def choose(obs: dict[str, Any], rng: random.Random) -> str:
    legal = obs["legal_actions"]
    ends = [a for a in legal if a.startswith(("gin", "knock"))]
    if ends and rng.random() < 0.9:
        return ends[0]
    if "take" in legal and rng.random() < 0.3:
        return "take"
    for a in ("draw", "pass"):
        if a in legal:
            return a
    return good_discard(obs, rng)


def good_discard(obs: dict[str, Any], rng: random.Random) -> str:
    """Mostly the discard that leaves the least deadwood (so hands end by knocks), sometimes another."""
    legal = [a for a in obs["legal_actions"] if a.startswith("discard")]
    if not legal:
        return obs["legal_actions"][0]
    if rng.random() < 0.2:
        return rng.choice(legal)
    mask = int(CardSet.of(Card.parse(c) for c in obs["hand"]))
    after = {str(c): d for c, d in deadwood_after_discards(mask).items()}
    return min(legal, key=lambda a: (after.get(a.split()[1], 999), a))


def poke(client: Client, obs: dict[str, Any], rng: random.Random, *, hint: bool = True) -> None:
    """Some requests that must fail or stay private: illegal actions naming other cards, hints."""
    others = [f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in obs.get("hand", [])]
    bad = rng.choice(others)
    reply = client.request({"type": "act", "action": f"discard {bad}"})
    assert reply["type"] == "error"
    reply = client.request({"type": "act", "action": f"layoff {bad}"})
    assert reply["type"] == "error"
    if hint:  # the advisor takes a moment: ask now and then
        reply = client.request({"type": "hint"})
        assert reply["type"] in ("hint", "error")


def finish(auditor: Auditor, clients: list[Client]) -> None:
    for c in clients:
        c.drain()
    received = sorted(t for c in clients for t in c.received)
    assert received == sorted(auditor.sent), "the tap did not see exactly the messages the clients received"
    assert auditor.problems == [], "\n".join(auditor.problems[:10])
    # The audit did look at cards: at least the seat's first view and the deal (in solitaire a joker
    # on top of the deck can end a game to 60 before the player acts, so no more is certain).
    assert auditor.checked >= 2 and auditor.cards_seen > 20


# ------------------------------------------------------------------------------------ the games
@pytest.mark.parametrize("variant", ["classic", "solitaire", "three", "gin-solitaire"])
def test_single_player_full_game_sends_only_the_players_view(tmp_path: Path, variant: str) -> None:
    auditor = Auditor()
    app = create_app(tmp_path, computer_delay=0, tap=auditor, rate=1000, burst=1000, deal_seed=201)
    rng = random.Random(variant)
    options = {"game_target": 60} if variant != "classic" else {}
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, tc.websocket_connect("/ws", headers=HOST) as ws:
        c = Client(ws, "solo")
        c.seat_request({"type": "new", "variant": variant, "options": options, "name": "Ann"})
        for _hand in range(200):
            assert c.obs is not None
            if c.obs["game_over"]:
                break
            reply = c.request({"type": "deal"})
            assert reply["type"] == "state", reply
            poked = False
            for _ in range(400):
                obs = c.obs
                if not (obs["to_act"] or obs["phase"] in ("deal", "over")):
                    obs = c.await_obs(lambda o: o["to_act"] or o["phase"] in ("deal", "over"))
                if obs["phase"] in ("deal", "over"):
                    break
                if not poked and obs["phase"] == "discard":
                    poke(c, obs, rng)
                    poked = True
                reply = c.request({"type": "act", "action": choose(obs, rng)})
                assert reply["type"] == "state", reply
        assert c.obs is not None and c.obs["game_over"]
        finish(auditor, [c])


def play_table(
    tc: TestClient, clients: list[Client], game: str, rng: random.Random, *, sitter_talks: bool = False
) -> None:
    """People at one table play the whole game; the test reads the server's state only to know
    who is to act (every client still sees only its own messages)."""
    table = tc.app.state.manager.tables[game]
    session = table.session
    for _hand in range(200):
        if session.state.game_over:
            break
        for c in clients:
            reply = c.request({"type": "deal"})
            assert reply["type"] == "state", reply
        poked: set[int] = set()
        for _ in range(600):
            seat = session.to_act
            if seat is None:
                break
            actor = clients[seat]
            done = len(session.state.logs[-1].actions)
            obs = actor.await_obs(lambda o: o["to_act"] and len(o.get("history", [])) == done)  # noqa: B023
            roles = obs.get("roles")
            if sitter_talks and roles is not None and seat == roles["captain"]:
                sitter = clients[roles["sitter"]]
                sobs = sitter.await_obs(lambda o: len(o.get("history", [])) == done)  # noqa: B023
                if sobs["phase"] == "discard":
                    suggestion = f"discard {rng.choice(sobs['captain_hand'])}"
                else:
                    suggestion = "draw" if sobs["phase"] == "draw" else "pass"
                reply = sitter.request({"type": "suggest", "action": suggestion, "text": "my advice"})
                assert reply["type"] in ("state", "error"), reply
                if _hand < 2 and rng.random() < 0.2:
                    assert sitter.request({"type": "hint"})["type"] in ("hint", "error")
            if seat not in poked and obs["phase"] == "discard":
                poke(actor, obs, rng, hint=_hand < 2)
                poked.add(seat)
            reply = actor.request({"type": "act", "action": choose(obs, rng)})
            assert reply["type"] == "state", reply
        assert session.state.is_hand_over


def test_two_person_classic_table_full_game(tmp_path: Path) -> None:
    auditor = Auditor()
    app = create_app(tmp_path, computer_delay=0, tap=auditor, rate=1000, burst=1000, deal_seed=202)
    rng = random.Random(21)
    with (
        TestClient(app, client=LOCAL, base_url=BASE) as tc,
        tc.websocket_connect("/ws", headers=HOST) as wa,
        tc.websocket_connect("/ws", headers=HOST) as wb,
    ):
        a, b = Client(wa, "a"), Client(wb, "b")
        ja = a.seat_request(
            {"type": "create_table", "variant": "classic", "seats": ["person"], "hints": True, "name": "Ann"}
        )
        b.seat_request({"type": "join", "invite": ja["invite"], "name": "Bob"})
        play_table(tc, [a, b], ja["game"], rng)
        assert tc.app.state.manager.tables[ja["game"]].session.state.game_over
        finish(auditor, [a, b])


def test_three_table_full_game_with_sitter_suggestions(tmp_path: Path) -> None:
    auditor = Auditor()
    app = create_app(tmp_path, computer_delay=0, tap=auditor, rate=1000, burst=1000, deal_seed=203)
    rng = random.Random(33)
    with (
        TestClient(app, client=LOCAL, base_url=BASE) as tc,
        tc.websocket_connect("/ws", headers=HOST) as w0,
        tc.websocket_connect("/ws", headers=HOST) as w1,
        tc.websocket_connect("/ws", headers=HOST) as w2,
    ):
        p = [Client(w0, "p0"), Client(w1, "p1"), Client(w2, "p2")]
        j0 = p[0].seat_request(
            {
                "type": "create_table",
                "variant": "three",
                "seats": ["person", "person"],
                "hints": True,
                "options": {"game_target": 60},
            }
        )
        p[1].seat_request({"type": "join", "invite": j0["invites"]["1"]})
        p[2].seat_request({"type": "join", "invite": j0["invites"]["2"]})
        play_table(tc, p, j0["game"], rng, sitter_talks=True)
        assert tc.app.state.manager.tables[j0["game"]].session.state.game_over
        finish(auditor, p)
        # the suggestions reached the captains and never the box
        suggestions = [
            (i, json.loads(t)) for i, c in enumerate(p) for t in c.received if '"suggestion"' in t and "my advice" in t
        ]
        assert suggestions
        for i, msg in suggestions:
            roles = msg["obs"]["roles"]
            assert i in (roles["captain"], roles["sitter"]), "the box heard the sitter's suggestion"


def test_the_auditor_catches_a_leak() -> None:
    """The check itself works: a hand that is not yours, a stock run and a seed are all caught."""
    st = State.new("classic")
    st.deal(seed=5)

    class FakeSession:
        state = st
        _pending = (123456789123456789, "x")

    class FakeTable:
        session = FakeSession()

    class FakeConn:
        table = FakeTable()
        seat = 0

    auditor = Auditor()
    other = [str(c) for c in st.hand(1)]
    auditor(FakeConn(), {"type": "state", "obs": {"hand": other}}, json.dumps({"hand": other}))
    auditor(FakeConn(), {"type": "x", "text": f"he holds {other[0]}"}, "")
    stock = [str(c) for c in reversed(st.stock)][:5]
    auditor(FakeConn(), {"type": "x", "cards": stock}, "")
    auditor(FakeConn(), {"type": "x"}, "seed 123456789123456789")
    auditor(FakeConn(), {"type": "x", "deck": []}, "")
    assert len(auditor.problems) >= 5


def test_a_list_in_pack_order_is_not_a_stock_run() -> None:
    """A sorted list (the unseen cards) tells nothing of the stock's order, even if the shuffled
    stock holds a few of its cards in a row; the same cards in another order are caught."""
    order = ["9d", "7s", "8s", "Ts", "Js", "2c"]
    assert not is_run_of(["Ac", "7s", "8s", "Ts", "Js", "Qs"], order)
    assert not is_run_of(["Qs", "Js", "Ts", "8s", "7s"], order)
    assert is_run_of(["2c", "Js", "Ts", "8s"], order) and is_run_of(["2h", "Js", "Ts", "8s", "7s"], order)
