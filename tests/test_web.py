"""The browser app's server: HTTP routes, the WebSocket protocol, validation, reconnecting,
tables for several people, and games that survive a server restart (Starlette's TestClient)."""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from pseudo_audit import plain

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from ginrummy.cards import Card, CardSet
from ginrummy.melds import deadwood_after_discards
from ginrummy.session import Session
from ginrummy.store import Store
from ginrummy.web import create_app
from ginrummy.web.protocol import MAX_MESSAGE_BYTES, RateLimiter, validate

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LOCAL = ("127.0.0.1", 50000)
REMOTE = ("192.0.2.7", 50000)  # a documentation address: "another computer"
BASE = "http://127.0.0.1:8000"  # the Host a browser on this computer sends


# ------------------------------------------------------------------------------------ helpers
def connect(tc: TestClient, origin: str | None = None) -> Any:
    """A WebSocket as a browser on this computer opens it (TestClient would send Host: testserver)."""
    headers = {"host": BASE.split("//")[1]}
    if origin is not None:
        headers["origin"] = origin
    return tc.websocket_connect("/ws", headers=headers)


class Client:
    """A scripted WebSocket client: sends requests with sequence numbers, reads replies."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seq = 0
        self.obs: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.log: list[dict[str, Any]] = []
        welcome = self.recv()
        assert welcome["type"] == "welcome"

    def recv(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next message; a test that waits for a message that never comes fails instead of hanging."""

        async def receive() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        raw = self.ws.portal.call(receive)
        if raw["type"] == "websocket.close":
            raise WebSocketDisconnect(raw.get("code", 1000))
        msg = json.loads(raw["text"])
        self.log.append(msg)
        if msg["type"] == "state":
            self.obs, self.table = msg["obs"], msg["table"]
        return msg

    def request(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send ``msg`` with a new seq and return the reply that carries it (state, hint, error...)."""
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
        """The first observation (the latest one included) that satisfies ``pred``."""
        if self.obs is not None and pred(self.obs):
            return self.obs
        return self.until(lambda m: m["type"] == "state" and pred(m["obs"]))["obs"]

    def join_reply(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send a seat request (new, join, hello...) and return ``joined`` once the first state came."""
        self.ws.send_json(msg)
        joined = self.until(lambda m: m["type"] in ("joined", "error"))
        if joined["type"] == "joined":
            self.until(lambda m: m["type"] == "state")
        return joined

    def wait_turn(self) -> dict[str, Any]:
        """Read until this seat must act or the hand is over (computer moves arrive meanwhile)."""
        assert self.obs is not None
        if self.obs["to_act"] or self.obs["phase"] in ("deal", "over"):
            return self.obs
        self.until(lambda m: m["type"] == "state" and (m["obs"]["to_act"] or m["obs"]["phase"] in ("deal", "over")))
        return self.obs


def choose(obs: dict[str, Any], rng: random.Random) -> str:
    """A quick policy: end the hand when possible, else draw, else a random discard."""
    legal = obs["legal_actions"]
    for prefix in ("gin", "knock"):
        ends = [a for a in legal if a.startswith(prefix)]
        if ends:
            return ends[0]
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


def play_hand(client: Client, rng: random.Random) -> dict[str, Any]:
    """Deal (if needed) and play one hand for this seat against computer seats; return the result."""
    if client.obs is not None and client.obs["phase"] == "deal":
        reply = client.request({"type": "deal"})
        assert reply["type"] == "state", reply
    for _ in range(500):
        obs = client.wait_turn()
        if obs["phase"] in ("deal", "over"):
            return obs
        reply = client.request({"type": "act", "action": choose(obs, rng)})
        assert reply["type"] == "state", reply
    raise AssertionError("the hand did not end")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data_dir: Path) -> Any:
    return create_app(data_dir, computer_delay=0, deal_seed=101)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, client=LOCAL, base_url=BASE) as c:
        yield c


