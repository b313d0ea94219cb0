"""``ginrummy deadwood``: a hand's best arrangement and deadwood, one hand or a batch.

With ``--json -`` it reads one hand a line and writes one JSON object a line.  That batch path is
built for volume: each line is read as bytes, its cards are looked up by their text, and the
JSON for a hand is put together from pieces kept per suit pattern (its cards, its runs, its
unmatched cards and their deadwood), so that a hand without a possible set (three quarters of
random 10-card hands) costs a few dictionary lookups and one string.  A hand that may hold a set
tries its ways of using sets as :func:`ginrummy.melds.best_arrangement` does, with the same tie
rule.  Anything else (11 cards, spellings like ``10h`` are fine too, but a bad card, a duplicate, a
line that is not valid text) goes through :func:`analyse`, the one reference for the output, and
the fast path's output is checked against it in ``tests/test_deadwood_cli.py``.
"""

from __future__ import annotations

import argparse
import codecs
import json
import sys
from collections.abc import Iterator
from itertools import product
from typing import Any, BinaryIO

from ..cards import _SUIT_ALIASES, CARDS, RANK_CHARS, CardSet, parse_cards
from ..errors import CardError
from ..i18n import _
from ..melds import RUN_DEADWOOD, RUN_MELDED, _arrangement_from, _set_options, best_arrangement, best_discards


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "cards", nargs="*", metavar="CARD", help=_("0 to 11 cards like As Td 10h 7♥, or - to read hands from stdin")
    )
    p.add_argument("--json", action="store_true", help=_("print JSON (one object a hand)"))
    p.add_argument("--unicode", action="store_true", help=_("print suits as symbols"))


def analyse(tokens: list[str]) -> dict[str, Any]:
    """The JSON object for one hand; raises CardError naming the bad token."""
    cards = parse_cards(tokens)
    if len(cards) > 11:
        raise CardError(_("a hand has at most 11 cards, got {count}").format(count=len(cards)))
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

    lines = [_("hand:      {cards}").format(cards=fmt(result["cards"]))]
    for m in result["melds"]:
        lines.append(_("meld:      {cards}").format(cards=fmt(m)))
    lines.append(_("unmatched: {cards}").format(cards=fmt(result["unmatched"]) or "-"))
    lines.append(_("deadwood:  {points}").format(points=result["deadwood"]))
    if "best_discards" in result:
        lines.append(
            _("discard:   {cards} -> deadwood {points}").format(
                cards=fmt(result["best_discards"]), points=result["deadwood_after_discard"]
            )
        )
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


