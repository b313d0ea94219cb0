"""The saved-games database: save after every action, resume, history, statistics, bad files."""

from __future__ import annotations

import gc
import io
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy import i18n
from ginrummy.errors import StoreError
from ginrummy.record import json_reason
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


# -- the data directory (issue 12, item 4) -------------------------------------------------------


def _finished_games(store: Store, seeds: tuple[int, ...] = (1, 2, 3)) -> list[str]:
    ids = []
    for seed in seeds:
        s = Session.new("solitaire", seats=["human", "joker"], deal_seed=seed)
        _play(s, rng=random.Random(seed))
        store.finish_game(f"f{seed}", s)
        ids.append(f"f{seed}")
    return ids


def test_a_relative_data_dir_works_on_every_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ginrummy.cli import main

    monkeypatch.chdir(tmp_path)
    for _ in range(2):  # the second run used to fail: "relative path can't be expressed as a file URI"
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["--data-dir", "rel", "play", "--plain", "--variant", "solitaire", "--seed", "1"]) == 0
    assert "Resuming the saved solitaire game" in capsys.readouterr().out
    assert Store("rel").path == tmp_path / "rel" / DB_NAME
    monkeypatch.chdir(tmp_path / "rel")  # the Store keeps the directory it was given, not the cwd
    assert len(Store("../rel").saved_games()) == 1


def test_data_dir_is_accepted_after_the_command_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli import build_parser, main

    parser = build_parser()
    for cmd in ("play", "stats", "export", "serve"):
        assert parser.parse_args([cmd, "--data-dir", "after"]).data_dir == "after"
        assert parser.parse_args(["--data-dir", "before", cmd]).data_dir == "before"
        assert parser.parse_args(["--data-dir", "before", cmd, "--data-dir", "after"]).data_dir == "after"
        assert parser.parse_args([cmd]).data_dir is None
    data = tmp_path / "d"
    _finished_games(Store(data), (1,))
    assert main(["stats", "--data-dir", str(data)]) == 0
    assert "games 1" in capsys.readouterr().out


def test_one_damaged_history_row_is_named_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.cli import main

    store = Store(tmp_path)
    _finished_games(store)
    raw = sqlite3.connect(tmp_path / DB_NAME)
    raw.execute("UPDATE finished SET record = '{not json' WHERE id = 'f2'")
    raw.execute("UPDATE finished SET hand_points = '[[1, \"x\"]]' WHERE id = 'f3'")
    raw.commit()
    raw.close()
    problems: list[str] = []
    assert [g.id for g in store.history(problems=problems)] == ["f1"]
    assert len(problems) == 2 and "'f2'" in problems[0] and "record is not valid JSON" in problems[0]
    assert "'f3'" in problems[1] and "hand_points" in problems[1]
    with i18n.using("lv"):  # the JSON reader's reason in the language too
        worded: list[str] = []
        store.history(problems=worded)
        reason = json_reason("Expecting property name enclosed in double quotes")
    assert reason in worded[0] and "Expecting" not in worded[0] and "record" in worded[0]
    assert store.stats()["solitaire"]["games"] == 1  # without a list the problems are logged
    assert main(["--data-dir", str(tmp_path), "stats"]) == 1
    out, err = capsys.readouterr()
    assert "games 1" in out
    assert [line.split(" (row")[0] for line in err.splitlines()] == [
        "ginrummy stats: finished game 'f2'",
        "ginrummy stats: finished game 'f3'",
    ]
    assert main(["--data-dir", str(tmp_path), "export"]) == 1
    out, err = capsys.readouterr()
    assert len(json.loads(out)) == 1 and err.count("skipped") == 2 and "Traceback" not in err
    raw = sqlite3.connect(tmp_path / DB_NAME)  # a damaged saved game is skipped by the list too
    store.save_game("s1", Session.new("solitaire", seats=["human", "joker"], deal_seed=1))
    store.save_game("s2", Session.new("solitaire", seats=["human", "joker"], deal_seed=2))
    raw.execute("UPDATE games SET totals = 'oops' WHERE id = 's1'")
    raw.commit()
    raw.close()
    problems = []
    assert [g.id for g in store.saved_games(problems)] == ["s2"]
    assert "saved game 's1'" in problems[0]