# ------------------------------------------------------------------------------------ HTTP
def test_pages_and_assets_are_served_from_the_package(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"
    html = r.text
    assert "/static/app.js" in html and "/static/style.css" in html
    assert "http://" not in html and "https://" not in html  # nothing from a CDN
    for asset in ("app.js", "style.css", "favicon.svg"):
        a = client.get(f"/static/{asset}")
        assert a.status_code == 200, asset
        assert "cdn" not in a.text.lower()
    assert client.get("/join/abc").text == html
    assert client.get("/stats").text == html


def test_info_lists_every_variant_with_options_and_computer_players(client: TestClient) -> None:
    info = client.get("/api/info").json()
    assert set(info["variants"]) == {"classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire"}
    assert info["table_variants"] == ["classic", "three"]
    assert info["variants"]["classic"]["default_agent"] in info["variants"]["classic"]["agents"]
    assert info["variants"]["solitaire"]["agents"] == []
    names = {o["name"] for o in info["variants"]["classic"]["options"]}
    assert {"knock_limit", "gin_bonus", "big_gin"} <= names
    assert info["owner"] is True


def test_info_words_the_options_in_the_pages_language(client: TestClient) -> None:
    """The lobby's options: each named and each choice worded in the page's language (through
    ginrummy.words, as the terminal words them), the names and values themselves the code's."""
    from ginrummy.i18n import using
    from ginrummy.words import option_name, option_value

    options = client.get("/api/info?lang=lv").json()["variants"]["classic"]["options"]
    with using("lv"):
        for o in options:
            assert o["label"] == option_name(o["name"]) != o["name"]
            assert o["choice_labels"] == [option_value(c) for c in o["choices"]]
    shutout = next(o for o in options if o["name"] == "shutout")
    assert "double_game_bonus" in shutout["choices"] and "Dubulta spēles prēmija" in shutout["choice_labels"]


def test_owner_is_a_loopback_client_asking_for_a_loopback_name() -> None:
    from ginrummy.web.guard import is_owner

    assert is_owner("127.0.0.1", "127.0.0.1:8000") and is_owner("::1", "[::1]:8000")
    assert is_owner("127.0.0.1", "localhost:8000")
    assert not is_owner("192.0.2.7", "127.0.0.1:8000")  # another computer
    assert not is_owner("127.0.0.1", "evil.example:8000")  # a page rebound to this computer by DNS
    assert not is_owner("127.0.0.1", None)


def test_saved_games_and_stats_only_for_this_computer(app: Any) -> None:
    with TestClient(app, client=REMOTE, base_url=BASE) as remote:
        assert remote.get("/api/saved").status_code == 403
        assert remote.get("/api/stats").status_code == 403
        assert remote.get("/api/info").json()["owner"] is False
        assert remote.get("/").status_code == 200
    with TestClient(app, client=LOCAL, base_url=BASE) as local:
        assert local.get("/api/saved").json() == {"games": []}
        assert local.get("/api/stats").json() == {"variants": {}, "history": {}}


# ------------------------------------------------------------------------------------ playing
@pytest.mark.parametrize("variant", ["classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire"])
def test_a_hand_against_the_computer_in_every_variant(client: TestClient, variant: str) -> None:
    rng = random.Random(variant)
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": variant, "name": "Ann"})
        assert joined["type"] == "joined" and joined["seat"] == 0 and joined["variant"] == variant
        assert len(joined["token"]) >= 32
        obs = c.obs
        assert obs is not None and obs["phase"] == "deal" and obs["hand_number"] == 0
        commitment = obs["next_commitment"]
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert c.table is not None and c.table["seats"][0] == {
            "name": "Ann",
            "kind": "person",
            "you": True,
            "connected": True,
            "ready": False,
        }
        obs = play_hand(c, rng)
        assert obs["commitment"] == commitment  # dealt from the seed committed to before the deal
        assert "revealed_seed" in obs
        # the next deal's commitment, unless that hand ended the game (random deals: it can happen)
        assert ("next_commitment" in obs) is not obs["game_over"]
        assert obs["result"]["explanation"]
        assert c.table["sheet"][0]["points"] == obs["result"]["points"]
        if variant in ("solitaire", "gin-solitaire"):
            assert "joker_next_chance" in obs and "cards_above_joker_max" in obs


def test_commitment_matches_the_revealed_seed(client: TestClient) -> None:
    import hashlib

    with connect(client) as ws:
        c = Client(ws)
        c.join_reply({"type": "new", "variant": "solitaire"})
        obs = play_hand(c, random.Random(1))
        text = f"ginrummy-deal/1:{obs['hand_number']}:{obs['revealed_seed']}"
        assert hashlib.sha256(text.encode()).hexdigest() == obs["commitment"]


def test_hint_is_for_the_seat_to_act(client: TestClient) -> None:
    with connect(client) as ws:
        c = Client(ws)
        c.join_reply({"type": "new", "variant": "gin-solitaire"})
        c.request({"type": "deal"})
        reply = c.request({"type": "hint"})
        if reply["type"] == "error":  # the advisor is optional in a bare installation
            assert reply["code"] == "not_available", reply
        else:
            assert reply["type"] == "hint"
            assert reply["best"] in c.obs["legal_actions"]
            assert all(a in c.obs["legal_actions"] for a, _ in reply["ranked"])


def test_computer_players_are_paced_and_persist_between_messages(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0.05, deal_seed=102)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        c.join_reply({"type": "new", "variant": "classic", "opponent": "greedy"})
        assert c.table["seats"][1]["agent"] == "greedy"
        play_hand(c, random.Random(3))


def test_computer_players_and_hints_in_a_worker_process(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, workers=1, deal_seed=103)  # as ginrummy serve does
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        c.join_reply({"type": "new", "variant": "classic", "opponent": "expert"})
        c.request({"type": "deal"})
        obs = c.wait_turn()
        reply = c.request({"type": "hint"})
        assert reply["type"] == "hint" and reply["best"] in obs["legal_actions"], reply
        result = play_hand(c, random.Random(12))
        assert result["result"]["explanation"]
        assert app.state.manager.thinker.pool is not None  # it really thought in the worker


# ------------------------------------------------------------------------------------ validation
BAD_MESSAGES: list[tuple[str, str, str]] = [
    ("not json", "bad_json", "JSON"),
    ("[1, 2]", "bad_message", "must be a JSON object"),
    ('{"type": "fly"}', "bad_message", "unknown message type 'fly'"),
    ('{"kind": "act"}', "bad_message", "unknown message type"),
    ('{"type": "act"}', "bad_message", "'action' is required"),
    ('{"type": "act", "action": 7}', "bad_message", "must be a string"),
    ('{"type": "act", "action": "draw", "cheat": true}', "bad_message", "unknown field 'cheat'"),
    ('{"type": "new", "variant": "poker"}', "bad_message", "must be one of classic"),
    ('{"type": "new", "variant": "classic", "options": {"knock_limit": "x"}}', "bad_options", "knock_limit"),
    ('{"type": "new", "variant": "classic", "options": {"no_such": 1}}', "bad_options", "unknown option"),
    ('{"type": "new", "variant": "classic", "opponent": "deep blue"}', "bad_message", "computer player"),
    ('{"type": "new", "variant": "classic", "opponent": "nobody"}', "bad_message", "no computer player"),
    ('{"type": "hello", "game": "x", "token": "short"}', "bad_message", "not a seat token"),
    ('{"type": "hello", "game": "../etc", "token": "aaaaaaaaaaaaaaaaaaaa"}', "bad_message", "not a game id"),
    ('{"type": "hello", "game": "g1", "token": "aaaaaaaaaaaaaaaaaaaaaaaa"}', "bad_token", "does not open"),
    ('{"type": "join", "invite": "nope"}', "unknown_invite", "no seat has this invitation"),
    ('{"type": "act", "action": "draw", "seq": -1}', "bad_message", "'seq' must be from 0"),
    ('{"type": "deal"}', "no_seat", "take a seat first"),
    ('{"type": "create_table", "variant": "hollywood", "seats": ["person"]}', "bad_message", "must be one of"),
    ('{"type": "create_table", "variant": "classic", "seats": ["expert"]}', "bad_message", "at least one other"),
    ('{"type": "create_table", "variant": "three", "seats": ["person"]}', "bad_message", "2 other seats"),
    ('{"type": "new", "variant": "classic", "name": "a\\u0000b"}', "bad_name", "U+0000 (a control character)"),
]


@pytest.mark.parametrize(("raw", "code", "words"), BAD_MESSAGES)
def test_bad_messages_get_a_clear_error(client: TestClient, raw: str, code: str, words: str) -> None:
    with connect(client) as ws:
        c = Client(ws)
        ws.send_text(raw)
        reply = c.recv()
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert words in plain(reply["message"]), reply["message"]
        # the connection stays usable
        ws.send_json({"type": "ping", "seq": 9})
        assert c.recv() == {"type": "pong", "seq": 9}


def test_validate_by_hand() -> None:
    assert validate('{"type": "ping"}') == {"type": "ping"}
    assert validate(b'{"type": "deal", "seq": 2}') == {"type": "deal", "seq": 2}
    assert validate('{"type": "new", "variant": "three", "name": "  Bo  "}')["name"] == "Bo"
    big = json.dumps({"type": "suggest", "action": "draw", "text": "x" * 5000})
    with pytest.raises(Exception, match="at most 4096 bytes"):
        validate(big)
    with pytest.raises(Exception, match="true or false"):
        validate('{"type": "create_table", "variant": "classic", "seats": ["person"], "hints": 1}')


def test_errors_leave_the_game_unchanged(client: TestClient) -> None:
    with connect(client) as ws:
        c = Client(ws)
        c.join_reply({"type": "new", "variant": "gin-solitaire"})  # never a redeal: a hand is in play
        c.request({"type": "deal"})
        before = dict(c.obs)
        hand = set(before["hand"])
        not_mine = next(f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in hand)
        for action, code in [
            (f"discard {not_mine}", "illegal_action"),
            ("take", "illegal_action"),
            ("layoff 7h", "illegal_action"),
            ("discard", "bad_action"),
            ("shuffle", "bad_action"),
            ("discard 1x", "bad_action"),
        ]:
            reply = c.request({"type": "act", "action": action})
            assert reply["type"] == "error" and reply["code"] == code, (action, reply)
        huge = json.dumps({"type": "act", "action": "draw", "pad": "x" * MAX_MESSAGE_BYTES})
        ws.send_text(huge)
        reply = c.recv()
        assert reply["code"] == "too_large"
        ws.send_json({"type": "ping", "seq": 1})
        assert c.recv()["type"] == "pong"
        # a fresh attach shows exactly the same position
        token = c.log[1]["token"]
        with connect(client) as ws2:
            c2 = Client(ws2)
            c2.join_reply({"type": "hello", "game": c.log[1]["game"], "token": token})
            assert c2.obs == before


def test_not_your_turn_and_deal_during_a_hand(client: TestClient) -> None:
    with connect(client) as ws:
        c = Client(ws)
        c.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"]})
        invite = c.log[1]["invite"]
        with connect(client) as ws2:
            d = Client(ws2)
            d.join_reply({"type": "join", "invite": invite})
            assert c.request({"type": "deal"})["type"] == "state"
            assert d.request({"type": "deal"})["type"] == "state"
            d.await_obs(lambda o: o["phase"] == "upcard")
            c.await_obs(lambda o: o["phase"] == "upcard")
            waiting = c if not c.obs["to_act"] else d
            reply = waiting.request({"type": "act", "action": "pass"})
            assert reply["type"] == "error" and reply["code"] == "not_your_turn"
            reply = waiting.request({"type": "deal"})
            assert reply["type"] == "error" and "not over" in reply["message"]


def test_rate_limit_per_connection(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, rate=5, burst=10, deal_seed=104)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        for i in range(30):
            ws.send_json({"type": "ping", "seq": i})
        replies = [c.recv() for _ in range(30)]
        limited = [r for r in replies if r["type"] == "error"]
        assert limited and all(r["code"] == "rate_limited" for r in limited)
        assert sum(r["type"] == "pong" for r in replies) >= 10


def test_rate_limiter_refills() -> None:
    now = [0.0]
    lim = RateLimiter(rate=2, burst=2, clock=lambda: now[0])
    assert lim.allow() and lim.allow() and not lim.allow()
    now[0] += 0.5
    assert lim.allow() and not lim.allow()


def test_websocket_from_another_site_is_refused(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect),
        connect(client, origin="http://evil.example") as ws,
    ):
        ws.receive_json()
    with connect(client, origin=BASE) as ws:
        assert ws.receive_json()["type"] == "welcome"


