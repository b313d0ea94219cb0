"""The browser server on a network (issue 12, item 6), at the protocol level (Starlette's
TestClient): one invitation per seat, DNS rebinding, security headers, quotas, names, nested
JSON, seats given away after a friend left, readiness across a restart, and a bounded, seeded
fuzz test of protocol messages."""

from __future__ import annotations

import json
import logging
import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.responses import Response
from starlette.routing import Route
from starlette.websockets import WebSocketDisconnect

from ginrummy.names import BadName, clean_name, distinct_name, safe_display_name
from ginrummy.session import Session
from ginrummy.store import Store
from ginrummy.web import create_app
from ginrummy.web.guard import CSP, HostPolicy
from ginrummy.web.protocol import SCHEMAS, ProtocolError, validate
from ginrummy.web.quotas import Quotas
from test_web import BASE, LOCAL, REMOTE, Client, connect, play_hand

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options")


def ws_as(tc: TestClient, host: str, origin: str | None = None) -> Any:
    headers = {"host": host}
    if origin is not None:
        headers["origin"] = origin
    return tc.websocket_connect("/ws", headers=headers)


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


# ------------------------------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Ann\u202eeve", "U+202E"),  # right-to-left override
        ("Ann\u200b", "U+200B"),  # zero-width space
        ("\u2066Bob", "U+2066"),  # bidi isolate
        ("Bob\u00ad", "U+00AD"),  # soft hyphen
        ("\u3164", "invisible"),  # Hangul filler
        ("A\ud800", "lone surrogate"),
        ("a\x1bb", "control"),
        ("Bob (you)", "(you)"),
        ("   ", "visible"),
        ("x" * 25, "at most 24"),
        ("\u0301a", "combining"),
    ],
)
def test_names_that_are_refused(name: str, why: str) -> None:
    with pytest.raises(BadName, match=re.escape(why)):
        clean_name(name)


def test_names_are_normalised_and_distinct_at_a_table() -> None:
    assert clean_name("  Zoe\u0308   Lee ") == "Zoë Lee"  # NFC, one space
    assert clean_name("Zoe\u0308") == clean_name("Zoë")
    assert clean_name("Ünal 李") == "Ünal 李"
    with pytest.raises(BadName, match="taken"):
        distinct_name("ANN", ["Ann", "Player 2"], 1)
    with pytest.raises(BadName, match="taken"):
        distinct_name("Ａｎｎ", ["Ann", "Player 2"], 1)  # full-width letters
    assert distinct_name("Ann", ["Ann", "Player 2"], 0) == "Ann"
    assert safe_display_name("A\ud800b") == "A\ufffdb"
    assert safe_display_name("Bob (you)") == "Bob (…)"
    assert safe_display_name(7) == "Player"


def test_names_at_every_entry_point_of_the_web(client: TestClient) -> None:
    with connect(client) as ws_a, connect(client) as ws_b:
        a, b = Client(ws_a), Client(ws_b)
        for bad in ("Ann\u202e", "Ann (you)", "\u200b"):
            for msg in (
                {"type": "new", "variant": "classic", "name": bad},
                {"type": "create_table", "variant": "classic", "seats": ["person"], "name": bad},
            ):
                reply = a.join_reply(msg)
                assert reply["type"] == "error" and reply["code"] == "bad_name", reply
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"], "name": "Ann"})
        invite = ja["invites"]["1"]
        for bad, code in (("ann", "name_taken"), ("Ann (you)", "bad_name"), ("B\u202eob", "bad_name")):
            reply = b.join_reply({"type": "join", "invite": invite, "name": bad})
            assert reply["type"] == "error" and reply["code"] == code, reply
        # a refused name changed nothing: the seat is still open and its invitation still works
        assert b.join_reply({"type": "join", "invite": invite, "name": "  Bo\u0308b "})["seat"] == 1
        a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["name"] == "Böb")


