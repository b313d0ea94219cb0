"""Issue 18, "no English left on screen": what the browser app's server says to a page (its
``error`` messages, its HTTP refusals, a computer player's failure) in the viewer's language;
the ``seq`` of a refused request in its ``error``; the command line's own words (argparse's) and
``simulate``'s output through the catalogs.  Under the ``xx`` pseudo-locale every catalog text
is wrapped in ``⟦…⟧``: text outside the markers did not come from the catalogs."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ginrummy import i18n
from ginrummy.i18n import using
from ginrummy.session import Session
from ginrummy.web import create_app
from ginrummy.web.protocol import readable
from ginrummy.web.table import Table
from ginrummy.web.tables import _tell
from ginrummy.words import computer_failed
from test_web import BAD_MESSAGES, BASE, LOCAL, REMOTE, Client

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")


def outside_markers(text: str, gap: str = "") -> str:
    """What is left of ``text`` once every pseudo-locale message (innermost first) is taken out
    (each replaced by ``gap``)."""
    while MARKED.search(text):
        text = MARKED.sub(gap, text)
    return text.strip()


def test_outside_markers_finds_english() -> None:
    assert outside_markers("⟦{type}: ⟦the field 'x' is required⟧⟧".replace("{type}", "act")) == ""
    assert outside_markers("act: ⟦the field⟧") == "act:"
    assert outside_markers("the game is over") == "the game is over"


# ------------------------------------------------------------------------------------ the server
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "data", computer_delay=0, deal_seed=101)
    with TestClient(app, client=LOCAL, base_url=BASE) as c:
        yield c


def connect(tc: TestClient, lang: str) -> Any:
    return tc.websocket_connect(f"/ws?lang={lang}", headers={"host": BASE.split("//")[1]})


# the codes whose words are the library's own (options, names, the record notation: another
# developer's part of issue 18), not the web server's
LIBRARY_CODES = {"bad_options", "bad_name", "bad_action"}


def test_every_protocol_error_is_worded_in_the_viewers_language(client: TestClient) -> None:
    """Each refusal of a malformed or misplaced request reaches a ``?lang=xx`` page inside the
    markers: none of the server's sentences bypasses the catalogs."""
    with connect(client, "xx") as ws:
        c = Client(ws)
        for raw, code, _words in BAD_MESSAGES:
            ws.send_text(raw)
            reply = c.recv()
            assert reply["type"] == "error" and reply["code"] == code, reply
            if code not in LIBRARY_CODES:
                assert outside_markers(reply["message"]) == "", reply["message"]
        # refusals in a game: the hand in play, a card not held, the replay, a table's seats...
        joined = c.join_reply({"type": "new", "variant": "classic"})
        assert joined["type"] == "joined"
        c.request({"type": "deal"})
        obs = c.wait_turn()
        held = set(obs["hand"])
        stranger = next(card for card in ("Ac", "2c", "3c", "4c", "5c", "6c", "7c") if card not in held)
        in_game = [
            {"type": "deal"},
            {"type": "act", "action": f"discard {stranger}"},
            {"type": "replay"},
            {"type": "suggest", "action": "draw"},
            {"type": "reissue", "seat": 1},
            {"type": "seat_computer", "seat": 1},
            {"type": "resume", "game": "nothing-here"},
            {"type": "join", "invite": "nope", "seat": 1},
        ]
        for msg in in_game:
            reply = c.request(msg)
            assert reply["type"] == "error", (msg, reply)
            assert outside_markers(reply["message"]) == "", (msg, reply["message"])


def test_a_korean_page_reads_the_servers_errors_in_korean(client: TestClient) -> None:
    with connect(client, "ko") as ws:
        c = Client(ws)
        reply = c.request({"type": "deal"})
        with using("ko"):
            assert reply["message"] == i18n._("take a seat first: send hello, new, create_table or join")
        assert reply["message"].startswith("먼저 자리에 앉으세요")
        ws.send_text('{"type": "act"}')
        assert c.recv()["message"] == "act: 'action' 필드가 필요합니다"