# ------------------------------------------------------------------------------------ seats
def test_reconnect_to_the_same_seat(client: TestClient) -> None:
    rng = random.Random(5)
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "classic"})
        c.request({"type": "deal"})
        obs = c.wait_turn()
        c.request({"type": "act", "action": choose(obs, rng)})
        obs = c.wait_turn()
        game, token = joined["game"], joined["token"]
    with connect(client) as ws:  # the connection dropped; the page reconnects
        c2 = Client(ws)
        again = c2.join_reply({"type": "hello", "game": game, "token": token})
        assert again["type"] == "joined" and again["seat"] == 0 and "token" not in again
        assert c2.obs["hand"] == obs["hand"] and c2.obs["history"] == obs["history"]
        # someone else's token for this game, or a made-up one, opens nothing
        bad = c2.join_reply({"type": "hello", "game": game, "token": token[::-1]})
        assert bad["type"] == "error" and bad["code"] == "bad_token"


def test_tokens_are_unguessable_and_stored_hashed(client: TestClient, data_dir: Path) -> None:
    tokens = set()
    with connect(client) as ws:
        c = Client(ws)
        for _ in range(5):
            tokens.add(c.join_reply({"type": "new", "variant": "solitaire"})["token"])
    assert len(tokens) == 5 and all(len(t) >= 32 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)
    raw = (data_dir / "web.sqlite3").read_bytes()
    for suffix in ("-wal",):
        p = data_dir / f"web.sqlite3{suffix}"
        if p.exists():
            raw += p.read_bytes()
    assert not any(t.encode() in raw for t in tokens)