def test_a_stored_name_with_a_lone_surrogate_does_not_break_the_saved_list(app: Any, data_dir: Path) -> None:
    store = Store(data_dir)
    session = Session.new("classic", seats=["human", "greedy"], players=["Ann\ud800", "Computer"], deal_seed=3)
    session.start_hand()
    store.save_game("20250101-000000-surrog", session)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        r = tc.get("/api/saved")
        assert r.status_code == 200, r.text
        assert r.json()["games"][0]["players"] == ["Ann\ufffd", "Computer"]
        with connect(tc) as ws:
            c = Client(ws)
            # the record reader refuses a lone surrogate: resuming is one clear error, not a crash
            reply = c.join_reply({"type": "resume", "game": "20250101-000000-surrog"})
            assert reply["type"] == "error" and reply["code"] == "unknown_game", reply
            assert "cannot be resumed" in reply["message"] and "\ud800" not in reply["message"]
            assert c.request({"type": "ping"})["type"] == "pong"
        assert tc.get("/api/saved").status_code == 200


# ------------------------------------------------------------------------------------ fixtures
@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data_dir: Path) -> Any:
    return create_app(data_dir, computer_delay=0, deal_seed=12)


@pytest.fixture
def client(app: Any) -> Any:
    with TestClient(app, client=LOCAL, base_url=BASE) as c:
        yield c


# ------------------------------------------------------------------------------------ hosts, origins, headers
def test_host_policy() -> None:
    local = HostPolicy()
    for ok in ("127.0.0.1:8000", "localhost", "LOCALHOST:80", "[::1]:8000", "127.0.0.2"):
        assert local.allows(ok), ok
    for bad in ("evil.example", "evil.example:8000", "192.168.1.5:8000", "", None, "[::1", "a:b:c", "localhost:99999"):
        assert not local.allows(bad), bad
    lan = HostPolicy(["Games.Example"], any_address=True)
    assert lan.allows("games.example:8443") and lan.allows("192.168.1.5:8000") and lan.allows("[fe80::1]:80")
    assert not lan.allows("rebind.evil.example:8000")


def test_only_the_hosts_the_server_is_served_as(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, allowed_hosts=["games.example"])
    with TestClient(app, client=REMOTE, base_url="http://games.example") as tc:
        assert tc.get("/").status_code == 200
        r = tc.get("/", headers={"host": "rebind.evil.example:8000"})
        assert r.status_code == 400 and "unknown host" in r.text
        assert all(h in r.headers for h in HEADERS)
        assert tc.get("/api/info", headers={"host": "127.0.0.1:8000"}).status_code == 200
        # a WebSocket for a foreign name is refused before the handshake
        with pytest.raises(WebSocketDisconnect), ws_as(tc, "rebind.evil.example:8000") as ws:
            ws.receive_json()
        with ws_as(tc, "games.example", origin="http://games.example") as ws:
            assert ws.receive_json()["type"] == "welcome"


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "null", "http://127.0.0.1:8001", "file://", "chrome-extension://x"]
)
def test_websockets_from_other_origins_are_refused(client: TestClient, origin: str) -> None:
    with pytest.raises(WebSocketDenialResponse) as denied, ws_as(client, "127.0.0.1:8000", origin=origin) as ws:
        ws.receive_json()
    assert denied.value.status_code == 403 and "another site" in denied.value.text
    assert all(h in denied.value.headers for h in HEADERS)


def test_security_headers_on_every_response_errors_included(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17)

    async def boom(request: Any) -> Response:
        raise RuntimeError("a bug")

    app.router.routes.append(Route("/boom", boom))
    with TestClient(app, client=LOCAL, base_url=BASE, raise_server_exceptions=False) as tc:
        responses = {
            "page": tc.get("/"),
            "asset": tc.get("/static/app.js"),
            "api": tc.get("/api/info"),
            "404": tc.get("/no/such/page"),
            "405": tc.post("/api/info"),
            "500": tc.get("/boom"),
            "403": tc.get("/api/saved", headers={"x-forwarded-for": "192.0.2.9"}),
            "400": tc.get("/", headers={"host": "evil.example"}),
        }
    assert [k for k, r in responses.items() if k != "page" and str(r.status_code) != k and k.isdigit()] == []
    for what, r in responses.items():
        for h in HEADERS:
            assert h in r.headers, (what, h)
        assert r.headers["content-security-policy"] == CSP, what
    assert "connect-src 'self';" in CSP and "ws:" not in CSP
    assert responses["api"].headers["cache-control"] == "no-store"


