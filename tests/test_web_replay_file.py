"""The browser app's replay of a record file: ``POST /api/replay`` (the record the page sends,
checked whole, size-limited, the moves in the page's language; a bad record is one line and
changes nothing).  Starlette's TestClient; seeded records (tests/test_record.py's random games)."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ginrummy.record import dumps
from ginrummy.replays import replay_steps
from ginrummy.web import create_app
from ginrummy.web.replay import MAX_RECORD_BYTES
from pseudo_audit import plain
from test_record import random_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REMOTE = ("192.0.2.7", 50000)  # another computer: a record is nothing of this computer's
BASE = "http://127.0.0.1:8000"
VARIANTS = ["classic", "oklahoma", "hollywood", "three", "solitaire", "gin-solitaire"]


def record_of(variant: str, seed: int = 5, **kw: Any) -> dict[str, Any]:
    return random_game(variant, random.Random(seed), max_hands=3, **kw).to_record()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "data", computer_delay=0), client=REMOTE, base_url=BASE) as c:
        yield c


def post(client: TestClient, body: bytes | str, query: str = "") -> Any:
    data = body.encode() if isinstance(body, str) else body
    return client.post(f"/api/replay{query}", content=data, headers={"content-type": "text/plain"})


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_record_of_every_variant_step_by_step(client: TestClient, variant: str) -> None:
    record = record_of(variant)
    r = post(client, dumps(record))
    assert r.status_code == 200, r.text
    data = r.json()
    steps = replay_steps(record, viewer=None, opening=True)  # the one stepping of both apps
    assert data["records"] == 1 and data["record"] == 0 and data["variant"] == variant
    assert [f["move"] for f in data["frames"]] == [s.text for s in steps]
    assert plain(data["frames"][0]["move"]) == "The game begins."
    dealt = data["frames"][1]
    assert dealt["hand"] == 1 and all(len(h) >= 10 for h in dealt["hands"] if h)  # every hand face up
    assert not data["truncated"]


def test_a_file_of_several_records_and_the_one_chosen(client: TestClient) -> None:
    records = [record_of("classic", 7), record_of("gin-solitaire", 8), record_of("three", 9, stop_inside=True)]
    lines = "".join(json.dumps(r) + "\n" for r in records)
    r = post(client, lines, "?record=2")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["records"] == 3 and data["record"] == 2 and data["variant"] == "three"
    assert data["final_totals"] is None and data["frames"][-1]["to_act"] is not None  # stopped inside a hand
    assert post(client, json.dumps(records)).json()["variant"] == "classic"
    r = post(client, lines, "?record=3")
    assert r.status_code == 400 and list(r.json()) == ["error"]
    assert plain(r.json()["error"]) == "record: no record 4: the file holds 3 records"
    assert post(client, lines, "?record=x").status_code == 400


def test_the_moves_are_in_the_pages_language(client: TestClient) -> None:
    record = record_of("classic")
    english = post(client, dumps(record)).json()["frames"]
    korean = post(client, dumps(record), "?lang=ko").json()["frames"]
    assert plain(english[1]["move"]) == "Hand 1 is dealt." and korean[1]["move"] != english[1]["move"]
    assert [f["hands"] for f in korean] == [f["hands"] for f in english]
    assert post(client, b"[]", "?lang=ko").json()["error"].startswith("기록: ")  # the refusal too
    assert post(client, b" " * (MAX_RECORD_BYTES + 1), "?lang=lv").json()["error"].startswith("ieraksts: ")


BAD = {
    "not JSON": (b"{not json", "record: not JSON"),
    "not UTF-8": (b'{"variant": "classic\xff"}', "record: not UTF-8 text"),
    "an unknown variant": (b'{"format": "ginrummy-record/1", "variant": "canasta", "hands": []}', "variant: "),
    "an empty list": (b"[]", "record: an empty list"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_record_gets_one_line(client: TestClient, case: str, tmp_path: Path) -> None:
    body, start = BAD[case]
    before = sorted(p.name for p in tmp_path.rglob("*"))
    r = post(client, body)
    assert r.status_code == 400
    error = r.json()["error"]
    assert plain(error).startswith(start) and "\n" not in error and "Traceback" not in error
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written anywhere


def test_an_illegal_action_is_named_by_hand_and_action(client: TestClient) -> None:
    record = record_of("oklahoma")
    record["hands"][1]["actions"] = [*record["hands"][1]["actions"][:1], "layoff As"]
    r = post(client, dumps(record))
    assert r.status_code == 400
    assert plain(r.json()["error"]).startswith("hands[1] (hand 2).actions[1] (action 2, 'layoff As'): ")
    several = post(client, json.dumps([record_of("classic"), record]), "?record=1")
    assert plain(several.json()["error"]).startswith("records[1] (record 2): hands[1] (hand 2).actions[1]")


def test_a_record_too_large_is_refused_unread(client: TestClient) -> None:
    big = b" " * (MAX_RECORD_BYTES + 1)
    r = post(client, big)
    assert r.status_code == 413 and "too large" in r.json()["error"]

    def chunks() -> Iterator[bytes]:  # no content-length: the server counts as it reads
        for _ in range(MAX_RECORD_BYTES // 4096 + 2):
            yield b" " * 4096

    r = client.post("/api/replay", content=chunks(), headers={"content-type": "text/plain"})
    assert r.status_code == 413
    assert post(client, dumps(record_of("solitaire")).encode() + b" " * 1000).status_code == 200


def test_a_long_record_is_sent_from_its_start(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ginrummy.web.replay.MAX_FRAMES", 12)
    record = record_of("classic")
    data = post(client, dumps(record)).json()
    steps = replay_steps(record, viewer=None, opening=True)
    assert data["truncated"] and [f["move"] for f in data["frames"]] == [s.text for s in steps[:12]]