def test_games_survive_a_server_restart(data_dir: Path) -> None:
    rng = random.Random(8)
    app1 = create_app(data_dir, computer_delay=0, deal_seed=105)
    with TestClient(app1, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "classic", "name": "Ann"})
        c.request({"type": "deal"})
        for _ in range(3):
            obs = c.wait_turn()
            c.request({"type": "act", "action": choose(obs, rng)})
        obs = c.wait_turn()
    # the first server is gone (its shutdown flushed every save); a new one reads the same store
    app2 = create_app(data_dir, computer_delay=0, deal_seed=106)
    with TestClient(app2, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c2 = Client(ws)
        again = c2.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
        assert again["type"] == "joined"
        assert c2.obs["hand"] == obs["hand"]
        assert c2.obs["history"] == obs["history"]
        assert c2.obs["commitment"] == obs["commitment"]
        assert c2.obs["players"][0] == "Ann"
        end = play_hand(c2, rng)
    # the game is in the terminal app's store too: saved, or in the history if that hand ended it
    # (the deal is random: a gin against a hand full of deadwood can pass 100 in one hand)
    store = Store(data_dir)
    if end["game_over"]:
        assert store.saved_games() == [] and [g.id for g in store.history()] == [joined["game"]]
    else:
        assert [g.id for g in store.saved_games()] == [joined["game"]]


def test_pending_commitment_survives_a_restart(data_dir: Path) -> None:
    app1 = create_app(data_dir, computer_delay=0, deal_seed=107)
    with TestClient(app1, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "gin-solitaire"})
        shown = c.obs["next_commitment"]
    app2 = create_app(data_dir, computer_delay=0, deal_seed=108)
    with TestClient(app2, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
        c2 = Client(ws)
        c2.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
        assert c2.obs["next_commitment"] == shown
        c2.request({"type": "deal"})
        assert c2.obs["commitment"] == shown


def test_finished_game_goes_to_history_and_stats(client: TestClient, data_dir: Path) -> None:
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "solitaire", "options": {"scoring": "none"}})
        rng = random.Random(2)
        obs = c.obs
        while not obs["game_over"]:
            obs = play_hand(c, rng)
        assert obs["final_totals"] is not None
    client.app.state.manager.tables.clear()  # as after a restart: rebuilt from the history
    deadline = time.time() + 5
    while not Store(data_dir).history() and time.time() < deadline:
        time.sleep(0.05)
    stats = client.get("/api/stats").json()
    assert stats["variants"]["solitaire"]["games"] == 1
    assert len(stats["history"]["solitaire"]) == 1
    with connect(client) as ws:
        c = Client(ws)
        again = c.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
        assert again["type"] == "joined" and c.obs["game_over"] is True
        assert c.request({"type": "deal"})["code"] == "game_over"