# ------------------------------------------------------------------------------------ the owner
def test_a_reverse_proxy_does_not_make_every_visitor_the_owner(data_dir: Path) -> None:
    proxied = create_app(data_dir, computer_delay=0, deal_seed=17, behind_proxy=True)
    with TestClient(proxied, client=LOCAL, base_url=BASE) as tc:  # the proxy connects from 127.0.0.1
        assert tc.get("/api/info").json()["owner"] is False
        assert tc.get("/api/saved").status_code == 403
        with connect(tc) as ws:
            reply = Client(ws).join_reply({"type": "resume", "game": "20250101-000000-abcdef"})
            assert reply["code"] == "not_allowed"
    plain = create_app(data_dir, computer_delay=0, deal_seed=17)
    with TestClient(plain, client=LOCAL, base_url=BASE) as tc:  # a proxy the server was not told about
        assert tc.get("/api/info").json()["owner"] is True
        assert tc.get("/api/info", headers={"x-forwarded-for": "192.0.2.9"}).json()["owner"] is False
        assert tc.get("/api/saved", headers={"forwarded": "for=192.0.2.9"}).status_code == 403


def test_the_invite_address_is_given_to_the_page(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, any_address=True, invite_base="http://192.168.1.5:8000")
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        assert tc.get("/api/info").json()["invite_base"] == "http://192.168.1.5:8000"


# ------------------------------------------------------------------------------------ nested JSON, fuzzing
@pytest.mark.parametrize(
    "raw",
    [
        "[" * 2000 + "]" * 2000,
        '{"type": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"type": "new", "variant": "classic", "options": ' + '{"a":' * 500 + "1" + "}" * 500 + "}",
        '{"type": "act", "action": ' + "[" * 1900 + "]" * 1900 + "}",
    ],
)
def test_deeply_nested_json_is_a_clear_bad_message(
    client: TestClient, raw: str, caplog: pytest.LogCaptureFixture
) -> None:
    with connect(client) as ws:
        c = Client(ws)
        ws.send_text(raw)
        reply = c.recv()
        assert reply["type"] == "error" and reply["code"] == "bad_message", reply
        assert "Traceback" not in reply["message"]
        ws.send_json({"type": "ping", "seq": 1})
        assert c.recv()["type"] == "pong"
    no_errors_logged(caplog)


KNOWN_CODES = {
    "bad_json",
    "bad_message",
    "bad_name",
    "name_taken",
    "too_large",
    "rate_limited",
    "bad_options",
    "bad_action",
    "illegal_action",
    "not_your_turn",
    "not_allowed",
    "no_seat",
    "bad_token",
    "unknown_game",
    "unknown_invite",
    "table_full",
    "seat_taken",
    "waiting",
    "game_over",
    "not_available",
    "quota",
}


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.randrange(14 if depth < 4 else 9)
    if pick == 0:
        return rng.randint(-(10**6), 10**6)
    if pick == 1:
        return rng.choice([0, 1, 2, -1, 2**31, 2**63, 10**30])
    if pick == 2:
        return rng.random() * rng.choice([1, 1e300, -1e-300])
    if pick == 3:
        return rng.choice([True, False, None])
    if pick == 4:
        return "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)])) for _ in range(rng.randrange(12))
        )
    if pick == 5:
        return rng.choice(["draw", "take", "pass", "discard 7h", "knock Qc", "gin", "knock Qc | ThThQhKh 7c7d7s"])
    if pick == 6:
        return rng.choice(["classic", "three", "solitaire", "person", "expert", "greedy", "x" * 300])
    if pick == 7:
        return "\ud800" + "a" * rng.randrange(3)  # a lone surrogate
    if pick == 8:
        return rng.choice(["", " ", "\u202e", "Ann (you)"])
    if pick in (9, 10):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 11:
        return "[" * rng.randrange(50, 1500)  # a deep nest as text (spliced in raw below)
    return {rng.choice(["a", "seat", "name", "knock_limit", "type"]): _value(rng, depth + 1) for _ in range(3)}


