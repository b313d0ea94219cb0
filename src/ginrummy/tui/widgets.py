"""Widgets of the terminal app.  They draw what they are given and post messages; they never
change the game themselves (the screens do, through the :class:`~ginrummy.session.Session`).

Every card shows its rank, its suit symbol and its suit letter, so colour is never the only cue;
melded cards carry their meld number in the bottom border and the selected card a heavy border.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

__all__ = [
    "CardView",
    "HandView",
    "PileView",
    "ScoreSheet",
    "card_label",
    "card_markup",
    "rank_text",
]

SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
KEY_LABELS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-"]


def rank_text(card: str) -> str:
    r = card[:-1].upper()
    return "10" if r in ("T", "10") else r


def card_label(card: str) -> str:
    """``7♥h``: rank, symbol and letter."""
    if card.upper() == "JK":
        return "JK"
    s = card[-1].lower()
    return f"{rank_text(card)}{SYMBOLS[s]}{s}"


def card_markup(card: str) -> Text:
    """A card inline in text, coloured by suit through the ``suit-x`` style names of the theme."""
    if card.upper() == "JK":
        return Text("JK", style="bold")
    s = card[-1].lower()
    style = {"c": "", "d": "bold red", "h": "bold red", "s": ""}[s]
    return Text(card_label(card), style=style)


def cards_text(cards: Sequence[str], four_colour: bool = False) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        if c.upper() == "JK":
            out.append("JK", style="bold")
            continue
        s = c[-1].lower()
        colours = {"c": "green" if four_colour else "", "d": "blue" if four_colour else "red", "h": "red", "s": ""}
        out.append(card_label(c), style=("bold " + colours[s]).strip())
    return out


class CardView(Static):
    """One card of the hand (a fixed slot: hidden when the hand has fewer cards).  Its tag line
    below shows the key that selects it, the meld it belongs to (m1, m2...), ``*`` for the card
    just drawn and ``?`` for the hinted card."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.index = index
        self.card: str | None = None

    def show(
        self,
        card: str | None,
        *,
        large: bool = False,
        selected: bool = False,
        meld: int | None = None,
        new: bool = False,
        hinted: bool = False,
    ) -> str:
        """Draw ``card``; returns its tag text."""
        self.card = card
        if card is None:
            return ""
        s = card[-1].lower()
        r = rank_text(card)
        sym = SYMBOLS[s]
        if large:
            body = f"{r:<3}{s:>3}\n\n  {sym}\n\n{s:<3}{r:>3}"
        else:
            body = f"{r}{sym}\n {s}" if len(r) == 1 else f"{r}{sym}\n  {s}"
        self.update(body)
        for suit in "cdhs":
            self.set_class(suit == s, f"suit-{suit}")
        self.set_class(selected, "selected")
        self.set_class(hinted, "hinted")
        self.set_class(new, "new")
        for m in (1, 2, 3):
            self.set_class(meld == m, f"meld-{m}")
        self.set_class(meld is not None, "melded")
        self.set_class(large, "large")
        self.tooltip = (
            f"{r} of {SUIT_NAMES[s]}"
            + (f", in meld {meld}" if meld is not None else ", deadwood")
            + (" (just drawn)" if new else "")
        )
        key = KEY_LABELS[self.index] if self.index < len(KEY_LABELS) else ""
        tag = ("▲" if selected else "") + key + ("*" if new else "") + ("?" if hinted else "")
        if meld is not None:
            tag += f" m{meld}"
        return tag

    def on_click(self) -> None:
        if self.card is not None:
            self.post_message(self.Clicked(self.index))


