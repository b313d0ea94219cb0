"""The page's own texts (``static/app.js``, ``static/index.html``) in the player's language, from
the same gettext catalogs as everything else.

``app.js`` marks each text as ``_("English with {placeholders}")`` (Babel's javascript extractor
reads it, ``babel.cfg``); ``index.html``'s texts and its ``aria-label``, ``placeholder`` and
``title`` attributes are read by :func:`extract_html` (Babel runs it too, through ``babel.cfg``).
:func:`page_messages` gives the page ``{english: translation}`` for all of them; the page looks
its texts up there and shows the English when a text is missing."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from .. import i18n
from ..cards import full_pack
from ..words import _KINDS, RESULT_NAMES, result_name, seat_kind

__all__ = ["agent_names", "card_names", "extract_html", "page_messages", "page_msgids", "result_names"]

STATIC_DIR = Path(__file__).parent / "static"
_ATTRIBUTES = ("aria-label", "placeholder", "title")
_JS_CALL = re.compile(r'\b_\(\s*"((?:[^"\\\n]|\\.)*)"')
_SKIP = ("script", "style")


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP or ("translate", "no") in attrs or self.skipping:
            self.skipping += 1  # (HTML's translate="no": the language names, each in itself)
        for name, value in attrs:
            if name in _ATTRIBUTES and not self.skipping and value and value.strip():
                self.found.append((self.getpos()[0], " ".join(value.split())))

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self.skipping and re.search(r"[A-Za-z]", text):
            self.found.append((self.getpos()[0], text))


def _html_texts(source: str) -> list[tuple[int, str]]:
    parser = _Texts()
    parser.feed(source)
    parser.close()
    return parser.found


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extractor for ``index.html``: each text (whitespace collapsed) and each
    ``aria-label``, ``placeholder`` and ``title`` attribute, as a message."""
    for line, text in _html_texts(fileobj.read().decode("utf-8")):
        yield line, None, text, []


@functools.cache
def page_msgids() -> tuple[str, ...]:
    """Every English text of the page: ``_("...")`` calls of ``app.js`` and ``index.html``'s texts."""
    found: dict[str, None] = {}
    js = (STATIC_DIR / "app.js").read_text(encoding="utf-8")
    for m in _JS_CALL.finditer(js):
        found[json.loads(f'"{m.group(1)}"')] = None
    for _line, text in _html_texts((STATIC_DIR / "index.html").read_text(encoding="utf-8")):
        found[text] = None
    return tuple(found)


@functools.cache
def page_messages(lang: str) -> dict[str, str]:
    """``{english: translation}`` of the page's texts in ``lang`` (English: each text itself)."""
    catalog = i18n.translation(lang)
    return {msgid: catalog.gettext(msgid) for msgid in page_msgids()}


@functools.cache
def card_names(lang: str) -> dict[str, str]:
    """Each card's name for screen readers in ``lang`` (``{"Qd": "Queen of diamonds"}``)."""
    with i18n.using(lang):
        return {str(card): card.spoken() for card in full_pack()}


@functools.cache
def agent_names(lang: str) -> dict[str, str]:
    """Each kind of seat (``expert``, ``human``...) named in ``lang``."""
    with i18n.using(lang):
        return {kind: seat_kind(kind) for kind in _KINDS}


@functools.cache
def result_names(lang: str) -> dict[str, str]:
    """How each way a hand ends is named in ``lang`` (``undercut``, ``draw``: the wall...)."""
    with i18n.using(lang):
        return {kind: result_name(kind) for kind in RESULT_NAMES}