def fuzz_message(rng: random.Random) -> str:
    """One message: usually a real type with mutated fields, sometimes raw garbage."""
    kind = rng.choice([*SCHEMAS, "nope", None])
    msg: dict[str, Any] = {} if kind is None else {"type": kind}
    fields = [*SCHEMAS.get(str(kind), {}), "extra", "seq"]
    for name in rng.sample(fields, k=rng.randrange(len(fields) + 1)):
        msg[name] = _value(rng)
    text = json.dumps(msg)
    roll = rng.random()
    if roll < 0.05:
        return text[: rng.randrange(len(text) + 1)]  # cut short
    if roll < 0.10:
        depth = rng.randrange(100, 2000)
        return '{"type": "new", "variant": "classic", "options": ' + "[" * depth + "]" * depth + "}"
    if roll < 0.13:
        return text.replace('"', "'")
    return text


def test_fuzzed_protocol_messages_give_clear_errors_and_change_nothing(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Seeded and bounded (at most 4,000 messages to the validator and 600 to a live game, and
    at most 10 s in all): every message is either valid or refused with a known code; the live
    game's position never changes by a refused message; nothing is logged as an error."""
    rng = random.Random(20261203)
    start = time.monotonic()
    refused = valid = 0
    for _ in range(4000):
        if time.monotonic() - start > 5:
            break
        raw = fuzz_message(rng)
        try:
            validate(raw)
            valid += 1
        except ProtocolError as exc:
            assert exc.code in KNOWN_CODES, (raw[:200], exc.code)
            refused += 1
    assert refused > 100 and valid >= 1
    app = create_app(data_dir, computer_delay=0, deal_seed=5, rate=10_000, burst=10_000)
    with TestClient(app, client=LOCAL, base_url=BASE) as client:
        with connect(client) as ws:
            c = Client(ws)
            joined = c.join_reply({"type": "new", "variant": "gin-solitaire", "name": "Ann"})
            c.request({"type": "deal"})
            before = json.dumps(c.obs, sort_keys=True)
            sent = 0
            for _ in range(600):
                if time.monotonic() - start > 10:
                    break
                raw = fuzz_message(rng)
                try:
                    msg = validate(raw)
                except ProtocolError:
                    msg = None
                if msg is not None and msg["type"] in ("act", "deal", "new", "create_table", "join", "resume", "hello"):
                    continue  # a valid request could legitimately change the game or the seat
                ws.send_text(raw)
                sent += 1
                while True:  # every message gets exactly one reply (an error, a pong, a hint...)
                    reply = c.recv()
                    if reply["type"] != "state":
                        break
                assert reply["type"] != "error" or reply["code"] in KNOWN_CODES, reply
            assert sent > 50
            again = c.request({"type": "ping"})
            assert again["type"] == "pong"
        with connect(client) as ws:
            c2 = Client(ws)
            c2.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
            assert json.dumps(c2.obs, sort_keys=True) == before
    no_errors_logged(caplog)


# ------------------------------------------------------------------------------------ invitations
def test_one_invitation_opens_one_seat_in_three(client: TestClient) -> None:
    with connect(client) as w0, connect(client) as w1, connect(client) as w2:
        p = [Client(w0), Client(w1), Client(w2)]
        j0 = p[0].join_reply({"type": "create_table", "variant": "three", "seats": ["person", "person"]})
        codes = j0["invites"]
        assert set(codes) == {"1", "2"} and codes["1"] != codes["2"] and j0["game"] not in codes.values()
        # the invitee of seat 1 may not take seat 2 with their link, nor sit twice with it
        wrong = p[1].join_reply({"type": "join", "invite": codes["1"], "seat": 2})
        assert wrong["code"] == "seat_taken" and "opens seat 1" in wrong["message"]
        assert p[1].join_reply({"type": "join", "invite": codes["1"], "name": "Bea"})["seat"] == 1
        again = p[2].join_reply({"type": "join", "invite": codes["1"]})
        assert again["type"] == "error" and again["code"] == "unknown_invite"
        # only the creator sees the links
        assert "invites" not in p[1].table and p[1].table["invite"] is None
        p[0].until(lambda m: m["type"] == "state" and m["table"]["invites"] == {"2": codes["2"]})
        assert p[2].join_reply({"type": "join", "invite": codes["2"], "name": "Cy"})["seat"] == 2


def test_the_creator_reissues_an_invitation(client: TestClient) -> None:
    with connect(client) as w0, connect(client) as w1:
        a, b = Client(w0), Client(w1)
        ja = a.join_reply({"type": "create_table", "variant": "three", "seats": ["person", "greedy"]})
        old = ja["invites"]["1"]
        assert a.request({"type": "reissue", "seat": 2})["code"] == "not_allowed"  # a computer's seat
        reply = a.request({"type": "reissue", "seat": 1})
        assert reply["type"] == "state"
        new = a.table["invites"]["1"]
        assert new != old
        assert b.join_reply({"type": "join", "invite": old})["code"] == "unknown_invite"
        jb = b.join_reply({"type": "join", "invite": new, "name": "Bob"})
        assert jb["seat"] == 1 and "invites" not in jb
        # nobody but the creator manages the table's seats
        assert b.request({"type": "reissue", "seat": 1})["code"] == "not_allowed"
        assert b.request({"type": "seat_computer", "seat": 1})["code"] == "not_allowed"
        # while Bob is here his seat cannot be given away
        reply = a.request({"type": "reissue", "seat": 1})
        assert reply["code"] == "waiting" and "120 s" in reply["message"]


def test_a_friend_who_left_can_be_replaced_by_a_computer(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=4, replace_after=0.2)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as w0:
        a = Client(w0)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"], "name": "Ann"})
        with connect(tc) as w1:
            b = Client(w1)
            jb = b.join_reply({"type": "join", "invite": ja["invite"], "name": "Bob"})
            b.request({"type": "deal"})
        # Bob left; after replace_after the creator is told, without asking, that the seat may go
        a.until(lambda m: m["type"] == "state" and m["table"]["replaceable"] == [1])
        assert a.table["seats"][1]["connected"] is False and a.table["seats"][1]["ready"] is True
        reply = a.request({"type": "seat_computer", "seat": 1, "agent": "greedy"})
        assert reply["type"] == "state", reply
        assert a.table["seats"][1]["kind"] == "computer" and a.table["seats"][1]["agent"] == "greedy"
        assert a.table["seats"][1]["name"] == "Bob"
        with connect(tc) as w1:
            gone = Client(w1).join_reply({"type": "hello", "game": jb["game"], "token": jb["token"]})
            assert gone["code"] == "bad_token"
        end = play_hand(a, random.Random(4))  # the computer plays Bob's seat
        assert end["result"]["explanation"]


def test_a_seat_reissued_after_its_friend_left(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, replace_after=0)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as w0:
        a = Client(w0)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"], "name": "Ann"})
        with connect(tc) as w1:
            jb = Client(w1).join_reply({"type": "join", "invite": ja["invite"], "name": "Bob"})
        a.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"] is False)
        reply = a.request({"type": "reissue", "seat": 1})
        assert reply["type"] == "state" and a.table["waiting_for"] == [1]
        code = a.table["invites"]["1"]
        with connect(tc) as w1:
            c = Client(w1)
            assert c.join_reply({"type": "hello", "game": jb["game"], "token": jb["token"]})["code"] == "bad_token"
            assert c.join_reply({"type": "join", "invite": code, "name": "Cy"})["seat"] == 1


def test_who_is_ready_survives_a_restart(data_dir: Path) -> None:
    app1 = create_app(data_dir, computer_delay=0, deal_seed=9)
    with TestClient(app1, client=LOCAL, base_url=BASE) as tc, connect(tc) as w0, connect(tc) as w1:
        a, b = Client(w0), Client(w1)
        ja = a.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"], "name": "Ann"})
        jb = b.join_reply({"type": "join", "invite": ja["invite"], "name": "Bob"})
        a.request({"type": "deal"})
        assert a.table["seats"][0]["ready"] is True
    app2 = create_app(data_dir, computer_delay=0, deal_seed=9)
    with TestClient(app2, client=LOCAL, base_url=BASE) as tc, connect(tc) as w0, connect(tc) as w1:
        a, b = Client(w0), Client(w1)
        a.join_reply({"type": "hello", "game": ja["game"], "token": ja["token"]})
        assert a.table["seats"][0]["ready"] is True and a.table["seats"][1]["ready"] is False
        b.join_reply({"type": "hello", "game": jb["game"], "token": jb["token"]})
        b.request({"type": "deal"})  # Ann pressed Deal before the restart: this deals
        assert b.obs["hand_number"] == 1
        a.await_obs(lambda o: o["hand_number"] == 1)


def test_the_seeded_test_mode_deals_the_same_cards(data_dir: Path, tmp_path: Path) -> None:
    hands = []
    for where in (data_dir, tmp_path / "other"):
        app = create_app(where, computer_delay=0, deal_seed=77)
        with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc) as ws:
            c = Client(ws)
            c.join_reply({"type": "new", "variant": "classic", "opponent": "greedy"})
            c.request({"type": "deal"})
            hands.append((c.obs["commitment"], sorted(c.obs["hand"])))
    assert hands[0] == hands[1]


