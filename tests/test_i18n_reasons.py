"""The computer players' reasons and the hints' explanations are data until someone reads them
(:mod:`ginrummy.agents.reasons`), worded by :func:`ginrummy.words.reason_text` for each reader in
the reader's language: at a web table every viewer reads the same reason in their own language, a
hint worked out for one language is shown in another, a resumed game words its old reasons in
today's language, and a game saved when reasons were text still loads (its reasons shown as they
were written)."""

from __future__ import annotations

import json
import random
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.actions import Action
from ginrummy.agents.reasons import N_, Joined, Message, from_json, joined, move, ngettext, to_json
from ginrummy.i18n import using
from ginrummy.session import Session, make_session
from ginrummy.words import reason_text

HANGUL = re.compile("[\uac00-\ud7a3]")
LATVIAN = re.compile("[āčēģīķļņšūž]")
OLD_SAVE = Path(__file__).parent / "data" / "session_reasons_as_text.json"


# ------------------------------------------------------------------------------------ the words
def test_one_reason_is_worded_in_each_language() -> None:
    reason = N_("Take {card}: {note}.", card="7h", note=N_("deadwood {deadwood}", deadwood=4))
    with using("en"):  # each language chosen by name (the pseudo-locale run too)
        assert reason_text(reason) == "Take 7h: deadwood 4."
    with using("ko"):
        korean = reason_text(reason)
    with using("lv"):
        latvian = reason_text(reason)
    assert HANGUL.search(korean) and "7h" in korean and "4" in korean
    assert not HANGUL.search(latvian) and "7h" in latvian and latvian != "Take 7h: deadwood 4."
    with using("xx"):
        assert reason_text(reason) == "⟦Take 7h: ⟦deadwood 4⟧.⟧"


def test_a_counting_reason_takes_each_languages_plural_form() -> None:
    def outs(n: int) -> str:
        return reason_text(
            ngettext(
                "{n} card make gin next ({chance} a draw)",
                "{n} cards make gin next ({chance} a draw)",
                n,
                n=n,
                chance="5%",
            )
        )

    with using("en"):
        assert outs(1) == "1 card make gin next (5% a draw)" and outs(2) == "2 cards make gin next (5% a draw)"
    with using("lv"):
        forms = {outs(n).replace(str(n), "N") for n in (1, 2, 10)}
    assert len(forms) == 3  # Latvian's three forms (1, 21...; 2-9...; 0, 10-20...)


def test_a_list_of_clauses_is_joined_by_the_catalogs_separator() -> None:
    clauses = joined("; ", [N_("the opponent discarded {card}", card="Kc"), "Ks"], ".")
    with using("en"):
        assert reason_text(clauses) == "the opponent discarded Kc; Ks."
    with using("xx"):
        assert reason_text(clauses) == "⟦the opponent discarded Kc⟧⟦; ⟧Ks⟦.⟧"


def test_a_reason_read_back_from_a_save_fills_only_its_named_values() -> None:
    """A damaged or hand-edited save cannot make the wording reach into an object, nor fail."""
    assert reason_text(N_("{card.__class__} {card[0]}", card="7h")) == "{card.__class__} {card[0]}"
    assert reason_text(N_("deadwood {deadwood}")) == "deadwood {deadwood}"  # a value missing
    assert reason_text(N_("{}", card="7h")) == "{}"
    assert reason_text(N_("unbalanced {card", card="7h")) == "unbalanced {card"
    assert reason_text("Discard 9c: text of an old save.") == "Discard 9c: text of an old save."
    assert reason_text(None) == ""


