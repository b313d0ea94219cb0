"""Widgets of the terminal app.  They draw what they are given and post messages; they never
change the game themselves (the screens do, through the :class:`~ginrummy.session.Session`).

Every card shows its rank, its suit symbol and its suit letter, so colour is never the only cue;
melded cards carry their meld number in the bottom border and the selected card a heavy border.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich import box
from rich.cells import cell_len
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..i18n import NP_, _, ngettext, pgettext
from ..observe import Observation
from ..variants import find_variant
from ..words import display_name, target_of

__all__ = [
    "HandView",
    "PileView",
    "ScoreSheet",
    "TableView",
    "bonus_formula",
    "card_label",
    "card_markup",
    "cards_text",
    "palette_name",
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


PALETTES: dict[str, dict[str, str]] = {
    # suit colours; "base" is the card text colour.  Colour is never the only cue: every card also
    # shows its suit symbol and letter.
    "normal": {"c": "", "d": "#e0475b", "h": "#e0475b", "s": ""},
    "four": {"c": "#2fb344", "d": "#3d8bff", "h": "#e0475b", "s": ""},
    "contrast": {"c": "#ffffff", "d": "#ff5f5f", "h": "#ff5f5f", "s": "#ffffff"},
    "contrast-four": {"c": "#5fff5f", "d": "#5fafff", "h": "#ff5f5f", "s": "#ffffff"},
}
MELD_BG = {
    "normal": {1: "on #1f3d2a", 2: "on #1f2f4d", 3: "on #4a3b16"},
    "contrast": {1: "on #262626", 2: "on #262626", 3: "on #262626"},
}


BORDER_STYLES = {  # (selected, high contrast) -> the card border's style
    (False, False): "#9a9a9a",
    (True, False): "bold #ffb000",
    (False, True): "#ffffff",
    (True, True): "bold #ffff00",
}


def palette_name(four_colour: bool, high_contrast: bool) -> str:
    return ("contrast-four" if four_colour else "contrast") if high_contrast else ("four" if four_colour else "normal")


def cards_text(cards: Sequence[str], palette: str = "normal") -> Text:
    """Cards inline in text (``7♥h 8♥h``), coloured by the palette (see :data:`PALETTES`)."""
    colours = PALETTES.get(palette, PALETTES["normal"])
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        if c.upper() == "JK":
            out.append("JK", style="bold")
            continue
        out.append(card_label(c), style=("bold " + colours[c[-1].lower()]).strip())
    return out


class TableView(VerticalScroll, inherit_bindings=False):
    """The table column of the game screen: focusable (Tab) and scrolled by keys (up, down, Page Up,
    Page Down, Home, End), so that on a small terminal everything below the fold, the end-of-hand
    scoring above all, can be reached without a mouse.  Left and right stay the hand's keys."""

    can_focus = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Scroll up", show=False),
        Binding("down", "scroll_down", "Scroll down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
    ]