def test_refused_requests_carry_their_seq(tmp_path: Path) -> None:
    """A client waiting for the reply to its request gets it even when the request is refused
    for its rate or as not valid: the ``error`` carries the ``seq`` (and type) it could read."""
    app = create_app(tmp_path / "data", computer_delay=0, rate=0.001, burst=2)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc, connect(tc, "lv") as ws:
        c = Client(ws)
        ws.send_json({"type": "act", "seq": 5})  # not valid: no action
        reply = c.recv()
        assert (reply["code"], reply["seq"], reply["ref"]) == ("bad_message", 5, "act")
        assert reply["message"] == "act: lauks 'action' ir obligāts"
        ws.send_json({"type": "fly", "seq": 6})  # an unknown type: the seq still comes back
        reply = c.recv()
        assert (reply["code"], reply["seq"], "ref" in reply) == ("bad_message", 6, False)
        ws.send_json({"type": "ping", "seq": 7})  # the bucket of 2 is empty now
        reply = c.recv()
        assert (reply["code"], reply["seq"], reply["ref"]) == ("rate_limited", 7, "ping")
        assert reply["message"].startswith("pārāk daudz ziņojumu")
        ws.send_text('{"type": "ping", "seq": "8"}')  # a seq that is not one is not echoed
        reply = c.recv()
        assert reply["code"] == "rate_limited" and "seq" not in reply


def test_what_can_be_read_of_a_refused_request() -> None:
    assert readable('{"type": "act", "seq": 3, "action": 7}') == ("act", 3)
    assert readable('{"type": "nope", "seq": 3}') == (None, 3)
    assert readable('{"seq": true}') == (None, None)
    assert readable('{"seq": -1}') == (None, None)
    assert readable("[1]") == (None, None)
    assert readable("not json") == (None, None)
    assert readable("[" * 100_000) == (None, None)  # too large to read: nothing
    assert readable(b'{"type": "deal", "seq": 2}') == ("deal", 2)


def test_http_refusals_speak_the_asking_pages_language(client: TestClient) -> None:
    r = client.get("/api/rules/nope?lang=xx")
    assert r.status_code == 404 and outside_markers(r.json()["error"]) == ""
    r = client.get("/api/replay/..bad..", headers={"accept-language": "ko-KR,ko;q=0.9"})
    assert r.status_code in (400, 404)
    r = client.get("/api/replay/nothing", headers={"accept-language": "lv"})
    assert r.status_code == 404 and r.json()["error"] == "nav pabeigtas spēles nothing"
    with TestClient(client.app, client=REMOTE, base_url=BASE) as remote:
        r = remote.get("/api/saved?lang=ko")
        assert r.status_code == 403 and r.json()["error"] == "서버를 실행하는 컴퓨터에서만 가능합니다"
    # a name the server is not served as (DNS rebinding): the refusal in the browser's language
    r = client.get("/", headers={"host": "evil.example", "accept-language": "lv-LV"})
    assert r.status_code == 400 and r.text.startswith("nezināms resursdators")
    r = client.get("/?lang=xx", headers={"host": "evil.example"})
    assert r.status_code == 400 and outside_markers(r.text) == ""


def test_a_computer_players_failure_is_worded_for_each_viewer() -> None:
    """The table keeps who failed; each seat is told in its own language."""
    session = Session.new("classic", None, players=["You", "Expert"], seats=["human", "expert"], deal_seed=1)
    table = Table("g1", session, kind="solo", hints=True, claimed={0})
    table.failure = "Expert"
    for lang in ("en", "ko", "lv", "xx"):
        with using(lang):
            assert table.public(0)["failure"] == computer_failed("Expert")
    with using("ko"):
        assert "전문가" in table.public(0)["failure"]


