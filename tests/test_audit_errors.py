"""An error means nothing changed (audit of today's features): a refused command line, a corrupt
settings file, a refused takeback, cut or choice of melds leave state and files as they were, and
say so in one line, with no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ginrummy import i18n
from ginrummy.cli import main
from ginrummy.errors import IllegalAction
from ginrummy.session import make_session


# ------------------------------------------------------------------------------------ the language setting
def test_a_refused_command_line_remembers_no_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", str(data), "--lang", "lv", "nosuchcommand"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "nederīga izvēle: 'nosuchcommand'" in err  # argparse's words, in Latvian
    assert not (data / "settings.json").exists()  # was written with "lv" before argparse refused
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", str(data), "--lang", "ko", "deadwood", "--no-such-option"])
    assert exc.value.code == 2 and i18n.saved_language(data) is None
    # an accepted one still remembers it (help and version included)
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", str(data), "--lang", "ko", "--version"])
    assert exc.value.code == 0 and i18n.saved_language(data) == "ko"


@pytest.mark.parametrize("text", ['{"language": "ko", "theme": "dark",', "[1, 2]", '"lv"'])
def test_a_corrupt_settings_file_is_left_as_it_was(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OSError, match="settings"):
        i18n.save_language(tmp_path, "lv")
    assert path.read_text(encoding="utf-8") == text  # was overwritten with {"language": "lv"}
    assert i18n.saved_language(tmp_path) is None
    # the command line goes on in the language asked for, and leaves the file alone
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", str(tmp_path), "--lang", "lv", "--help"])
    assert exc.value.code == 0 and "Gin Rummy spēļu saime" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]  # no temporary file left


def test_a_readable_settings_file_keeps_its_other_settings(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "dark"}', encoding="utf-8")
    hand = ["7c", "8c", "9c", "Kd", "Kh", "Ks", "2d", "3h", "4s", "5c"]
    assert main(["--data-dir", str(tmp_path), "--lang", "ko", "deadwood", *hand]) == 0
    assert json.loads(path.read_text(encoding="utf-8")) == {"language": "ko", "theme": "dark"}


# ------------------------------------------------------------------------------------ the session
def test_refused_undo_cut_and_arrangements_change_nothing() -> None:
    session = make_session(
        "classic", seats=["human", "expert"], options={"knocker_arrangement": "choose"}, deal_seed=11
    )
    with pytest.raises(IllegalAction):
        session.undo(0)  # nothing dealt
    session.start_hand()
    session.run_computers()
    before = json.dumps(session.to_json(), sort_keys=True)
    record = session.state.to_record()
    refusals = [
        lambda: session.undo(1),  # the computer's seat
        lambda: session.cut(),  # after the first deal
        lambda: session.arrangements(1, "knock"),  # not its turn
        lambda: session.arrangements(0, "discard 7h"),  # not a knock
        lambda: session.arrangements(0, "knock 2c"),
    ]
    if not session.can_undo(0):
        refusals.append(lambda: session.undo(0))
    for refuse in refusals:
        with pytest.raises(IllegalAction) as info:
            refuse()
        assert "\n" not in str(info.value)
        assert json.dumps(session.to_json(), sort_keys=True) == before
        assert session.state.to_record() == record
    assert session.takebacks == 0


# ------------------------------------------------------------------------------------ undo and privacy
@pytest.mark.parametrize("variant", ["classic", "oklahoma", "three"])
def test_an_undo_leaves_no_trace_of_the_card_taken_back(variant: str) -> None:
    """After a takeback, the computer's seat, a spectator and the saved game are exactly as before
    the person's decision: nothing tells them the card the person drew and put back."""
    seats = ["human", "expert"] + (["expert"] if variant == "three" else [])
    session = make_session(variant, seats=seats, deal_seed=23)
    session.start_hand()
    session.run_computers()
    checked = 0
    for _ in range(40):
        st = session.state
        if st.is_hand_over:
            break
        assert session.human_to_act() == 0
        others: list[int | None] = [*range(1, st.num_seats), None]
        before = {v: (st.observation(v) if v is not None else None, session.log_text(v)) for v in others}
        saved = session.to_json()
        played = len(st.logs[-1].actions)
        legal = [str(a) for a in st.legal_actions()]
        # draw from the stock where possible (the card then seen is the one an undo must not tell)
        first = next((a for a in legal if a in ("draw", "pass")), None)
        session.act(0, first or sorted(a for a in legal if a.startswith("discard"))[0])
        if session.human_to_act() == 0 and not session.state.is_hand_over:
            discards = sorted(str(a) for a in session.state.legal_actions() if str(a).startswith("discard"))
            session.act(0, discards[0])
        session.run_computers()
        if session.state.is_hand_over or not session.can_undo(0):
            break
        while len(session.state.logs[-1].actions) > played:
            session.undo(0)  # the discard, then the draw
        st = session.state
        for v in others:
            obs, log = before[v]
            assert session.log_text(v) == log
            if v is not None:
                assert st.observation(v) == obs
        back = session.to_json()
        assert back.pop("takebacks") > saved.pop("takebacks")
        assert back == saved
        checked += 1
        # play on as before: the same decision again
        session.act(0, first or sorted(a for a in legal if a.startswith("discard"))[0])
        if session.human_to_act() == 0 and not session.state.is_hand_over:
            discards = sorted(str(a) for a in session.state.legal_actions() if str(a).startswith("discard"))
            session.act(0, discards[0])
        session.run_computers()
    assert checked >= 2