def test_resume_a_game_saved_by_the_terminal_app(app: Any, data_dir: Path) -> None:
    store = Store(data_dir)
    session = Session.new("classic", seats=["human", "greedy"], players=["Ann", "Computer"])
    session.start_hand()
    store.save_game("20250101-000000-abcdef", session)
    with TestClient(app, client=REMOTE, base_url=BASE) as remote:
        assert remote.get("/api/saved").status_code == 403
        with connect(remote) as ws:
            c = Client(ws)
            reply = c.join_reply({"type": "resume", "game": "20250101-000000-abcdef"})
            assert reply["type"] == "error" and reply["code"] == "not_allowed"
    with TestClient(app, client=LOCAL, base_url=BASE) as local:
        games = local.get("/api/saved").json()["games"]
        assert [g["id"] for g in games] == ["20250101-000000-abcdef"]
        with connect(local) as ws:
            c = Client(ws)
            joined = c.join_reply({"type": "resume", "game": "20250101-000000-abcdef"})
            assert joined["type"] == "joined" and joined["seat"] == 0 and joined["token"]
            assert c.obs["players"] == ["Ann", "Computer"] and c.obs["hand_number"] == 1
            assert len(c.obs["hand"]) in (10, 11)
            missing = c.join_reply({"type": "resume", "game": "20250101-000000-000000"})
            assert missing["type"] == "error" and missing["code"] == "unknown_game"


