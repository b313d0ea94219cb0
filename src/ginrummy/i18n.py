"""The players' languages: which one to speak, and the message catalogs (gettext).

Every text a person reads is written in English in the source, marked with :func:`_` (or
:func:`ngettext` when it counts something), and looked up in a gettext catalog of the chosen
language: ``src/ginrummy/locale/<lang>/LC_MESSAGES/ginrummy.po``, compiled to ``.mo`` when the
package is built (``setup.py``).  Run from a source tree with no ``.mo`` (an editable install, a
plain checkout on ``PYTHONPATH``), Babel compiles the ``.po`` in memory instead; both paths give the
same catalog.  Babel also extracts the messages (``docs/translating.md``); lookups are the standard
library's gettext.

Messages are whole sentences with named placeholders, never fragments glued together:

>>> _("{name} draws from the stock").format(name="Expert")
'Expert draws from the stock'
>>> with using("lv"):
...     ngettext("{n} hand won", "{n} hands won", 21).format(n=21)
'uzvarēta 21 partija'

The language is chosen in this order (:func:`choose_language`): ``--lang``, the saved setting,
the environment (``LANGUAGE``, then the first set of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
English.  The browser's ``Accept-Language`` header is read by :func:`accept_language`.
``xx`` is a pseudo-locale for tests: every message comes back wrapped in ``⟦…⟧``, so that text
which bypassed the catalogs stands out.

The current language is a context variable: :func:`set_language` sets it for the process (the
CLI does), :func:`using` for a block (a web connection wording a message for one viewer).
Records, the record notation (``discard 7h``) and JSON stay language-neutral: they are never
translated.
"""

from __future__ import annotations

import contextlib
import gettext
import io
import json
import os
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "NP_",
    "N_",
    "PSEUDO",
    "_",
    "accept_language",
    "choose_language",
    "compile_po",
    "current_language",
    "environment_language",
    "ngettext",
    "normalize_language",
    "npgettext",
    "pgettext",
    "save_language",
    "saved_language",
    "set_language",
    "translation",
    "using",
]

DOMAIN = "ginrummy"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "ko", "lv")
"""The languages a player may choose; English is the source language (no catalog)."""
LANGUAGE_NAMES = {"en": "English", "ko": "한국어", "lv": "latviešu"}
"""Each language named in itself, for menus."""
PSEUDO = "xx"
"""The pseudo-locale: every message wrapped in markers (tests only; never saved as a setting)."""
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
SETTINGS_FILE = "settings.json"


# ---------------------------------------------------------------------------------------------
# Catalogs
# ---------------------------------------------------------------------------------------------
class PseudoTranslations(gettext.NullTranslations):
    """``xx``: each message wrapped in ``⟦…⟧`` (placeholders kept, so ``.format`` still works),
    with English plural choice."""

    def gettext(self, message: str) -> str:
        return f"{PSEUDO_OPEN}{message}{PSEUDO_CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


def _catalog_paths(lang: str) -> tuple[Path, Path]:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    return folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"


