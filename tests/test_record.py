"""Game records (RECORD.md): write, read, replay, resume, reject; and ``ginrummy replay``."""

from __future__ import annotations

import copy
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pseudo_audit
from ginrummy.actions import Action
from ginrummy.cards import JOKER, full_pack
from ginrummy.cli import main
from ginrummy.engine import RECORD_FORMAT, State
from ginrummy.errors import RecordError
from ginrummy.fair import commitment
from ginrummy.melds import best_discards
from ginrummy.options import VARIANTS
from ginrummy.record import dumps, load, loads, replay, save, summary
from ginrummy.words import result_lines
from pseudo_audit import plain

GAMES_PER_VARIANT = 6


def choose(state: State, rng: random.Random) -> Action:
    """A random legal action, biased so that hands and games end: often gin or a knock when
    legal, usually one of the best discards."""
    legal = state.legal_actions()
    enders = [a for a in legal if a.kind in ("gin", "knock")]
    if enders and rng.random() < 0.6:
        return rng.choice(enders)
    if state.phase == "discard" and rng.random() < 0.9:
        _, best = best_discards(state.hands[state.current_player or 0])
        good = [a for a in legal if a.kind == "discard" and a.card is not None and best >> a.card & 1]
        if good:
            return rng.choice(good)
    return rng.choice(legal)


def random_game(variant: str, rng: random.Random, *, max_hands: int = 8, stop_inside: bool = False) -> State:
    """A random game: hands dealt from seeds (some with their commitment) or from explicit decks,
    random options, random explicit layoffs, until the game ends or ``max_hands``; with
    ``stop_inside`` it stops at a random point inside the last hand."""
    options = {
        "classic": [{}, {"preset": "classic", "next_dealer": "alternate"}, {"big_gin": True, "layoffs": False}],
        "oklahoma": [{}, {"game_target": 60}],
        "hollywood": [{}, {"hollywood_target": 50}],
        "three": [{}, {"end_bonuses": True, "game_target": 50}],
        "solitaire": [{}, {"scoring": "basic"}, {"joker_in_deal": "lose", "game_target": 40}],
        "gin-solitaire": [{}, {"end_after_opening_discard": True, "game_target": 50}],
    }[variant]
    players = None if rng.random() < 0.5 else [f"P{i}" for i in range(3 if variant == "three" else 2)]
    state = State.new(variant, rng.choice(options), players)
    while not state.is_terminal and state.hand_number < max_hands:
        kind = rng.randrange(3)
        if kind == 0:
            seed = rng.getrandbits(128)
            state.deal(seed=seed, commitment=commitment(state.hand_number + 1, seed))
        elif kind == 1:
            state.deal(seed=rng.getrandbits(64))
        else:
            deck = full_pack(joker=variant == "solitaire")
            rng.shuffle(deck)
            if variant == "gin-solitaire":
                deck = [*deck[:11], *rng.sample([*deck[11:], JOKER], 42)]  # the joker joins the other 41
            state.deal(deck)
        if stop_inside and state.hand_number == max_hands and not state.is_hand_over:
            # play the hand on a clone with the same random choices to learn its length, then stop inside it
            saved, probe, length = rng.getstate(), state.clone(), 0
            while not probe.is_hand_over:
                probe.apply(choose(probe, rng))
                length += 1
            stop = rng.randrange(length)
            rng.setstate(saved)
            for _ in range(stop):
                state.apply(choose(state, rng))
            return state
        while not state.is_hand_over:
            state.apply(choose(state, rng))
        if state.hand_result is not None and state.hand_result.result in ("knock", "undercut") and rng.random() < 0.5:
            for card in state.layoff_options()[: rng.randrange(3)]:
                if card in state.layoff_options():
                    state.apply(Action("layoff", card))
    return state


def views(state: State) -> tuple[Any, ...]:
    """Everything replay must reproduce."""
    return (
        state.to_record(),
        summary(state),
        [state.observation(s) for s in range(state.num_seats)],
        [str(a) for a in state.legal_actions()],
        (state.phase, state.current_player, state.is_hand_over, state.is_terminal, state.winner),
        (list(state.totals), state.final_totals(), list(state.hands_won)),
    )


