"""Plain mode (``ginrummy play --plain``), and the ``stats`` and ``export`` commands."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy.cli import main
from ginrummy.plain import PlainGame, make_session, public_record, score_lines
from ginrummy.session import Session
from ginrummy.store import Store
from pseudo_audit import plain, shown

sys.path.insert(0, str(Path(__file__).parent))
from test_tui import choose  # the same quick policy


@pytest.fixture(autouse=True)
def quick_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real post-game analysis, with few planner rollouts so that tests stay quick."""
    import ginrummy.plain as plain

    original = plain.solitaire_analysis
    monkeypatch.setattr(plain, "solitaire_analysis", lambda session, rollouts=None: original(session, rollouts=4))


class Script(io.StringIO):
    """Stdin for a PlainGame: the given lines first, then a player choosing moves itself."""

    def __init__(
        self, session: Session, lines: list[str] | None = None, *, moves: int = 10_000, deal: bool = True
    ) -> None:
        super().__init__()
        self.session = session
        self.lines = list(lines or [])
        self.moves = moves
        self.deal = deal

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.lines:
            return self.lines.pop(0) + "\n"
        s = self.session
        if s.state.is_terminal or self.moves <= 0:
            return "quit\n"
        if s.state.needs_deal:
            return "deal\n" if self.deal else "quit\n"
        seat = s.human_to_act()
        if seat is None:
            return "quit\n"
        self.moves -= 1
        obs = s.observation(seat)
        pile = obs.get("discard_pile") or []
        return choose(obs["hand"], obs["legal_actions"], pile[-1] if pile else None) + "\n"


def run_plain(session: Session, store: Store | None, lines: list[str], **kw: Any) -> tuple[str, PlainGame]:
    out = io.StringIO()
    game = PlainGame(session, store, "g1", inp=Script(session, lines, **kw), out=out)
    assert game.run() == 0
    return shown("plain mode", out.getvalue()), game


def test_bad_inputs_get_one_line_errors_and_change_nothing(tmp_path: Path) -> None:
    s = make_session("classic", seats=["human", "human"], deal_seed=4)
    bad = ["discard Zz", "discard", "frobnicate", "draw 7h", "discard 7h 8h", "knock Kd", "draw", "deal"]
    # seat 1 (non-dealer) is to act first at the upcard: every one of these is wrong now
    text, _ = run_plain(s, Store(tmp_path), [*bad, "quit"], moves=0)
    errors = [line for line in text.splitlines() if "error:" in line]
    assert len(errors) == len(bad), text
    assert all(line.startswith("> error: ") or line.startswith("error: ") for line in errors)
    assert "not a card: 'Zz'" in errors[0]
    assert "discard needs a card" in errors[1]
    assert "unknown command 'frobnicate'" in errors[2]
    assert "draw takes no card" in errors[3]
    assert "takes one card, got 2" in errors[4]
    assert "not legal" in errors[5] and "legal: take, pass" in errors[5]
    assert "draw is not legal" in errors[6]
    assert "not over" in errors[7]
    assert s.state.logs[-1].actions == []  # nothing changed


def test_commands_hand_score_record_help(tmp_path: Path) -> None:
    s = make_session("solitaire", deal_seed=3)
    text, _ = run_plain(s, Store(tmp_path), ["hand", "score", "help", "record", "quit"])
    assert "Fairness commitment for this deal:" in text
    assert "Your hand:" in text and "Deadwood:" in text
    assert "chance the joker is next" in text
    assert "Score after hand 1" in text
    assert "discard 7h" in text  # the help
    record_line = next(line for line in text.splitlines() if '"format"' in line)
    record = json.loads(record_line.removeprefix("> "))
    assert "seed" not in record["hands"][-1] and "commitment" in record["hands"][-1]  # no peeking at the deck
    assert record == public_record(s)