class HandView(Widget):
    """The person's hand drawn as one widget (fast to redraw): each card in a box with its rank,
    suit symbol and suit letter; under it a tag line with the key that selects it (1-9, 0, -), the
    meld it belongs to (m1, m2...), ``*`` for the card just drawn and ``?`` for the hinted card.  The
    selected card has a heavy border and a ``▲``; melded cards are tinted and underlined."""

    DEFAULT_CSS = "HandView { height: auto; width: 1fr; }"

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[str] = []
        self.large = False
        self.selected: int | None = None
        self.melds: dict[str, int] = {}
        self.new: set[str] = set()
        self.hinted: str | None = None
        self.palette = "normal"

    def show(
        self,
        cards: Sequence[str],
        *,
        large: bool,
        selected: int | None,
        melds: dict[str, int],
        new: set[str],
        hinted: str | None,
        four_colour: bool = False,
        high_contrast: bool = False,
    ) -> None:
        state = (list(cards), large, selected, dict(melds), set(new), hinted, palette_name(four_colour, high_contrast))
        if state == (self.cards, self.large, self.selected, self.melds, self.new, self.hinted, self.palette):
            return
        resized = large != self.large or len(cards) != len(self.cards)
        self.cards, self.large, self.selected, self.melds, self.new, self.hinted, self.palette = state
        self.refresh(layout=resized)

    @property
    def slot_width(self) -> int:
        return 10 if self.large else 7

    @property
    def row_height(self) -> int:
        return 8 if self.large else 5

    def per_row(self, width: int | None = None) -> int:
        """Cards on one row: as many as fit (a narrow terminal gets two rows of large cards)."""
        width = self.size.width if width is None else width
        return max(1, min(11, (width + 1) // self.slot_width)) if width > 0 else 11

    def tag(self, i: int) -> str:
        card = self.cards[i]
        t = ("▲" if i == self.selected else "") + KEY_LABELS[i] + ("*" if card in self.new else "")
        t += "?" if card == self.hinted else ""
        if card in self.melds:
            t += f" m{self.melds[card]}"
        return t

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        n = max(1, len(self.cards))
        rows = -(-n // self.per_row(width))
        return rows * self.row_height

    def on_resize(self) -> None:
        self.refresh(layout=True)

    def render(self) -> Text:
        per_row = self.per_row()
        blocks = [self._render_row(i, self.cards[i : i + per_row]) for i in range(0, len(self.cards), per_row)]
        return Text("\n").join(blocks) if blocks else Text("")

    def _render_row(self, first: int, cards: Sequence[str]) -> Text:
        colours = PALETTES[self.palette]
        contrast = self.palette.startswith("contrast")
        meld_bg = MELD_BG["contrast" if contrast else "normal"]
        inner = self.slot_width - 3
        bottom = self.row_height - 2  # the bottom border's line; the tag line follows
        lines = [Text(no_wrap=True, overflow="crop") for _row in range(self.row_height)]
        for i, card in enumerate(cards, first):
            s = card[-1].lower()
            r = rank_text(card)
            sym = SYMBOLS[s]
            sel = i == self.selected
            tl, tr, bl, br, h, v = ("┏", "┓", "┗", "┛", "━", "┃") if sel else ("╭", "╮", "╰", "╯", "─", "│")
            meld = self.melds.get(card)
            fg = colours[s]
            face = "bold " + fg if fg else "bold"
            bg = meld_bg[meld] if meld is not None else ""
            if meld is not None:
                face += " underline"
            border = BORDER_STYLES[sel, contrast]
            if self.large:
                body = [f"{r:<3}{s:>{inner - 3}}", "", f"{sym:^{inner}}", "", f"{s:<{inner - 3}}{r:>3}"]
            else:
                body = [f"{r}{sym}", f" {s}" if len(r) == 1 else f"  {s}"]
            gap = " "
            lines[0].append(tl + h * inner + tr, style=border)
            lines[0].append(gap)
            for k, text in enumerate(body, 1):
                lines[k].append(v, style=border)
                lines[k].append(text.ljust(inner)[:inner], style=f"{face} {bg}".strip())
                lines[k].append(v, style=border)
                lines[k].append(gap)
            lines[bottom].append(bl + h * inner + br, style=border)
            lines[bottom].append(gap)
            lines[bottom + 1].append(self.tag(i).center(inner + 2)[: inner + 2], style="bold" if sel else "dim")
            lines[bottom + 1].append(gap)
        return Text("\n", no_wrap=True).join(lines)

    def on_click(self, event: Any) -> None:
        per_row = self.per_row()
        column = event.x // self.slot_width
        index = (event.y // self.row_height) * per_row + column
        if column < per_row and 0 <= index < len(self.cards):
            self.post_message(self.Clicked(index))


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

    def show(self, obs: Observation, summary: dict[str, Any], takebacks: int = 0) -> None:
        players: list[str] = [display_name(p) for p in obs["players"]]
        variant = obs["variant"]
        target = target_of(obs)
        width = max(4, (30 - 9) // max(1, len(players)) - 1)
        table = Table(
            title=_("Score sheet (to {target})").format(target=target),
            box=box.SIMPLE_HEAD,
            show_edge=False,
            pad_edge=False,
            padding=(0, 1, 0, 0),
            expand=True,
        )
        table.add_column("#", justify="right", no_wrap=True, width=2)
        table.add_column(pgettext("score sheet", "hand"), no_wrap=True, width=6)
        heads = _heads(players, width)
        for h in heads:
            table.add_column(Text(h), justify="right", no_wrap=True)  # a Text: names are never markup
        for i, h in enumerate(summary.get("hands", []), 1):
            pts = h.get("points", [])
            table.add_row(str(i), _short_result(h.get("result", "")), *[str(x) if x else "·" for x in pts])
        table.add_section()
        table.add_row("", pgettext("score sheet", "total"), *[str(x) for x in obs["totals"]], style="bold")
        table.add_row("", pgettext("score sheet", "won"), *[str(x) for x in obs["hands_won"]])
        if "boxes" in obs:
            table.add_row("", pgettext("score sheet", "boxes"), *[str(x) for x in obs["boxes"]])
        hw = obs.get("hollywood")
        if hw:
            table.add_section()
            for g, (col, closed) in enumerate(zip(hw["games"], hw["closed"], strict=True), 1):
                table.add_row("", f"G{g}{' ✓' if closed else ''}", *["–" if v is None else str(v) for v in col])
        lines: list[str] = []
        if obs.get("game_over"):
            final = obs.get("final_totals", obs["totals"])
            table.add_section()
            table.add_row("", pgettext("score sheet", "final"), *[str(x) for x in final], style="bold reverse")
            formula = bonus_formula(obs)
            if formula:
                lines.append(formula)
            if find_variant(variant).three_games:
                lines.append(_("Each of the three games is settled with its own bonuses."))
            w = obs.get("winner")
            lines.append(_("Winner: none") if w is None else _("Winner: {name}").format(name=players[w]))
        elif hw:
            lines.append(_("G1-G3: Hollywood's three games; ✓ = closed."))
        if takebacks:
            lines.append(
                ngettext(
                    "{n} takeback this game (marked in your history)",
                    "{n} takebacks this game (marked in your history)",
                    takebacks,
                ).format(n=takebacks)
            )
        names = ", ".join(f"{h} = {p}" for h, p in zip(heads, players, strict=True) if h != p)
        if names:
            lines.append(names)
        self.update(Group(table, *(Text(x) for x in lines)))


def bonus_formula(obs: Observation) -> str:
    """At the end of a game whose final totals carry bonuses: how they are made (the score sheet's
    last lines and the end of the last hand's result); else ``""``."""
    final = obs.get("final_totals", obs["totals"])
    if not obs.get("game_over") or list(final) == list(obs["totals"]):
        return ""
    opts = obs.get("options", {})
    if opts.get("shutout") != "none":
        msg = _("Final = points + {box} a hand won (box) + game bonus {game} (shutout doubles)")
    else:
        msg = _("Final = points + {box} a hand won (box) + game bonus {game}")
    return msg.format(box=opts.get("box_bonus", 0), game=opts.get("game_bonus", 0))


def _heads(players: Sequence[str], width: int) -> list[str]:
    """Column heads no wider than ``width`` and all different (``Expe…2`` for ``Expert 2``)."""
    heads = [_short(p, width) for p in players]
    if len(set(heads)) < len(heads):
        heads = [p if cell_len(p) <= width else _short(p[:-1], width - 1) + p[-1] for p in players]
    return heads


def _short(name: str, width: int = 8) -> str:
    """``name`` in at most ``width`` terminal cells (Korean letters take two)."""
    if cell_len(name) <= width:
        return name
    out = ""
    for ch in name:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


# A hand's result in the score sheet's narrow column (six cells at most in every language).
_SHORT_RESULTS = {
    "gin": NP_("score sheet, six cells at most", "gin"),
    "knock": NP_("score sheet, six cells at most", "knock"),
    "undercut": NP_("score sheet, six cells at most", "under"),
    "big-gin": NP_("score sheet, six cells at most", "BIG"),
    "redeal": NP_("score sheet, six cells at most", "redeal"),
    "draw": NP_("score sheet, six cells at most", "wall"),
    "joker": NP_("score sheet, six cells at most", "joker"),
}


def _short_result(result: str) -> str:
    if result == "unfinished":
        return "…"
    return pgettext("score sheet, six cells at most", _SHORT_RESULTS[result]) if result in _SHORT_RESULTS else result