# --------------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_of_a_record_is_the_same_game(variant: str, tmp_path: Path) -> None:
    rng = random.Random(VARIANTS.index(variant))
    for g in range(GAMES_PER_VARIANT):
        state = random_game(variant, rng, stop_inside=g % 2 == 1)
        record = state.to_record()
        assert record["format"] == RECORD_FORMAT and record["variant"] == variant
        again = replay(record)
        assert views(again) == views(state)
        assert views(replay(loads(dumps(record)))) == views(state)  # through JSON text
        path = tmp_path / f"{variant}-{g}.json"
        save(record, path)
        assert load(path) == json.loads(json.dumps(record))
        assert views(replay(load(path))) == views(state)
        assert list(tmp_path.glob(".*")) == []  # the atomic save leaves no temporary file


@pytest.mark.english("checks the English wording of the error")
def test_record_fields() -> None:
    state = State.new("classic", {"gin_bonus": 20, "layoffs": True}, ["Ann", "Bob"])
    state.deal(seed=5, commitment=commitment(1, 5))
    state.apply("pass")
    record = state.to_record()
    assert record == {
        "format": "ginrummy-record/1",
        "variant": "classic",
        "options": {"gin_bonus": 20},  # only the options that differ from the defaults
        "players": ["Ann", "Bob"],
        "hands": [{"seed": 5, "commitment": commitment(1, 5), "actions": ["pass"]}],
    }
    deck = [str(c) for c in state.logs[0].deck]
    explicit = State.new("classic")
    explicit.deal(deck)
    assert explicit.to_record()["hands"] == [{"deck": deck, "actions": []}]
    # a hand may carry its seed and the deck it deals, which must agree
    both = {"variant": "classic", "hands": [{"seed": 5, "deck": deck, "actions": ["pass"]}]}
    assert replay(both).to_record()["hands"][0] == {"seed": 5, "actions": ["pass"]}
    both["hands"][0]["deck"] = deck[::-1]
    with pytest.raises(RecordError, match=r"hands\[0\] \(hand 1\)\.deck: .*seed"):
        replay(both)


def test_record_input_spellings() -> None:
    """RECORD.md: ranks also 10, suits also as symbols, any case; format and options optional."""
    deck = [str(c) for c in State.new("classic").deck_for_seed(8)]
    spelled = [c.replace("T", "10").replace("h", "♥").lower() if i % 2 else c.upper() for i, c in enumerate(deck)]
    a = replay({"variant": "classic", "hands": [{"deck": deck, "actions": ["PASS", "pass", "Draw"]}]})
    b = replay({"variant": "classic", "hands": [{"deck": spelled, "actions": ["pass", "pass", "draw"]}]})
    assert a.to_record() == b.to_record() and b.to_record()["hands"][0]["deck"] == deck
    assert replay({"variant": "solitaire"}).needs_deal  # no hands yet: a game waiting for its first deal