# ------------------------------------------------------------------------------------ tables
def test_two_people_at_a_classic_table(client: TestClient) -> None:
    rng = random.Random(11)
    with connect(client) as ws_a, connect(client) as ws_b:
        a, b = Client(ws_a), Client(ws_b)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"], "name": "Ann"})
        assert ja["kind"] == "table" and ja["invite"] and ja["invite"] != ja["game"]
        assert a.table["waiting_for"] == [1]
        reply = a.request({"type": "deal"})
        assert reply["type"] == "error" and reply["code"] == "waiting" and "invitation" in reply["message"]
        jb = b.join_reply({"type": "join", "invite": ja["invite"], "name": "Bob"})
        assert jb["seat"] == 1 and jb["token"] != ja["token"]
        a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1].get("connected") is True)
        assert a.table["seats"][1]["name"] == "Bob" and a.table["waiting_for"] == []
        with connect(client) as ws_c:
            used = Client(ws_c).join_reply({"type": "join", "invite": ja["invite"]})  # one invitation, one seat
            assert used["type"] == "error" and used["code"] == "unknown_invite", used
        # the hand is dealt when both are ready
        a.request({"type": "deal"})
        assert a.obs["phase"] == "deal" and a.table["seats"][0]["ready"] is True
        b.request({"type": "deal"})
        assert b.obs["hand_number"] == 1
        a.await_obs(lambda o: o["hand_number"] == 1)
        players = {0: a, 1: b}
        for _ in range(400):
            seat = b.obs["current_player"]
            if seat is None:
                break
            p = players[seat]
            p.await_obs(lambda o: o["to_act"])
            reply = p.request({"type": "act", "action": choose(p.obs, rng)})
            assert reply["type"] == "state", reply
            other = players[1 - seat]
            done = len(p.obs["history"])
            other.await_obs(lambda o: len(o["history"]) >= done)  # noqa: B023 - used at once
        assert a.obs["phase"] in ("deal", "over") and b.obs["phase"] in ("deal", "over")
        assert a.obs["result"] == b.obs["result"]


def test_a_dropped_table_player_keeps_the_seat(client: TestClient) -> None:
    with connect(client) as ws_a:
        a = Client(ws_a)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"]})
        with connect(client) as ws_b:
            jb = Client(ws_b).join_reply({"type": "join", "invite": ja["invite"], "name": "Bob"})
        a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1].get("connected") is False)
        assert a.table["seats"][1]["kind"] == "person"  # the seat stays Bob's
        with connect(client) as ws_b:
            b = Client(ws_b)
            again = b.join_reply({"type": "hello", "game": jb["game"], "token": jb["token"]})
            assert again["seat"] == 1 and b.obs["players"][1] == "Bob"
            a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1].get("connected") is True)


