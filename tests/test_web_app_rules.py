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