# --------------------------------------------------------------------------------- saved games
def deal_like(state: State, hand: dict[str, Any]) -> None:
    """Deal a record's hand the way the record says."""
    if "seed" in hand:
        state.deal(seed=hand["seed"], commitment=hand.get("commitment"))
    else:
        state.deal(hand["deck"], commitment=hand.get("commitment"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_record_cut_inside_a_hand_resumes_there(variant: str) -> None:
    rng = random.Random(100 + VARIANTS.index(variant))
    full = random_game(variant, rng, max_hands=5)
    record = full.to_record()
    for _ in range(6):
        h = rng.randrange(len(record["hands"]))
        actions = record["hands"][h]["actions"]
        cut_at = rng.randrange(len(actions) + 1)
        cut = copy.deepcopy(record)
        cut["hands"] = cut["hands"][: h + 1]
        cut["hands"][h]["actions"] = actions[:cut_at]
        saved = replay(cut)
        # the same point reached by playing: every earlier hand, then this hand's first actions
        live = State.new(variant, record["options"], record["players"])
        for hand in cut["hands"]:
            deal_like(live, hand)
            for a in hand["actions"]:
                live.apply(a)
        assert views(saved) == views(live) and saved.to_record() == cut
        s = summary(saved)
        if not saved.is_hand_over:
            assert s["complete"] is False and s["hands"][-1]["result"] == "unfinished"
            assert len(s["hands"]) == h + 1
        # resuming the saved game with the rest of the actions gives the whole game back
        for a in actions[cut_at:]:
            saved.apply(a)
        for hand in record["hands"][h + 1 :]:
            deal_like(saved, hand)
            for a in hand["actions"]:
                saved.apply(a)
        assert saved.to_record() == record and views(saved) == views(full)


def test_summary_of_a_saved_game() -> None:
    state = State.new("solitaire")
    state.deal(full_pack(joker=True))  # the joker is the last card
    assert summary(state) == {
        "variant": "solitaire",
        "complete": False,
        "hands": [{"result": "unfinished", "deadwood": [0, 0], "points": [0, 0]}],
        "totals": [0, 0],
        "game_over": False,
        "winner": None,
    }


# --------------------------------------------------------------------------------- invalid records
def base_record() -> dict[str, Any]:
    state = State.new("classic")
    state.deal(seed=1)
    return {
        "format": RECORD_FORMAT,
        "variant": "classic",
        "options": {},
        "players": ["Ann", "Bob"],
        "hands": [{"deck": [str(c) for c in state.logs[0].deck], "actions": ["pass", "pass", "draw"]}],
    }


def edit(path: str, value: Any) -> dict[str, Any]:
    """The base record with the value at ``path`` (dotted, list indexes as numbers) replaced, or
    deleted when ``value`` is ``DELETE``."""
    record = base_record()
    *parents, last = path.split(".")
    node: Any = record
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key: Any = int(last) if isinstance(node, list) else last
    if value is DELETE:
        del node[key]
    else:
        node[key] = value(node[key]) if callable(value) else value
    return record


DELETE = object()
DECK = "hands.0.deck"
ACTIONS = "hands.0.actions"

INVALID = {
    "unknown variant": (edit("variant", "poker"), r"^variant: unknown variant 'poker'"),
    "no variant": (edit("variant", DELETE), r"^variant: missing; expected one of classic"),
    "unknown option": (edit("options", {"jokers": 2}), r"^options: unknown option 'jokers' for classic"),
    "bad option value": (edit("options", {"gin_bonus": "lots"}), r"^options: option gin_bonus .* integer, got 'lots'"),
    "bad option choice": (edit("options", {"next_dealer": "me"}), r"^options: option next_dealer .* got 'me'"),
    "option out of range": (edit("options", {"knock_limit": -3}), r"^options: option knock_limit .* got -3"),
    "options not an object": (edit("options", ["gin_bonus"]), r"^options: must be an object"),
    "wrong format": (edit("format", "pgn/1"), r"^format: unsupported record format 'pgn/1'"),
    "unknown field": (edit("date", "today"), r"^record: unknown field\(s\) date"),
    "players count": (edit("players", ["Ann"]), r"^players: classic has 2 seats, got 1"),
    "players not names": (edit("players", [1, 2]), r"^players: must be a list of names"),
    "hands not a list": (edit("hands", {"deck": []}), r"^hands: must be a list"),
    "hand not an object": (edit("hands.0", "pass"), r"^hands\[0\] \(hand 1\): a hand is an object"),
    "hand field": (edit("hands.0.notes", "x"), r"^hands\[0\] \(hand 1\): unknown field\(s\) notes"),
    "no deck or seed": (edit(DECK, DELETE), r"^hands\[0\] \(hand 1\): give a deck or a seed"),
    "not a card": (edit(f"{DECK}.7", "Zz"), r"^hands\[0\] \(hand 1\)\.deck: not a card: 'Zz'"),
    "card not a string": (edit(f"{DECK}.7", 7), r"^hands\[0\] \(hand 1\)\.deck: deck must be a list of card strings"),
    "short deck": (edit(DECK, lambda d: d[:-1]), r"^hands\[0\] \(hand 1\)\.deck: a classic deck has 52 cards, got 51"),
    "card twice": (edit(DECK, lambda d: [*d[:-1], d[0]]), r"^hands\[0\] \(hand 1\)\.deck: the deck holds \w\w twice"),
    "joker in classic": (edit(DECK, lambda d: [*d, "JK"]), r"^hands\[0\] \(hand 1\)\.deck: .*not allowed JK"),
    "deck not a list": (edit(DECK, "As Ks"), r"^hands\[0\] \(hand 1\)\.deck: deck must be a list"),
    "bad seed": (edit("hands.0", {"seed": -4, "actions": []}), r"^hands\[0\] \(hand 1\)\.seed: .*got -4"),
    "seed not a number": (edit("hands.0", {"seed": "7"}), r"^hands\[0\] \(hand 1\)\.seed: .*got '7'"),
    "commitment": (edit("hands.0.commitment", 12), r"^hands\[0\] \(hand 1\)\.commitment: must be a string"),
    "actions not a list": (edit(ACTIONS, "pass"), r"^hands\[0\] \(hand 1\)\.actions: must be a list"),
    "illegal action": (
        edit(ACTIONS, ["pass", "pass", "take"]),
        r"^hands\[0\] \(hand 1\)\.actions\[2\] \(action 3, 'take'\): take is not legal; legal: draw$",
    ),
    "unknown action": (
        edit(f"{ACTIONS}.1", "fold"),
        r"^hands\[0\] \(hand 1\)\.actions\[1\] \(action 2, 'fold'\): not an action",
    ),
    "action not a string": (
        edit(f"{ACTIONS}.0", 3),
        r"^hands\[0\] \(hand 1\)\.actions\[0\] \(action 1, 3\): not an action",
    ),
    "action card": (
        edit(ACTIONS, ["pass", "pass", "draw", "discard Qx"]),
        r"^hands\[0\] \(hand 1\)\.actions\[3\] \(action 4, 'discard Qx'\): not a card: 'Qx'",
    ),
    "card not held": (
        edit(ACTIONS, ["pass", "pass", "draw", "discard Kh"]),
        r"^hands\[0\] \(hand 1\)\.actions\[3\] \(action 4, 'discard Kh'\): discard Kh is not legal "
        r"\(Kh is not in the hand\)",
    ),
    "bad meld": (
        edit(ACTIONS, ["pass", "pass", "draw", "knock 5d | 3c4c"]),
        r"^hands\[0\] \(hand 1\)\.actions\[3\] \(action 4, 'knock 5d \| 3c4c'\): ",
    ),
    "hand after an unfinished one": (
        edit("hands", lambda h: [*h, {"seed": 3, "actions": []}]),
        r"^hands\[1\] \(hand 2\): the previous hand is not finished",
    ),
}


@pytest.mark.english("checks the English wording of the error")
@pytest.mark.parametrize("case", list(INVALID))
def test_invalid_records_name_field_hand_and_action(case: str) -> None:
    record, message = INVALID[case]
    with pytest.raises(RecordError, match=message) as info:
        replay(record)
    assert "\n" not in str(info.value)


def test_the_base_record_is_valid() -> None:
    state = replay(base_record())
    assert state.phase == "discard" and state.current_player == 1


@pytest.mark.english("checks the English wording of the error")
def test_a_hand_after_the_game_is_over() -> None:
    state = State.new("solitaire", {"scoring": "none"})
    deck = ["JK" if c == 52 else str(c) for c in full_pack(joker=True)]
    deck = [*deck[:10], "JK", *deck[10:52]]  # the joker comes first: the one-hand game is lost
    state.deal(deck)
    assert state.is_terminal
    record = state.to_record()
    record["hands"].append({"seed": 1, "actions": []})
    with pytest.raises(RecordError, match=r"^hands\[1\] \(hand 2\): the game was already over"):
        replay(record)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", r"^record: not JSON \(Expecting property name .* line 1 column 2\)"),
        ('{"variant": "classic",}', r"^record: not JSON"),
        ("[1, 2]", r"^record: a record is a JSON object"),
        ("", r"^record: not JSON \(Expecting value at line 1 column 1\)"),
    ],
)
@pytest.mark.english("checks the English wording of the error")
def test_malformed_json(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=message):
        loads(text)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        load(path)
    path.write_bytes(b"\xff\xfe{")
    with pytest.raises(RecordError, match="not UTF-8"):
        load(path)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["", "As", "JK", "draw", "knock 7h", "x"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["deck", "seed", "a"]), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += paths(v, (*prefix, i))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_records_raise_record_error_only(data: st.DataObject) -> None:
    """Any damage to a valid record gives a RecordError (or a valid record), never another exception."""
    record = base_record()
    for _ in range(data.draw(st.integers(1, 3))):
        spots = paths(record)
        where = data.draw(st.sampled_from(spots[1:]))
        node: Any = record
        for key in where[:-1]:
            node = node[key]
        if data.draw(st.booleans()) and isinstance(node, dict):
            del node[where[-1]]
        else:
            node[where[-1]] = data.draw(JSONISH)
    try:
        replay(record)
    except RecordError as exc:
        assert str(exc) and "\n" not in str(exc)


