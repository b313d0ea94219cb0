"""Audit of today's web messages (undo, arrangements, replay) for the two principles: a seat sees
only what it may know (an 'arrangements' reply goes to the asking seat alone; no replay of a game
in play), and an error means nothing changed (a refused undo, arrangements or replay is one error
line, and the game, as saved and as shown, is as it was).  Deals are seeded by the app fixture."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from ginrummy.web import create_app
from test_web import BASE, LOCAL, Client, connect, good_discard, play_hand

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(tmp_path / "data", computer_delay=0, deal_seed=101, rate=1000, burst=1000),
        client=LOCAL,
        base_url=BASE,
    ) as c:
        yield c


def saved_session(tc: TestClient, game: str) -> Any:
    tc.portal.call(tc.app.state.manager.saver.flush)  # type: ignore[attr-defined]
    db = sqlite3.connect(tc.app.state.store.path)  # type: ignore[attr-defined]
    try:
        row = db.execute("SELECT session FROM games WHERE id = ?", (game,)).fetchone()
    finally:
        db.close()
    return json.loads(row[0]) if row else None


def refused(c: Client, msg: dict[str, Any], code: str) -> dict[str, Any]:
    """Send ``msg``: an error with ``code`` and one line, and no new state sent before it."""
    n = len(c.log)
    if code == "bad_message":  # refused before its seq is read
        c.ws.send_json(msg)
        reply = c.until(lambda m: m["type"] == "error")
    else:
        reply = c.request(msg)
    assert reply["type"] == "error" and reply["code"] == code, (msg, reply)
    assert reply["message"] and "\n" not in reply["message"] and "Traceback" not in reply["message"]
    assert not [m for m in c.log[n:] if m["type"] == "state"], msg
    return reply


def test_refused_undo_arrangements_and_replay_change_nothing(client: TestClient) -> None:
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply(
            {"type": "new", "variant": "classic", "options": {"knocker_arrangement": "choose"}, "name": "Ann"}
        )
        refused(c, {"type": "undo"}, "not_allowed")  # before the deal
        refused(c, {"type": "arrangements", "action": "knock"}, "illegal_action")
        c.request({"type": "deal"})
        obs = c.wait_turn()
        before_obs, before_saved = dict(obs), saved_session(client, joined["game"])
        hand = set(obs["hand"])
        not_mine = next(f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in hand)
        for msg, code in [
            ({"type": "undo"}, "not_allowed"),  # nothing of yours in this hand yet
            ({"type": "replay"}, "not_allowed"),  # the game is in play: its seeds are secret
            ({"type": "arrangements", "action": "draw"}, "illegal_action"),
            ({"type": "arrangements", "action": "knock"}, "illegal_action"),
            ({"type": "arrangements", "action": f"knock {not_mine}"}, "illegal_action"),
            ({"type": "arrangements", "action": "knock 1x"}, "bad_action"),
            ({"type": "arrangements"}, "bad_message"),
            ({"type": "undo", "seat": 1}, "bad_message"),
        ]:
            refused(c, msg, code)
        assert c.request({"type": "ping"})["type"] == "pong"
        assert saved_session(client, joined["game"]) == before_saved
        # nor over HTTP: a game in play is in no history and has no replay
        assert client.get(f"/api/replay/{joined['game']}").status_code == 404
        assert joined["game"] not in client.get("/api/history").text
        with connect(client) as ws2:  # a fresh look at the seat: the same position
            c2 = Client(ws2)
            c2.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
            assert c2.obs == before_obs
            assert c2.table is not None and c2.table["takebacks"] == 0


def test_the_arrangements_go_to_the_knocking_seat_only(client: TestClient) -> None:
    """At a table of two people, one asks for the ways to spread a knock: the other is sent nothing
    of it (its cards are that seat's secret until the knock is played)."""
    rng = random.Random(9)
    with connect(client) as w0, connect(client) as w1:
        a, b = Client(w0), Client(w1)
        ja = a.join_reply(
            {
                "type": "create_table",
                "variant": "classic",
                "seats": ["person"],
                "options": {"knocker_arrangement": "choose"},
            }
        )
        b.join_reply({"type": "join", "invite": ja["invite"]})
        a.request({"type": "deal"})
        b.request({"type": "deal"})
        a.await_obs(lambda o: o["hand_number"] == 1)
        b.await_obs(lambda o: o["hand_number"] == 1)
        asked = None
        for _ in range(200):
            for c in (a, b):  # everything sent to either seat so far is read
                assert c.request({"type": "ping"})["type"] == "pong"
            mover, other = (a, b) if a.obs is not None and a.obs["to_act"] else (b, a)
            obs = mover.obs
            assert obs is not None and obs["to_act"] and obs["phase"] not in ("deal", "over"), "no knock came"
            knocks = [x for x in obs["legal_actions"] if x.startswith(("knock", "gin"))]
            if knocks:
                asked = knocks[0].split("|")[0].strip()
                n = len(other.log)
                reply = mover.request({"type": "arrangements", "action": asked})
                assert reply["type"] == "arrangements" and reply["choices"], reply
                assert other.request({"type": "ping"})["type"] == "pong"
                assert [m["type"] for m in other.log[n:]] == ["pong"]  # nothing of the arrangements
                assert not [m for m in mover.log if m["type"] == "arrangements" and m is not reply]
                # the spread offered is the knocker's own cards, which the other seat does not see
                spread = {c for ch in reply["choices"] for meld in ch["melds"] for c in meld}
                assert spread <= set(obs["hand"])
                break
            if "draw" in obs["legal_actions"]:
                action = "draw"
            elif "pass" in obs["legal_actions"]:
                action = "pass"
            else:
                action = good_discard(obs, rng)
            reply = mover.request({"type": "act", "action": action})
            assert reply["type"] == "state", reply
        assert asked is not None


def played(record: dict[str, Any]) -> dict[str, Any]:
    """The first hand of ``record`` with actions."""
    return next(h for h in record["hands"] if len(h["actions"]) > 3)


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: played(r)["actions"].__setitem__(0, "frob 7h"),  # not an action
        lambda r: played(r)["actions"].insert(0, "knock"),  # an action the rules refuse
        lambda r: played(r).__setitem__("seed", -1),
        lambda r: r.__setitem__("variant", "poker"),
        lambda r: r.__setitem__("hands", {"x": 1}),
    ],
)
def test_the_replay_of_a_damaged_record_is_one_clear_error(client: TestClient, damage: Any) -> None:
    rng = random.Random(5)
    with connect(client) as ws:
        c = Client(ws)
        joined = c.join_reply({"type": "new", "variant": "solitaire", "options": {"scoring": "none"}})
        obs = c.obs
        assert obs is not None
        while not obs["game_over"]:
            obs = play_hand(c, rng)
        manager = client.app.state.manager  # type: ignore[attr-defined]

        async def filed() -> None:  # the game is filed again with its analysis: wait for that
            task = manager.tables[joined["game"]].analysing
            if task is not None:
                await task
            await manager.saver.flush()

        client.portal.call(filed)
    path = client.app.state.store.path  # type: ignore[attr-defined]
    db = sqlite3.connect(path)
    try:
        (raw,) = db.execute("SELECT record FROM finished WHERE id = ?", (joined["game"],)).fetchone()
        record = json.loads(raw)
        damage(record)
        with db:
            db.execute("UPDATE finished SET record = ? WHERE id = ?", (json.dumps(record), joined["game"]))
        before = db.execute("SELECT * FROM finished").fetchall()
    finally:
        db.close()
    got = client.get(f"/api/replay/{joined['game']}")
    assert 400 <= got.status_code < 600 and got.status_code != 200
    body = got.json()  # JSON, not a server's traceback page
    assert set(body) == {"error"} and body["error"] and "\n" not in body["error"] and "Traceback" not in body["error"]
    assert client.get("/api/history").status_code == 200
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT * FROM finished").fetchall() == before
    finally:
        db.close()