class HandView(Horizontal):
    """The person's hand: eleven fixed card slots, each a card and its tag line."""

    def compose(self):  # type: ignore[no-untyped-def]
        for i in range(11):
            with Vertical(classes="slot", id=f"slot-{i}"):
                yield CardView(i, id=f"card-{i}", classes="card")
                yield Static("", classes="tag", id=f"tag-{i}")

    def show(
        self,
        cards: Sequence[str],
        *,
        large: bool,
        selected: int | None,
        melds: dict[str, int],
        new: set[str],
        hinted: str | None,
    ) -> None:
        for i in range(11):
            view = self.query_one(f"#card-{i}", CardView)
            card = cards[i] if i < len(cards) else None
            tag = view.show(
                card,
                large=large,
                selected=i == selected,
                meld=melds.get(card) if card else None,
                new=card in new if card else False,
                hinted=card is not None and card == hinted,
            )
            slot = self.query_one(f"#slot-{i}")
            slot.display = card is not None
            slot.set_class(large, "large")
            self.query_one(f"#tag-{i}", Static).update(tag)


class PileView(Static):
    """The stock or the discard pile: click to draw or take."""

    class Clicked(Message):
        def __init__(self, pile: str) -> None:
            self.pile = pile
            super().__init__()

    def __init__(self, pile: str, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.pile = pile

    def show(self, title: str, card: str | None, count: int | None, *, large: bool = False) -> None:
        self.border_title = title
        if card is not None:
            s = card[-1].lower()
            r = rank_text(card)
            sym = SYMBOLS[s]
            body = f"{r}{sym}\n {s}" if not large else f"{r:<3}{s:>3}\n\n  {sym}\n\n{s:<3}{r:>3}"
            for suit in "cdhs":
                self.set_class(suit == s, f"suit-{suit}")
            self.set_class(False, "back")
        else:
            body = "▒▒▒\n▒▒▒" if count else "\n"
            for suit in "cdhs":
                self.set_class(False, f"suit-{suit}")
            self.set_class(bool(count), "back")
        self.set_class(large, "large")
        self.border_subtitle = "" if count is None else str(count)
        self.update(body)

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.pile))


class ScoreSheet(Static):
    """The score sheet: every hand's points, the totals to the target, hands won, Hollywood's
    three games and, at the end, the final totals with the bonuses."""

    def show(self, obs: dict[str, Any], summary: dict[str, Any]) -> None:
        players: list[str] = obs["players"]
        opts = obs.get("options", {})
        variant = obs["variant"]
        target = opts.get("hollywood_target" if variant == "hollywood" else "game_target", 100)
        table = Table(title=f"Score sheet (to {target})", expand=True, show_edge=False, pad_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("", no_wrap=True)
        short = [_short(p) for p in players]
        for p in short:
            table.add_column(p, justify="right", no_wrap=True)
        for i, h in enumerate(summary.get("hands", []), 1):
            pts = h.get("points", [])
            table.add_row(str(i), _short_result(h.get("result", "")), *[str(x) if x else "·" for x in pts])
        table.add_section()
        table.add_row("", "total", *[str(x) for x in obs["totals"]], style="bold")
        table.add_row("", "won", *[str(x) for x in obs["hands_won"]])
        hw = obs.get("hollywood")
        if hw:
            table.add_section()
            for g, (col, closed) in enumerate(zip(hw["games"], hw["closed"], strict=True), 1):
                table.add_row("", f"G{g}{' ✓' if closed else ''}", *["–" if v is None else str(v) for v in col])
        if obs.get("game_over"):
            final = obs.get("final_totals", obs["totals"])
            table.add_section()
            table.add_row("", "final", *[str(x) for x in final], style="bold reverse")
        lines: list[str] = []
        if obs.get("game_over"):
            if list(obs.get("final_totals", [])) != list(obs["totals"]):
                lines.append(
                    f"Final = points + {opts.get('box_bonus', 0)} a hand won + game bonus {opts.get('game_bonus', 0)}"
                    + (" (shutout doubles)" if opts.get("shutout") != "none" else "")
                )
            if variant == "hollywood":
                lines.append("Each of the three games is settled with its own bonuses.")
            w = obs.get("winner")
            lines.append("Winner: " + ("none" if w is None else players[w]))
        self.update(Group(table, *(Text(x) for x in lines)))


def _short(name: str) -> str:
    return name if len(name) <= 8 else name[:7] + "…"


def _short_result(result: str) -> str:
    return {"undercut": "under", "big-gin": "BIG", "unfinished": "…", "redeal": "redeal", "draw": "wall"}.get(
        result, result
    )
