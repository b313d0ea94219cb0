"""Records to arrays: ``simulate --records`` writes every game, ``ginrummy.datasets`` replays them
into (observation, legal mask, action, outcome) rows that agree with the engine and the
environments' encoding."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from ginrummy.datasets import decisions, load_records  # noqa: E402
from ginrummy.engine import State  # noqa: E402
from ginrummy.envs.encoding import OBS_SIZE, encode_state, plane_slice  # noqa: E402
from ginrummy.errors import RecordError  # noqa: E402
from ginrummy.record import replay  # noqa: E402
from ginrummy.sim import SimJob, simulate  # noqa: E402


def _records(variant: str, agents: tuple[str, ...], hands: int, **kw: object) -> list[dict[str, object]]:
    result = simulate(SimJob(variant, agents, hands, seed=3, records=True, **kw), workers=1)  # type: ignore[arg-type]
    return [o.record for o in result.outcomes if o.record is not None]


def test_simulate_writes_every_game_as_a_record(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    code = "import sys; from ginrummy.cli import main; sys.exit(main(sys.argv[1:]))"
    args = ["simulate", "--variant", "three", "--agents", "greedy,random,greedy", "--hands", "2", "--workers", "1"]
    proc = subprocess.run(
        [sys.executable, "-c", code, *args, "--no-progress", "--records", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 6  # two deals, each in three rotations
    for line in lines:
        rec = json.loads(line)
        assert rec["format"] == "ginrummy-record/1" and rec["variant"] == "three"
        assert sorted(rec["players"]) == ["greedy", "greedy", "random"]
        assert replay(rec).is_hand_over
    assert load_records(out) == [json.loads(x) for x in lines]


def test_a_failed_records_file_is_one_line_and_nothing_written(tmp_path: Path) -> None:
    code = "import sys; from ginrummy.cli import main; sys.exit(main(sys.argv[1:]))"
    bad = tmp_path / "missing" / "x.jsonl"
    proc = subprocess.run(
        [sys.executable, "-c", code, "simulate", "--hands", "1", "--no-progress", "--records", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "cannot write the records" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-c", code, "simulate", "--variant", "solitaire", "--exact", "--records", str(tmp_path / "y")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "exact" in proc.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("variant", ["classic", "three", "solitaire", "gin-solitaire"])
def test_rows_are_the_decisions_as_the_engine_saw_them(variant: str) -> None:
    agents = (
        ("greedy", "random", "greedy")
        if variant == "three"
        else ("greedy",)
        if "solitaire" in variant
        else ("greedy", "random")
    )
    records = _records(variant, agents, 2)
    data = decisions(records)
    result_decisions = sum(
        len([a for a in h["actions"] if not a.startswith("layoff")]) for r in records for h in r["hands"]
    )  # type: ignore[index, union-attr]
    assert len(data) == result_decisions > 0
    assert data.observations.shape == (len(data), OBS_SIZE) and data.masks.shape == (len(data), 213)
    assert (data.masks[np.arange(len(data)), data.actions] == 1).all()  # every action was legal
    # Row by row, the observation is the environments' encoding of the deciding seat.
    row = 0
    for g, rec in enumerate(records):
        st = State.new(rec["variant"], rec["options"], rec["players"])  # type: ignore[arg-type]
        for hand in rec["hands"]:  # type: ignore[attr-defined]
            st.deal(seed=hand["seed"])
            for text in hand["actions"]:
                seat = st.current_player
                assert data.games[row] == g and data.seats[row] == seat
                assert np.array_equal(data.observations[row], encode_state(st, seat)["observation"])
                st.apply(text)
                row += 1
    # Outcomes: the hand's result for the deciding seat.
    for g, rec in enumerate(records):
        res = replay(rec).results[-1]
        rows = np.flatnonzero(data.games == g)
        for r in rows:
            s = int(data.seats[r])
            if variant in ("solitaire", "gin-solitaire"):
                assert data.outcomes[r] == res.points[0] - res.points[1]
            else:
                others = [p for i, p in enumerate(res.points) if i != s]
                assert data.outcomes[r] == pytest.approx(res.points[s] - sum(others) / len(others))


def test_filter_by_player_and_hidden_cards_stay_hidden() -> None:
    records = _records("classic", ("greedy", "random"), 3)
    mine = decisions(records, players=["greedy"])
    assert set(mine.players) == {"greedy"} and 0 < len(mine) < len(decisions(records))
    # The hand plane holds the seat's own cards only: 10 or 11 of them, never the other hand's.
    held = mine.observations[:, plane_slice("hand")].sum(axis=1)
    assert set(held.tolist()) <= {10.0, 11.0}
    sub = mine.subset(mine.seats == 0)
    assert (sub.seats == 0).all() and len(sub.players) == len(sub)


def test_game_outcomes_and_load_records_forms(tmp_path: Path) -> None:
    records = _records("solitaire", ("greedy",), 4, games=True, options={"game_target": 40})
    data = decisions(records, outcome="game")
    assert len(data)
    for g, rec in enumerate(records):
        final = replay(rec)
        margin = final.final_totals()[0] - final.final_totals()[1]
        assert (data.outcomes[data.games == g] == margin).all()
        assert set(data.hands[data.games == g].tolist()) <= set(range(1, final.hand_number + 1))
    one = tmp_path / "one.json"
    one.write_text(json.dumps(records[0], indent=1))
    assert load_records(one) == records[:1]
    bad = dict(records[0])
    bad["hands"] = [{"seed": 1, "actions": ["take"]}]
    with pytest.raises(RecordError, match=r"record 1: .*hands\[0\]"):
        decisions([records[0], bad])
    (tmp_path / "broken.jsonl").write_text('{"variant": "classic"}\nnot json\n')
    with pytest.raises(RecordError, match="line 2"):
        load_records(tmp_path / "broken.jsonl")


def test_the_imitation_example_runs() -> None:
    """examples/imitation.py, shortened: expert games -> arrays -> a trained policy -> its
    agreement and its play against greedy and the expert."""
    script = Path(__file__).resolve().parent.parent / "examples" / "imitation.py"
    args = ["--deals", "6", "--eval-deals", "2", "--epochs", "2", "--hidden", "16", "--workers", "1"]
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "agreement with the expert, all:" in proc.stdout
    assert "policy v. greedy over 2 mirrored deals" in proc.stdout and "policy v. expert" in proc.stdout
