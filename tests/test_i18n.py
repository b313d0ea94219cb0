"""The players' languages (issue 18): complete catalogs, plural forms, the choice of language,
the build's compiled catalogs, and a pseudo-locale that shows any text bypassing the catalogs."""

from __future__ import annotations

import gettext
import importlib.util
import io
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from ginrummy import i18n, words
from ginrummy.actions import Action
from ginrummy.cards import Card
from ginrummy.cli import main
from ginrummy.i18n import _, ngettext, using
from ginrummy.options import VARIANTS
from ginrummy.session import make_session
from ginrummy.variants import find_variant

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "ginrummy"
LOCALE = PACKAGE / "locale"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]
KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3), "N_": None}
KEYWORDS["NP_"] = ((1, "c"), 2)
KEYWORDS["_doc"] = None  # options.py: each option's one-line explanation, shown translated by the apps


def po(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "ginrummy.po").open("rb") as f:
        return read_po(f, locale=lang)


# babel.cfg's methods: the Python sources, the page's app.js and index.html
METHOD_MAP = [
    ("**.py", "python"),
    ("**/static/app.js", "javascript"),
    ("**/static/index.html", "ginrummy.web.messages:extract_html"),
]


def template() -> Catalog:
    with (LOCALE / "ginrummy.pot").open("rb") as f:
        return read_po(f)


def key(message: Any) -> tuple[str | None, str]:
    mid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, mid


def fields(text: str) -> set[str]:
    """The named placeholders of a message (``{name}``), as str.format reads them."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


# ------------------------------------------------------------------------------------ the catalogs
def test_the_template_holds_every_message_of_the_sources() -> None:
    """``ginrummy.pot`` is what Babel extracts from the sources now (babel.cfg's command): a message
    added to the code without updating the catalogs fails here."""
    found = {
        (context, msgid if isinstance(msgid, str) else msgid[0])
        for _file, _line, msgid, _comments, context in extract_from_dir(
            str(PACKAGE), method_map=METHOD_MAP, keywords=KEYWORDS
        )
    }
    in_template = {key(m) for m in template() if m.id}
    assert found - in_template == set(), "run the pybabel extract of babel.cfg, then update the .po files"
    assert in_template - found == set(), "messages no longer in the sources: run the pybabel extract of babel.cfg"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalog_is_complete_and_its_placeholders_match(lang: str) -> None:
    catalog = po(lang)
    assert catalog.num_plurals == {"ko": 1, "lv": 3}[lang]
    entries = {key(m): m for m in catalog if m.id}
    for wanted in template():
        if not wanted.id:
            continue
        m = entries.get(key(wanted))
        assert m is not None, f"{lang}: no entry for {key(wanted)}"
        assert not m.fuzzy, f"{lang}: fuzzy entry {key(wanted)}"
        forms = [m.string] if isinstance(m.string, str) else list(m.string)
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        assert len(forms) == (1 if isinstance(m.id, str) else catalog.num_plurals), f"{lang}: {key(wanted)}"
        for form in forms:
            assert form, f"{lang}: untranslated {key(wanted)}"
            assert fields(form) == fields(ids[-1]), f"{lang}: placeholders of {key(wanted)} differ: {form!r}"
    assert not catalog.fuzzy, f"{lang}: the catalog's header is marked fuzzy"
    assert set(entries) == {key(m) for m in template() if m.id}, f"{lang}: entries no longer in the sources"


def test_the_placeholder_check_catches_a_mismatch() -> None:
    assert fields("{name} knocks") != fields("{nam} klauvē")
    assert fields("{n} point") == fields("{n} punkti")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_source_tree_reads_every_translated_message(lang: str) -> None:
    """Without a compiled ``.mo`` (a source tree) the runtime compiles the ``.po`` in memory: every
    translated message comes out as written, and a fuzzy one is left out."""
    runtime = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(LOCALE / lang / "LC_MESSAGES" / "ginrummy.po")))
    for m in po(lang):
        if m.id and isinstance(m.id, str) and not m.fuzzy:
            got = runtime.pgettext(m.context, m.id) if m.context else runtime.gettext(m.id)
            assert got == m.string


def test_the_runtime_leaves_out_fuzzy_and_untranslated_entries(tmp_path: Path) -> None:
    path = tmp_path / "lv" / "LC_MESSAGES" / "x.po"
    path.parent.mkdir(parents=True)
    path.write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=1; plural=0;\\n"\n\n'
        '#, fuzzy\nmsgid "a"\nmsgstr "A"\n\nmsgid "b"\nmsgstr ""\n\nmsgid "c"\nmsgstr "C"\n"c"\n',
        encoding="utf-8",
    )
    runtime = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(path)))
    assert [runtime.gettext(m) for m in "abc"] == ["a", "b", "Cc"]


def test_the_build_compiles_the_catalogs_it_ships(tmp_path: Path) -> None:
    """setup.py's build step writes a ``.mo`` for every ``.po``; stdlib gettext reads each one to
    the same translations as the runtime's own compilation of the ``.po``."""
    spec = importlib.util.spec_from_file_location("ginrummy_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)  # not as __main__: setup() is not run
    written = setup.compile_catalogs(PACKAGE, tmp_path)
    assert sorted(Path(p).parent.parent.name for p in written) == sorted(TRANSLATED)
    for lang in TRANSLATED:
        with (tmp_path / "locale" / lang / "LC_MESSAGES" / "ginrummy.mo").open("rb") as f:
            shipped = gettext.GNUTranslations(f)
        runtime = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(LOCALE / lang / "LC_MESSAGES" / "ginrummy.po")))
        for m in po(lang):
            if not m.id:
                continue
            if isinstance(m.id, str):
                got = shipped.pgettext(m.context, m.id) if m.context else shipped.gettext(m.id)
                want = runtime.pgettext(m.context, m.id) if m.context else runtime.gettext(m.id)
                assert got == want == m.string
            else:
                for n in (0, 1, 2, 5, 11, 21):
                    assert shipped.ngettext(m.id[0], m.id[1], n) == runtime.ngettext(m.id[0], m.id[1], n)