class _Seat:
    """A connection at a seat, as the table sees it (what :func:`_tell` sends it)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.table = None
        self.seat = None
        self.sent: list[tuple[str, str]] = []

    def send(self, msg: dict[str, Any]) -> None:
        raise AssertionError(msg)

    def error(self, code: str, message: str, *, ref: str | None = None, seq: int | None = None) -> None:
        self.sent.append((code, message))


def test_a_seat_given_away_is_told_in_its_own_language() -> None:
    """The person whose seat the creator gave away hears it in their language, not the creator's."""
    korean, latvian = _Seat("ko"), _Seat("lv")
    with using("en"):  # the creator's request is handled in English
        _tell(korean, "seat_reissued", "the table's creator gave your seat to someone else")
        _tell(latvian, "seat_reissued", "the table's creator gave your seat to a computer player")
    assert korean.sent == [("seat_reissued", "테이블을 만든 사람이 당신 자리를 다른 사람에게 넘겼습니다")]
    assert latvian.sent == [("seat_reissued", "galda veidotājs atdeva Jūsu vietu datorspēlētājam")]


# ------------------------------------------------------------------------------------ the command line
# What may stand outside the markers in the command line's output: its syntax (the program and
# command names, options, metavars, choices, quoted values typed), numbers and table rules.
SYNTAX = re.compile(
    r"""^[\[\](),|:…]*(?:
        ginrummy|play|deadwood|replay|verify|simulate|stats|export|serve
        |classic|oklahoma|hollywood|three|solitaire|gin-solitaire
        |-{1,2}[a-z][\w-]*|[A-Z][A-Z_|=]*|\.\.\.|\{[\w,-]+\}|'[^']*'|[\d.,+:-]+
    )?[\[\](),|:…]*$""",
    re.X,
)


