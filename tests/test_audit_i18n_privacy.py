"""Privacy of every text in every language: the audit of ``test_privacy_text`` (seeded whole games,
every text checked against what its seat may know) run in Korean, Latvian and the ``xx``
pseudo-locale.

A translation can leak where English does not (a reason placed in a sentence shown to everyone, a
card named where the English says "a card"), and it can hide a leak from an auditor that reads
English: Korean glues particles to a card (``Qs을(를)``) and ``xx`` wraps texts in ``⟦…⟧``, so
the card names are found here after Hangul and the pseudo-locale's markers are set apart.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

import test_privacy_text as english
from ginrummy import i18n
from ginrummy.agents import register
from ginrummy.engine import SOLO
from ginrummy.i18n import using
from ginrummy.options import VARIANTS
from ginrummy.plain import PlainGame
from ginrummy.session import Session, make_session
from ginrummy.store import Store

LANGS = ("ko", "lv", "xx")
_ENGLISH_CARDS_NAMED = english.cards_named
_GLUE = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af⟦⟧]")  # Hangul, the pseudo-locale's markers


def cards_named(text: str) -> set[str]:
    """The cards a text names in any of the languages (Hangul and ``⟦⟧`` next to a card set apart)."""
    return _ENGLISH_CARDS_NAMED(_GLUE.sub(" ", text))


class Auditor(english.Auditor):
    def check(self, session: Session, viewer: int | None, text: str, where: str) -> None:
        st = session.state
        if not st.logs:
            return
        self.checked += 1
        self.hands.add(st.hand_number)
        hidden = cards_named(text) - english.may_know(st, viewer)
        if hidden:
            self.problems.append(f"{where}, hand {st.hand_number}, seat {viewer}: {sorted(hidden)} in {text!r}")


def test_the_auditor_reads_cards_in_every_language() -> None:
    """The English auditor misses a card glued to a Korean particle or to the ``xx`` markers."""
    assert not english.cards_named("Qs을(를) 가져와") and not english.cards_named("⟦discards Qd⟧")
    assert cards_named("Qs을(를) 가져와 Jh을(를) 버리면") == {"Qs", "Jh"}
    assert cards_named("⟦⟦Expert⟧ discards Qd⟧") == {"Qd"}
    assert cards_named("Eksperts nomet 10h un Tc-Jc-Qc") == {"Th", "Tc", "Jc", "Qc"}


def _library_game(variant: str, seed: int) -> Auditor:
    seats = english.computers(variant)
    if variant == "three":
        seats = ["expert", "human", "expert"]
    session = make_session(variant, seats=seats, options=english.SHORT[variant], deal_seed=seed)
    auditor = Auditor()
    while not session.state.is_terminal:
        if session.state.needs_deal:
            session.start_hand()
            continue
        person = session.human_to_act()
        if person is not None:
            session.act(person, session.hint(person).best)
        else:
            assert session.computer_step() is not None
        english.audit_session_texts(session, auditor)
    return auditor


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_library_texts_of_whole_games_in_every_language(lang: str, variant: str) -> None:
    with using(lang):
        auditor = _library_game(variant, 101)
    auditor.assert_clean(minimum=20)
    # the texts were translated (not English that slipped through): the reasons are in the log
    with using(lang):
        session = make_session(variant, seats=english.computers(variant), deal_seed=5)
        session.start_hand()
        for _ in range(4):
            session.computer_step()
        lines = [line for v in range(session.state.num_seats) for line in session.log_text(v)]
    assert lines
    if lang == "xx":
        assert all("⟦" in line for line in lines), lines
    if lang == "ko":
        assert any(_GLUE.search(line) for line in lines), lines


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_plain_mode_whole_games_in_every_language(lang: str, variant: str, tmp_path: Path) -> None:
    seats = english.person_and_computers(variant)
    with using(lang):
        session = make_session(variant, seats=seats, options=english.TINY[variant], deal_seed=202)
        auditor = Auditor()
        game = PlainGame(session, Store(tmp_path), "g1", inp=english.Moves(session), analyse=False)
        out = english.AuditedOut(session, auditor, lambda: game.viewer)
        game.out = out
        assert game.run() == 0
    assert session.state.is_terminal
    auditor.assert_clean(minimum=10)
    text = out.getvalue()
    assert "Traceback" not in text
    if variant not in SOLO and lang != "xx":
        assert "draws from the stock" not in text  # the move lines were translated
    if lang == "xx":
        assert "⟦" in text


@pytest.fixture
def _failing_agent() -> Any:
    from ginrummy.agents import base

    register(english.FAILING_AGENT, VARIANTS)(english._FailingAgent)
    yield
    base._REGISTRY.pop(english.FAILING_AGENT, None)


@pytest.mark.usefixtures("_failing_agent")
def test_a_failing_computer_names_no_card_in_any_language(tmp_path: Path) -> None:
    for lang in LANGS:
        with using(lang):
            session = make_session("classic", seats=["human", english.FAILING_AGENT], deal_seed=3)
            out = io.StringIO()
            game = PlainGame(session, Store(tmp_path / lang), "g1", inp=io.StringIO("deal\npass\n" * 3), out=out)
            assert game.run() == 1
        text = out.getvalue()
        assert "Traceback" not in text
        hand = {str(c) for c in session.state.hand(1)}
        assert not cards_named(text) & hand, (lang, text)


@pytest.mark.slow  # about 4 s a game: the terminal app's keys through Textual's pilot; the suite runs it
@pytest.mark.parametrize(("lang", "variant"), [("ko", "classic"), ("lv", "three"), ("xx", "oklahoma")])
def test_terminal_app_whole_games_in_every_language(
    lang: str, variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The English audit of the terminal app (its log, status lines and notifications as they are
    written), in the language and with this file's reading of card names."""
    pytest.importorskip("textual")
    marks = {"ko": re.compile(r"[\uac00-\ud7af]"), "lv": re.compile(r"[āēīūšžķļņčģ]"), "xx": re.compile("⟦")}[lang]
    read: list[bool] = []

    def reading(text: str) -> set[str]:
        read.append(bool(marks.search(text)))
        return cards_named(text)

    monkeypatch.setattr(english, "cards_named", reading)
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        english.test_terminal_app_whole_games(variant, tmp_path, monkeypatch)
    finally:
        i18n.set_language(before)
    assert sum(read) >= 10, f"{sum(read)} of {len(read)} texts audited were in {lang}"


