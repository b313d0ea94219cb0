"""Small screens of the terminal app: the keys, a yes/no question, and the bad-database screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Markdown, Static

from .. import i18n
from ..i18n import N_, _
from ..rulebook import rules_markdown
from ..words import variant_title
from .common import host, speak_keys

__all__ = ["KEYS_EXTRA", "KEYS_HELP", "KEYS_MORE", "ConfirmScreen", "DiscardsScreen", "HelpScreen", "StoreErrorScreen"]

KEYS_HELP = N_("""\
# Keys

| key | does |
|---|---|
| 1 – 9, 0, - | select card 1 to 11 (or click a card) |
| ← → | move the selection |
| s | draw from the stock (or click the stock) |
| t | take the upcard / top discard (or click it) |
| p | pass on the first upcard |
| d | discard the selected card |
| k | knock, discarding the selected card |
| g | gin, discarding the selected card (no card: big gin / declare) |
| b | big gin: all eleven cards melded, no discard |
| n | deal the next hand (after the commitment is shown); new game when over |
| h | hint: the advisor's suggestion |
| o | sort the hand by rank or by suit |
| m | group the melds together, or not |
| c | show or hide the score sheet |
| f | four-colour deck (clubs green, diamonds blue) |
| z | large cards |
| x | high-contrast theme |
| Tab, then ↑ ↓ PgUp PgDn Home End | scroll the table (a small terminal: the hand's scoring below) |
| ? | this help |
| Esc | back to the menu (the game is saved) |
| q | quit (the game is saved; you resume next time) |
| ctrl+l | (start screen) the next language: English, 한국어, latviešu; remembered |

Every card shows its rank, suit symbol and suit letter (7♥h). Cards in a meld carry the meld's
number under them; the selected card has a heavy border; a card just drawn is marked with `*`.
""")


KEYS_MORE = N_("""\
| key | does |
|---|---|
| u | undo: take back your last move against the computer (the game is marked) |
| l | lay off the selected card yourself, after the other side knocks |

With the option knocker_arrangement=choose, k lists the ways to spread your melds: ↑ ↓ and Enter
choose one, Esc plays nothing.

On the start screen: ctrl+y replays a finished game (← → a move, PgUp PgDn a hand, Home End, Esc back).
""")


KEYS_EXTRA = N_(
    "v shows the discard history: the cards of the discard pile, oldest first (in the solitaires, the discards)."
)
KEYS_RULES = N_("r in a game, or f2 on the start screen, shows the rules of the variant.")


class DiscardsScreen(ModalScreen[None]):
    """The discard history (v): every card of the discard pile, oldest first and numbered (in the
    solitaires, the discards), drawn as in the hand.  Esc or v closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Close")),
        Binding("v", "app.pop_screen", N_("Close"), show=False),
    ]

    def __init__(self, cards: Sequence[str], palette: str = "normal") -> None:
        super().__init__()
        speak_keys(self)
        self.cards = list(cards)
        self.palette = palette

    def compose(self) -> ComposeResult:
        from .widgets import cards_text

        body = Text()
        if self.cards:
            body.append(_("Oldest first:") + "\n")
            for i, card in enumerate(self.cards, 1):
                body.append(f"{i:>2}. ")
                body.append_text(cards_text([card], self.palette))
                body.append("   " if i % 6 else "\n")
        else:
            body.append(_("No discards yet."))
        with VerticalScroll(id="discards"):
            yield Static(
                Text(_("{title} ({n})").format(title=_("Discard history"), n=len(self.cards)), style="bold"),
                id="discards-title",
            )
            yield Static(body, id="discards-list")
            yield Button(_("Close (Esc)"), id="close-discards")

    @on(Button.Pressed, "#close-discards")
    def close(self) -> None:
        self.app.pop_screen()


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Close")),
        Binding("question_mark", "app.pop_screen", N_("Close")),
    ]

    def __init__(self) -> None:
        super().__init__()
        speak_keys(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(_(KEYS_HELP))
            yield Markdown(_(KEYS_MORE))
            yield Markdown(_(KEYS_EXTRA))
            yield Markdown(_(KEYS_RULES))
            yield Button(_("Close (Esc)"), id="close-help")

    @on(Button.Pressed, "#close-help")
    def close(self) -> None:
        self.app.pop_screen()


class RulesScreen(ModalScreen[None]):
    """The rules of a variant (r in a game, f2 on the start screen): the rule book's sections of the
    variant and its options table, in the language in effect (``ginrummy.rulebook``, as the page's
    Rules dialog).  Esc or r closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Close")),
        Binding("r", "app.pop_screen", N_("Close"), show=False),
    ]

    def __init__(self, variant: str) -> None:
        super().__init__()
        self.variant = variant
        speak_keys(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rulebook"):
            yield Static(Text(_("Rules: {game}").format(game=variant_title(self.variant)), style="bold"))
            yield Markdown(rules_markdown(self.variant, i18n.current_language()))
            yield Button(_("Close (Esc)"), id="close-rules")

    def on_mount(self) -> None:
        self.query_one("#rulebook", VerticalScroll).focus()  # the arrow keys and PgUp/PgDn scroll it

    @on(Button.Pressed, "#close-rules")
    def close(self) -> None:
        self.app.pop_screen()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question before something that cannot be undone: y or Enter on Yes, n or Esc for no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n", "answer(False)", N_("No")),
        Binding("escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: Text | str) -> None:
        super().__init__()
        speak_keys(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(_("Yes, delete (y)"), id="confirm-yes", variant="error")
                yield Button(_("No (n, Esc)"), id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()  # the safe answer is the default

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")


class StoreErrorScreen(Screen[None]):
    """The database cannot be used: say why, change nothing unless the person chooses."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", N_("Quit"))]

    def __init__(self, message: str) -> None:
        super().__init__()
        speak_keys(self)
        self.error_message = message

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="store-error"):
            yield Static("[b]" + _("Your saved games could not be opened") + "[/b]", classes="section")
            yield Static(Text(self.error_message), id="store-error-text")
            yield Static(
                _(
                    "Nothing has been changed. You can start a new database (the old file is renamed "
                    "to ….bad-<date> so it can still be rescued), play without saving, or quit and "
                    "look at the file yourself."
                )
            )
            with Horizontal(id="store-buttons"):
                yield Button(_("Start a new database"), id="new-db", variant="warning")
                yield Button(_("Play without saving"), id="no-save")
                yield Button(_("Quit"), id="quit-store", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#quit-store", Button).focus()

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        app = host(self)
        if event.button.id == "new-db":
            app.start_new_database()
        elif event.button.id == "no-save":
            app.play_without_saving()
        else:
            self.app.exit(1)