@cache
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (a name from :data:`LANGUAGES` or :data:`PSEUDO`): the compiled
    ``.mo`` shipped in the package, else the ``.po`` compiled in memory (a source tree); English,
    and any language without a catalog, translate nothing."""
    if lang == PSEUDO:
        return PseudoTranslations()
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    mo, po = _catalog_paths(lang)
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if po.is_file():
        return gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    return gettext.NullTranslations()


def compile_po(po: Path) -> bytes:
    """``po`` compiled to a GNU ``.mo`` by Babel, as ``pybabel compile`` and the build do (fuzzy
    entries left out): a source tree reads its catalogs this way."""
    # Imported here, not at the top: every command imports this module, and an installed package
    # ships its .mo, so Babel's 10 ms of imports are paid only by a source tree speaking ko or lv.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    buf = io.BytesIO()
    with po.open("rb") as f:
        write_mo(buf, read_po(f, locale=po.parent.parent.name))
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# The current language and the lookup functions
# ---------------------------------------------------------------------------------------------
_process_language = ["en"]
_current: ContextVar[str | None] = ContextVar("ginrummy_language", default=None)


def current_language() -> str:
    """The language texts are written in now (``en``, ``ko``, ``lv`` or ``xx``)."""
    return _current.get() or _process_language[0]


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this process (a block inside :func:`using` keeps its own)."""
    _process_language[0] = _checked(lang)


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block (this thread or task only)."""
    token = _current.set(_checked(lang))
    try:
        yield
    finally:
        _current.reset(token)


def _checked(lang: str) -> str:
    if lang not in LANGUAGES and lang != PSEUDO:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    return lang


def _(message: str) -> str:
    """``message`` in the current language."""
    return translation(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that counts ``n`` things, in the current language (Korean has one
    form, Latvian three, as CLDR has them: 1, 21...; 2-9, 22...; 0, 10-20, 30...)."""
    return translation(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English in another
    ``context`` (``pgettext("suit, in a card's name", "spades")``)."""
    return translation(current_language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translation(current_language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks ``message`` for extraction without translating it now (tables built at import)."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` in ``context`` for extraction (looked up later with :func:`pgettext`);
    both must be string literals for Babel to read them."""
    return message


# ---------------------------------------------------------------------------------------------
# Choosing the language
# ---------------------------------------------------------------------------------------------
def normalize_language(tag: str | None) -> str | None:
    """A locale name or language tag as one of :data:`LANGUAGES` (or :data:`PSEUDO`), or None:
    ``ko_KR.UTF-8`` -> ``ko``, ``lv-LV`` -> ``lv``, ``en_GB`` -> ``en``, ``C``/``POSIX``/``de`` -> None."""
    if not tag:
        return None
    base = re.split(r"[-_.@]", tag.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES or base == PSEUDO else None


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, as gettext reads it: the first known language of
    ``LANGUAGE`` (a colon-separated list), else the first set of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` if it is a known one; None otherwise.  (As in GNU gettext, ``LANGUAGE`` is ignored
    when the locale is ``C`` or ``POSIX``.)"""
    env = os.environ if environ is None else environ
    locale_name = next((env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), "")
    if locale_name not in ("C", "POSIX") and not locale_name.startswith(("C.", "POSIX.")):
        for part in env.get("LANGUAGE", "").split(":"):
            lang = normalize_language(part)
            if lang is not None and lang != PSEUDO:
                return lang
    lang = normalize_language(locale_name)
    return lang if lang != PSEUDO else None


def saved_language(folder: str | os.PathLike[str] | None) -> str | None:
    """The language saved in ``folder``'s settings (the data directory), or None when there is
    none or the file cannot be read."""
    if folder is None:
        return None
    try:
        data = json.loads((Path(folder) / SETTINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get("language") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) and lang in LANGUAGES else None


def save_language(folder: str | os.PathLike[str], lang: str) -> None:
    """Remember ``lang`` in ``folder``'s settings, keeping the other settings; written atomically
    (a failure leaves the file as it was and raises OSError).  A settings file that cannot be read
    as a JSON object is not overwritten (it may hold settings a person wants back): OSError."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    path = Path(folder) / SETTINGS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {}
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise OSError(f"{path} is not a settings file that can be read; it is left as it was")
    data["language"] = lang
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{SETTINGS_FILE}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def choose_language(
    option: str | None = None, saved: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The language to speak: ``option`` (``--lang``), else ``saved`` (the setting), else the
    environment's (:func:`environment_language`), else English."""
    for lang in (normalize_language(option), normalize_language(saved)):
        if lang is not None:
            return lang
    return environment_language(environ) or "en"


def accept_language(header: str | None) -> str:
    """The language to answer a browser in, from its ``Accept-Language`` header (RFC 9110:
    ``ko-KR,ko;q=0.9,en;q=0.8``): the known language with the highest weight (the earlier one on a
    tie), English when none is known.  A malformed part is skipped, never an error."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((header or "").split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for p in params:
            name, _sep, value = p.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = -1.0
        if not 0 < q <= 1:
            continue
        lang = normalize_language(tag)
        if lang is None or lang == PSEUDO:
            continue
        if best is None or (q, -i) > (best[0], best[1]):
            best = (q, -i, lang)
    return best[2] if best is not None else "en"