def test_three_table_sitter_suggests_and_captain_decides(client: TestClient) -> None:
    with (
        connect(client) as w0,
        connect(client) as w1,
        connect(client) as w2,
    ):
        p = [Client(w0), Client(w1), Client(w2)]
        j0 = p[0].join_reply({"type": "create_table", "variant": "three", "seats": ["person", "person"], "hints": True})
        assert set(j0["invites"]) == {"1", "2"}
        p[1].join_reply({"type": "join", "invite": j0["invites"]["1"], "name": "Bea"})
        p[2].join_reply({"type": "join", "invite": j0["invites"]["2"], "seat": 2, "name": "Cy"})
        for c in p:
            c.request({"type": "deal"})
        for c in p:
            c.await_obs(lambda o: o["hand_number"] == 1)
        roles = p[0].obs["roles"]
        box, captain, sitter = p[roles["box"]], p[roles["captain"]], p[roles["sitter"]]
        assert sitter.obs["captain_hand"] == captain.obs["hand"]
        assert "captain_hand" not in box.obs and "captain_hand" not in captain.obs
        assert sitter.obs["legal_actions"] == [] and sitter.obs["hand"] == []
        # only the sitter suggests, only while the captain is to act, only legal actions
        assert captain.request({"type": "suggest", "action": "pass"})["code"] == "not_allowed"
        assert box.request({"type": "suggest", "action": "pass"})["code"] == "not_allowed"
        assert sitter.request({"type": "suggest", "action": "draw"})["code"] == "illegal_action"
        sitter.ws.send_json({"type": "suggest", "action": "take", "text": "you need that card"})
        got = captain.until(lambda m: m["type"] == "state" and "suggestion" in m["table"])
        assert got["table"]["suggestion"] == {"from": roles["sitter"], "action": "take", "text": "you need that card"}
        sitter.until(lambda m: m["type"] == "state" and "suggestion" in m["table"])
        # the box never hears it; the captain decides otherwise
        reply = captain.request({"type": "act", "action": "pass"})
        assert reply["type"] == "state" and "suggestion" not in reply["table"]
        assert not any("suggestion" in m.get("table", {}) for m in box.log)
        assert all("you need that card" not in json.dumps(m) for m in box.log)
        # the sitter may ask for a hint on the captain's hand when the captain is to act again
        assert box.obs is not None


def test_three_table_with_a_computer_sitter(client: TestClient) -> None:
    with connect(client) as w0, connect(client) as w1:
        a, b = Client(w0), Client(w1)
        # the seating given in the options (no cut): seat 1 captains, the computer sits
        ja = a.join_reply(
            {
                "type": "create_table",
                "variant": "three",
                "seats": ["person", "greedy"],
                "hints": True,
                "options": {"first_box": 0, "first_captain": 1},
            }
        )
        b.join_reply({"type": "join", "invite": ja["invite"]})
        a.request({"type": "deal"})
        b.request({"type": "deal"})
        obs = b.await_obs(lambda o: o["hand_number"] == 1)
        assert obs["roles"] == {"box": 0, "captain": 1, "sitter": 2}  # RECORD.md: seat order in hand 1
        # the computer sitter advises the captain (a person) when the captain is to act
        got = b.until(lambda m: m["type"] == "state" and "suggestion" in m["table"])
        assert got["table"]["suggestion"]["from"] == 2
        assert got["table"]["suggestion"]["action"] in got["obs"]["legal_actions"]
        assert not any("suggestion" in m.get("table", {}) for m in a.log)