def test_reasons_as_json_and_back() -> None:
    reason = joined(
        "; ",
        [
            N_("Discard {card}: it leaves deadwood {deadwood}", card="9c", deadwood=12),
            ngettext(
                "{n} pair of cards make gin within two draws", "{n} pairs of cards make gin within two draws", 2, n=2
            ),
        ],
        ".",
    )
    data = json.loads(json.dumps(to_json(reason)))
    assert from_json(data) == reason
    assert from_json("text of an old save") == "text of an old save"
    for bad in ({"msg": 3}, {"msg": "x", "values": []}, {"join": "; ", "parts": "x"}, {"other": 1}, [1], None, 2.5):
        with pytest.raises(ValueError):
            from_json(bad)
    deep: Any = "x"
    for _ in range(20):
        deep = {"msg": "{v}", "values": {"v": deep}}
    with pytest.raises(ValueError):
        from_json(deep)


# ------------------------------------------------------------------------------------ the agents
@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ("classic", ["expert", "greedy"]),
        ("three", ["expert", "beginner", "random"]),
        ("gin-solitaire", ["planner", "joker"]),
    ],
)
def test_the_agents_reasons_are_data(variant: str, seats: list[str]) -> None:
    session = make_session(variant, seats=seats, deal_seed=3)
    session.start_hand()
    reasons = []
    while not session.state.is_hand_over and len(reasons) < 12:
        event = session.computer_step()
        assert event is not None
        reasons.append(event.reason)
    assert reasons and all(isinstance(r, (Message, Joined)) for r in reasons), reasons
    for reason in reasons:
        english = reason_text(reason)
        with using("ko"):
            assert HANGUL.search(reason_text(reason)), english


def test_a_hint_worked_out_in_one_language_is_shown_in_another() -> None:
    session = make_session("classic", seats=["human", "expert"], deal_seed=7)
    session.start_hand()
    while session.human_to_act() is None:
        session.computer_step()
    with using("lv"):
        advice = session.hint(0)
    assert isinstance(advice.why, (Message, Joined))
    with using("ko"):
        korean = reason_text(advice.why)
    with using("lv"):
        latvian = reason_text(advice.why)
    assert HANGUL.search(korean) and not HANGUL.search(latvian) and latvian != reason_text(advice.why)


# ------------------------------------------------------------------------------------ saves
def _played(lang: str) -> Session:
    with using(lang):
        session = make_session("classic", seats=["expert", "expert"], deal_seed=5)
        session.start_hand()
        for _ in range(8):
            session.computer_step()
    return session


def test_a_resumed_game_words_its_old_reasons_in_the_language_of_now() -> None:
    session = _played("ko")  # played in Korean
    saved = json.loads(json.dumps(session.to_json()))
    back = Session.from_json(saved)
    assert back.moves() == session.moves()
    with using("lv"):  # resumed in Latvian
        lines = [line for seat in (0, 1) for line in back.log_text(seat)]
        assert lines == [line for seat in (0, 1) for line in session.log_text(seat)]
    assert not any(HANGUL.search(line) for line in lines)
    assert sum(1 for line in lines if LATVIAN.search(line)) >= 4
    with using("ko"):
        assert any(HANGUL.search(line) for line in back.log_text(0))
    # privacy as before: a spectator reads no reason (the hand is not over)
    with using("lv"):
        assert back.log_text(None) == session.log_text(None)
        worded = [reason_text(m.reason) for m in back.moves() if m.reason is not None]
        assert worded and not any(w in line for w in worded for line in back.log_text(None))


def test_a_game_saved_when_reasons_were_text_still_loads() -> None:
    """A save written before reasons were data (by ginrummy 36cd7ca, in Korean): it loads, plays
    on, and shows its old reasons as they were written; the new moves' reasons are data."""
    saved = json.loads(OLD_SAVE.read_text(encoding="utf-8"))
    old = [note[4] for note in saved["notes"]]
    assert old and all(isinstance(r, str) and HANGUL.search(r) for r in old)
    session = Session.from_json(saved)
    moves = session.moves()
    assert [m.reason for m in moves] == old
    with using("lv"):
        seat = moves[0].seat
        own = session.log_text(seat)
        assert any(old[0] in line for line in own)  # shown as it was written
        assert not any(old[0] in line for line in session.log_text(None))  # and still to its seat only
        event = session.computer_step()
        assert event is not None and isinstance(event.reason, (Message, Joined))
        new = reason_text(event.reason)
        assert new in session.move_text(event, event.seat) and not HANGUL.search(new)
    again = Session.from_json(json.loads(json.dumps(session.to_json())))
    assert [m.reason for m in again.moves()][: len(old)] == old  # old text is saved again as text
    assert again.moves()[-1].reason == event.reason