def test_the_package_data_ships_the_catalogs() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.po"' in text and '"locale/*/LC_MESSAGES/*.mo"' in text


# ------------------------------------------------------------------------------------ plural forms
@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 punkts"),
        (21, "21 punkts"),
        (101, "101 punkts"),
        (2, "2 punkti"),
        (22, "22 punkti"),
        (0, "0 punktu"),
        (10, "10 punktu"),
        (11, "11 punktu"),
        (111, "111 punktu"),
        (30, "30 punktu"),
    ],
)
def test_latvian_has_three_plural_forms(n: int, expected: str) -> None:
    """CLDR's Latvian forms, as Babel writes them: 1, 21, 101...; 2-9, 22...; 0, 10-20, 30, 111..."""
    with using("lv"):
        assert ngettext("{n} point", "{n} points", n).format(n=n) == expected


@pytest.mark.english("checks the English words themselves beside the translations")
def test_korean_has_one_form_and_english_two() -> None:
    with using("ko"):
        assert [ngettext("{n} point", "{n} points", n).format(n=n) for n in (0, 1, 2)] == ["0점", "1점", "2점"]
    assert [ngettext("{n} point", "{n} points", n).format(n=n) for n in (0, 1, 2)] == [
        "0 points",
        "1 point",
        "2 points",
    ]


# ------------------------------------------------------------------------------------ choosing
def test_the_choice_order_is_option_setting_environment_english() -> None:
    env = {"LANG": "ko_KR.UTF-8"}
    assert i18n.choose_language("lv", "ko", env) == "lv"
    assert i18n.choose_language(None, "lv", env) == "lv"
    assert i18n.choose_language(None, None, env) == "ko"
    assert i18n.choose_language(None, None, {}) == "en"
    assert i18n.choose_language(None, None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.choose_language("de", "nonsense", {"LANG": "lv_LV"}) == "lv"


def test_the_environment_is_read_as_gettext_reads_it() -> None:
    assert i18n.environment_language({"LANGUAGE": "de:lv:ko", "LANG": "ko_KR.UTF-8"}) == "lv"
    assert i18n.environment_language({"LANGUAGE": "de", "LANG": "ko_KR.UTF-8"}) == "ko"
    assert i18n.environment_language({"LC_ALL": "lv_LV.UTF-8", "LC_MESSAGES": "ko_KR", "LANG": "en_US"}) == "lv"
    assert i18n.environment_language({"LC_MESSAGES": "ko_KR", "LANG": "lv_LV"}) == "ko"
    assert i18n.environment_language({"LANG": "C.UTF-8", "LANGUAGE": "ko"}) is None  # C ignores LANGUAGE
    assert i18n.environment_language({"LANG": "en_GB.UTF-8"}) == "en"
    assert i18n.environment_language({"LANG": "xx"}) is None  # the pseudo-locale only by --lang


@pytest.mark.english("checks the choice of language, English when nothing else is asked for")
@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
        ("lv,en;q=0.5", "lv"),
        ("de-DE,de;q=0.9,lv;q=0.8,en;q=0.7", "lv"),
        ("en;q=0.9,ko;q=0.95", "ko"),
        ("fr, de", "en"),
        ("", "en"),
        (None, "en"),
        ("ko;q=0,lv;q=0.1", "lv"),
        ("ko;q=abc,lv", "lv"),
        (";;,,;q=,ko", "ko"),
        ("*", "en"),
        ("xx", "en"),
    ],
)
def test_accept_language(header: str | None, expected: str) -> None:
    assert i18n.accept_language(header) == expected


def test_the_setting_is_saved_and_read(tmp_path: Path) -> None:
    assert i18n.saved_language(tmp_path) is None
    (tmp_path / "settings.json").write_text('{"other": 1}', encoding="utf-8")
    i18n.save_language(tmp_path, "lv")
    assert i18n.saved_language(tmp_path) == "lv"
    assert json.loads((tmp_path / "settings.json").read_text(encoding="utf-8")) == {"language": "lv", "other": 1}
    with pytest.raises(ValueError):
        i18n.save_language(tmp_path, "xx")
    assert i18n.saved_language(tmp_path) == "lv"
    (tmp_path / "settings.json").write_text("{broken", encoding="utf-8")
    assert i18n.saved_language(tmp_path) is None


@pytest.mark.english("checks the choice of language, English when nothing else is asked for")
def test_the_cli_takes_lang_and_remembers_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path / "data")
    with pytest.raises(SystemExit):
        main(["--lang", "lv", "--data-dir", data, "--help"])
    assert "Gin Rummy spēļu saime" in capsys.readouterr().out
    assert i18n.saved_language(data) == "lv"
    assert i18n.current_language() == "en"  # main() leaves the process as it found it
    with pytest.raises(SystemExit):
        main(["--data-dir", data, "--help"])  # the setting
    assert "Gin Rummy spēļu saime" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--data-dir", data, "deadwood", "--lang", "ko", "--help"])  # after the command too
    assert "손패의 가장 좋은 배치와 데드우드 보기" in capsys.readouterr().out
    assert i18n.saved_language(data) == "ko"
    with pytest.raises(SystemExit):
        main(["--data-dir", data, "--lang", "xx", "--help"])  # the pseudo-locale is never remembered
    assert "⟦" in capsys.readouterr().out
    assert i18n.saved_language(data) == "ko"
    with pytest.raises(SystemExit) as exc:
        main(["--data-dir", data, "--lang", "de", "--help"])
    assert exc.value.code == 2 and "잘못된 선택: 'de'" in capsys.readouterr().err  # argparse's words, in Korean
    assert i18n.saved_language(data) == "ko"


@pytest.mark.english("checks the choice of language, English when nothing else is asked for")
def test_using_is_local_and_set_language_checks() -> None:
    with using("ko"):
        assert _("Upcard") == "업카드"
        with using("lv"):
            assert _("Upcard") == "Atvērtā kārts"
        assert i18n.current_language() == "ko"
    assert _("Upcard") == "Upcard"
    with pytest.raises(ValueError):
        i18n.set_language("de")


# ------------------------------------------------------------------------------------ the words
@pytest.mark.english("checks the English words themselves beside the translations")
def test_card_names_for_screen_readers() -> None:
    qd, seven, ace, joker = Card.parse("Qd"), Card.parse("7h"), Card.parse("As"), Card(52)
    assert [c.spoken() for c in (qd, seven, ace, joker)] == [
        "Queen of diamonds",
        "7 of hearts",
        "Ace of spades",
        "Joker",
    ]
    with using("ko"):
        assert [c.spoken() for c in (qd, seven, ace, joker)] == ["다이아몬드 퀸", "하트 7", "스페이드 에이스", "조커"]
    with using("lv"):
        assert [c.spoken() for c in (qd, seven, ace, joker)] == ["kārava dāma", "ercena 7", "pīķa dūzis", "džokers"]


@pytest.mark.english("checks the English words themselves beside the translations")
def test_moves_are_whole_sentences_in_each_language() -> None:
    players = ["You", "Expert 2"]
    discard = Action.parse("discard 9c")
    assert words.move_text(players, 1, discard, viewer=0) == "Expert 2 discards 9c"
    assert words.move_text(players, 0, discard, viewer=0) == "You discard 9c"
    with using("lv"):
        assert words.move_text(players, 1, discard, viewer=0) == "Eksperts 2 nomet 9c"
        assert words.move_text(players, 0, discard, viewer=0) == "Jūs nometat 9c"
    with using("ko"):
        assert words.move_text(players, 1, Action.parse("knock 9c"), viewer=0) == "전문가 2: 9c 버리고 노크합니다"
        assert words.cannot_line("knock", ["discard 9c", "discard Kh"]) == "지금은 노크 불가. 할 수 있는 것: 버리기."
    with using("lv"):
        assert words.cannot_line("deal", ["draw", "take"]) == "Jūs nevarat dalīt: pašreizējā partija vēl nav beigusies."
        assert words.cannot_line("knock", ["draw", "take", "hint"]) == (
            "Jūs tagad nevarat klauvēt; varat vilkt no kavas, paņemt nomesto kārti vai saņemt padomu."
        )
        assert words.result_name("knock") == "klauvējiens"


def test_names_typed_by_people_are_not_translated() -> None:
    with using("lv"):
        assert words.display_name("Expert 3") == "Eksperts 3"
        assert words.display_name("Anna") == "Anna"
        assert words.display_name("Expertise") == "Expertise"
        assert words.display_name("Eve\u202e") == "Eve\\u202e"


# ------------------------------------------------------------------------------------ the pseudo-locale
def bare(text: str) -> str:
    """The parts of ``text`` outside every ``⟦…⟧``: what no catalog wrote."""
    out, depth = [], 0
    for ch in text:
        if ch == i18n.PSEUDO_OPEN:
            depth += 1
        elif ch == i18n.PSEUDO_CLOSE:
            depth -= 1
        elif depth == 0:
            out.append(ch)
    assert depth == 0, text
    return "".join(out)


def assert_wrapped(lines: list[str], where: str) -> None:
    for line in lines:
        assert not re.search(r"[A-Za-z]{2,}", bare(line)), f"{where}: text outside the catalogs: {line!r}"


def test_the_pseudo_locale_catches_bare_english() -> None:
    with pytest.raises(AssertionError):
        assert_wrapped(["⟦Score⟧ after hand 3"], "test")
    assert_wrapped(["  ⟦⟦Expert⟧: ⟦3 points⟧⟧"], "test")


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_english_bypasses_the_catalogs_in_the_words_of_whole_games(variant: str) -> None:
    """Seeded games of every variant under the pseudo-locale: every move of the log for every seat,
    the score sheet, the Oklahoma notes, the why-not lines, the names of the results and the
    computer players' reasons are all catalog messages."""
    v = find_variant(variant)
    seats = ["planner", "joker"] if v.solo else ["expert"] * v.seats
    target = {"hollywood": {"hollywood_target": 15}}.get(variant, {"game_target": 25})
    session = make_session(variant, seats=seats, options=target, deal_seed=7)
    seen = 0
    with using(i18n.PSEUDO):
        while not session.state.is_terminal and session.state.hand_number <= 3:
            if session.state.needs_deal:
                session.start_hand()
                continue
            event = session.computer_step()
            assert event is not None
            if event.reason:  # the computer player's reasons are catalog messages too
                said = words.reason_text(event.reason)
                assert_wrapped([said], f"{variant} reason")
                assert said.startswith(i18n.PSEUDO_OPEN)
            for viewer in (None, *range(len(session.names))):
                text = words.move_text(
                    session.state.players, event.seat, event.action, viewer=viewer, taken=event.taken
                )
                assert_wrapped([text], f"{variant} move")
                seen += 1
            obs = session.observation(0)
            assert_wrapped(words.score_lines(obs), f"{variant} score sheet")
            assert_wrapped(words.upcard_notes(obs), f"{variant} upcard notes")
            assert_wrapped([words.top_discard_label(obs)], f"{variant} label")
            legal = [str(a) for a in session.state.legal_actions()] if not session.state.needs_deal else []
            for what in ("draw", "take", "knock", "gin", "deal", "hint", "pass"):
                assert_wrapped([words.cannot_line(what, legal, playing=session.names[0])], f"{variant} cannot")
            result = session.state.hand_result if session.state.needs_deal or session.state.is_terminal else None
            if result is not None:
                assert_wrapped([words.result_name(str(result.result))], f"{variant} result")
    assert seen >= 10


# ------------------------------------------------------------------------------------ the command line
def played_record(tmp_path: Path) -> str:
    session = make_session("classic", seats=["expert", "expert"], options={"game_target": 300}, deal_seed=11)
    while session.state.hand_number < 2 or not session.state.needs_deal:
        if session.state.needs_deal:
            session.start_hand()
        else:
            assert session.computer_step() is not None
    path = tmp_path / "r.json"
    path.write_text(json.dumps(session.state.to_record()), encoding="utf-8")
    return str(path)


def test_the_commands_speak_through_the_catalogs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    assert (
        main([*data, "--lang", "xx", "deadwood", "As", "2s", "3s", "7c", "7d", "Kh", "Qh", "Jh", "9c", "9d", "2h"]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert len(out) >= 5
    assert_wrapped(out, "deadwood")
    record = played_record(tmp_path)
    assert main([*data, "--lang", "xx", "verify", record]) == 0
    out = capsys.readouterr().out.splitlines()
    assert_wrapped(out, "verify")
    assert main([*data, "--lang", "lv", "verify", record]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("visas 2 partijas ir pārbaudītas: katra sēkla")
    assert main([*data, "--lang", "xx", "replay", record]) == 0
    out = capsys.readouterr().out.splitlines()
    assert_wrapped([line for line in out if line.strip() and not re.fullmatch(r"[\s\d-]+", line)][:1], "replay")
    assert_wrapped([out[0], out[-1]], "replay")
    explained = [line.strip() for line in out if line.startswith("      ")]
    assert explained
    assert_wrapped(explained, "replay: the engine's explanation of each hand")
    assert main([*data, "--lang", "ko", "deadwood", "As", "2s", "3s", "20x"]) == 2
    assert capsys.readouterr().err.startswith("ginrummy deadwood: ")


def test_no_module_shadows_the_translation_function() -> None:
    """``_`` is the translation function wherever it is imported: a module that also unpacks into
    ``_`` (``a, _ = pair``) calls a tuple when it next translates (a bug met once)."""
    import ast

    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = any(
            isinstance(node, ast.ImportFrom) and any(a.name == "_" and a.asname is None for a in node.names)
            for node in ast.walk(tree)
        )
        if not imports:
            continue
        stores = [
            n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
        ]
        assert not stores, f"{path.relative_to(ROOT)} assigns to _ at lines {stores}"


# ------------------------------------------------------------------------------------ plain mode
class Person(io.StringIO):
    """The person at the terminal: plays the advisor's move when it is their turn, asks for the
    hand, the score, help, a hint and a bad command now and then, and deals between hands."""

    def __init__(self, session: Any, limit: int = 400) -> None:
        super().__init__()
        self.session, self.turns, self.limit = session, 0, limit

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.turns += 1
        s = self.session
        if self.turns > self.limit or s.state.hand_number > 2:
            return ""
        seat = s.human_to_act()
        if seat is None:
            return "\n"
        extra = ["hand", "score", "hint", "why", "help", "bogus", "discard", "deal"]
        if self.turns % 7 == 0:
            return extra[(self.turns // 7) % len(extra)] + "\n"
        return f"{s.hint(seat).best}\n"


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_english_bypasses_the_catalogs_in_plain_mode(variant: str) -> None:
    """A seeded game of every variant in plain mode under the pseudo-locale: every line printed is
    a catalog message (the engine's end-of-hand explanations too), except the game record's JSON;
    the hint's and the computer players' reasons (agents' English) appear inside a message."""
    from ginrummy.plain import PlainGame

    v = find_variant(variant)
    seats = ["human", "joker"] if v.solo else ["human"] + ["expert"] * (v.seats - 1)
    session = make_session(
        variant, seats=seats, options={"hollywood": {"hollywood_target": 15}}.get(variant, {}), deal_seed=3
    )
    out = io.StringIO()
    with using(i18n.PSEUDO):
        assert PlainGame(session, None, "g1", inp=Person(session), out=out, analyse=False).run() == 0
    lines: list[str] = []
    for line in out.getvalue().splitlines():  # a message of several lines (help) is one text
        line = line.removeprefix("> ")
        if lines and lines[-1].count(i18n.PSEUDO_OPEN) > lines[-1].count(i18n.PSEUDO_CLOSE):
            lines[-1] += "\n" + line
        else:
            lines.append(line)
    checked = 0
    for line in lines:
        text = line.strip()
        if not text or text.startswith("{"):
            continue
        assert_wrapped([text], f"{variant} plain mode")
        checked += 1
    assert checked >= 20


# ------------------------------------------------------------------------------------ the terminal app
@pytest.mark.parametrize(("lang", "your_turn"), [("ko", "내 차례"), ("lv", "Jūsu gājiens")])
def test_the_terminal_app_speaks_the_language_at_80x24(lang: str, your_turn: str, tmp_path: Path) -> None:
    """Korean letters take two cells and Latvian words run long: at 80x24 every action button
    still lies inside the screen, the status line says whose turn it is in the language, and the
    move log and the score sheet are in it too."""
    import asyncio
    import time

    from rich.cells import cell_len
    from textual.widgets import RichLog

    from ginrummy.store import Store
    from ginrummy.tui.app import GinRummyApp
    from ginrummy.tui.game import GameScreen

    def plain(widget: Any) -> str:
        from rich.console import Console

        console = Console(width=200, file=io.StringIO(), color_system=None)
        console.print(widget.content)
        return console.file.getvalue()  # type: ignore[attr-defined]

    async def until(predicate: Any, what: str) -> None:
        # The limit only stops a test that hangs; it names the condition it waited for.
        deadline = time.monotonic() + 120
        while not predicate():
            assert time.monotonic() < deadline, f"the app did not get there: {what}"
            await asyncio.sleep(0.005)

    async def run() -> None:
        start = {"variant": "classic", "seats": ["human", "expert"], "options": {}}
        app = GinRummyApp(computer_delay=0, deal_seed=30, start=start, store=Store(tmp_path))
        async with app.run_test(size=(80, 24)) as pilot:
            # The game screen is on the stack before it is mounted: a key sent earlier may meet no binding.
            await until(lambda: isinstance(app.screen, GameScreen) and app.screen.is_mounted, "the game screen")
            screen = app.screen
            assert isinstance(screen, GameScreen)
            session = screen.session
            await until(lambda: session.state.needs_deal, "a hand to deal")
            await pilot.press("n")
            await until(lambda: not session.state.needs_deal, "the deal")
            for _turn in range(3):
                await until(lambda: session.human_to_act() is not None or session.state.is_hand_over, "your turn")
                if session.state.is_hand_over:
                    break
                await pilot.pause()
                status = plain(screen.query_one("#status"))
                assert your_turn in status, status
                for button in screen.query("#actions Button"):
                    if button.display:
                        label = str(button.label)
                        assert button.region.right <= 80, f"{label!r} ends at column {button.region.right}"
                        assert cell_len(label) <= button.region.width, label
                legal = session.observation(session.human_to_act() or 0)["legal_actions"]
                before = len(session.state.logs[-1].actions)
                action = next((a for a in legal if a.startswith("discard")), legal[0])
                session_action = action.split()
                if session_action[0] == "discard":
                    screen.selected = session_action[1]
                    await pilot.press("d")
                else:
                    await pilot.press({"draw": "s", "take": "t", "pass": "p"}.get(session_action[0], "s"))
                await until(
                    lambda n=before: len(session.state.logs[-1].actions) > n or session.state.is_hand_over,
                    f"{action} played",
                )
            log = screen.query_one("#log", RichLog)
            text = "\n".join(str(line.text) for line in log.lines)
            with using(lang):
                assert _("Expert") in text or _("You") in text
            info = plain(screen.query_one("#info"))
            assert ("판" if lang == "ko" else "partija") in info

    with using(lang):
        asyncio.run(run())


# ------------------------------------------------------------------------------------ the rules
def _rule_numbers(text: str) -> tuple[list[str], set[str]]:
    heads = re.findall(r"^#{2,3} (\d+[a-z]?)\. ", text, flags=re.M)
    rules = set(re.findall(r"^\*\*(\d+[a-z]?\.\d+)\b", text, flags=re.M))
    return heads, rules


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_rules_in_each_language_follow_the_rule_book(lang: str) -> None:
    """docs/rules.<lang>.md has the rule book's sections 0-4 under the same numbers (so that a front
    end finds a variant's sections in it as in docs/rules.md), and every numbered rule of those
    sections but the source note (4.0) and the summary of choices (1.12)."""
    english = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").split("## 5. Options")[0]
    translated = (ROOT / "docs" / f"rules.{lang}.md").read_text(encoding="utf-8")
    heads, rules = _rule_numbers(english)
    their_heads, their_rules = _rule_numbers(translated)
    assert their_heads == heads
    assert their_rules <= rules
    assert rules - their_rules == {"1.12", "4.0"}
    for v in VARIANTS:
        for section in find_variant(v).rule_sections:
            assert section in their_heads
    # shipped in the package beside the English rule book, for the apps' rules dialogs
    assert (PACKAGE / "books" / f"rules.{lang}.md").read_text(encoding="utf-8") == translated


ENGINE_LINES = [  # one of every form engine.py writes (names as the engine writes them)
    "Expert goes gin: 7c 7d 7h 4s 5s 6s 9h Th Jh Qh",
    "You go big gin: 7c 7d 7h 4s 5s 6s 9h Th Jh Qh Kh",
    "Anna Lee knocks: 7c 7d 7h 4s 5s 6s, deadwood 2c 3d = 5",
    "You knock: 7c 7d 7h 4s 5s 6s 8c 8d 8h",
    "Expert 2 spreads 2c 3c 4c, lays off 8s, deadwood Kd Qd = 20",
    "You spread no melds, deadwood Kd Qd Jd = 30",
    "Expert spreads no melds, lays off 7s, deadwood Kd = 10",
    "Expert spreads 2c 3c 4c, deadwood - = 0",
    "Undercut: You score 5 - 3 + 25 bonus = 27",
    "Expert scores 30 - 5 = 25",
    "You score 30 + 25 gin bonus = 55",
    "Expert scores 12 + 31 big gin bonus = 43",
    "Equal counts: nobody scores",
    "Spades double (the upcard was 7s): 50",
    "The joker was dealt: redeal.",
    "The joker was dealt: the hand is lost; the Joker scores 37.",
    "Only 2 stock cards left: the hand is void.",
    "The joker came first. Deadwood 2c 9h = 11.",
    "The hand is lost.",
    "The Joker scores 11.",
    "Gin: 7c 7d 7h 4s 5s 6s 9h Th Jh Qh. 12 cards turned before the joker.",
    "Knock: 7c 7d 7h 4s 5s 6s 9h Th Jh, deadwood 2c = 2. 4 cards turned before the joker.",
    "Big gin: 7c 7d 7h 4s 5s 6s 9h Th Jh Qh Kh. 0 cards turned before the joker.",
    "You win the hand.",
    "You score the count: 12.",
    "You score 12 + 25 gin bonus = 37.",
    "You score 12 - 2 = 10.",
    "Undercut: the Joker scores 5 - 3 + 25 bonus = 27.",
    "Equal counts: nobody scores.",
]


@pytest.mark.english("checks the English words themselves beside the translations")
def test_every_form_of_the_engines_explanation_is_translated() -> None:
    assert words.result_lines(ENGINE_LINES, ["You", "Expert"], ["human", "expert"]) == ENGINE_LINES
    with using(i18n.PSEUDO):
        assert_wrapped(words.result_lines(ENGINE_LINES, ["You", "Expert"], ["human", "expert"]), "explanation")
    with using("lv"):
        lines = words.result_lines(ENGINE_LINES, ["You", "Expert"], ["human", "expert"])
        assert lines[0] == "Eksperts: džins ar 7c 7d 7h 4s 5s 6s 9h Th Jh Qh"
        assert lines[8] == "Pretsitiens: Jūs — punkti 5 − 3 + prēmija 25 = 27"
    with using("ko"):
        lines = words.result_lines(ENGINE_LINES, ["You", "Expert"], ["human", "expert"])
        assert lines[2] == "Anna Lee: 노크, 멜드 7c 7d 7h 4s 5s 6s, 데드우드 2c 3d = 5"
        assert lines[-2] == "언더컷: 조커 득점 5 − 3 + 보너스 25 = 27"
