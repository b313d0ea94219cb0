"""The cut before the first deal (rules 1.2 and 2.1): each seat cuts a card, tied seats cut again.

>>> order, rounds = cut_order(3, ["5c", "Kd", "5h", "2s", "9c"], None, suit_order=False)
>>> order, [[(seat, str(card)) for seat, card in r] for r in rounds]
((1, 2, 0), [[(0, '5c'), (1, 'Kd'), (2, '5h')], [(0, '2s'), (2, '9c')]])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, ShuffleStream, full_pack, new_seed
from ..errors import IllegalAction
from ..i18n import _, ngettext
from ..options import show

__all__ = ["cut_order"]

CutRounds = tuple[tuple[tuple[int, Card], ...], ...]


def cut_order(
    num_seats: int, cards: Sequence[Card | str] | None, seed: int | None, *, suit_order: bool
) -> tuple[tuple[int, ...], CutRounds]:
    """The seats from the highest cut to the lowest (K high, A low), and each round of cutting as
    (seat, card) pairs.  Tied seats re-cut among themselves for the places they contend for, or
    with ``suit_order`` the suits break ties (clubs low, spades high).  The cards come from
    ``cards`` (in order: one a seat, then one a tied seat per re-cut) or from ``seed`` (each round
    a fresh pack shuffled by ``ginrummy-shuffle/1``; with neither, a fresh ``secrets`` seed)."""
    if cards is not None:
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise IllegalAction(_("cut cards must be a list of cards, got {value}").format(value=show(cards)))
        given = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
        if any(c.is_joker for c in given):
            raise IllegalAction(_("the joker is not in the pack that is cut"))
        supply = iter(given)

        def draw(k: int) -> list[Card]:
            got = [c for _i, c in zip(range(k), supply, strict=False)]
            if len(got) < k:
                raise IllegalAction(
                    ngettext(
                        "the cut needs more cards than the {n} given (ties re-cut)",
                        "the cut needs more cards than the {n} given (ties re-cut)",
                        len(given),
                    ).format(n=len(given))
                )
            return got
    else:
        stream = ShuffleStream(new_seed() if seed is None else seed)

        def draw(k: int) -> list[Card]:
            return stream.shuffle(full_pack())[:k]

    rounds: list[tuple[tuple[int, Card], ...]] = []

    def ranked(seats: list[int]) -> list[int]:
        """``seats`` from the highest cut to the lowest; tied seats re-cut among themselves."""
        if len(rounds) > 200:
            raise IllegalAction(_("the cut kept tying"))  # pragma: no cover - about 0.06**200
        got = draw(len(seats))
        rounds.append(tuple(zip(seats, got, strict=True)))

        def key(c: Card) -> tuple[int, ...]:
            return (c.rank, int(c.suit)) if suit_order else (c.rank,)

        by = sorted(zip(seats, got, strict=True), key=lambda sc: key(sc[1]), reverse=True)
        out: list[int] = []
        i = 0
        while i < len(by):
            tied = [seat for seat, c in by if key(c) == key(by[i][1])]
            out += ranked(tied) if len(tied) > 1 else tied
            i += len(tied)
        return out

    return tuple(ranked(list(range(num_seats)))), tuple(rounds)