def test_a_whole_game_is_saved_resumed_and_filed(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = make_session("gin-solitaire", options={"game_target": 20}, deal_seed=2)
    store.save_game("g1", s)
    text, _ = run_plain(s, store, [], moves=4)  # four moves, then quit
    assert "Saved." in text
    resumed = store.load_game("g1")
    assert resumed is not None and resumed.to_json() == s.to_json()
    text, _ = run_plain(resumed, store, [])  # play to the end
    assert resumed.state.is_terminal
    assert "The game is over and filed in your history" in text
    assert "Analysing your play" in text and "accuracy" in text
    assert "seed was" in text  # every deal's seed revealed after its hand
    assert store.saved_games() == []
    [g] = store.history()
    assert g.id == "g1" and g.record == resumed.state.to_record()
    assert g.accuracy is not None and 0 <= g.accuracy <= 1 and g.analysis is not None
    assert any("Game over" in line for line in score_lines(resumed.observation(0)))


def test_the_next_deals_commitment_survives_a_quit(tmp_path: Path) -> None:
    store = Store(tmp_path)
    s = make_session("solitaire")  # secret seeds, as in real play
    out = io.StringIO()
    PlainGame(s, store, "g1", inp=Script(s, deal=False), out=out).run()
    assert s.state.needs_deal
    shown = plain(out.getvalue()).split("Fairness commitment for the next deal: ")[1].split()[0]
    resumed = store.load_game("g1")
    assert resumed is not None
    text, _ = run_plain(resumed, store, ["deal", "quit"])
    assert f"Hand 2. Fairness commitment for this deal: {shown}" in text
    assert resumed.state.logs[-1].commitment == shown


def test_cli_play_plain_resume_stats_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    data = str(tmp_path / "data")
    monkeypatch.setattr("sys.stdin", io.StringIO("hand\nquit\n"))
    assert main(["--data-dir", data, "play", "--plain", "--variant", "solitaire", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "Your hand:" in out
    [saved] = Store(data).saved_games()
    # the next start resumes it
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["--data-dir", data, "play", "--plain"]) == 0
    assert f"Resuming the saved solitaire game {saved.id}" in capsys.readouterr().out
    # bad arguments are named
    assert main(["--data-dir", data, "play", "--plain", "--variant", "solitaire", "--new", "--opponent", "expert"]) == 2
    assert "played alone" in capsys.readouterr().err
    assert main(["--data-dir", data, "play", "--plain", "--new", "--option", "gin_bonus=lots"]) == 2
    assert "gin_bonus" in capsys.readouterr().err
    # finish a game, then stats and export
    store = Store(data)
    s = make_session("solitaire", options={"game_target": 15}, deal_seed=2)
    run_plain(s, store, [])
    store.finish_game("g1", s, {"accuracy": 0.8})
    assert main(["--data-dir", data, "stats"]) == 0
    out = capsys.readouterr().out
    assert "solitaire" in out and "games 1" in out and "accuracy 80%" in out
    assert main(["--data-dir", data, "stats", "--json", "--variant", "solitaire"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["solitaire"]["games"] == 1 and len(st["solitaire"]["running_average"]) == 1
    assert main(["--data-dir", data, "export"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["variant"] == "solitaire"
    outdir = tmp_path / "records"
    assert main(["--data-dir", data, "export", "-o", str(outdir) + "/"]) == 0
    [f] = list(outdir.iterdir())
    assert json.loads(f.read_text())["format"] == "ginrummy-record/1"
    one = tmp_path / "all.jsonl"
    assert main(["--data-dir", data, "export", "--variant", "solitaire", "-o", str(one)]) == 0
    assert len(one.read_text().splitlines()) == 1


def test_cli_reports_a_bad_database_and_leaves_it(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "ginrummy.sqlite3"
    bad.write_bytes(b"\x00\x01garbage")
    assert main(["--data-dir", str(tmp_path), "play", "--plain"]) == 2
    err = capsys.readouterr().err
    assert "not a ginrummy database" in err and "--new-database" in err
    assert bad.read_bytes() == b"\x00\x01garbage"
    assert main(["--data-dir", str(tmp_path), "stats"]) == 2
    assert bad.read_bytes() == b"\x00\x01garbage"


@pytest.mark.parametrize(
    ("seed", "says"),
    [
        (9, "Gin only (the upcard As is an ace: no knocking this hand)."),
        (5, "Spades double (the upcard 3s is a spade: this hand scores double)."),
    ],
)
@pytest.mark.english(
    "checks the note's capital letter (plain.py:210 capitalises the translated note; in xx a marker comes first)"
)
def test_oklahoma_upcard_announced_all_hand_and_the_top_discard_named(seed: int, says: str) -> None:
    s = make_session("oklahoma", seats=["human", "greedy"], deal_seed=seed)
    text, _ = run_plain(s, None, [], moves=3)
    blocks = text.split("\n> ")
    dealt = blocks[0]
    assert "Upcard: " in dealt and says in dealt, dealt
    later = [b for b in blocks[1:] if "Top discard: " in b]  # after the upcard phase: shown with the hand
    assert later, text
    assert all(says in b and "Upcard: " not in b for b in later), text


class _DrawAndDiscard(io.StringIO):
    """Two people at one terminal who pass the upcard, then draw and throw back what they drew."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        s = self.session
        if s.state.is_hand_over or s.human_to_act() is None:
            return "quit\n"
        legal = s.observation(s.human_to_act() or 0)["legal_actions"]
        if "pass" in legal:
            return "pass\n"
        if "draw" in legal:
            return "draw\n"
        return f"discard {s.moves()[-1].drawn}\n"


def test_the_wall_is_called_the_wall_not_draw() -> None:
    s = make_session("classic", seats=["human", "human"], deal_seed=4)
    out = io.StringIO()
    assert PlainGame(s, None, "g1", inp=_DrawAndDiscard(s), out=out).run() == 0
    text = shown("plain mode", out.getvalue())
    assert s.state.results[-1].result == "draw", text[-500:]
    assert "Hand 1 is over (the wall)." in text
    assert "(draw)" not in text


@pytest.mark.parametrize(("lang", "label", "typed"), [("ko", "힌트", "입력"), ("lv", "Padoms", "ierakstiet")])
def test_the_hint_names_its_moves_in_words_and_the_command_to_type(
    lang: str, label: str, typed: str, tmp_path: Path
) -> None:
    """The hint names the move in the reader's words, as the terminal's hint does (``7h 버리기``),
    with the command that plays it as data (``discard 7h``), and so does each option; typing that
    command plays the move."""
    from ginrummy.i18n import using
    from ginrummy.words import move_name

    s = make_session("classic", seats=["human", "expert"], deal_seed=4)
    s.start_hand()
    while not (s.human_to_act() == 0 and s.state.observation(0)["phase"] == "discard"):  # the first discard
        if s.human_to_act() == 0:
            legal = [str(a) for a in s.state.legal_actions()]
            s.act(0, "draw" if "draw" in legal else "pass")
        else:
            s.run_computers(limit=1)
    advice = s.hint(0)
    command = str(advice.best)
    with using(lang):
        text, _game = run_plain(s, None, ["hint", "quit"], moves=0)
        named = move_name(advice.best)
        options = [(move_name(a), str(a)) for a, _v in advice.ranked[:5]]
    assert command.startswith("discard ") and "discard" not in named and len(options) > 1
    hint = next(line.removeprefix("> ") for line in text.splitlines() if line.startswith(f"> {label}: "))
    assert hint.startswith(f"{label}: {named} ({typed}: {command})"), hint
    listed = next(line for line in text.splitlines() if ": " in line and f"({typed}: " in line and line != f"> {hint}")
    for name, option in options:
        assert f"{name} ({typed}: {option}): " in listed, listed
    words = listed
    for _name, option in options:
        words = words.replace(f"({typed}: {option})", "")
    assert "discard" not in words  # the notation only as the command to type
    before = len(s.state.logs[-1].actions)
    with using(lang):
        run_plain(s, None, [command, "quit"], moves=0)
    assert [str(a) for a in s.state.logs[-1].actions[before : before + 1]] == [command]