def bare_cli(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-locale's markers that are not command syntax."""
    return [word for word in outside_markers(text, " ").split() if not SYNTAX.match(word)]


def run_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    from ginrummy.cli import main

    try:
        code = main(["--data-dir", str(tmp_path / "data"), *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


REFUSED = [
    ("verify",),  # the following arguments are required
    ("nope",),  # invalid choice (the command)
    ("--lang", "xx", "--nope"),  # unrecognized arguments
    ("simulate", "--hands", "x"),  # invalid int value
    ("stats", "--opponent"),  # expected one argument
]


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a))
def test_argparses_own_words_come_from_the_catalogs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    code, _out, err = run_cli(capsys, tmp_path, "--lang", "xx", *argv)
    assert code == 2 and "⟦usage: ⟧ginrummy" in err and "error: ⟦" in err, err
    assert bare_cli(err) == [], err


@pytest.mark.parametrize(
    "command", ["", "play", "deadwood", "replay", "verify", "simulate", "stats", "export", "serve"]
)
def test_every_commands_help_is_in_the_catalogs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    code, out, _err = run_cli(capsys, tmp_path, "--lang", "xx", *([command] if command else []), "--help")
    assert code == 0 and "⟦options⟧:" in out and "⟦show this help message and exit⟧" in out
    assert bare_cli(out) == [], out


def test_argparses_words_in_korean_and_latvian(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = run_cli(capsys, tmp_path, "--lang", "ko", "verify")
    assert code == 2
    assert err.startswith("사용법: ginrummy verify")
    assert err.endswith("ginrummy verify: 오류: 다음 인자가 필요합니다: RECORD\n")
    code, _out, err = run_cli(capsys, tmp_path, "--lang", "lv", "--wrong")
    assert code == 2 and err.endswith("ginrummy: kļūda: neatpazīti argumenti: --wrong\n")
    code, _out, err = run_cli(capsys, tmp_path, "--lang", "lv", "simulate", "--backend", "snail")
    assert "arguments --backend: nederīga izvēle: 'snail' (izvēlieties no 'process', 'ray')" in err
    code, out, _err = run_cli(capsys, tmp_path, "--lang", "ko", "deadwood", "--help")
    assert out.startswith("사용법: ginrummy deadwood") and "\n위치 인자:\n" in out and "\n옵션:\n" in out
    assert "이 도움말을 보여 주고 끝냅니다" in out
    code, out, _err = run_cli(capsys, tmp_path, "--lang", "lv", "--help")
    assert "\niespējas:\n" in out and "parādīt programmas versiju un iziet" in out


@pytest.mark.english
def test_argparse_is_left_as_it_was_found(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """After ginrummy's parser, another parser in the process speaks argparse's own English."""
    import argparse
    import gettext

    run_cli(capsys, tmp_path, "--lang", "ko", "verify")
    assert vars(argparse)["_"] is gettext.gettext and vars(argparse)["ngettext"] is gettext.ngettext
    with pytest.raises(SystemExit):
        argparse.ArgumentParser(prog="other").parse_args(["--x"])
    assert "other: error: unrecognized arguments: --x" in capsys.readouterr().err


def test_the_argparse_messages_keep_their_placeholders() -> None:
    """argparse fills its messages with ``%``: a translation keeps every placeholder."""
    from ginrummy.cli import ARGPARSE_MESSAGES

    percent = re.compile(r"%(?:\(\w+\))?[sr]")
    for lang in ("ko", "lv"):
        with using(lang):
            for message in ARGPARSE_MESSAGES:
                said = i18n._(message)
                assert said != message or message == "%s", (lang, message)
                assert sorted(percent.findall(said)) == sorted(percent.findall(message)), (lang, message, said)
            for n in (1, 2, 5, 11):
                said = i18n.ngettext("expected %s argument", "expected %s arguments", n)
                assert percent.findall(said) == ["%s"]


def test_simulates_output_is_in_the_catalogs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The summary, the table's headings and the closing line under ``xx``: outside the markers
    only the variant and agents as named on the command line, and figures."""
    for variant, extra in (("classic", []), ("solitaire", ["--exact", "--options", "scoring=basic"])):
        code, out, err = run_cli(
            capsys, tmp_path, "--lang", "xx", "simulate", "--variant", variant, "--hands", "2", "--workers", "1", *extra
        )
        assert code == 0, err
        rest = outside_markers(out)
        rest = re.sub(rf"\b({variant}|greedy|scoring=basic)\b|\(#\d\)|[-+\d.,:%]+", " ", rest)
        assert rest.split() == [], out
        assert outside_markers(err.replace("ginrummy simulate: ", "")) == ""  # the progress lines
    code, out, _err = run_cli(
        capsys, tmp_path, "--lang", "ko", "simulate", "--variant", "classic", "--hands", "2", "--workers", "1"
    )
    assert out.startswith("클래식 진 (classic): 미러링한 딜 2개, 시드 0, 작업자 1개, ")
    assert "에이전트" in out and "95% 신뢰구간, 딜 단위로 묶음." in out
    code, out, _err = run_cli(
        capsys, tmp_path, "--lang", "lv", "simulate", "--variant", "three", "--hands", "1", "--workers", "1", "--games"
    )
    assert out.startswith("Džins trim (three): 1 rotēta spēle, sēkla 0, 1 darba process, ")
    code, _out, err = run_cli(
        capsys, tmp_path, "--lang", "lv", "simulate", "--variant", "classic", "--agents", "greedy"
    )
    assert code == 2 and "variantam classic vajadzīgi 2 aģenti" in err


def test_the_simulation_table_aligns_korean_by_terminal_cells(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from ginrummy.sim.stats import _cells

    _code, out, _err = run_cli(
        capsys, tmp_path, "--lang", "ko", "simulate", "--variant", "classic", "--hands", "2", "--workers", "1"
    )
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line) <= {"-", " "} and line)
    widths = {_cells(line) for line in lines[rule - 1 : rule + 3]}
    assert len(widths) == 1, lines[rule - 1 : rule + 3]


def test_stats_output_is_in_the_catalogs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``ginrummy stats`` under ``xx``: each game's heading (its title, and its name as
    ``--variant`` takes it) and every figure's line inside the markers."""
    import random as _random

    from ginrummy.store import Store, new_game_id

    store = Store(tmp_path / "data")
    rng = _random.Random(4)
    s = Session.new("classic", {"game_target": 25}, seats=["human", "greedy"], deal_seed=100)
    while not s.state.game_over:
        if s.state.needs_deal:
            s.start_hand()
        elif s.human_to_act() == 0:
            s.act(0, rng.choice(s.state.legal_actions()))
        else:
            s.run_computers()
    store.save_game(new_game_id(), s)
    code, out, err = run_cli(capsys, tmp_path, "--lang", "xx", "stats")
    assert code == 0, err
    assert re.match(r"⟦⟦[^⟦⟧]+⟧ \(classic\)⟧\n", out), out
    rest = outside_markers(out, " ")
    assert re.sub(r"[\d.,:%()+-]+|[▁▂▃▄▅▆▇█]+", " ", rest).split() == [], out
    code, out, _err = run_cli(capsys, tmp_path, "--lang", "lv", "stats")
    assert out.splitlines()[0].endswith(" (classic)") and "spēles 1" in out


def test_the_lobbys_lists_and_a_replay_name_the_seats_in_the_pages_language(tmp_path: Path) -> None:
    """The names ginrummy gives the seats (``You``, ``Greedy``) are stored in English and shown
    in the page's language in the lists of saved and finished games and in a replay."""
    import random as _random

    from ginrummy.store import Store, new_game_id

    store = Store(tmp_path / "data")
    rng = _random.Random(5)
    for finish in (True, False):
        s = Session.new(
            "classic", {"game_target": 25}, players=["You", "Greedy"], seats=["human", "greedy"], deal_seed=7
        )
        while not s.state.game_over and (finish or not s.state.logs):
            if s.state.needs_deal:
                s.start_hand()
            elif s.human_to_act() == 0:
                s.act(0, rng.choice(s.state.legal_actions()))
            else:
                s.run_computers()
        store.save_game(new_game_id() + ("f" if finish else "s"), s)
    app = create_app(store=store, computer_delay=0)
    with TestClient(app, client=LOCAL, base_url=BASE) as tc:
        finished = tc.get("/api/history?lang=ko").json()["games"]
        assert [g["players"] for g in finished] == [["나", "욕심쟁이"]]
        saved = tc.get("/api/saved", headers={"accept-language": "lv"}).json()["games"]
        assert [g["players"] for g in saved] == [["Jūs", "Mantkārīgais"]]
        replay = tc.get(f"/api/replay/{finished[0]['id']}?lang=ko").json()
        assert replay["players"] == ["나", "욕심쟁이"]
        assert tc.get("/api/history?lang=en").json()["games"][0]["players"] == ["You", "Greedy"]


def test_every_line_of_a_final_total_is_worded_from_the_catalogs() -> None:
    """The page shows each final total line by line (``final_parts``): every form the scoring
    writes (Hollywood's games too) is said again from the catalogs, none left in English."""
    import dataclasses

    from ginrummy.scoring import game_final_parts
    from ginrummy.words import final_part_text

    parts = set()
    for shutout in ("none", "double_game_bonus", "double_total"):
        for points, won in (([120, 0], [3, 0]), ([105, 40], [1, 2])):
            for seat in game_final_parts(points, won, game_bonus=100, box_bonus=25, shutout=shutout):
                parts |= set(seat)
    parts |= {dataclasses.replace(part, game=2) for part in parts}
    assert len({part.kind for part in parts}) == 5 and len(parts) >= 12
    with using("xx"):
        for part in sorted(parts, key=lambda p: p.what):
            assert outside_markers(final_part_text(part)) == "", part
    with using("en"):
        assert all(final_part_text(part) == part.what for part in parts)
    with using("lv"):
        box = next(part for part in parts if part.kind == "box" and part.hands == 1 and not part.game)
        assert final_part_text(box) != box.what and "25" in final_part_text(box)


def test_the_computer_sitters_suggestion_names_its_move_in_words() -> None:
    """Three: the sitter's suggestion (``words.sitter_line``) names the move as a sentence does, in
    the reader's words (``7h 버리기``), not in record notation; English keeps the notation."""
    from ginrummy.actions import Action
    from ginrummy.words import sitter_line

    players = ["You", "Greedy", "Expert 2"]
    for text in ("discard 7h", "draw", "take", "knock 7h"):
        action = Action.parse(text)
        with using("en"):
            assert sitter_line(players, 2, action, None) == f"Expert 2 (the sitter) suggests: {text}"
        for lang in ("ko", "lv"):
            with using(lang):
                line = sitter_line(players, 2, action, None)
            assert not re.search(r"\b(discard|draw|take|knock|suggests)\b", line), (lang, line)
            if action.card is not None:
                assert "7h" in line
        with using("xx"):
            assert outside_markers(sitter_line(players, 2, action, None)) == ""
