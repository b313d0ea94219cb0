"""The pseudo-locale run of the suite (issue 18): every test in the language ``xx``, and an audit of
the text the tests see reaching a person.

``python -m pytest --pseudo-locale`` (or ``GINRUMMY_TEST_LANG=xx``) runs the suite with ``xx``, which
wraps every catalog message in ``⟦…⟧``, as the language everywhere a test does not choose one itself:
the test process (``i18n.set_language``), the command line's default (the environment's language,
read by ``cli.main`` in the test process and in the commands the tests start: ``pseudo_site/``
goes on ``PYTHONPATH``, its ``sitecustomize`` makes the same switch there), and the web server's
default for a browser that asks for English or nothing (``Accept-Language``).

Then every text a test captures where it reaches a person is read (:func:`audit`): what a test
reads from ``capsys``/``capfd``, the output of a ``ginrummy`` command run with ``subprocess.run``,
the text fields of the web protocol's messages (``receive_json`` of a test client's web socket),
the terminal app's screen at each ``pilot.pause()``/``press()``, the page's visible text before a
screenshot and when a browser context closes.  A word outside the markers that is not data (card
notation, numbers, names the test gave, options, paths, JSON) did not come from the catalogs: the
test fails naming it (with ``GINRUMMY_PSEUDO_REPORT=file`` it is written to ``file``, one JSON line
each, and the test is left alone: a survey of the whole suite).

Text known to stay English (docs/translating.md, "Still in English") is listed in :data:`KNOWN`
with where it comes from; the audit lets it pass, and the list is the to-do list.

Tests that check English wording by nature (English snapshots, the choice of language) carry
``@pytest.mark.english``: the pseudo run skips them.  A test that compares a whole text with
English compares :func:`plain` of it (the markers taken out) instead.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PSEUDO = "xx"
OPEN, CLOSE = "⟦", "⟧"
ENV = "GINRUMMY_TEST_LANG"
REPORT_ENV = "GINRUMMY_PSEUDO_REPORT"
SITE = Path(__file__).resolve().parent / "pseudo_site"


def active() -> bool:
    """Whether this process runs in the pseudo-locale (the option, or the environment it set)."""
    return os.environ.get(ENV) == PSEUDO


def plain(text: str) -> str:
    """``text`` with the pseudo-locale's markers taken out: what an English run would show.  (In
    an English run there are none: the text itself.)"""
    for marker in (OPEN, CLOSE, "\\u27e6", "\\u27e7"):  # the markers, and as JSON or an ASCII terminal escape them
        text = text.replace(marker, "")
    return text


def shown(where: str, text: str) -> str:
    """``text`` a person reads (what a test's own stream caught, as plain mode's output): audited in
    the pseudo-locale run, and given back as :func:`plain` of it."""
    if active():
        AUDIT.text(where, text)
    return plain(text)


# ------------------------------------------------------------------------------------ the switch
def switch_language(i18n: Any) -> None:
    """Make ``xx`` the default language of this process: what is spoken when nothing is chosen
    (the process's language), what the environment asks for (so ``cli.main`` picks it without
    ``--lang``), and what a browser asking for English or for nothing gets.  A language a test
    chooses (``--lang ko``, ``using("lv")``, ``?lang=lv``, a saved setting) is kept."""
    if getattr(i18n, "_pseudo_switched", False):
        return
    i18n._pseudo_switched = True
    i18n.set_language(PSEUDO)
    environment_language = i18n.environment_language
    accept_language = i18n.accept_language

    def pseudo_environment_language(environ: Any = None) -> str | None:
        if environ is None:  # the real environment (a test passing its own mapping tests the function)
            return PSEUDO
        return environment_language(environ)  # type: ignore[no-any-return]

    def pseudo_accept_language(header: str | None) -> str:
        lang = accept_language(header)
        return PSEUDO if lang == "en" else lang  # type: ignore[no-any-return]

    i18n.environment_language = pseudo_environment_language
    i18n.accept_language = pseudo_accept_language


def subprocess_environment() -> None:
    """The commands the tests start inherit the switch: ``pseudo_site`` first on ``PYTHONPATH``."""
    os.environ[ENV] = PSEUDO
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(SITE) not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(SITE), *parts])


# ------------------------------------------------------------------------------------ the audit
# Text that is known to stay English, each with where it comes from (the to-do list of issue 18).
# Each: a pattern of the line as shown, and where the text comes from (whose it is to translate).
KNOWN: list[tuple[str, str]] = [
    (
        r"^\s+(play|deadwood|replay|verify|simulate|stats|export|serve)\s{2,}⟦",
        "the commands in ginrummy --help, by the names typed (data), cli.py",
    ),
    (
        r"^[a-z][\w:=,.-]*(?: \(#\d+\))?\s+\d+\s+-?\d+\.\d{4}\s",
        "simulate's rows: each agent as --agents names it (data), sim/stats.py",
    ),
    (r"no such thing", "tests/test_cli.py test_the_guard: the test's own exception text (data)"),
    (
        r"^\s*\d+(\.\d+)*\.? [A-Z]",
        "the rule book's text on the page in xx: docs/rules.md, translated whole as rules.{ko,lv}.md (a document)",
    ),
]

_WORD = re.compile(r"[A-Za-z]{2,}")
_CARD = re.compile(r"^(?:10|[2-9TJQKA])[cdhsCDHS]$|^(?:Jk|JK|jk)$")
# Tokens that are data: options (--lang), paths and URLs, identifiers (game_target, g1), numbers,
# hexadecimal, e-mail-like, JSON, the record notation's cards.
_DATA_TOKEN = re.compile(r"^[-+]|[/\\_=@#:<>{}\[\]`|$]|\d|^[A-Z][A-Z0-9_-]+$|\.[A-Za-z]")


# "ginrummy deadwood: ...", "usage: ginrummy simulate [-h]", "(see ginrummy verify)": a command's name
_PROGRAM = re.compile(r"\bginrummy(?: (?:play|deadwood|replay|verify|simulate|stats|export|serve)\b)?:?")
# Letters of Korean and Latvian (not of English): a text with them and no marker is in a language
# the test chose (``--lang lv``, ``using("ko")``), not the pseudo-locale's.
_OTHER_LANGUAGE = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318fāčēģīķļņšūžĀČĒĢĪĶĻŅŠŪŽ]")
# Words that are data wherever they appear: the program's name, the languages' names in themselves.
DATA_WORDS = frozenset(
    {"ginrummy", "English", "stdin"}  # stdin: the file name of standard input (commands/replay.py:56, verify.py:41)
    | {"esc", "ctrl", "shift", "tab", "enter", "space", "F1"}  # keys, as the keyboard names them
    | {
        "Ann",
        "Anna",
        "Bob",
        "Eve",
        "Lee",
        "Zoë",
        "Zo",
        "xeb",
        "Bo",
        "Ada",
        "Bea",
        "Cy",
        "Tui",
        "test",
        "latviešu",
        "Kim",
    }
    # (names the tests give players, the languages' names in themselves)
)


def bare(line: str, inside: int = 0) -> tuple[str, int]:
    """The parts of one line outside ``⟦…⟧`` (the rest blanked), and how deep inside markers the
    line ends.  A message may run over several lines (wrapped on a screen): ``inside`` is how deep
    the line starts (the previous line's end), and a line that closes more than it opens starts
    that much deeper."""
    depth, lowest = 0, 0
    for ch in line:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth -= 1
            lowest = min(lowest, depth)
    out, depth = [], max(inside, -lowest)
    for ch in line:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            out.append(ch)
            continue
        out.append(" ")
    return "".join(out), depth


# A screen's columns: the borders and rules that separate widgets side by side.
_COLUMNS = re.compile(r"[│┃║▏▕]")  # (not "|": the engine's lines put it between melds)


def _columns(text: str) -> list[str]:
    """Each line of ``text`` with the parts outside the markers kept, a message carried over the
    lines of its column (the panes of a screen side by side, split at their borders)."""
    carry: dict[int, int] = {}
    lines = []
    for line in text.splitlines():
        now: dict[int, int] = {}
        parts, start = [], 0
        for m in [*_COLUMNS.finditer(line), None]:
            end = m.start() if m is not None else len(line)
            segment, depth = bare(line[start:end], carry.get(start, 0))
            parts.append(segment)
            now[start] = depth
            if m is not None:
                parts.append(" ")
                start = m.end()
        carry = now
        lines.append("".join(parts))
    return lines


def english(line: str, data: Iterable[str] = ()) -> list[str]:
    """The words of ``line`` (its parts outside the markers) that are not data: each a word no
    catalog wrote."""
    found = []
    allowed = DATA_WORDS | {w for d in data for w in _WORD.findall(d)}
    for token in line.split():
        token = token.strip(".,;:!?()\"'«»“”‘’…—–*")
        if not token or token in allowed or _DATA_TOKEN.search(token) or _CARD.match(token):
            continue  # (a whole word first: latviešu is one, not "latvie" and "u")
        for word in _WORD.findall(token):
            if word not in allowed and not _CARD.match(word):
                found.append(word)
    return found


def _json_text(text: str) -> bool:
    s = text.strip()
    if not s or s[0] not in "[{":
        return False
    try:
        json.loads(s)
    except ValueError:
        return all(line.strip()[:1] in ("{", "[", "") for line in s.splitlines())  # JSON lines
    return True


class Audit:
    """The findings of the test running now."""

    def __init__(self) -> None:
        self.findings: list[dict[str, Any]] = []
        self.data: set[str] = set()  # words the test made up (players' names): data
        self.asked_for_pseudo = False  # the test ran ginrummy --lang xx itself: it reads the markers

    def reset(self) -> None:
        self.findings.clear()
        self.data.clear()
        self.asked_for_pseudo = False

    def text(self, where: str, text: str | None) -> None:
        """Read ``text`` shown to a person ``where`` (a stdout, a screen, a page)."""
        if not text or not isinstance(text, str) or _json_text(text):
            return
        text = text.replace("\\u27e6", OPEN).replace("\\u27e7", CLOSE)  # as an ASCII terminal shows them
        if OPEN not in text and _OTHER_LANGUAGE.search(text):
            return  # Korean or Latvian: a language the test chose
        for raw, line in zip(text.splitlines(), _columns(text), strict=True):
            if raw.lstrip().startswith(("{", "[")) and _json_text(raw):
                continue  # a JSON line (--json, a record) is data
            if any(re.search(pattern, raw) for pattern, _why in KNOWN):
                continue
            words = english(_PROGRAM.sub(lambda m: " " * len(m.group()), line), self.data)
            if words:
                self.findings.append({"where": where, "line": raw.strip()[:300], "words": words})

    def message(self, where: str, msg: Any) -> None:
        """A web protocol message: its fields that hold text for people, at any depth."""
        if isinstance(msg, dict):
            for key, value in msg.items():
                if key in TEXT_FIELDS and isinstance(value, str):
                    self.text(f"{where} {key}", value)
                elif key in TEXT_FIELDS and isinstance(value, list) and all(isinstance(v, str) for v in value):
                    for v in value:
                        self.text(f"{where} {key}", v)
                else:
                    self.message(where, value)
        elif isinstance(msg, list):
            for v in msg:
                self.message(where, v)


# The web protocol's fields that carry words for people (docs/web.md); the others are data.
TEXT_FIELDS = frozenset(
    {
        "message",
        "log",
        "text",
        "summary",
        "explanation",
        "lines",
        "why",
        "reason",
        "title",
        "long_title",
        "pile_label",
        "heading",
        "note",
        "notes",
        "label",
        "description",
        "help",
        "status",
        "detail",
    }
)

AUDIT = Audit()


def report(nodeid: str) -> str | None:
    """After a test: its findings as a failure message (None when clean).  With
    ``GINRUMMY_PSEUDO_REPORT`` they are appended to that file instead, and None is returned."""
    if not AUDIT.findings:
        return None
    findings = list(AUDIT.findings)
    AUDIT.findings.clear()
    path = os.environ.get(REPORT_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            for item in findings:
                f.write(json.dumps({"test": nodeid, **item}, ensure_ascii=False) + "\n")
        return None
    seen: dict[tuple[str, str], list[str]] = {}
    for item in findings:
        seen.setdefault((item["where"], item["line"]), item["words"])
    lines = [f"  {where}: {line!r} (outside the catalogs: {', '.join(w)})" for (where, line), w in seen.items()]
    return "text that bypassed the message catalogs reached a person:\n" + "\n".join(lines[:40])


# ------------------------------------------------------------------------------------ the hooks
def _asks_for_pseudo(argv: list[str]) -> bool:
    return "--lang=xx" in argv or any(a == "--lang" and b == PSEUDO for a, b in itertools.pairwise(argv))


def _wrap(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
    original = getattr(owner, name)
    if getattr(original, "_pseudo_audit", False):
        return
    wrapper = make(original)
    wrapper._pseudo_audit = True
    setattr(owner, name, wrapper)


def install_hooks() -> None:
    """Read what the tests capture, where they capture it."""
    import subprocess

    from _pytest.capture import CaptureFixture

    def readouterr(original: Any) -> Any:
        def wrapper(self: Any) -> Any:
            result = original(self)
            out, err = result.out, result.err
            if isinstance(out, str) and isinstance(err, str):
                AUDIT.text("stdout", out)
                AUDIT.text("stderr", err)
                if not AUDIT.asked_for_pseudo:
                    return type(result)(plain(out), plain(err))
            return result

        return wrapper

    _wrap(CaptureFixture, "readouterr", readouterr)

    from ginrummy import cli

    def main(original: Any) -> Any:
        def wrapper(argv: Any = None) -> Any:
            if argv is not None and _asks_for_pseudo([str(a) for a in argv]):
                AUDIT.asked_for_pseudo = True
            return original(argv)

        return wrapper

    _wrap(cli, "main", main)

    def run(original: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            command = args[0] if args else kwargs.get("args")
            argv = [str(a) for a in command] if isinstance(command, list | tuple) else str(command).split()
            if any("ginrummy" in a for a in argv) and "-c" not in argv:  # a ginrummy command
                words = " ".join(argv)[:80]
                for name in ("stdout", "stderr"):
                    stream = getattr(result, name)
                    if isinstance(stream, bytes):
                        AUDIT.text(f"{name} of {words}", stream.decode("utf-8", "replace"))
                        stream = plain(stream.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
                    elif isinstance(stream, str):
                        AUDIT.text(f"{name} of {words}", stream)
                        stream = plain(stream)
                    if not _asks_for_pseudo(argv):
                        setattr(result, name, stream)
            return result

        return wrapper

    _wrap(subprocess, "run", run)

    def popen_init(original: Any) -> Any:
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            env = kwargs.get("env")
            if env is not None:  # a test's own environment: the switch goes in it too
                env = dict(env)
                env[ENV] = PSEUDO
                parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
                if str(SITE) not in parts:
                    env["PYTHONPATH"] = os.pathsep.join([str(SITE), *parts])
                kwargs["env"] = env
            return original(self, *args, **kwargs)

        return wrapper

    _wrap(subprocess.Popen, "__init__", popen_init)

    try:
        with warnings.catch_warnings():  # (starlette's note on httpx, which the web tests meet anyway)
            warnings.simplefilter("ignore")
            from starlette.testclient import WebSocketTestSession
    except ImportError:
        pass
    else:

        def receive_json(original: Any) -> Any:
            def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                msg = original(self, *args, **kwargs)
                AUDIT.message(f"web message {msg.get('type') if isinstance(msg, dict) else ''}", msg)
                return msg

            return wrapper

        _wrap(WebSocketTestSession, "receive_json", receive_json)

    try:
        from textual.pilot import Pilot
    except ImportError:
        pass
    else:

        def after(original: Any) -> Any:
            async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                result = await original(self, *args, **kwargs)
                AUDIT.text("terminal screen", screen_text(self.app))
                return result

            return wrapper

        _wrap(Pilot, "pause", after)
        _wrap(Pilot, "press", after)

    try:
        from playwright.sync_api import BrowserContext, Page
    except ImportError:
        pass
    else:

        def shot(original: Any) -> Any:
            def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                AUDIT.text("page", page_text(self))
                return original(self, *args, **kwargs)

            return wrapper

        def close(original: Any) -> Any:
            def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
                for page in list(self.pages):
                    AUDIT.text("page", page_text(page))
                return original(self, *args, **kwargs)

            return wrapper

        _wrap(Page, "screenshot", shot)
        _wrap(BrowserContext, "close", close)


def screen_text(app: Any) -> str:
    """The terminal app's screen as text (what ``export_screenshot`` draws, without the colours)."""
    import io

    from rich.console import Console

    try:
        width, height = app.size
        console = Console(width=width, height=height, file=io.StringIO(), color_system=None, record=True)
        console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
        return console.export_text()
    except Exception:  # an app not running (yet, or any more): nothing on screen
        return ""


# The page's visible text, without the parts it marks as written in another language (``lang``:
# the English rule book's sections where none is translated, as the page tells screen readers).
_PAGE_TEXT = """() => {
  if (!document.body) return '';
  let text = document.body.innerText;
  for (const e of document.body.querySelectorAll('[lang]')) if (e.innerText) text = text.replace(e.innerText, '');
  return text;
}"""


def page_text(page: Any) -> str:
    """The page's visible text (``innerText`` skips what is hidden), the parts in another language
    left out."""
    try:
        return str(page.evaluate(_PAGE_TEXT))
    except Exception:  # a page closed or navigating
        return ""