def test_a_damaged_reason_loses_only_its_words() -> None:
    session = _played("en")
    saved = session.to_json()
    saved["notes"][0][4] = {"msg": ["not", "text"]}
    saved["notes"][1][4] = {"nothing": "here"}
    back = Session.from_json(saved)
    assert back.moves()[0].reason is None and back.moves()[1].reason is None
    assert back.moves()[0].taken == session.moves()[0].taken and back.moves()[2:] == session.moves()[2:]


# ------------------------------------------------------------------------------------ the web table
starlette = pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ginrummy.web import create_app  # noqa: E402
from test_web import BASE, LOCAL, Client, choose  # noqa: E402 - the web table test helpers


def _connect(tc: TestClient, lang: str) -> Any:
    """A page in ``lang`` (the page sends its language as ``?lang=``)."""
    return tc.websocket_connect(f"/ws?lang={lang}", headers={"host": BASE.split("//")[1]})


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "data", computer_delay=0, deal_seed=101)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, client=LOCAL, base_url=BASE) as c:
        yield c


def _last_state(c: Client) -> dict[str, Any]:
    return next(m for m in reversed(c.log) if m["type"] == "state")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_two_viewers_at_a_table_read_the_computers_reasons_each_in_their_language(app: Any, client: TestClient) -> None:
    """One seat open in two pages, one Korean and one Latvian, both acting, against the expert:
    once the hand is over with the hands shown, each page's log gives the expert's reasons in its
    own language, the same reasons the server keeps."""
    rng = random.Random(4)
    with _connect(client, "ko") as ws_ko:
        ko = Client(ws_ko)
        joined = ko.join_reply({"type": "new", "variant": "classic", "opponent": "expert", "name": "Ann"})
        with _connect(client, "lv") as ws_lv:
            lv = Client(ws_lv)
            again = lv.join_reply({"type": "hello", "game": joined["game"], "token": joined["token"]})
            assert again["type"] == "joined" and again["seat"] == 0
            ko.request({"type": "deal"})
            pages = [ko, lv]
            for turn in range(300):
                page = pages[turn % 2]  # both pages act, so either may set the computer going
                obs = page.wait_turn()
                if obs["phase"] in ("deal", "over"):
                    break
                reply = page.request({"type": "act", "action": choose(obs, rng)})
                assert reply["type"] == "state", reply
                done = len(reply["obs"]["history"])
                pages[1 - turn % 2].await_obs(lambda o: len(o.get("history") or []) >= done)  # noqa: B023 - used at once
            for page in pages:
                page.await_obs(lambda o: o["phase"] in ("deal", "over"))
            session = app.state.manager.tables[joined["game"]].session
            assert session.hands_shown(), "the seed's hand must end with the hands shown"
            said = [e.reason for e in session.moves() if e.reason is not None]
            assert len(said) >= 3
            ko_log, lv_log = _last_state(ko)["log"], _last_state(lv)["log"]
    with using("ko"):
        assert ko_log == session.log_text(0)
        korean = [reason_text(r) for r in said]
    with using("lv"):
        assert lv_log == session.log_text(0)
        latvian = [reason_text(r) for r in said]
    assert all(any(k in line for line in ko_log) for k in korean)
    assert all(any(v in line for line in lv_log) for v in latvian)
    assert all(HANGUL.search(k) for k in korean)
    assert not any(HANGUL.search(line) for line in lv_log)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_computer_sitters_hint_is_read_in_each_captains_page_language(app: Any, client: TestClient) -> None:
    """Three: the computer sitter's suggestion is worked out once (for whichever page set it
    going) and read by the captain's Korean page and Latvian page each in its language."""
    with _connect(client, "en") as w0, _connect(client, "lv") as w1:
        box, captain_lv = Client(w0), Client(w1)
        made = box.join_reply(
            {
                "type": "create_table",
                "variant": "three",
                "seats": ["person", "expert"],
                "hints": True,
                "options": {"first_box": 0, "first_captain": 1},
            }
        )
        seat = captain_lv.join_reply({"type": "join", "invite": made["invite"]})
        with _connect(client, "ko") as w2:
            captain_ko = Client(w2)
            captain_ko.join_reply({"type": "hello", "game": seat["game"], "token": seat["token"]})
            box.request({"type": "deal"})
            captain_lv.request({"type": "deal"})  # the Latvian page deals: the sitter thinks after it
            got = {}
            for name, page in (("lv", captain_lv), ("ko", captain_ko)):
                msg = page.until(lambda m: m["type"] == "state" and "suggestion" in m["table"])
                got[name] = msg["table"]["suggestion"]
            table = app.state.manager.tables[made["game"]]
            kept = table.suggestion["text"]
    assert isinstance(kept, (Message, Joined))
    assert got["lv"]["action"] == got["ko"]["action"] and got["lv"]["from"] == got["ko"]["from"] == 2
    with using("lv"):
        assert got["lv"]["text"] == reason_text(kept)
    with using("ko"):
        assert got["ko"]["text"] == reason_text(kept)
    assert HANGUL.search(got["ko"]["text"]) and not HANGUL.search(got["lv"]["text"])


