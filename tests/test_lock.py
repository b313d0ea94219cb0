"""One game, one process (issue 12, item 3): a game open in one process (plain mode, the terminal
app, the browser server) cannot be opened by another, which is told where it is open and may
choose another game; a lock left by a process that died never blocks; finished games never come
back as saved games."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

import ginrummy.store.locks as store_module
from ginrummy.errors import StoreError
from ginrummy.session import Session
from ginrummy.store import DB_NAME, LEASE_SECONDS, GameInUse, Store

sys.path.insert(0, str(Path(__file__).parent))
from pseudo_audit import plain
from test_resume_kill import Player, _move  # a play --plain subprocess, and a legal move


def _game(seed: int = 1, variant: str = "classic") -> Session:
    seats = ["human", "joker"] if variant.endswith("solitaire") else ["human", "greedy"]
    s = Session.new(variant, seats=seats, deal_seed=seed)
    s.start_hand()
    return s


def _cli(data: Path, *args: str, stdin: str = "quit\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "--data-dir", str(data), "play", "--plain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _forge(data: Path, game_id: str, **fields: Any) -> None:
    """Write a lock row as another process would have left it."""
    row = {
        "token": "0123456789abcdef",
        "front_end": "play --plain",
        "host": "elsewhere",
        "machine": "elsewhere|boot|pid:[1]",
        "pid": 4242,
        "started": "",
        "since": time.time() - 60,
        "renewed": time.time(),
        **fields,
    }
    raw = sqlite3.connect(data / DB_NAME)
    raw.execute(
        "INSERT OR REPLACE INTO locks (game_id, token, front_end, host, machine, pid, started, since, renewed)"
        " VALUES (:game_id, :token, :front_end, :host, :machine, :pid, :started, :since, :renewed)",
        {"game_id": game_id, **row},
    )
    raw.commit()
    raw.close()


def _locks(data: Path) -> dict[str, int]:
    raw = sqlite3.connect(data / DB_NAME)
    try:
        return dict(raw.execute("SELECT game_id, pid FROM locks").fetchall())
    finally:
        raw.close()


# -- two plain-mode processes ----------------------------------------------------------------------


def test_two_plain_processes_never_share_a_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Player(data, "--variant", "classic", "--opponent", "greedy", "--seed", "3")
    try:
        screen = first.wait_prompt(0)
        game_a = screen.split("Game ")[1].split(".")[0]
        screen = first.ask(_move(screen))
        # a second plain mode does not resume the game open in the first: it says where it is open
        second = _cli(data, "--variant", "classic", "--opponent", "greedy")
        assert second.returncode == 0, second.stderr
        where = f"open in play --plain (process {first.proc.pid} on this computer) since "
        assert f"The saved classic game {game_a} is {where}" in second.stdout
        assert f"Game {game_a}" not in second.stdout and "Resuming" not in second.stdout
        [game_b] = [g.id for g in Store(data).saved_games() if g.id != game_a]
        # asked for by id: one line naming where it is open, and the other game to choose
        third = _cli(data, "--resume", game_a)
        assert third.returncode == 2
        assert third.stderr.count("\n") == 1 and where in third.stderr
        assert f"--resume {game_b}" in third.stderr and "--new" in third.stderr
        assert "Traceback" not in third.stderr + third.stdout
        # the first process plays on, and its moves are the ones saved
        screen = first.ask(_move(screen))
        assert "error" not in screen
        record = json.loads(first.ask("record").splitlines()[0].removeprefix("> "))
        first.kill()  # no chance to release: the lock of a dead process does not count
    finally:
        first.close()
    resumed = _cli(data, "--resume", game_a, stdin="record\nquit\n")
    assert resumed.returncode == 0, resumed.stderr
    line = next(x for x in resumed.stdout.splitlines() if '"format"' in x)
    assert json.loads(line.removeprefix("> ")) == record
    assert _locks(data) == {}  # quitting released it


# -- the browser server ----------------------------------------------------------------------------


def test_a_browser_game_live_in_serve_is_not_resumed_elsewhere(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ginrummy.web import create_app
    from test_web import BASE, LOCAL, Client, choose, connect

    data = tmp_path / "data"
    rng = random.Random(4)
    app = create_app(data, computer_delay=0, deal_seed=17)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        with connect(tc) as ws:
            c = Client(ws)
            joined = c.join_reply({"type": "new", "variant": "classic", "opponent": "greedy"})
            game, token = joined["game"], joined["token"]
            c.request({"type": "deal"})
            obs = c.wait_turn()
            c.request({"type": "act", "action": choose(obs, rng)})
            c.wait_turn()
            deadline = time.time() + 30
            while game not in _locks(data) and time.time() < deadline:  # the first save takes the lock
                time.sleep(0.02)
            refused = _cli(data, "--resume", game)
            assert refused.returncode == 2
            assert f"open in the browser app (ginrummy serve) (process {os.getpid()} on this computer)" in (
                refused.stderr
            )
            other = _cli(data)  # without an id: not this game, a new one
            assert f"game {game} is open in the browser app" in other.stdout and f"Game {game}." not in other.stdout
        # everyone left the table: it is written and closed, so plain mode may take it up
        deadline = time.time() + 30
        while game in _locks(data) and time.time() < deadline:
            time.sleep(0.02)
        assert game not in _locks(data)
        legal = [str(a) for a in Store(data).load_game(game).state.legal_actions()]  # type: ignore[union-attr]
        move = next((a for a in legal if a in ("draw", "pass")), legal[0])
        played = _cli(data, "--resume", game, stdin=f"{move}\nrecord\nquit\n")
        assert played.returncode == 0 and "error" not in played.stdout, played.stdout + played.stderr
        line = next(x for x in played.stdout.splitlines() if '"format"' in x)
        terminal_record = json.loads(line.removeprefix("> "))
        # back in the browser: the terminal's moves are there, not overwritten by the server's copy
        with connect(tc) as ws:
            c = Client(ws)
            again = c.join_reply({"type": "hello", "game": game, "token": token})
            assert again["type"] == "joined"
            n = len(terminal_record["hands"][-1]["actions"])
            assert len(c.obs["history"]) >= n
    loaded = Store(data).load_game(game)
    assert loaded is not None
    assert loaded.state.to_record()["hands"][-1]["actions"][:n] == terminal_record["hands"][-1]["actions"]


def test_serve_refuses_a_game_open_in_another_program(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ginrummy.web import create_app
    from test_web import BASE, LOCAL, Client, connect

    data = tmp_path / "data"
    Store(data).save_game("g-open", _game(2))
    _forge(data, "g-open", front_end="the terminal app")
    with TestClient(create_app(data, computer_delay=0, deal_seed=17), client=LOCAL, base_url=BASE) as tc:
        games = tc.get("/api/saved", headers={"host": BASE.split("//")[1]}).json()["games"]
        assert plain(games[0]["open_in"]).startswith("the terminal app (process 4242 on elsewhere)")
        with connect(tc) as ws:
            reply = Client(ws).join_reply({"type": "resume", "game": "g-open"})
    assert reply["type"] == "error" and reply["code"] == "game_in_use"
    assert "open in the terminal app (process 4242 on elsewhere)" in plain(reply["message"])


# -- the terminal app ------------------------------------------------------------------------------


def test_the_terminal_app_does_not_resume_a_game_open_elsewhere(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.screens import GameScreen, StartScreen

    store = Store(tmp_path)
    store.save_game("free", _game(2))
    store.save_game("busy", _game(1))  # the newest
    store.release_all()
    _forge(tmp_path, "busy", front_end="the browser app (ginrummy serve)")

    async def run() -> None:
        app = GinRummyApp(data_dir=tmp_path, computer_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            notes: list[str] = []
            real = app.notify
            app.notify = lambda message, **kw: notes.append(str(message)) or real(message, **kw)  # type: ignore[method-assign]
            assert app.resume_game("busy") is None
            assert isinstance(app.screen, StartScreen)
            assert any(
                "open in the browser app (ginrummy serve) (process 4242 on elsewhere)" in plain(n) for n in notes
            )
            await pilot.press("ctrl+r")  # the newest that is free
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen.game_id == "free"
            assert _locks(tmp_path)["free"] == os.getpid()
            await pilot.press("escape")  # back to the menu: the game is closed here
            await pilot.pause()
            assert "free" not in _locks(tmp_path)

    asyncio.run(run())


# -- stale locks -----------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_killed_owner_does_not_block(tmp_path: Path) -> None:
    mine = Store(tmp_path)
    mine.save_game("g", _game(3))  # saving takes the lock ...
    mine.release_all()  # ... until this process lets it go
    code = (
        "import os, signal, sys; from ginrummy.store import Store\n"
        "s = Store(sys.argv[1], front_end='test'); s.open_game('g'); print('locked', flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert proc.stdout == "locked\n" and proc.returncode == -signal.SIGKILL, proc.stderr
    left = _locks(tmp_path)
    assert list(left) == ["g"] and left["g"] != os.getpid()  # left behind by the dead process
    store = Store(tmp_path)
    assert store.saved_games()[0].open_in is None
    assert store.open_game("g") is not None  # taken over at once
    assert _locks(tmp_path) == {"g": os.getpid()}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to tell a reused pid")
def test_a_reused_pid_does_not_keep_the_lock(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save_game("g", _game(4))
    store.release_all()
    me = store_module._me()
    parent = os.getppid()  # a live process of this machine, not the one that took the lock
    _forge(tmp_path, "g", machine=me.machine, host=me.host, pid=parent, started="1", renewed=time.time())
    assert store.lock_of("g") is None and store.open_game("g") is not None
    store.release_game("g")
    real = store_module._started(parent)
    assert real
    _forge(tmp_path, "g", machine=me.machine, host=me.host, pid=parent, started=real, renewed=0.0)
    with pytest.raises(GameInUse, match=f"process {parent} on this computer"):
        store.open_game("g")  # the same process that took it: held, however old its heartbeat


def test_another_computers_lock_holds_while_renewed_then_lapses(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save_game("g", _game(5))
    store.release_all()
    _forge(tmp_path, "g", renewed=time.time() - LEASE_SECONDS / 2)
    lock = store.lock_of("g")
    assert lock is not None and not lock.here and lock.pid == 4242
    with pytest.raises(GameInUse) as caught:
        store.open_game("g")
    assert "open in play --plain (process 4242 on elsewhere) since " in plain(str(caught.value))
    with pytest.raises(GameInUse):
        store.save_game("g", _game(6))  # nor overwritten
    with pytest.raises(GameInUse):
        store.delete_game("g")
    _forge(tmp_path, "g", renewed=time.time() - LEASE_SECONDS - 1)  # its owner stopped renewing
    assert store.lock_of("g") is None
    assert store.open_game("g") is not None


def test_held_locks_are_renewed_and_reentrant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "LEASE_SECONDS", 0.4)  # heartbeats every 0.1 s
    store = Store(tmp_path)
    store.save_game("g", _game(7))
    assert store.open_game("g") is not None  # this process holds it already: fine
    raw = sqlite3.connect(tmp_path / DB_NAME)
    first = raw.execute("SELECT renewed FROM locks").fetchone()[0]
    deadline = time.time() + 30
    while raw.execute("SELECT renewed FROM locks").fetchone()[0] == first and time.time() < deadline:
        time.sleep(0.02)
    assert raw.execute("SELECT renewed FROM locks").fetchone()[0] > first
    raw.close()
    store.release_game("g")
    assert _locks(tmp_path) == {}


def test_closing_a_store_stops_its_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A closed Store renews nothing behind its owner's back (the heartbeat used to go on, and log
    database errors once the directory was gone); its locks stay taken, and the next save starts
    the heartbeat again."""
    monkeypatch.setattr(store_module, "LEASE_SECONDS", 0.4)  # heartbeats every 0.1 s
    store = Store(tmp_path)
    store.save_game("g", _game(9))
    beat = store._beat
    assert beat is not None and beat.is_alive()
    with caplog.at_level(logging.WARNING, logger="ginrummy.store"):
        store.close()
        assert not beat.is_alive()  # stopped and joined by close()
    assert not caplog.records
    assert "g" in _locks(tmp_path)  # still taken by this process
    store.save_game("g", _game(9))
    assert store._beat is not None and store._beat is not beat and store._beat.is_alive()
    store.release_game("g")
    store.close()