def _make_read_only(path: Path) -> Callable[[], None]:
    """Make ``path`` read-only for this process for real (chmod, or as root the immutable
    attribute), returning the undo; skip when neither works here."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        return lambda: path.chmod(0o755)
    if shutil.which("chattr") is None:
        pytest.skip("root without chattr: no way to make a directory read-only")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"root, and chattr +i failed: {done.stderr.decode(errors='replace').strip()}")
    return lambda: subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("wal_files", [True, False], ids=["wal-left", "checkpointed"])
def test_a_read_only_directory_is_named_and_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wal_files: bool
) -> None:
    from ginrummy.cli import main

    data = tmp_path / "data"
    store = Store(data)
    _finished_games(store)
    store.save_game("s1", Session.new("solitaire", seats=["human", "joker"], deal_seed=1))
    if not wal_files:
        store._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.close()
        for suffix in ("-wal", "-shm"):
            Path(str(store.path) + suffix).unlink(missing_ok=True)
    del store
    gc.collect()
    before = {p.name: p.read_bytes() for p in data.iterdir()}
    undo = _make_read_only(data)
    try:
        with pytest.raises(StoreError, match="read-only") as caught:
            Store(data)
        assert "damaged" not in str(caught.value)
        with pytest.raises(StoreError, match="read-only"):
            Store.fresh(data)
        assert main(["--data-dir", str(data), "play", "--plain", "--new-database"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "read-only" in err and "damaged" not in err
        assert main(["--data-dir", str(data), "stats", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["solitaire"]["games"] == 3
        assert main(["--data-dir", str(data), "export"]) == 0
        assert len(json.loads(capsys.readouterr().out)) == 3
        ro = Store(data, read_only=True)
        assert [g.id for g in ro.saved_games()] == ["s1"]
        with pytest.raises(StoreError, match="read-only"):
            ro.delete_game("s1")
        ro.close()
    finally:
        undo()
    assert {p.name: p.read_bytes() for p in data.iterdir() if p.name in before} == before


def test_read_only_store_of_a_missing_database_is_empty(tmp_path: Path) -> None:
    ro = Store(tmp_path / "nothing", read_only=True)
    assert ro.history() == [] and ro.saved_games() == [] and ro.stats() == {}
    assert not (tmp_path / "nothing").exists()  # reading created nothing


class _FullDisk(sqlite3.Connection):
    """A connection whose COMMIT fails as on a full disk while ``full`` is set."""

    full = False

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if _FullDisk.full and sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return super().execute(sql, *args)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[_FullDisk]]:
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real(*a, factory=_FullDisk, **k))
    _FullDisk.full = False
    yield _FullDisk
    _FullDisk.full = False


def test_on_a_full_disk_an_error_line_means_nothing_changed(tmp_path: Path, full_disk: type[_FullDisk]) -> None:
    from ginrummy.plain import PlainGame

    store = Store(tmp_path)
    s = Session.new("classic", seats=["human", "human"], deal_seed=3)
    store.save_game("g1", s)
    s.commitment_for_next_deal()
    s.start_hand()
    store.save_game("g1", s)
    seat = s.to_act
    first = str(s.state.legal_actions()[0])  # take or pass at the upcard
    before = s.to_json()
    full_disk.full = True
    out = io.StringIO()
    assert PlainGame(s, store, "g1", inp=io.StringIO(f"{first}\nquit\n"), out=out).run() == 0
    errors = [line for line in out.getvalue().splitlines() if "error:" in line]
    assert len(errors) == 1 and "database or disk is full" in errors[0] and "nothing changed" in errors[0]
    assert s.to_json() == before  # in memory: as before the action
    full_disk.full = False
    loaded = store.load_game("g1")
    assert loaded is not None and loaded.to_json() == before  # on disk: as before
    assert s.to_act == seat
    # with room again, the same command works and is saved
    out = io.StringIO()
    assert PlainGame(s, store, "g1", inp=io.StringIO(f"{first}\nquit\n"), out=out).run() == 0
    assert "error:" not in out.getvalue()
    loaded = store.load_game("g1")
    assert loaded is not None and loaded.to_json() == s.to_json() != before


def test_a_failed_save_of_a_computer_move_or_deal_undoes_it(tmp_path: Path, full_disk: type[_FullDisk]) -> None:
    store = Store(tmp_path)
    s = Session.new("classic", seats=["greedy", "greedy"], deal_seed=8)
    store.save_game("g", s)
    store.autosave("g", s)
    s.commitment_for_next_deal()
    before = s.to_json()
    full_disk.full = True
    with pytest.raises(StoreError, match="nothing changed"):
        s.start_hand()
    assert s.to_json() == before
    full_disk.full = False
    s.start_hand()
    before = s.to_json()
    full_disk.full = True
    with pytest.raises(StoreError, match="nothing changed"):
        s.computer_step()
    assert s.to_json() == before
    full_disk.full = False
    loaded = store.load_game("g")
    assert loaded is not None and loaded.to_json() == before


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(signal, "SIGXFSZ"), reason="needs RLIMIT_FSIZE")
def test_plain_mode_on_a_real_write_limit_undoes_the_move(tmp_path: Path) -> None:
    """No mocks: ``play --plain`` under a file-size limit (RLIMIT_FSIZE, which Python meets with
    EFBIG instead of SIGXFSZ), so the WAL cannot grow: the save fails as on a full disk."""
    import resource

    from ginrummy.plain import public_record
    from test_resume_kill import Player, _move

    data = tmp_path / "data"
    start = [sys.executable, "-m", "ginrummy.cli", "--data-dir", str(data), "play", "--plain"]
    made = subprocess.run(
        [*start, "--variant", "classic", "--opponent", "human", "--seed", "5"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr

    class Limited(Player):
        def __init__(self) -> None:
            def limit() -> None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000))

            self.proc = subprocess.Popen(
                [*start, "--resume"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                preexec_fn=limit,
            )
            self.out = ""
            self._lock = threading.Lock()
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()

    p = Limited()
    try:
        screen = p.wait_prompt(0)
        for _ in range(200):
            screen = p.ask(_move(screen))
            if "error:" in screen:
                break
        errors = [line for line in screen.splitlines() if "error:" in line]
        assert len(errors) == 1 and "could not be saved" in errors[0] and "nothing changed" in errors[0]
        shown = json.loads(p.ask("record").splitlines()[0].removeprefix("> "))
        assert p.proc.stdin is not None
        p.proc.stdin.write("quit\n")
        p.proc.stdin.flush()
        assert p.proc.wait(timeout=30) == 0
    finally:
        p.close()
    store = Store(data)
    [saved] = store.saved_games()
    on_disk = store.load_game(saved.id)
    assert on_disk is not None and public_record(on_disk) == shown  # memory and file agree


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda good: "{not json", "Expecting property name"),  # the JSON reader's reason
        (lambda good: json.dumps({k: v for k, v in good.items() if k != "record"}), "the field 'record' is missing"),
        (lambda good: json.dumps({**good, "seats": 3}), "a value has the wrong type or form"),
    ],
)
def test_a_saved_game_that_cannot_be_resumed_says_why_in_the_readers_language(
    tmp_path: Path, damage: Callable[[dict[str, Any]], str], why: str
) -> None:
    """A damaged saved game refused by load_game and open_game in one line of the reader's language
    (not Python's ``KeyError: 'record'``)."""
    store = Store(tmp_path)
    store.save_game("s7", Session.new("classic", seats=["human", "greedy"], deal_seed=3))
    raw = sqlite3.connect(tmp_path / DB_NAME)
    good = json.loads(raw.execute("SELECT session FROM games WHERE id = 's7'").fetchone()[0])
    raw.execute("UPDATE games SET session = ? WHERE id = 's7'", (damage(good),))
    raw.commit()
    raw.close()
    for lang in ("ko", "lv"):
        with i18n.using(lang):
            for load in (store.load_game, store.open_game):
                with pytest.raises(StoreError) as caught:
                    load("s7")
                text = str(caught.value)
                english = set(re.findall(r"[a-z]+", f"saved game cannot be resumed {why}".lower())) - {"record"}
                assert "s7" in text and not english & set(re.findall(r"\w+", text.lower())), text
    with i18n.using("en"), pytest.raises(StoreError, match=f"^saved game s7 cannot be resumed: {why}"):
        store.load_game("s7")
