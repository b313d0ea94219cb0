"""``ginrummy deadwood``: a hand's best arrangement and deadwood, one hand or a batch."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cards import CardSet, parse_cards
from ..errors import CardError
from ..melds import best_arrangement, best_discards


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "cards", nargs="*", metavar="CARD", help="0 to 11 cards like As Td 10h 7♥, or - to read hands from stdin"
    )
    p.add_argument("--json", action="store_true", help="print JSON (one object a hand)")
    p.add_argument("--unicode", action="store_true", help="print suits as symbols")


def analyse(tokens: list[str]) -> dict[str, Any]:
    """The JSON object for one hand; raises CardError naming the bad token."""
    cards = parse_cards(tokens)
    if len(cards) > 11:
        raise CardError(f"a hand has at most 11 cards, got {len(cards)}")
    mask = int(CardSet.of(cards))
    arr = best_arrangement(mask)
    out: dict[str, Any] = {
        "cards": [str(c) for c in sorted(cards)],
        "deadwood": arr.deadwood,
        "melds": [[str(c) for c in m] for m in arr.melds],
        "unmatched": [str(c) for c in arr.unmatched],
    }
    if len(cards) == 11:
        best, discards = best_discards(mask)
        out["best_discards"] = sorted(str(c) for c in CardSet(discards))
        out["deadwood_after_discard"] = best
    return out


def _text(result: dict[str, Any], unicode: bool) -> str:
    def fmt(cards: list[str]) -> str:
        return " ".join(parse_cards(cards)[i].unicode() if unicode else c for i, c in enumerate(cards))

    lines = [f"hand:      {fmt(result['cards'])}"]
    for m in result["melds"]:
        lines.append(f"meld:      {fmt(m)}")
    lines.append(f"unmatched: {fmt(result['unmatched']) or '-'}")
    lines.append(f"deadwood:  {result['deadwood']}")
    if "best_discards" in result:
        lines.append(f"discard:   {fmt(result['best_discards'])} -> deadwood {result['deadwood_after_discard']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.cards == ["-"]:
        return _batch(args)
    try:
        result = analyse(args.cards)
    except CardError as exc:
        print(f"ginrummy deadwood: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result) if args.json else _text(result, args.unicode))
    return 0


def _batch(args: argparse.Namespace) -> int:
    """One hand a line in, one JSON line out; a bad line gets an error object and the rest run."""
    status = 0
    for lineno, line in enumerate(sys.stdin, 1):
        tokens = line.replace(",", " ").split()
        if not tokens:
            continue
        try:
            result = analyse(tokens)
        except CardError as exc:
            result = {"line": lineno, "error": str(exc)}
            print(f"ginrummy deadwood: line {lineno}: {exc}", file=sys.stderr)
            status = 2
        if args.json:
            print(json.dumps(result))
        else:
            print(result["error"] if "error" in result else _text(result, args.unicode), end="\n\n")
    return status