def test_a_bad_choice_of_melds_changes_nothing() -> None:
    """knocker_arrangement=choose: a knock declaring melds that are not melds, not held, shared or
    leaving too much deadwood is refused in one line and the hand is as it was; a choice offered by
    Session.arrangements is then played as chosen."""
    session = make_session("classic", seats=["human", "expert"], options={"knocker_arrangement": "choose"}, deal_seed=1)
    session.start_hand()
    knock = None
    for _ in range(100):
        if session.human_to_act() is None:
            assert session.computer_step() is not None
            continue
        knocks = [str(a) for a in session.state.legal_actions() if str(a).startswith("knock")]
        if knocks:
            knock = knocks[0].split("|")[0].strip()
            break
        session.act(0, session.hint(0).best)
    assert knock is not None, "seed 1 offers a knock to the person"
    choices = session.arrangements(0, knock)
    assert choices
    melds = [list(map(str, m)) for m in choices[0].melds]
    before = json.dumps(session.to_json(), sort_keys=True)
    held = {str(c) for c in session.state.hand(0)}
    not_held = [f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs" if f"{r}{s}" not in held][:3]
    first = "".join(melds[0])
    bad = [
        f"{knock} | {first} {''.join(not_held)}",  # cards not held
        f"{knock} | {first} {first}",  # a meld twice
        f"{knock} | {first[:4]}",  # two cards are no meld
        f"{knock} |",  # everything deadwood
        f"{knock} | {''.join(c for m in melds for c in m)}",  # two melds run together
    ]
    for text in bad:
        with pytest.raises(IllegalAction) as info:
            session.act(0, text)
        assert str(info.value) and "\n" not in str(info.value), text
        assert json.dumps(session.to_json(), sort_keys=True) == before, text
    chosen = f"{knock} | " + " ".join("".join(m) for m in melds)
    session.act(0, chosen)
    result = session.state.hand_result
    assert result is not None
    assert sorted(map(sorted, result.to_json()["knocker_melds"])) == sorted(map(sorted, melds))


# ------------------------------------------------------------------------------------ the terminal's settings
@pytest.mark.parametrize("text", ['{"variant": "oklahoma", "name": "Ann",', "[1]", "null"])
def test_a_damaged_terminal_settings_file_is_left_as_it_was(text: str, tmp_path: Path) -> None:
    pytest.importorskip("textual")
    from ginrummy.store import Store
    from ginrummy.tui.settings import FILE, load_settings, save_settings

    store = Store(tmp_path)
    path = tmp_path / FILE
    path.write_text(text, encoding="utf-8")
    assert load_settings(store) == {}  # read as no settings
    line = save_settings(store, variant="classic")
    assert line is not None and "\n" not in line and FILE in line  # one line saying why
    assert path.read_text(encoding="utf-8") == text  # was replaced by {"variant": "classic"}
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith((".", FILE))) == [FILE]
    # a good file is merged into, and a missing one is made
    path.write_text('{"name": "Ann"}', encoding="utf-8")
    assert save_settings(store, variant="classic") is None
    assert load_settings(store) == {"name": "Ann", "variant": "classic"}
    path.unlink()
    assert save_settings(store, variant="three") is None and load_settings(store) == {"variant": "three"}


# ------------------------------------------------------------------------------------ layoffs after the game
def test_no_layoff_once_the_game_is_over() -> None:
    """The defender's own layoffs (the web's and the terminal's layoff choice) end with the game:
    Session.layoff_options offers none then, and Session.act refuses one (it was accepted and
    appended to the finished game's record)."""
    session = make_session("classic", seats=["human", "expert"], options={"game_target": 10}, deal_seed=4)
    while not session.state.is_terminal:
        if session.state.needs_deal:
            session.start_hand()
            continue
        if session.human_to_act() is None:
            assert session.computer_step() is not None
            continue
        legal = [str(a) for a in session.state.legal_actions()]
        plain = [a for a in legal if a in ("draw", "pass")]
        session.act(0, plain[0] if plain else sorted(a for a in legal if a.startswith("discard"))[-1])
    result = session.state.hand_result
    assert result is not None and result.knocker == 1  # seed 4: the computer's knock ends the game
    cards = session.state.layoff_options()
    assert cards and session.layoff_options(0) == []
    before = json.dumps(session.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match="game is over"):
        session.act(0, f"layoff {cards[0]}")
    assert json.dumps(session.to_json(), sort_keys=True) == before


def test_a_web_sitter_suggestion_is_not_shown_again_after_a_takeback() -> None:
    """The web remembers the position a computer sitter advised on; a takeback makes the hand and
    the number of actions recur, so the position also counts the takebacks (a suggestion worked out
    just before a takeback is not taken for the new position's)."""
    from types import SimpleNamespace

    from ginrummy.session import HUMAN, make_session
    from ginrummy.web.play import _position

    s = make_session("classic", seats=[HUMAN, "greedy"], deal_seed=5)
    s.start_hand()
    s.run_computers()
    seat = s.human_to_act()
    assert seat is not None
    table = SimpleNamespace(session=s)
    start = _position(table)  # type: ignore[arg-type]
    s.act(seat, s.state.legal_actions()[-1])
    s.run_computers()
    s.take_back(seat)
    assert s.human_to_act() == seat
    assert _position(table)[:2] == start[:2]  # type: ignore[arg-type]
    assert _position(table) != start  # type: ignore[arg-type]
