"""The command line: one clear line, never a traceback (issue 12, item 5).

``replay`` and ``verify`` read records the same way (decks in any spelling, what ``export``
writes), bound what they read, escape what they print; ``verify`` says what it checked and fails
when the play does not replay; ``simulate`` refuses bad agents and caps its workers; and the
top-level guard of ``ginrummy.cli`` turns any error into one line.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy import cli, record
from ginrummy.cli import main
from ginrummy.commands import simulate as simulate_command
from ginrummy.engine import State
from ginrummy.errors import GinRummyError, RecordError
from ginrummy.fair import commitment, verify_record
from ginrummy.record import replay
from pseudo_audit import plain

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}


def played(variant: str = "classic", hands: int = 2, seed: int = 4, **options: Any) -> State:
    rng = random.Random(seed)
    state = State.new(variant, options, ["Ann", "Joker"] if variant in ("solitaire", "gin-solitaire") else None)
    while not state.is_terminal and state.hand_number < hands:
        s = rng.getrandbits(64)
        state.deal(seed=s, commitment=commitment(state.hand_number + 1, s))
        while not state.is_hand_over:
            legal = state.legal_actions()
            enders = [a for a in legal if a.kind in ("gin", "knock")]
            state.apply(enders[0] if enders else rng.choice(legal))
    return state


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err


def write(tmp_path: Path, data: Any, name: str = "r.json") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------- what crashed
BASE = {"variant": "classic", "players": ["Ann", "Bob"], "hands": [{"seed": 1, "actions": ["pass"]}]}


def variant_of(**changes: Any) -> str:
    return json.dumps({**BASE, **changes})


CRASHERS = {
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "deep nesting in a field": (
        variant_of().replace('"pass"', "[" * 50_000 + "]" * 50_000),
        "nested too deeply",
    ),
    "an integer over 4,300 digits": (variant_of().replace('"seed": 1', '"seed": 1' + "0" * 5000), "digits"),
    "option value --5": (variant_of(options={"knock_limit": "--5"}), "options: "),
    "option value ²": (variant_of(options={"knock_limit": "²"}), "options: "),
    "preset a list": (variant_of(options={"preset": []}), "options.preset: must be a string"),
    "options a list": (variant_of(options=["gin_bonus"]), "options: must be an object"),
    "options a string": (variant_of(options="big_gin"), "options: must be an object"),
    "a hand not an object": (variant_of(hands=[7]), r"hands[0] (hand 1): a hand is an object"),
    "a numeric deck": (variant_of(hands=[{"deck": 52}]), "hands[0] (hand 1).deck: deck must be a list"),
    "a deck of numbers": (variant_of(hands=[{"deck": list(range(52))}]), "deck must be a list of card strings"),
    "a lone surrogate in a name": (variant_of().replace('"Ann"', '"\\ud800"'), "players[0]: not valid Unicode"),
    "a lone surrogate in a commitment": (
        variant_of(hands=[{"seed": 1, "commitment": "\\udc00"}]).replace("\\\\udc00", "\\udc00"),
        "hands[0].commitment: not valid Unicode",
    ),
    "NaN": (variant_of(options={"gin_bonus": float("nan")}), "NaN is not a JSON value"),
    "1e400": (variant_of().replace('"seed": 1', '"seed": 1e400'), "out of range"),
}


@pytest.mark.parametrize("case", list(CRASHERS))
@pytest.mark.parametrize("command", ["replay", "verify"])
def test_records_that_crashed_give_one_line(
    case: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, message = CRASHERS[case]
    code, out, err = run([command, write(tmp_path, text)], capsys)
    assert code == 1 and out == "" and one_error_line(err), err[:300]
    assert err.startswith(f"ginrummy {command}: ") and message in err


def test_the_library_raises_record_error_naming_the_field() -> None:
    for case in ("option value ²", "preset a list", "a hand not an object", "a numeric deck"):
        with pytest.raises(RecordError) as info:
            replay(json.loads(CRASHERS[case][0]))
        assert re.match(r"^(options|hands)", plain(str(info.value))), info.value
        assert "\n" not in str(info.value)


def test_python_dash_m_ginrummy_is_the_command_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "ginrummy", "--version"], capture_output=True, env=ENV, timeout=60)
    assert proc.returncode == 0 and proc.stdout.decode().startswith("ginrummy "), proc.stderr


@pytest.mark.parametrize("command", ["replay", "verify"])
def test_invalid_utf8_on_stdin_under_a_utf8_locale(command: str) -> None:
    data = json.dumps(BASE).replace("Ann", "A\udcffnn", 1).encode("utf-8", "surrogateescape")
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", command, "-"], input=data, capture_output=True, env=ENV, timeout=60
    )
    err = proc.stderr.decode()
    assert proc.returncode == 1 and one_error_line(err), err
    assert f"ginrummy {command}: stdin: record: not UTF-8 text (byte" in err


def test_replay_bounds_what_it_reads(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(record, "MAX_BYTES", 4096)
    code, out, err = run(["replay", "/dev/zero"], capsys)
    assert code == 1 and out == "" and one_error_line(err)
    assert "ginrummy replay: /dev/zero: record: /dev/zero is larger than 4096 bytes" in err
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b" " * 5000)))
    code, out, err = run(["verify", "-"], capsys)
    assert code == 1 and "standard input is larger than 4096 bytes" in err


def test_the_default_bound_is_documented() -> None:
    assert record.MAX_BYTES == 64 * 1024 * 1024
    assert "64 MiB" in Path(__file__).parents[1].joinpath("docs", "record.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- decks: one reader
def respell(deck: list[str], how: str) -> list[str]:
    suits = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    if how == "lower":
        return [c.lower() for c in deck]
    if how == "spaced":
        return [f" {c} " for c in deck]
    if how == "ten":
        return [c.replace("T", "10") for c in deck]
    return [c[:-1] + suits[c[-1]] for c in deck]


@pytest.mark.parametrize("how", ["lower", "spaced", "ten", "symbols"])
def test_verify_and_replay_read_decks_the_same_way(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = played()
    rec = state.to_record()
    for hand, log in zip(rec["hands"], state.logs, strict=True):
        hand["deck"] = respell([str(c) for c in log.deck], how)
    path = write(tmp_path, rec)
    assert run(["replay", path], capsys)[0] == 0
    code, out, _ = run(["verify", path], capsys)
    assert code == 0 and "all 2 hands verify" in out
    # one card changed: both refuse it (replay: the deck is not the seed's; verify: names the card)
    rec["hands"][0]["deck"][5], rec["hands"][0]["deck"][6] = rec["hands"][0]["deck"][6], rec["hands"][0]["deck"][5]
    path = write(tmp_path, rec)
    code, _, err = run(["replay", path], capsys)
    assert code == 1 and "hands[0] (hand 1).deck: the deck is not the one its seed deals" in err
    code, out, _ = run(["verify", path], capsys)
    assert code == 1 and "hand 1: FAILED" in out and "differs from its shuffle at card 6" in out


def test_a_hand_with_seed_and_deck_compares_cards_not_spellings() -> None:
    state = played("solitaire", hands=1)
    rec = state.to_record()
    rec["hands"][0]["deck"] = respell([str(c) for c in state.logs[0].deck if c != 52], "symbols")
    rec["hands"][0]["deck"].insert([int(c) for c in state.logs[0].deck].index(52), "joker")
    assert replay(rec).to_record() == state.to_record()
    assert all(c.ok for c in verify_record(rec))


# ---------------------------------------------------------------------------- verify's verdicts
def test_verify_says_what_it_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["verify", write(tmp_path, played().to_record())], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("hand 1: ok - the seed matches the commitment; its ")
    assert "actions replay" in lines[0]
    assert lines[-1] == (
        "all 2 hands verify: each seed matches its commitment, deals the deck played, and the play replays"
    )
    code, out, _ = run(["verify", write(tmp_path, played().to_record()), "--json"], capsys)
    got = json.loads(out)
    assert got["ok"] and got["checked"] and all(h["fair"] and h["replays"] for h in got["hands"])


def test_verify_fails_when_the_play_does_not_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = played(hands=3).to_record()
    rec["hands"][1]["actions"][2] = "discard Kh" if rec["hands"][1]["actions"][2] != "discard Kh" else "discard Ks"
    code, out, err = run(["verify", write(tmp_path, rec)], capsys)
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("hand 1: ok")
    assert lines[1].startswith("hand 2: FAILED - the seed matches the commitment; the play does not replay: hands[1]")
    assert lines[2].startswith("hand 3: FAILED") and "not replayed (hand 2 does not replay)" in lines[2]
    assert lines[-1] == "2 of 3 hands do not verify: hands 2, 3"
    assert "hand 0" not in out and "hands 0" not in out


# ---------------------------------------------------------------------------- what export writes
@pytest.mark.parametrize("form", ["list", "jsonl"])
def test_replay_and_verify_read_what_export_writes(
    form: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [played("classic", seed=1).to_record(), played("solitaire", seed=2).to_record()]
    text = json.dumps(records, indent=1) if form == "list" else "".join(json.dumps(r) + "\n" for r in records)
    path = write(tmp_path, text, "export.jsonl" if form == "jsonl" else "export.json")
    code, out, _ = run(["replay", path, "--json"], capsys)
    assert code == 0 and [s["variant"] for s in json.loads(out)] == ["classic", "solitaire"]
    code, out, _ = run(["replay", path], capsys)
    assert code == 0 and out.startswith("record 1 of 2\nClassic gin: ") and "\nrecord 2 of 2\nSolitaire gin: " in out
    code, out, _ = run(["verify", path], capsys)
    assert code == 0 and "record 2: all 2 hands verify" in out
    broken = [records[0], {**records[1], "variant": "poker"}]
    code, _, err = run(["replay", write(tmp_path, broken)], capsys)
    assert code == 1 and one_error_line(err) and "records[1] (record 2): variant: unknown variant 'poker'" in err


def test_the_store_export_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.session import Session
    from ginrummy.store import Store

    store = Store(tmp_path / "data")
    session = Session.new("solitaire", seats=["human", "joker"], deal_seed=3)
    rng = random.Random(3)
    while not session.state.is_terminal:
        session.start_hand()
        while not session.state.is_hand_over:
            session.state.apply(rng.choice(session.state.legal_actions()))
    store.finish_game("g1", session)
    store.close()
    code, out, _ = run(["--data-dir", str(tmp_path / "data"), "export"], capsys)
    assert code == 0
    path = write(tmp_path, out, "all.json")
    assert run(["replay", path], capsys)[0] == 0
    assert run(["verify", path], capsys)[0] == 0


# ---------------------------------------------------------------------------- what replay prints
def test_control_characters_in_names_are_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = played().to_record()
    rec["players"] = ["\x1b[2J\x1b[31mAnn", "Bob\u202e\x07"]
    code, out, _ = run(["replay", write(tmp_path, rec)], capsys)
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "\\x1b[2J\\x1b[31mAnn" in out.splitlines()[0]
    rec["hands"][0]["actions"][0] = "discard \x1b[2J"
    code, _, err = run(["replay", write(tmp_path, rec)], capsys)
    assert code == 1 and "\x1b" not in err and one_error_line(err)


def test_final_totals_are_not_labelled_bonuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = played("classic", hands=60, seed=2, game_target=40)
    assert state.is_terminal
    code, out, _ = run(["replay", write(tmp_path, state.to_record())], capsys)
    assert code == 0 and "+ bonuses" not in out
    final = next(line for line in out.splitlines() if line.split()[:1] == ["final"])
    assert [int(x) for x in final.split()[1:]] == state.final_totals()


# ---------------------------------------------------------------------------- the solitaire opening
def test_the_solitaire_opening_writes_no_draw() -> None:
    state = State.new("solitaire", {"end_before_first_draw": True})
    state.deal(seed=11)
    assert state.phase == "opening"
    state.apply("draw")
    discard = next(a for a in state.legal_actions() if a.kind == "discard")
    state.apply(discard)
    rec = state.to_record()
    assert rec["hands"][0]["actions"] == [str(discard)]  # RECORD.md: the draw is automatic, not written
    again = replay(rec)
    assert again.to_record() == rec and again.hands == state.hands and again.phase == state.phase
    old = {**rec, "hands": [{**rec["hands"][0], "actions": ["draw", str(discard)]}]}  # older records
    assert replay(old).to_record() == rec
    state.undo()
    # a saved game that stops right after the draw keeps it, so that it resumes after the draw
    assert state.phase == "discard" and state.to_record()["hands"][0]["actions"] == ["draw"]
    assert replay(state.to_record()).hands == state.hands
    state.undo()
    assert state.phase == "opening" and state.to_record()["hands"][0]["actions"] == []


# ---------------------------------------------------------------------------- simulate and play
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "greedy:foo=1,greedy"], "agent 'greedy' has no option 'foo'"),
        (["--agents", "greedy:seed=2,greedy"], "seeds come from --seed"),
        (["--variant", "solitaire", "--agents", "planner:rollouts=abc"], "agent 'planner': an option value"),
        (["--options", "knock_limit=²"], "option knock_limit of classic must be an integer, got '²'"),
        (["--options", "knock_limit=--5"], "option knock_limit"),
        (["--options", "preset=--5"], "preset"),
        (["--variant", "poker"], "unknown variant 'poker'"),
    ],
)
def test_simulate_refuses_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "--hands", "2", "--no-progress", *argv], capsys)
    assert code == 2 and out == "" and one_error_line(err) and message in err, err


def test_simulate_caps_its_workers(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert simulate_command.worker_count(100_000, 2) == 2
    assert simulate_command.worker_count(100_000, 1000) == 4
    assert simulate_command.worker_count(None, 3) == 3
    assert simulate_command.worker_count(2, 1000) == 2
    assert simulate_command.worker_count(100_000, 50, "ray") == 50
    started: list[int] = []

    def fake_simulate(job: Any, *, workers: int, **kwargs: Any) -> Any:
        started.append(workers)
        raise KeyboardInterrupt

    monkeypatch.setattr("ginrummy.sim.simulate", fake_simulate)
    code, _, err = run(["simulate", "--workers", "100000", "--hands", "2", "--no-progress"], capsys)
    assert started == [2] and code == 130 and err == ""


def test_play_option_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for option in ("knock_limit=²", "knock_limit=--5", "preset=--5", "jokers=2", "nonsense"):
        argv = ["--data-dir", str(tmp_path), "play", "--plain", "--new", "--option", option]
        code, _, err = run(argv, capsys)
        assert code == 2 and one_error_line(err), (option, err)


# ---------------------------------------------------------------------------- the top-level guard
def test_the_guard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ginrummy.commands import replay as replay_command

    def raising(exc: BaseException) -> Any:
        def run_(args: Any) -> int:
            raise exc

        return run_

    monkeypatch.setattr(replay_command, "run", raising(GinRummyError("no such thing\nsecond line")))
    assert run(["replay", "x"], capsys) == (2, "", "ginrummy replay: no such thing second line\n")
    monkeypatch.setattr(replay_command, "run", raising(KeyboardInterrupt()))
    assert run(["replay", "x"], capsys) == (130, "", "")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(cli, "_log_dirs", lambda: [tmp_path / "logs"])
    monkeypatch.setattr(replay_command, "run", raising(ZeroDivisionError("boom")))
    code, out, err = run(["replay", "x"], capsys)
    assert code == cli.EXIT_BUG == 70 and out == "" and one_error_line(err)
    assert err.startswith("ginrummy replay: internal error (ZeroDivisionError), a bug in ginrummy")
    logs = list((tmp_path / "logs").glob("ginrummy-crash-*.log"))
    assert len(logs) == 1 and str(logs[0]) in err
    text = logs[0].read_text(encoding="utf-8")
    assert "Traceback" in text and "ZeroDivisionError: boom" in text


def test_the_guard_in_a_real_process(tmp_path: Path) -> None:
    """A usage error stays argparse's (status 2); an interrupted command prints no traceback."""
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "simulate", "--workers", "x"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("lang", "title"), [("ko", "클래식 진"), ("lv", "Klasiskais džins")])
def test_replay_heads_its_table_with_the_variants_title(
    lang: str, title: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``replay`` names the variant by its title in the language (the record and ``--json`` keep
    the name ``--variant`` takes)."""
    path = write(tmp_path, played("classic", seed=1).to_record())
    code, out, _ = run(["--data-dir", str(tmp_path / "data"), "--lang", lang, "replay", path], capsys)
    assert code == 0 and out.startswith(f"{title}: ") and "classic" not in out, out.splitlines()[0]
    code, out, _ = run(["--data-dir", str(tmp_path / "data"), "--lang", lang, "replay", path, "--json"], capsys)
    assert code == 0 and json.loads(out)["variant"] == "classic"


def test_an_ascii_terminal_gets_escapes_not_a_crash(tmp_path: Path) -> None:
    rec = played().to_record()
    rec["players"] = ["Zoë", "Bob"]
    proc = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "replay", write(tmp_path, rec)],
        capture_output=True,
        env={**ENV, "PYTHONIOENCODING": "ascii"},
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout.decode("ascii").startswith("Classic gin: Zo\\xeb v Bob;")


def test_an_empty_export_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("replay", "verify"):
        code, out, err = run([command, write(tmp_path, "[]\n")], capsys)
        assert code == 1 and out == "" and one_error_line(err) and "an empty list, no records" in err