def test_a_store_collected_ends_its_heartbeat_at_once(tmp_path: Path) -> None:
    """The heartbeat holds its Store weakly; when the Store is collected its thread ends now, not
    at its next wake a quarter lease later (a test run had hundreds asleep at its end)."""
    import gc

    store = Store(tmp_path)
    store.save_game("g", _game(9))
    beat = store._beat
    assert beat is not None and beat.is_alive()
    del store
    gc.collect()
    beat.join(timeout=10)  # returns as soon as the thread ends: a quarter lease is 30 s
    assert not beat.is_alive()


def test_no_heartbeat_is_left_running_into_the_interpreters_exit(tmp_path: Path) -> None:
    """At exit every heartbeat is ended and joined before the interpreter shuts down (a daemon
    thread that wakes while it shuts down can crash it): checked by an exit hook of a process
    that holds locks in three Stores, registered before them and so run after the store's own."""
    code = f"""
import atexit, threading
from ginrummy.session import Session
from ginrummy.store import Store

def left():
    alive = [t for t in threading.enumerate() if t.name == "ginrummy-lock-heartbeat" and t.is_alive()]
    print("heartbeats at exit:", len(alive), flush=True)

atexit.register(left)
stores = [Store({str(tmp_path)!r} + f"/{{i}}") for i in range(3)]
for i, store in enumerate(stores):
    s = Session.new("classic", seats=["human", "greedy"], deal_seed=i)
    s.start_hand()
    store.save_game(f"g{{i}}", s)
print("heartbeats running:", sum(t.name == "ginrummy-lock-heartbeat" for t in threading.enumerate()), flush=True)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["heartbeats running: 3", "heartbeats at exit: 0"]


def test_a_save_refused_for_a_game_open_elsewhere_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = _game(8, "solitaire")
    store.save_game("g", s)
    store.autosave("g", s)
    store.release_all()
    _forge(tmp_path, "g")
    before = s.to_json()
    seat = s.to_act
    assert seat is not None
    with pytest.raises(GameInUse):
        s.act(seat, s.state.legal_actions()[0])
    assert s.to_json() == before
    loaded = store.load_game("g")
    assert loaded is not None and loaded.to_json() == before


# -- finished games --------------------------------------------------------------------------------


def test_a_finished_game_is_never_offered_or_saved_again(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = Session.new("solitaire", seats=["human", "joker"], deal_seed=2)
    s.start_hand()
    store.save_game("g", s)
    stale = Session.from_json(s.to_json())  # another process's copy, a move behind
    rng = random.Random(2)
    while not s.state.is_terminal:
        if s.state.needs_deal:
            s.start_hand()
            continue
        legal = s.state.legal_actions()
        ends = [a for a in legal if a.kind in ("knock", "gin")]
        s.act(0, ends[0] if ends else rng.choice(legal))
    store.finish_game("g", s)
    with pytest.raises(StoreError, match="over and filed in your history"):
        store.save_game("g", stale)  # it used to come back as a saved game
    assert store.saved_games() == [] and store.open_game("g") is None
    assert [g.id for g in store.history()] == ["g"]
    refused = _cli(tmp_path, "--resume", "g")
    assert refused.returncode == 2 and "no saved game 'g'" in refused.stderr


def test_the_owner_cannot_delete_a_game_open_in_another_program(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from ginrummy.web import create_app
    from test_web import BASE, LOCAL

    data = tmp_path / "data"
    Store(data).save_game("20250101-000000-aaaaaa", _game(9))
    _forge(data, "20250101-000000-aaaaaa")
    with TestClient(create_app(data, computer_delay=0, deal_seed=17), client=LOCAL, base_url=BASE) as tc:
        r = tc.delete("/api/saved/20250101-000000-aaaaaa", headers={"host": BASE.split("//")[1]})
    assert r.status_code == 409 and "open in play --plain (process 4242 on elsewhere)" in plain(r.json()["error"])
    assert [g.id for g in Store(data).saved_games()] == ["20250101-000000-aaaaaa"]