# ------------------------------------------------------------------------------------ the command
def test_serve_command_binds_loopback_and_prints_its_address(tmp_path: Path) -> None:
    env = {**os.environ, "GINRUMMY_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy.cli", "--data-dir", str(tmp_path), "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        url = m.group(0)
        deadline = time.time() + 15
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        proc.terminate()  # uvicorn shuts down cleanly on SIGTERM (writing pending saves), then re-raises it
        try:
            assert proc.wait(20) in (0, -15)
        finally:
            if proc.poll() is None:
                proc.kill()


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


# ------------------------------------------------------------------------------------ undo
def test_undo_takes_back_your_last_decision_against_the_computer(client: TestClient) -> None:
    rng = random.Random(3)
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "classic", "name": "Ann"})
        assert c.table is not None and not c.table["undo"]  # nothing to take back before the deal
        assert c.request({"type": "undo"})["code"] == "not_allowed"
        c.request({"type": "deal"})
        # play until you have discarded once and are to act again
        discarded = None
        while True:
            obs = c.wait_turn()
            assert obs["phase"] not in ("deal", "over"), "the hand ended before the test's position"
            if discarded is not None:
                break
            action = choose(obs, rng)
            if action.startswith(("knock", "gin")):
                action = good_discard(obs, rng)
            before = sorted(obs["hand"])
            if action.startswith("discard"):
                discarded = action
            c.request({"type": "act", "action": action})
        assert c.table["undo"] and c.table["takebacks"] == 0
        # you are to draw: your last decision was the discard, which the undo takes back
        reply = c.request({"type": "undo"})
        assert reply["type"] == "state", reply
        obs = reply["obs"]
        assert obs["phase"] == "discard" and obs["to_act"]
        assert sorted(obs["hand"]) == before  # the discarded card is back in the hand
        assert reply["table"]["takebacks"] == 1
        assert not any(discarded.split()[1] in line and "You discard" in line for line in reply["log"])
        # the game is saved with its takebacks
        c.request({"type": "act", "action": discarded})
        client.portal.call(client.app.state.manager.saver.flush)
        db = sqlite3.connect(client.app.state.store.path)
        try:
            (saved,) = db.execute("SELECT session FROM games WHERE id = ?", (joined["game"],)).fetchone()
        finally:
            db.close()
        assert json.loads(saved)["takebacks"] == 1


def test_no_undo_at_a_table_of_friends(client: TestClient) -> None:
    with connect(client) as w0, connect(client) as w1:
        a, b = Client(w0), Client(w1)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"]})
        b.join_reply({"type": "join", "invite": ja["invite"]})
        a.request({"type": "deal"})
        b.request({"type": "deal"})
        obs = a.await_obs(lambda o: o["hand_number"] == 1)
        c = a if obs["to_act"] else b
        c.request({"type": "act", "action": "pass"})
        assert not c.table["undo"]
        reply = c.request({"type": "undo"})
        assert reply["type"] == "error" and reply["code"] == "not_allowed" and "never at a table" in reply["message"]


# ------------------------------------------------------------------------------------ the replay
def test_a_finished_game_is_replayed_step_by_step(client: TestClient) -> None:
    rng = random.Random(5)
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "solitaire", "options": {"scoring": "none"}})
        reply = c.request({"type": "replay"})
        assert reply["type"] == "error" and reply["code"] == "not_allowed"  # not before the game is over
        obs = c.obs
        while not obs["game_over"]:
            obs = play_hand(c, rng)
        reply = c.request({"type": "replay"})
        assert reply["type"] == "replay" and reply["game"] == joined["game"]
        frames = reply["frames"]
        assert plain(frames[0]["move"]) == "The game begins." and plain(frames[1]["move"]) == "Hand 1 is dealt."
        assert frames[1]["hands"][0] and all(f["move"] for f in frames)
        assert frames[-1]["result"] is not None and frames[-1]["totals"] == obs["totals"]
        assert reply["final_totals"] == obs["final_totals"]
        assert max(f["hand"] for f in frames) == obs["hand_number"]
    client.portal.call(client.app.state.manager.saver.flush)
    history = client.get("/api/history").json()["games"]
    assert [g["id"] for g in history] == [joined["game"]]
    again = client.get(f"/api/replay/{joined['game']}").json()
    assert again["frames"] == frames
    assert client.get("/api/replay/nope").status_code == 404
    assert client.get("/api/replay/..%2Fx").status_code in (400, 404)


def test_the_history_and_its_replays_are_the_owners_only(app: Any) -> None:
    with TestClient(app, client=REMOTE, base_url=BASE) as tc:
        assert tc.get("/api/history").status_code == 403
        assert tc.get("/api/replay/20250101-120000-3fa2c1").status_code == 403