# ------------------------------------------------------------------------------------ no English left
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")  # card notation is two characters: 7h, Td (melds 7h-8h-9h)


@pytest.mark.parametrize(
    ("variant", "seats"),
    [
        ("classic", ["expert", "greedy"]),
        ("oklahoma", ["casual", "random"]),
        ("three", ["expert", "human", "beginner"]),
        ("solitaire", ["planner", "joker"]),
        ("gin-solitaire", ["greedy", "joker"]),
        ("hollywood", ["advanced", "human"]),
    ],
)
def test_every_reason_and_hint_of_a_game_is_korean_through_and_through(variant: str, seats: list[str]) -> None:
    """Seeded hands of each variant by each kind of computer player, with a hint at every person's
    turn: in Korean, no English word is left in a reason or a hint (the moves they name too)."""
    session = make_session(variant, seats=seats, deal_seed=11)
    said: list[Any] = []
    while not session.state.is_terminal and session.state.hand_number <= 2:
        if session.state.needs_deal:
            session.start_hand()
            continue
        person = session.human_to_act()
        if person is not None:
            advice = session.hint(person)
            said.append(advice.why)
            session.act(person, advice.best)
            continue
        event = session.computer_step()
        assert event is not None
        said.append(event.reason)
    assert len(said) >= 10
    with using("ko"):
        worded = [reason_text(r) for r in said]
    left = [w for w in worded if ENGLISH_WORD.search(w)]
    assert not left, left[:5]
    assert all(HANGUL.search(w) for w in worded)


def test_a_move_named_in_a_reason_is_in_the_readers_words() -> None:
    knock = N_("{move}: {note}.", move=move(Action.parse("knock 7h")), note=N_("deadwood {deadwood}", deadwood=3))
    with using("en"):
        assert reason_text(knock) == "Knock 7h: deadwood 3."
    with using("lv"):
        assert reason_text(knock).startswith("Klauvēt, nometot 7h")
    with using("en"):
        assert reason_text(move(Action.parse("draw"))) == "Draw" and reason_text(move(Action.parse("gin"))) == "Gin"
    assert from_json(json.loads(json.dumps(to_json(knock)))) == knock  # the context travels with it
