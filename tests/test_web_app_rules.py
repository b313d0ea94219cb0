"""The rules one key away: ``ginrummy.rulebook`` reads docs/rules.md (shipped in the package
as a link to that very file) and gives each variant its sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from ginrummy.options import VARIANTS
from ginrummy.rulebook import RULES_FILE, section_ids, variant_rules


def test_the_packaged_rule_book_is_docs_rules_md() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
    assert RULES_FILE.resolve() == docs.resolve()


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_has_its_rules(variant: str) -> None:
    rules = variant_rules(variant)
    ids = [s["id"] for s in rules["sections"]]
    assert ids == list(section_ids(variant))  # every section it needs was found
    for section in rules["sections"]:
        assert section["blocks"], section["id"]
    options = rules["sections"][-1]
    assert options["title"] == f"Options of {variant}"
    table = options["blocks"][0]
    assert table["type"] == "table" and table["rows"][0][:2] == ["option", "default"]
    # the options table lists the variant's options, as the code declares them
    from ginrummy.options import option_help

    listed = {row[0].strip("`") for row in table["rows"][1:]}
    assert {name for name, *_ in option_help(variant)} <= listed


@pytest.mark.parametrize("lang", ["ko", "lv"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_options_table_is_in_words_in_korean_and_latvian(variant: str, lang: str) -> None:
    """Issue 18: the options table of a translated rule book (made from the code) names each option
    and its default in words, in the reader's language; the option as records and ``--options``
    take it (``knock_limit=10``) stands beside the name, as code."""
    from ginrummy.i18n import using
    from ginrummy.options import option_help
    from ginrummy.words import option_name, option_value

    table = variant_rules(variant, lang)["sections"][-1]["blocks"][0]
    rows = table["rows"][1:]
    options = option_help(variant)
    assert len(rows) == len(options)
    with using(lang):
        for (name, default, _doc, _allowed), (name_cell, default_cell, _meaning) in zip(options, rows, strict=True):
            spelled = str(default).lower() if isinstance(default, bool) else str(default)
            assert name_cell == f"{option_name(name)} `{name}={spelled}`"
            assert default_cell == option_value(default)
            assert name not in name_cell.split("`")[0]  # the words are not the code's name
            if isinstance(default, bool | str):
                assert default_cell != str(default) and default_cell != spelled


def test_every_option_and_value_has_its_words_in_every_language() -> None:
    """Every option of every variant, and every value a choice offers or a default holds, is worded
    (none spelled out from the code's name), and its words are translated in Korean and Latvian."""
    from ginrummy.i18n import using
    from ginrummy.options import option_help
    from ginrummy.words import _OPTION_WORDS, _VALUE_WORDS, option_name, option_value

    helps = [h for v in VARIANTS for h in option_help(v)]
    names = {name for name, _d, _doc, _allowed in helps}
    values: set[object] = {a for _n, _d, _doc, allowed in helps for a in allowed}
    values |= {d for _n, d, _doc, _allowed in helps if isinstance(d, bool | str)}
    assert names <= set(_OPTION_WORDS)
    assert {str(v) for v in values} <= set(_VALUE_WORDS)
    with using("en"):
        assert option_name("knock_limit") == "Knock limit" and option_value("double_game_bonus") == "Double game bonus"
        assert (option_value(True), option_value(False), option_value(10)) == ("Yes", "No", "10")
        english = {("name", n): option_name(n) for n in names} | {("value", v): option_value(v) for v in values}
    for lang in ("ko", "lv"):
        with using(lang):
            for (kind, key), word in english.items():
                shown = option_name(str(key)) if kind == "name" else option_value(key)
                assert shown and shown != word, (lang, key, shown)
            assert option_value(10) == "10"  # numbers as they are