# --------------------------------------------------------------------------------- the command
def write(tmp_path: Path, record: dict[str, Any]) -> str:
    path = tmp_path / "game.json"
    save(record, path)
    return str(path)


def finished_game() -> State:
    return random_game("classic", random.Random(5), max_hands=40)


def test_cli_replay_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = finished_game()
    assert state.is_terminal
    assert main(["replay", write(tmp_path, state.to_record())]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith(
        f"Classic gin: {state.players[0]} v {state.players[1]}; {len(state.results)} hands, complete"
    )
    for i, r in enumerate(state.results, 1):
        row = next(line for line in lines if line.split()[:2] == [str(i), r.result])
        numbers = [int(x) for x in row.split()[2:]]
        assert numbers == [*r.deadwood, *r.points]
        for text in r.explanation:  # the engine's line, as the command's language words it (English: as written)
            said = plain(result_lines([text], state.players, ["human"])[0])
            assert any(line.strip() == said for line in lines)
            if not pseudo_audit.active():
                assert said == text
    totals = next(line for line in lines if line.split()[:1] == ["totals"])
    assert [int(x) for x in totals.split()[1:]] == state.totals
    final = next(line for line in lines if line.split()[:1] == ["final"])
    assert [int(x) for x in final.split()[1:]] == state.final_totals()
    assert "+ bonuses" not in out  # the row is the final totals, not the bonuses (issue 12 item 5)
    assert "final: the totals with the end-of-game bonuses" in out
    assert lines[-1] == f"game over: {state.players[state.winner]} wins"


def test_cli_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for variant in VARIANTS:
        state = random_game(variant, random.Random(9), max_hands=3, stop_inside=variant == "three")
        assert main(["replay", write(tmp_path, state.to_record()), "--json"]) == 0
        out, err = capsys.readouterr()
        assert err == "" and out.count("\n") == 1
        got = json.loads(out)
        assert got == summary(state)
        assert set(got) >= {"variant", "complete", "hands", "totals", "game_over", "winner"}
        for h in got["hands"]:
            assert set(h) - {"counted"} == {"result", "deadwood", "points"}
            assert h["result"] in ("gin", "big-gin", "knock", "undercut", "joker", "draw", "redeal", "unfinished")
        if variant == "hollywood":
            assert "hollywood" in got
    # a saved game: text mode says so
    state = random_game("three", random.Random(9), max_hands=3, stop_inside=True)
    assert not state.is_hand_over
    assert main(["replay", write(tmp_path, state.to_record())]) == 0
    out, _ = capsys.readouterr()
    assert "stopped inside a hand (a saved game)" in out.splitlines()[0] and "unfinished" in out


def test_cli_replay_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    state = random_game("solitaire", random.Random(2), max_hands=4)
    monkeypatch.setattr(sys, "stdin", io.StringIO(dumps(state.to_record())))
    assert main(["replay", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summary(state)
    monkeypatch.setattr(sys, "stdin", io.StringIO("{not json"))
    assert main(["replay", "-"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("ginrummy replay: stdin: record: not JSON")


@pytest.mark.english("checks the English wording of the error")
@pytest.mark.parametrize("case", ["illegal action", "unknown option", "short deck", "no variant", "bad seed"])
def test_cli_replay_invalid(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, message = INVALID[case]
    path = write(tmp_path, record)
    for extra in ([], ["--json"]):
        assert main(["replay", path, *extra]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1
        prefix = f"ginrummy replay: {path}: "
        assert err.startswith(prefix)
        with pytest.raises(RecordError, match=message) as info:
            replay(record)
        assert err[len(prefix) :] == f"{info.value}\n"


def test_cli_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cannot read" in err


def test_cli_replay_entry_point(tmp_path: Path) -> None:
    """The installed command, as a user runs it: exit status and one line on stderr."""
    good = write(tmp_path, finished_game().to_record())
    ok = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "replay", good, "--json"], capture_output=True, text=True, check=False
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["game_over"] is True and ok.stderr == ""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(INVALID["illegal action"][0]), encoding="utf-8")
    no = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "replay", str(bad)], capture_output=True, text=True, check=False
    )
    assert no.returncode == 1 and no.stdout == ""
    assert (
        no.stderr
        == f"ginrummy replay: {bad}: hands[0] (hand 1).actions[2] (action 3, 'take'): take is not legal; legal: draw\n"
    )