def test_web_tables_messages_in_every_language(tmp_path: Path) -> None:
    """The browser's messages, worded for a connection in the language (the table words each
    seat's state in each of its connections' languages), audited as they are sent."""
    pytest.importorskip("starlette")
    import asyncio

    from ginrummy.web.tables import TableManager

    class Conn:
        def __init__(self, lang: str) -> None:
            self.lang = lang
            self.sent: list[dict[str, Any]] = []

        def send(self, msg: dict[str, Any]) -> None:
            self.sent.append(msg)

    async def run(lang: str, variant: str) -> tuple[Auditor, int]:
        manager = TableManager(Store(tmp_path / lang / variant), computer_delay=0, deal_seed=202)
        await manager.start()
        auditor, worded = Auditor(), 0
        try:
            with using(lang):
                table, seat, _ = await manager.create_solo(variant, english.SHORT[variant], None, "Ann")
                conn = Conn(lang)
                await manager.attach(table, seat, conn)  # type: ignore[arg-type]
                s = table.session
                for _ in range(3000):
                    if table.driver is not None:
                        await table.driver
                    for msg in conn.sent:
                        for text in english.message_strings(msg):
                            auditor.check(s, seat, text, f"web {msg.get('type')} ({lang})")
                            worded += bool(_GLUE.search(text) or re.search(r"[āēīūšžķļņčģ]", text))
                    conn.sent.clear()
                    if s.state.is_terminal:
                        break
                    if s.state.needs_deal:
                        await manager.deal(table, seat, conn, None)  # type: ignore[arg-type]
                    elif s.human_to_act() == seat:
                        await manager.act(table, seat, english.choose(s, seat), conn, None)  # type: ignore[arg-type]
                assert s.state.is_terminal, (lang, variant)
        finally:
            await manager.shutdown()
        return auditor, worded

    for lang in LANGS:
        for variant in ("classic", "three", "solitaire"):
            auditor, worded = asyncio.run(run(lang, variant))
            auditor.assert_clean(minimum=5)
            assert worded, f"no text of the {variant} game was in {lang}"