# ------------------------------------------------------------------------------------ quotas
def test_connections_per_client_are_limited(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, quotas=Quotas(connections_per_client=2))
    with TestClient(app, client=REMOTE, base_url=BASE) as tc:
        with connect(tc) as w1, connect(tc) as w2:
            Client(w1), Client(w2)
            with connect(tc) as w3:
                reply = w3.receive_json()
                assert reply["code"] == "too_many_connections" and "at most 2" in reply["message"]
                with pytest.raises(WebSocketDisconnect):
                    w3.receive_json()
        deadline = time.monotonic() + 10
        while app.state.clients.connections and time.monotonic() < deadline:
            time.sleep(0.01)  # the server counts the closed ones out
        with connect(tc) as w4:
            assert Client(w4).request({"type": "ping"})["type"] == "pong"
    with (
        TestClient(app, client=LOCAL, base_url=BASE) as tc,  # this computer is not limited
        connect(tc) as w1,
        connect(tc) as w2,
        connect(tc) as w3,
    ):
        assert all(Client(w).request({"type": "ping"})["type"] == "pong" for w in (w1, w2, w3))


def test_games_per_client_are_limited(data_dir: Path) -> None:
    app = create_app(
        data_dir, computer_delay=0, deal_seed=17, quotas=Quotas(games_per_client=3, game_refill_seconds=3600)
    )
    with TestClient(app, client=REMOTE, base_url=BASE) as tc, connect(tc) as ws:
        c = Client(ws)
        for _ in range(3):
            assert c.join_reply({"type": "new", "variant": "solitaire"})["type"] == "joined"
        reply = c.join_reply({"type": "new", "variant": "solitaire"})
        assert reply["type"] == "error" and reply["code"] == "quota", reply
        reply = c.join_reply({"type": "create_table", "variant": "classic", "seats": ["person"]})
        assert reply["code"] == "quota"
    assert len(Store(data_dir).saved_games()) == 3
    # this computer is not limited by address, but one connection cannot make games without end
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        with connect(tc) as ws:
            c = Client(ws)
            for _ in range(3):
                assert c.join_reply({"type": "new", "variant": "solitaire"})["type"] == "joined"
            reply = c.join_reply({"type": "new", "variant": "solitaire"})
            assert reply["code"] == "quota" and "one connection" in reply["message"]
        with connect(tc) as ws:
            assert Client(ws).join_reply({"type": "new", "variant": "solitaire"})["type"] == "joined"


