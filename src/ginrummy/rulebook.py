"""The rules of a variant for both apps' **Rules** dialogs, read from ``docs/rules.md`` (shipped in
the package as ``books/rules.md``, a link to the very file; in Korean and Latvian
``rules.ko.md`` and ``rules.lv.md``, whose sections 0-4 carry the same numbers, the options tables
of section 5 coming from the code, in words): the common definitions, the
variant's sections and its options table, as headings, paragraphs, lists and tables of text (the
page draws them without HTML; the terminal as Markdown, :func:`rules_markdown`)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from . import i18n
from .i18n import _
from .options import option_help
from .variants import find_variant
from .words import option_name, option_value, variant_title

__all__ = ["RULES_FILE", "rules_file", "rules_markdown", "section_ids", "variant_rules"]

RULES_FILE = Path(__file__).parent / "books" / "rules.md"

_HEADING = re.compile(r"^(#{2,4})\s+(.*)$")
_NUMBER = re.compile(r"^(\d+[a-z]?)\.\s")


def rules_file(lang: str = "en") -> Path:
    """The rule book in ``lang`` (``rules.ko.md``), the English one when there is no translation."""
    path = RULES_FILE.with_name(f"rules.{lang}.md")
    return path if lang != "en" and path.exists() else RULES_FILE


@functools.lru_cache(maxsize=4)
def _sections(path: Path = RULES_FILE) -> dict[str, tuple[str, list[str]]]:
    """Each section of the rule book by id (``1b``, ``5:classic``): its title and lines."""
    out: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    top = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line)
        if m:
            title = m.group(2).strip()
            number = _NUMBER.match(title)
            if number:
                top = number.group(1)
                key = top
            elif top == "5" and title.startswith("`"):
                key = f"5:{title.strip('`')}"
                title = f"Options of {title.strip('`')}"
            else:
                key = ""
            current = None
            if key:
                current = []
                out[key] = (title, current)
            continue
        if current is not None and not line.startswith("-----"):
            current.append(line)
    return out


def _blocks(lines: list[str]) -> list[dict[str, Any]]:
    """Paragraphs, lists and tables of a section's lines."""
    blocks: list[dict[str, Any]] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            blocks.append({"type": "p", "text": " ".join(para)})
            para.clear()

    for raw in lines:
        line = raw.rstrip()
        if not line.strip():
            flush()
            continue
        if line.startswith("|"):
            flush()
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(set(c) <= set("-: ") for c in cells):
                continue  # the header's rule
            if not blocks or blocks[-1]["type"] != "table":
                blocks.append({"type": "table", "rows": []})
            blocks[-1]["rows"].append(cells)
            continue
        item = re.match(r"^\s*[-*]\s+(.*)$", line)
        if item:
            flush()
            if not blocks or blocks[-1]["type"] != "ul":
                blocks.append({"type": "ul", "items": []})
            blocks[-1]["items"].append(item.group(1))
            continue
        if line.startswith("  ") and blocks and blocks[-1]["type"] == "ul" and not para:
            blocks[-1]["items"][-1] += " " + line.strip()  # a list item's next line
            continue
        para.append(line.strip())
    flush()
    return blocks


def section_ids(variant: str) -> tuple[str, ...]:
    """The rule book's sections that make up ``variant``'s rules (from the variant registry), its
    options table last (``5:<name>``).  The library's error for an unknown variant."""
    v = find_variant(variant)
    return (*v.rule_sections, f"5:{v.name}")


def _options_section(variant: str, key: str, lang: str) -> dict[str, Any]:
    """The options table of ``variant`` in ``lang``, from the code (as the English book's is): each
    option's name and default in words, its meaning, all translated; beside the name, the option
    with its default as records and ``--options`` take it (``knock_limit=10``: data)."""

    def code(name: str, value: object) -> str:
        return f"`{name}={str(value).lower() if isinstance(value, bool) else value}`"

    with i18n.using(lang):
        rows = [[_("option"), _("default"), _("meaning")]]
        rows += [
            [f"{option_name(n)} {code(n, d)}", option_value(d), _(doc) if doc else ""]
            for n, d, doc, _choices in option_help(variant)
        ]
        title = _("Options of {game}").format(game=variant_title(variant, short=True))
    return {"id": key, "title": title, "blocks": [{"type": "table", "rows": rows}], "lang": lang}


def variant_rules(variant: str, lang: str = "en") -> dict[str, Any]:
    """The rules of ``variant`` as sections of blocks, in ``lang`` where the book is translated
    (each section missing from the translation in English; the options table from the code, in
    ``lang``), each with the language it is written in (``lang``); the library's error for an
    unknown variant."""
    path = rules_file(lang)
    sections = _sections(path)
    english = _sections(RULES_FILE) if path != RULES_FILE else sections
    out = []
    for key in section_ids(variant):
        if lang != "en" and key.startswith("5:"):
            out.append(_options_section(variant, key, lang))
            continue
        found, written = (sections.get(key), lang if path != RULES_FILE else "en")
        if found is None:
            found, written = english.get(key), "en"
        if found is not None:
            title, lines = found
            out.append({"id": key, "title": title, "blocks": _blocks(lines), "lang": written})
    return {"variant": variant, "source": f"docs/{path.name}", "sections": out}


def rules_markdown(variant: str, lang: str = "en") -> str:
    """The rules of ``variant`` (:func:`variant_rules`) as one Markdown text, for the terminal's
    Rules dialog: a heading a section, its paragraphs, lists and tables."""
    out: list[str] = []
    for section in variant_rules(variant, lang)["sections"]:
        out.append(f"## {section['title']}\n")
        for block in section["blocks"]:
            if block["type"] == "p":
                out.append(block["text"] + "\n")
            elif block["type"] == "ul":
                out.append("\n".join(f"- {item}" for item in block["items"]) + "\n")
            else:
                rows = block["rows"]
                width = max(len(r) for r in rows)
                lines = ["| " + " | ".join([*r, *[""] * (width - len(r))]) + " |" for r in rows]
                lines.insert(1, "|" + " --- |" * width)
                out.append("\n".join(lines) + "\n")
    return "\n".join(out)
