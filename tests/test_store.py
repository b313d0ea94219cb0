"""The saved-games database: save after every action, resume, history, statistics, bad files."""

from __future__ import annotations

import gc
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ginrummy.errors import StoreError
from ginrummy.session import Session
from ginrummy.store import DB_NAME, Store, new_game_id


def _play(session: Session, steps: int | None = None, rng: random.Random | None = None) -> None:
    """Play legal moves (random but reproducible) for ``steps`` actions, or to the end of the game."""
    rng = rng or random.Random(0)
    n = 0
    while not session.state.is_terminal and (steps is None or n < steps):
        if session.state.needs_deal:
            session.start_hand()
            continue
        seat = session.to_act
        assert seat is not None
        legal = session.state.legal_actions()
        ends = [a for a in legal if a.kind in ("knock", "gin")]
        session.act(seat, ends[0] if ends else rng.choice(legal))
        n += 1


def test_save_load_roundtrip_after_every_action(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = Session.new("classic", seats=["human", "human"], deal_seed=5)
    gid = new_game_id()
    s.on_change = lambda sess: store.save_game(gid, sess)
    s.commitment_for_next_deal()
    s.start_hand()
    _play(s, steps=7)
    loaded = store.load_game(gid)
    assert loaded is not None
    assert loaded.to_json() == s.to_json()
    [g] = store.saved_games()
    assert (g.id, g.variant, g.hand_number, g.seats) == (gid, "classic", 1, ["human", "human"])
    assert store.load_game("nope") is None


def test_saved_games_newest_first_and_delete(tmp_path: Path) -> None:
    store = Store(tmp_path)
    ids = []
    for v in ("solitaire", "gin-solitaire", "three"):
        s = Session.new(v, seats=["human", *(["joker"] if v != "three" else ["human", "human"])], deal_seed=1)
        gid = new_game_id() + v
        store.save_game(gid, s)
        ids.append(gid)
    assert [g.id for g in store.saved_games()] == ids[::-1]
    store.delete_game(ids[1])
    assert [g.id for g in store.saved_games()] == [ids[2], ids[0]]


def test_finish_game_history_stats_export(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for seed in (1, 2):
        s = Session.new("solitaire", seats=["human", "joker"], deal_seed=seed)
        gid = f"g{seed}"
        s.on_change = lambda sess, gid=gid: store.save_game(gid, sess)
        _play(s, rng=random.Random(seed))
        assert s.state.game_over
        # save_game filed it already; finish_game adds the analysis
        store.finish_game(gid, s, {"accuracy": 0.5 + seed / 10})
    assert store.saved_games() == []
    hist = store.history("solitaire")
    assert [g.id for g in hist] == ["g1", "g2"]
    g = hist[0]
    assert g.hands == len(g.hand_points) > 0
    assert g.summary["game_over"] is True
    assert g.accuracy == pytest.approx(0.6)
    st = store.stats()["solitaire"]
    assert st["games"] == 2
    assert len(st["running_average"]) == 2
    assert st["accuracy"] == pytest.approx(0.65)
    net = sum(p[0] - p[1] for gg in hist for p in gg.hand_points)
    assert st["points_per_hand"] == pytest.approx(net / st["hands"])
    assert st["wins"] == sum(gg.winner == 0 for gg in hist)
    assert store.stats("classic") == {}
    recs = store.export_records("solitaire")
    assert recs[0]["format"] == "ginrummy-record/1" and recs[0]["variant"] == "solitaire"


def test_percentage_accuracy_is_normalised(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = Session.new("gin-solitaire", seats=["human", "joker"], deal_seed=3)
    _play(s)
    store.finish_game("x", s, {"accuracy": 87.5})
    assert store.history()[0].accuracy == pytest.approx(0.875)


@pytest.mark.parametrize(
    "content",
    [b"hello, this is my shopping list\n", b"SQLite format 3\x00" + b"\x07" * 2000],
    ids=["text", "damaged"],
)
def test_corrupt_file_is_reported_and_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(content)
    with pytest.raises(StoreError, match="left untouched"):
        Store(tmp_path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == [DB_NAME]


def test_foreign_sqlite_is_reported_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store(tmp_path)
    assert path.read_bytes() == before


def test_fresh_moves_the_bad_file_aside(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    path.write_bytes(b"garbage")
    store = Store.fresh(tmp_path)
    aside = [p for p in tmp_path.iterdir() if ".bad-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == b"garbage"
    store.save_game("a", Session.new("solitaire", seats=["human", "joker"], deal_seed=1))
    assert [g.id for g in Store(tmp_path).saved_games()] == ["a"]
    # a good database is kept by fresh()
    assert [g.id for g in Store.fresh(tmp_path).saved_games()] == ["a"]


def test_newer_schema_refused(tmp_path: Path) -> None:
    Store(tmp_path)
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="newer ginrummy"):
        Store(tmp_path)


def test_threads_share_a_store(tmp_path: Path) -> None:
    store = Store(tmp_path)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            s = Session.new("solitaire", seats=["human", "joker"], deal_seed=i)
            s.start_hand()
            for _ in range(5):
                store.save_game(f"t{i}", s)
                store.saved_games()
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(store.saved_games()) == 6
    # a second Store on the same file (another process, say) sees them too
    assert len(Store(tmp_path).saved_games()) == 6


def test_env_var_sets_default_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_DATA_DIR", str(tmp_path / "d"))
    assert Store().path == tmp_path / "d" / DB_NAME


# -- connections: one per thread, reused, closed, never shared across fork -----------------------


def _mid_hand(seed: int = 1) -> Session:
    s = Session.new("classic", seats=["human", "human"], deal_seed=seed)
    s.commitment_for_next_deal()
    s.start_hand()
    _play(s, steps=4, rng=random.Random(seed))
    return s


def _is_closed(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return True
    return False


def test_a_thread_reuses_its_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path)
    conn = store._connection()
    opened: list[object] = []
    real_connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: opened.append(a) or real_connect(*a, **k))
    s = _mid_hand()
    for _ in range(5):
        store.save_game("g", s)
        assert store.load_game("g") is not None
        store.saved_games()
    store.finish_game("g", s)
    store.history()
    assert opened == []
    assert store._connection() is conn
    assert not conn.in_transaction
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_threads_get_their_own_connections_and_concurrent_saves_all_land(tmp_path: Path) -> None:
    store = Store(tmp_path)
    n = 8
    barrier = threading.Barrier(n)
    conns: dict[int, int] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            s = _mid_hand(i)
            barrier.wait()
            for k in range(10):
                store.save_game(f"t{i}-{k % 3}", s)
                store.saved_games()
            conns[i] = id(store._connection())
            assert store._connection() is store._connection()
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(set(conns.values())) == n  # no two threads shared a connection
    assert id(store._connection()) not in conns.values()
    assert len(store.saved_games()) == n * 3
    raw = sqlite3.connect(tmp_path / DB_NAME)
    assert raw.execute("SELECT count(*) FROM games").fetchone()[0] == n * 3
    raw.close()


def test_close_then_reuse_reopens(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first = store._connection()
    store.close()
    assert _is_closed(first)
    store.close()  # closing twice is harmless
    store.save_game("a", _mid_hand())
    second = store._connection()
    assert second is not first and not _is_closed(second)
    assert [g.id for g in store.saved_games()] == ["a"]
    with store as same:
        assert same is store
        assert same.load_game("a") is not None
    assert _is_closed(second)
    assert [g.id for g in store.saved_games()] == ["a"]


def test_connections_of_ended_threads_and_collected_stores_are_closed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    box: list[sqlite3.Connection] = []

    def work() -> None:
        store.saved_games()
        box.append(store._connection())

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert _is_closed(box[0])  # closed when its thread ended
    assert not _is_closed(store._connection())
    other = Store(tmp_path)
    mine = other._connection()
    del other
    gc.collect()
    assert _is_closed(mine)  # closed when the Store went away


def test_an_error_discards_the_transaction(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save_game("a", _mid_hand())
    conn = store._connection()
    with pytest.raises(RuntimeError), store._tx(write=True) as c:  # not an SQLite error: rolled back
        c.execute("DELETE FROM games")
        raise RuntimeError("boom")
    assert store._connection() is conn and not conn.in_transaction
    with pytest.raises(StoreError), store._tx(write=True) as c:  # an SQLite error: new connection
        c.execute("DELETE FROM games")
        c.execute("INSERT INTO nowhere VALUES (1)")
    assert _is_closed(conn)
    assert [g.id for g in store.saved_games()] == ["a"]


def test_a_save_is_durable_when_it_returns(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = _mid_hand()
    store.save_game("a", s)
    # a fresh connection and another process see it at once, while ours stays open
    raw = sqlite3.connect(tmp_path / DB_NAME)
    assert raw.execute("SELECT id FROM games").fetchall() == [("a",)]
    raw.close()
    code = (
        "import json, sys; from ginrummy.store import Store; g = Store(sys.argv[1]).load_game('a'); "
        "print(json.dumps(g.to_json() if g else None))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == json.loads(json.dumps(s.to_json()))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_save_survives_sigkill_right_after_it(tmp_path: Path) -> None:
    code = (
        "import os, signal, sys, json; from ginrummy.session import Session; from ginrummy.store import Store\n"
        "s = Session.new('classic', seats=['human', 'human'], deal_seed=9); s.start_hand()\n"
        "store = Store(sys.argv[1])\n"
        "for i in range(3): store.save_game(f'g{i}', s)\n"
        "print(json.dumps(s.to_json()), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL
    store = Store(tmp_path)
    assert sorted(g.id for g in store.saved_games()) == ["g0", "g1", "g2"]
    loaded = store.load_game("g2")
    assert loaded is not None
    assert loaded.to_json() == json.loads(proc.stdout)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    store = Store(tmp_path)
    parent_conn = store._connection()
    s = _mid_hand()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        ok = False
        try:
            store.save_game("child", s)
            ok = store._connection() is not parent_conn and not _is_closed(parent_conn)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store._connection() is parent_conn and not _is_closed(parent_conn)
    store.save_game("parent", s)
    assert sorted(g.id for g in store.saved_games()) == ["child", "parent"]