def test_abandoned_tables_leave_memory(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, quotas=Quotas(idle_seconds=0, max_tables=3))
    manager = app.state.manager
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        games = []
        for _ in range(2):
            with connect(tc) as ws:
                games.append(Client(ws).join_reply({"type": "new", "variant": "solitaire"}))
        tc.portal.call(manager.saver.flush)
        tc.portal.call(manager.sweep)
        assert manager.tables == {}
        # they are still saved: a seat token brings a table back
        with connect(tc) as ws:
            c = Client(ws)
            assert c.join_reply({"type": "hello", "game": games[0]["game"], "token": games[0]["token"]})["seat"] == 0
            assert list(manager.tables) == [games[0]["game"]]


def test_a_full_server_drops_idle_tables_first_and_then_refuses(data_dir: Path) -> None:
    app = create_app(data_dir, computer_delay=0, deal_seed=17, quotas=Quotas(max_tables=2))
    manager = app.state.manager
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        with connect(tc) as ws:
            first = Client(ws).join_reply({"type": "new", "variant": "solitaire"})["game"]
        tc.portal.call(manager.saver.flush)
        with connect(tc) as w1, connect(tc) as w2, connect(tc) as w3:
            c1, c2, c3 = Client(w1), Client(w2), Client(w3)
            second = c1.join_reply({"type": "new", "variant": "solitaire"})["game"]
            third = c2.join_reply({"type": "new", "variant": "solitaire"})["game"]
            assert set(manager.tables) == {second, third} and first not in manager.tables
            reply = c3.join_reply({"type": "new", "variant": "solitaire"})
            assert reply["type"] == "error" and reply["code"] == "server_busy"


