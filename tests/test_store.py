"""The saved-games database: save after every action, resume, history, statistics, bad files."""

from __future__ import annotations

import random
import sqlite3
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