# --- The batch path ------------------------------------------------------------------------------
def _card_tokens() -> dict[bytes, int]:
    """Every spelling of a card that ``Card.parse`` takes (rank either case or ``10``, suit letter
    either case or symbol), as UTF-8 bytes, to its bit."""
    out: dict[bytes, int] = {}
    for c in CARDS:
        r = RANK_CHARS[c % 13]
        ranks = {r, r.lower(), "10"} if r == "T" else {r, r.lower()}
        suits = [k for k, v in _SUIT_ALIASES.items() if v == c // 13]
        suits += [k.upper() for k in suits if k.isascii()]
        for rank in ranks:
            for suit in suits:
                out[(rank + suit).encode()] = 1 << c
    return out


_TOKEN_BIT = _card_tokens()
_ASCII_TOKEN_BIT = {k: v for k, v in _TOKEN_BIT.items() if k.isascii()}


_QUOTED = [f', "{c}"' for c in CARDS]


class _SuitPieces(dict[int, tuple[str, str, str, int, tuple[int, ...]]]):
    """Key ``s << 13 | x`` (suit ``s``, 13-bit pattern ``x``) -> the JSON pieces of that suit's cards
    arranged by runs alone: (its cards, its runs, its unmatched cards, their deadwood, the runs as
    masks of the whole pack).  Each piece is ``', "As", "2s"'``-style (a leading comma and space,
    or empty), so four of them added together and cut by two characters are a list's inside.
    Filled on first use."""

    def __missing__(self, key: int) -> tuple[str, str, str, int, tuple[int, ...]]:
        s, x = key >> 13, key & 0x1FFF
        base = 13 * s

        def q(bits: int) -> str:
            out = ""
            while bits:
                low = bits & -bits
                out += _QUOTED[base + low.bit_length() - 1]
                bits ^= low
            return out

        melded = RUN_MELDED[x]
        runs = ""
        masks = []
        while melded:
            low = melded & -melded
            block = melded & ~(melded + low)  # the lowest run of consecutive bits
            runs += ", [" + q(block)[2:] + "]"
            masks.append(block << base)
            melded ^= block
        v = (q(x), runs, q(x & ~RUN_MELDED[x]), RUN_DEADWOOD[x], tuple(masks))
        self[key] = v
        return v


_PIECES = _SuitPieces()


class _MeldPiece(dict[int, str]):
    """A meld's mask -> its JSON list, ``'["7c", "7d", "7h"]'``.  Filled on first use."""

    def __missing__(self, m: int) -> str:
        v = "[" + ", ".join(f'"{c}"' for c in CardSet(m)) + "]"
        self[m] = v
        return v


_MELD_PIECE = _MeldPiece()
_RANK = (1 | 1 << 13 | 1 << 26 | 1 << 39,)
_RANK_MASKS = tuple(_RANK[0] << r for r in range(13))


def _with_sets(m: int, t: int) -> str:
    """The JSON of a hand (mask ``m``) where the ranks ``t`` may form sets: the best way of using
    them, ties broken as :func:`ginrummy.melds.best_arrangement` breaks them."""
    rd = RUN_DEADWOOD
    pieces = _PIECES
    a = pieces[m & 0x1FFF]
    b = pieces[0x2000 | m >> 13 & 0x1FFF]
    c = pieces[0x4000 | m >> 26 & 0x1FFF]
    d = pieces[0x6000 | m >> 39]
    cards = (a[0] + b[0] + c[0] + d[0])[2:]
    best = a[3] + b[3] + c[3] + d[3]  # no set
    if t & (t - 1):
        tied = [0]
        for combo in product(*_set_options(m, t)):
            s = sum(combo)
            r = m & ~s
            v = rd[r & 0x1FFF] + rd[r >> 13 & 0x1FFF] + rd[r >> 26 & 0x1FFF] + rd[r >> 39]
            if v < best:
                best, tied = v, [s]
            elif v == best and s:
                tied.append(s)
        # Equal deadwood: the smallest sorted meld list wins (rule 0.8), as in best_arrangement.
        removed = tied[0] if len(tied) == 1 else min(tied, key=lambda s: _arrangement_from(m, _sets_in(s)).melds)
        sets = _sets_in(removed)
    else:  # one rank (the common case): all its cards, or (four held) each set of three
        held = m & _RANK_MASKS[t.bit_length() - 1]
        if held.bit_count() == 4:
            y = held & -held
            options: tuple[int, ...] = (held, held ^ y, held ^ (y << 13), held ^ (y << 26), held ^ (y << 39))
        else:
            options = (held,)
        tied = [0]
        for s in options:
            r = m ^ s
            v = rd[r & 0x1FFF] + rd[r >> 13 & 0x1FFF] + rd[r >> 26 & 0x1FFF] + rd[r >> 39]
            if v < best:
                best, tied = v, [s]
            elif v == best:
                tied.append(s)
        removed = tied[0] if len(tied) == 1 else min(tied, key=lambda s: _arrangement_from(m, [s]).melds)
        sets = [removed]
    if not removed:
        return (
            f'{{"cards": [{cards}], "deadwood": {best}, "melds": [{(a[1] + b[1] + c[1] + d[1])[2:]}], '
            f'"unmatched": [{(a[2] + b[2] + c[2] + d[2])[2:]}]}}'
        )
    rest = m & ~removed
    au, ar = pieces[rest & 0x1FFF][2::2]
    bu, br = pieces[0x2000 | rest >> 13 & 0x1FFF][2::2]
    cu, cr = pieces[0x4000 | rest >> 26 & 0x1FFF][2::2]
    du, dr = pieces[0x6000 | rest >> 39][2::2]
    melds = [*ar, *br, *cr, *dr]  # the runs, in order
    for x in sets:  # melds are disjoint: their lowest cards order them
        low = x & -x
        i = 0
        for r in melds:
            if r & -r > low:
                break
            i += 1
        melds.insert(i, x)
    mp = _MELD_PIECE
    return (
        f'{{"cards": [{cards}], "deadwood": {best}, "melds": [{", ".join([mp[x] for x in melds])}], '
        f'"unmatched": [{(au + bu + cu + du)[2:]}]}}'
    )


def _sets_in(removed: int) -> list[int]:
    """The sets (one a rank) that make up the cards ``removed`` for sets."""
    return [s for s in (removed & r for r in _RANK_MASKS) if s]


def _chunks(stream: Any, interactive: bool) -> Iterator[list[bytes]]:
    """The input's lines as bytes, in lists: read as bytes, so that a line that is not valid text
    is that line's error, not the end of the run; one line at a time when someone is typing."""
    buffer: BinaryIO | None = getattr(stream, "buffer", None)
    if buffer is None:  # a text stream without bytes underneath (a test's StringIO)
        for line in stream:
            yield [line.encode("utf-8", "surrogateescape")]
    elif interactive:
        while line := buffer.readline():
            yield [line]
    else:
        while lines := buffer.readlines(1 << 16):
            yield lines


def _batch(args: argparse.Namespace) -> int:
    """One hand a line in, one JSON line (or text block) out; a bad line gets an error object
    and the rest run."""
    status = 0
    encoding = getattr(sys.stdin, "encoding", None) or "utf-8"
    # The suit symbols' bytes are those of UTF-8; in another encoding only ASCII spellings are
    # taken on sight (anything else is decoded by the reference path).
    utf8 = codecs.lookup(encoding).name == "utf-8"
    bit_of = (_TOKEN_BIT if utf8 else _ASCII_TOKEN_BIT).__getitem__
    interactive = sys.stdin.isatty() or sys.stdout.isatty()
    write = sys.stdout.write
    pieces = _PIECES
    rd = RUN_DEADWOOD
    fast = args.json
    lineno = 0
    for lines in _chunks(sys.stdin, interactive):
        out: list[str] = []
        for lineno, raw in enumerate(lines, lineno + 1):  # noqa: B020  (numbering goes on across chunks)
            if fast:
                toks = raw.replace(b",", b" ").split() if b"," in raw else raw.split()
                if not toks:
                    continue
                try:
                    m = sum(map(bit_of, toks))
                except KeyError:
                    m = 0  # not all plain cards: the reference path says what is wrong
                n = len(toks)
                if n <= 10 and m.bit_count() == n:
                    a = m & 0x1FFF
                    b = m >> 13 & 0x1FFF
                    c = m >> 26 & 0x1FFF
                    d = m >> 39
                    t = (a & b & (c | d)) | (c & d & (a | b))
                    if t:
                        out.append(_with_sets(m, t))
                    else:
                        ac, am, au = pieces[a][:3]
                        bc, bm, bu = pieces[0x2000 | b][:3]
                        cc, cm, cu = pieces[0x4000 | c][:3]
                        dc, dm, du = pieces[0x6000 | d][:3]
                        runs = am + bm + cm + dm
                        held = (ac + bc + cc + dc)[2:]
                        dw = rd[a] + rd[b] + rd[c] + rd[d]
                        if runs:
                            out.append(
                                f'{{"cards": [{held}], "deadwood": {dw}, "melds": [{runs[2:]}], '
                                f'"unmatched": [{(au + bu + cu + du)[2:]}]}}'
                            )
                        else:  # no meld at all (most random hands): every card is unmatched
                            out.append(f'{{"cards": [{held}], "deadwood": {dw}, "melds": [], "unmatched": [{held}]}}')
                    continue
            result = _reference(raw, lineno, encoding)
            if result is None:
                continue
            if "error" in result:
                print(
                    "ginrummy deadwood: " + _("line {line}: {error}").format(line=lineno, error=result["error"]),
                    file=sys.stderr,
                )
                status = 2
            if fast:
                out.append(json.dumps(result))
            else:
                out.append((result["error"] if "error" in result else _text(result, args.unicode)) + "\n")
        if out:
            write("\n".join(out) + "\n")
            if interactive:
                sys.stdout.flush()
    return status


def _reference(raw: bytes, lineno: int, encoding: str) -> dict[str, Any] | None:
    """The reference path for one line: its JSON object, an error object, or None (blank line)."""
    try:
        line = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        error = _("not valid {encoding} text (byte {byte} of the line)").format(
            encoding=exc.encoding, byte=exc.start + 1
        )
        return {"line": lineno, "error": error}
    tokens = line.replace(",", " ").split()
    if not tokens:
        return None
    try:
        return analyse(tokens)
    except CardError as exc:
        return {"line": lineno, "error": str(exc)}