def test_never_played_games_expire_and_the_others_stay(data_dir: Path) -> None:
    terminal = Session.new("classic", seats=["human", "greedy"], deal_seed=1)  # never dealt, from the terminal
    Store(data_dir).save_game("20250101-000000-termnl", terminal)
    app = create_app(data_dir, computer_delay=0, deal_seed=17, quotas=Quotas(unplayed_expiry=0))
    manager = app.state.manager
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        with connect(tc) as ws:
            c = Client(ws)
            unplayed = c.join_reply({"type": "new", "variant": "solitaire"})
            played = c.join_reply({"type": "new", "variant": "solitaire"})
            c.request({"type": "deal"})
        tc.portal.call(manager.saver.flush)
        deleted = tc.portal.call(manager.sweep)
        assert deleted == [unplayed["game"]]
        ids = {g.id for g in Store(data_dir).saved_games()}
        assert unplayed["game"] not in ids and played["game"] in ids and "20250101-000000-termnl" in ids
        with connect(tc) as ws:
            reply = Client(ws).join_reply({"type": "hello", "game": unplayed["game"], "token": unplayed["token"]})
            assert reply["code"] == "bad_token"


def test_the_owner_deletes_saved_games(app: Any, data_dir: Path) -> None:
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        with connect(tc) as ws:
            c = Client(ws)
            joined = c.join_reply({"type": "new", "variant": "classic", "opponent": "greedy"})
            game = joined["game"]
            tc.portal.call(app.state.manager.saver.flush)
            busy = tc.delete(f"/api/saved/{game}")
            assert busy.status_code == 409 and "open in a browser" in busy.json()["error"]
        assert tc.delete("/api/saved/..%2Fetc").status_code in (400, 404)
        assert tc.delete("/api/saved/20250101-000000-000000").status_code == 404
    with TestClient(app, client=REMOTE, base_url=BASE) as remote:
        assert remote.delete(f"/api/saved/{game}").status_code == 403
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        r = tc.delete(f"/api/saved/{game}")
        assert r.status_code == 200 and r.json() == {"deleted": game}
        assert tc.get("/api/saved").json() == {"games": []}
        assert Store(data_dir).saved_games() == []
        with connect(tc) as ws:
            reply = Client(ws).join_reply({"type": "hello", "game": game, "token": joined["token"]})
            assert reply["code"] == "bad_token"


def test_an_old_one_per_table_invitation_opens_nothing(client: TestClient, app: Any) -> None:
    """Tables of older versions had one code for every open seat: it no longer opens any seat,
    and the table gets one code per open seat when it is loaded."""
    with connect(client) as ws:
        c = Client(ws)
        ja = c.join_reply({"type": "create_table", "variant": "three", "seats": ["person", "person"]})
    book = app.state.manager.book
    with book._conn() as db:  # as an older version wrote it
        db.execute("UPDATE web_games SET invite = 'legacy-code-123' WHERE game_id = ?", (ja["game"],))
        db.execute("DELETE FROM web_invites WHERE game_id = ?", (ja["game"],))
    app.state.manager.tables.clear()  # as after a restart
    with connect(client) as ws:
        c = Client(ws)
        reply = c.join_reply({"type": "join", "invite": "legacy-code-123"})
        assert reply["code"] == "unknown_invite" and "older version" in reply["message"]
        c.join_reply({"type": "hello", "game": ja["game"], "token": ja["token"]})
        assert set(c.table["invites"]) == {"1", "2"}
