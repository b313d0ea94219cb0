"""All the words the front ends show about a game, built for one viewer seat, in the current
language (:mod:`ginrummy.i18n`: each text is a whole English sentence with named placeholders,
looked up in the catalogs).

This is the one place that turns moves into text.  Its privacy rule: a text shown to a seat is
built only from what that seat may know.  The public move (``Expert draws from the stock``,
``Expert takes 7h``, ``Expert discards 9c``, ``Expert knocks, discarding 9c``) is for everyone;
the card a stock draw gave and a computer player's reasons about its own cards are *private*:
they are put into a text only when the caller says the viewer may see that seat's hand (its own
seat, or the sitter in ``three`` watching the captain) or the hand is over with the hands shown.
:class:`ginrummy.session.Session` decides that (``Session.move_text``) and keeps the move log.

Names typed by people (and names in old records) may hold control characters or right-to-left
overrides: every name is shown through :func:`clean_name`.

>>> from ginrummy.actions import Action
>>> move_text(["You", "Expert"], 1, Action.parse("discard 9c"), viewer=0, reason="it keeps 7h-8h-9h")
'Expert discards 9c'
>>> move_text(["You", "Expert"], 1, Action.parse("discard 9c"), viewer=1, private=True, reason="it keeps 7h-8h-9h")
'You discard 9c (it keeps 7h-8h-9h)'
>>> clean_name("Eve\\u202e")
'Eve\\\\u202e'
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action
from .agents.reasons import Joined, Message, Value, move_in_sentence
from .agents.reasons import move as move_at_head
from .cards import Card
from .engine import Cut
from .errors import OptionError
from .i18n import N_, NP_, _, current_language, ngettext, npgettext, pgettext, using
from .melds import Arrangement
from .scoring import FinalPart
from .variants import Variant, find_variant, solo_variants

__all__ = [
    "action_words",
    "arrangement_line",
    "cannot_line",
    "card_list",
    "clean_name",
    "clean_names",
    "clean_text",
    "computer_failed",
    "cut_lines",
    "default_players",
    "display_name",
    "display_names",
    "final_part_text",
    "just_drawn",
    "move_text",
    "no_hand_line",
    "option_name",
    "option_value",
    "reason_line",
    "reason_text",
    "result_lines",
    "result_name",
    "score_lines",
    "seat_kind",
    "sitter_line",
    "takeback_line",
    "target_of",
    "top_discard_label",
    "upcard_notes",
    "variant_title",
    "you_grammar",
]

HUMAN = "human"  # the seat kind of a person (ginrummy.session.HUMAN)


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------
def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def clean_name(name: str) -> str:
    """``name`` safe to print: control characters, format characters (right-to-left overrides,
    invisible joiners), lone surrogates, private-use and unassigned code points and line breaks
    are shown as escapes (``\\u202e``), so that a name can neither move the cursor nor reorder
    the text around it."""
    out = []
    for ch in str(name):
        cat = unicodedata.category(ch)
        if cat[0] == "C" or cat in ("Zl", "Zp"):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def clean_text(text: str) -> str:
    """A line built elsewhere (the engine's explanation of a hand, which holds names) safe to print."""
    return clean_name(text)


def clean_names(players: Sequence[str]) -> list[str]:
    return [clean_name(p) for p in players]


# The names default_players gives (data: records keep them in English), shown translated.
_SEAT_WORDS = {
    "You": N_("You"),
    "Joker": N_("Joker"),
    "Player": N_("Player"),
    "Random": N_("Random"),
    "Greedy": N_("Greedy"),
    "Expert": N_("Expert"),
    "Planner": N_("Planner"),
    "Clairvoyant": N_("Clairvoyant"),
    "Beginner": N_("Beginner"),
    "Casual": N_("Casual"),
    "Intermediate": N_("Intermediate"),
    "Advanced": N_("Advanced"),
}
_NUMBERED = re.compile(r"(?P<base>[A-Z][a-z]+)(?: (?P<n>[1-9][0-9]?))?")


def display_name(name: str) -> str:
    """A seat's name as shown, safe to print (:func:`clean_name`): the names ginrummy gives
    (``You``, ``Joker``, ``Expert 2``, ``Player 3``) in the current language, any other as typed."""
    m = _NUMBERED.fullmatch(str(name))
    if m is None or m.group("base") not in _SEAT_WORDS:
        return clean_name(name)
    word = _(_SEAT_WORDS[m.group("base")])
    return word if m.group("n") is None else _("{name} {number}").format(name=word, number=m.group("n"))


_KINDS = {
    "human": NP_("kind of seat", "human"),
    "random": NP_("kind of seat", "random"),
    "greedy": NP_("kind of seat", "greedy"),
    "expert": NP_("kind of seat", "expert"),
    "planner": NP_("kind of seat", "planner"),
    "clairvoyant": NP_("kind of seat", "clairvoyant"),
    "beginner": NP_("kind of seat", "beginner"),
    "casual": NP_("kind of seat", "casual"),
    "intermediate": NP_("kind of seat", "intermediate"),
    "advanced": NP_("kind of seat", "advanced"),
}


def seat_kind(kind: str) -> str:
    """Who plays a seat (``human``, a computer level) in the current language; an unknown kind as is."""
    return pgettext("kind of seat", _KINDS[kind]) if kind in _KINDS else clean_name(kind)


def variant_title(variant: str, *, short: bool = False) -> str:
    """A variant's title from the registry, in the current language (``Classic Gin Rummy (two players)``)."""
    try:
        v = find_variant(variant)
    except OptionError:
        return clean_name(variant)
    return _(v.short_title if short else v.title)


# The options' names and values in words for people (the start screen, the page's lobby, the rule
# book's options table), marked for translation; the code's names (``knock_limit``) are what
# records and ``--options`` take.  An option or value not listed is spelled out from its name.
_OPTION_WORDS: dict[str, str] = {
    "big_gin": NP_("option", "Big gin"),
    "big_gin_bonus": NP_("option", "Big gin bonus"),
    "box_bonus": NP_("option", "Box bonus"),
    "count_includes_joker": NP_("option", "Count includes joker"),
    "cut_ties": NP_("option", "Cut ties"),
    "discard_drawn_upcard_allowed": NP_("option", "Discard drawn upcard allowed"),
    "end_after_opening_discard": NP_("option", "End after opening discard"),
    "end_before_first_draw": NP_("option", "End before first draw"),
    "end_bonuses": NP_("option", "End bonuses"),
    "first_box": NP_("option", "First box"),
    "first_captain": NP_("option", "First captain"),
    "first_dealer": NP_("option", "First dealer"),
    "game_bonus": NP_("option", "Game bonus"),
    "game_target": NP_("option", "Game target"),
    "gin_bonus": NP_("option", "Gin bonus"),
    "hollywood_target": NP_("option", "Hollywood target"),
    "joker_in_deal": NP_("option", "Joker in deal"),
    "knock_limit": NP_("option", "Knock limit"),
    "knocker_arrangement": NP_("option", "Knocker arrangement"),
    "layoffs": NP_("option", "Layoffs"),
    "next_dealer": NP_("option", "Next dealer"),
    "oklahoma_ace": NP_("option", "Oklahoma ace"),
    "scoring": NP_("option", "Scoring"),
    "shutout": NP_("option", "Shutout"),
    "spades_double": NP_("option", "Spades double"),
    "spades_double_boxes": NP_("option", "Spades double boxes"),
    "undercut_bonus": NP_("option", "Undercut bonus"),
    "undercut_on_tie": NP_("option", "Undercut on tie"),
    "wall_cards": NP_("option", "Wall cards"),
}
_VALUE_WORDS: dict[str, str] = {
    "True": NP_("option value", "Yes"),
    "False": NP_("option value", "No"),
    "alternate": NP_("option value", "Alternate"),
    "auto": NP_("option value", "Auto"),
    "basic": NP_("option value", "Basic"),
    "choose": NP_("option value", "Choose"),
    "double_game_bonus": NP_("option value", "Double game bonus"),
    "double_total": NP_("option value", "Double total"),
    "gin_only": NP_("option value", "Gin only"),
    "knock": NP_("option value", "Knock"),
    "lose": NP_("option value", "Lose"),
    "loser": NP_("option value", "Loser"),
    "none": NP_("option value", "None"),
    "one": NP_("option value", "One"),
    "recut": NP_("option value", "Recut"),
    "redeal": NP_("option value", "Redeal"),
    "suit_order": NP_("option value", "Suit order"),
    "winner": NP_("option value", "Winner"),
}


def _spelled_out(key: str) -> str:
    text = key.replace("_", " ").replace("-", " ")
    return text[:1].upper() + text[1:]


def option_name(name: str) -> str:
    """A rules option's name in words, in the current language: ``knock_limit`` -> ``Knock limit``
    (an option not listed spelled out from its name)."""
    return pgettext("option", _OPTION_WORDS[name]) if name in _OPTION_WORDS else _spelled_out(name)


def option_value(value: object) -> str:
    """A rules option's value in words, in the current language: True/False -> ``Yes``/``No``,
    ``double_game_bonus`` -> ``Double game bonus``; numbers as they are (a value not listed
    spelled out from its name)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    key = str(value)
    return pgettext("option value", _VALUE_WORDS[key]) if key in _VALUE_WORDS else _spelled_out(key)


def display_names(players: Sequence[str]) -> list[str]:
    return [display_name(p) for p in players]


def default_players(variant: str, seats: Sequence[str], name: str = "You") -> list[str]:
    """Seat names, the same in every front end: the person's name, the Joker, or the computer
    player's level (``Expert``, numbered when repeated: ``Expert 2``); several people at one
    table are ``Player 1``, ``Player 2``..."""
    if variant in solo_variants():
        return [name if seats[0] == HUMAN else seats[0].capitalize(), "Joker"]
    out: list[str] = []
    humans = 0
    if name == "You" and sum(k == HUMAN for k in seats) > 1:
        name = "Player 1"  # several people: nobody is "you"
    for kind in seats:
        if kind == HUMAN:
            humans += 1
            base = name if humans == 1 else f"Player {len(out) + 1}"
        else:
            base = kind.capitalize()
        label, n = base, 2
        while label in out:
            label, n = f"{base} {n}", n + 1
        out.append(label)
    return out


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------
def move_text(
    players: Sequence[str],
    seat: int | None,
    action: Action,
    *,
    viewer: int | None,
    you: bool = True,
    taken: Card | None = None,
    drawn: Card | None = None,
    reason: Value | None = None,
    private: bool = False,
) -> str:
    """One move in words for ``viewer`` (``None``: a spectator).  ``taken`` (the card taken from
    the pile) is public; ``drawn`` (what a stock draw gave, or a solitaire's next card) and
    ``reason`` (a computer player's reasons, about its own cards) appear only with ``private``,
    which the caller sets when the viewer may see that seat's hand or the hands have been shown."""
    own = you and seat is not None and seat == viewer
    who = display_name(players[seat]) if seat is not None else "?"
    card = str(action.card) if action.card is not None else ""
    got = str(drawn) if private and drawn is not None else ""

    kind = action.kind
    if kind == "draw":
        if got:
            msg = _("You draw from the stock: {card}") if own else _("{name} draws from the stock: {card}")
        else:
            msg = _("You draw from the stock") if own else _("{name} draws from the stock")
        text = msg.format(name=who, card=got)
    elif kind == "take":
        if taken is not None:
            msg = _("You take {card}") if own else _("{name} takes {card}")
        else:
            msg = _("You take the discard") if own else _("{name} takes the discard")
        text = msg.format(name=who, card=str(taken))
    elif kind == "pass":
        text = (_("You pass on the upcard") if own else _("{name} passes on the upcard")).format(name=who)
    elif kind == "discard":
        if got:
            msg = _("You discard {card} and draw {drawn}") if own else _("{name} discards {card} and draws {drawn}")
        else:
            msg = _("You discard {card}") if own else _("{name} discards {card}")
        text = msg.format(name=who, card=card, drawn=got)
    elif kind == "knock":
        if card:
            msg = _("You knock, discarding {card}") if own else _("{name} knocks, discarding {card}")
        else:
            msg = _("You knock") if own else _("{name} knocks")
        text = msg.format(name=who, card=card)
    elif kind == "gin":
        if card:
            msg = _("You go gin, discarding {card}") if own else _("{name} goes gin, discarding {card}")
        else:
            msg = _("You go gin with every card melded") if own else _("{name} goes gin with every card melded")
        text = msg.format(name=who, card=card)
    elif kind == "layoff":
        text = (_("You lay off {card}") if own else _("{name} lays off {card}")).format(name=who, card=card)
    else:
        text = _("{name}: {move}").format(name=_("You") if own else who, move=action)
    if private and reason:
        text = _("{move} ({reason})").format(move=text, reason=reason_text(reason))
    return text


def action_words(players: Sequence[str], seat: int | None, action: str, viewer: int | None = None) -> str:
    """The public words of one move: ``Expert draws from the stock``; ``You discard 7h`` for the viewer."""
    return move_text(players, seat, Action.parse(action), viewer=viewer)


def reason_line(players: Sequence[str], seat: int | None, action: Action, reason: Value) -> str:
    """A computer player's reason for one move, for the review after the hand."""
    who = display_name(players[seat]) if seat is not None else "?"
    with using("en"):  # the reason names the move already ("Discard 9c: ..."), in any language
        names_move = reason_text(reason).lower().startswith(action.kind)
    if names_move:
        return _("{name}: {reason}").format(name=who, reason=reason_text(reason))
    move = reason_text(move_in_sentence(action))  # the move in the reader's words (English: its notation)
    return _("{name}, {move}: {reason}").format(name=who, move=move, reason=reason_text(reason))


def reason_text(reason: Value | None) -> str:
    """A computer player's reasons or a hint's explanation (:mod:`ginrummy.agents.reasons`) in
    words, in the current language.  Text is shown as it is (an old save's reasons, worded when
    they were given; card notation); a message whose translation cannot be filled falls back to
    its English."""
    if reason is None:
        return ""
    if isinstance(reason, Joined):
        sep = _(reason.separator) if reason.separator else ""
        return sep.join(reason_text(p) for p in reason.parts) + (_(reason.end) if reason.end else "")
    if not isinstance(reason, Message):
        return str(reason)
    if not reason.text:
        return ""
    values = {k: reason_text(v) if isinstance(v, (Message, Joined)) else v for k, v in reason.values}
    if reason.plural is not None:
        if reason.context is not None:
            template = npgettext(reason.context, reason.text, reason.plural, reason.count)
        else:
            template = ngettext(reason.text, reason.plural, reason.count)
        english = reason.text if reason.count == 1 else reason.plural
    else:
        template = _(reason.text) if reason.context is None else pgettext(reason.context, reason.text)
        english = reason.text
    for text in (template, english):
        filled = _fill(text, values)
        if filled is not None:
            return filled
    return english


def move_name(action: object) -> str:
    """A move named on its own, as a hint names it, in the reader's words (``Discard 7h``,
    ``7h 버리기``): the name a reason gives it (:func:`ginrummy.agents.reasons.move`); anything
    not an :class:`Action` as it is."""
    return reason_text(move_at_head(action)) if isinstance(action, Action) else str(action)


def _fill(template: str, values: Mapping[str, str | int]) -> str | None:
    """``template`` with its named fields (``{card}``, ``{n}``; nothing else: no attributes, no
    indexes) filled from ``values``; None when it asks for anything else."""
    out = []
    try:
        for literal, field, spec, conv in _FORMATTER.parse(template):
            out.append(literal)
            if field is None:
                continue
            if field not in values or conv not in (None, "s"):
                return None
            out.append(format(values[field], spec or ""))
    except (ValueError, TypeError):
        return None
    return "".join(out)


_FORMATTER = string.Formatter()


def computer_failed(name: str) -> str:
    """What a person is told when a computer player fails: never its error text (an agent's
    error may list the cards it holds), only that it failed and that nothing was lost."""
    return _(
        "The computer player {name} failed and did not move; the game is saved as it was (the details are in the log)"
    ).format(name=display_name(name))


def sitter_line(players: Sequence[str], sitter: int, best: Action | str, why: Value | None) -> str:
    """The computer sitter's suggestion to the captain (three): ``Expert 2 (the sitter) suggests: draw — why``."""
    name = display_name(players[sitter])
    move = reason_text(move_in_sentence(best)) if isinstance(best, Action) else best  # (ko, lv: in words)
    if why:
        return _("{name} (the sitter) suggests: {move} — {why}").format(name=name, move=move, why=reason_text(why))
    return _("{name} (the sitter) suggests: {move}").format(name=name, move=move)


_YOU_VERBS = {
    "knocks": "knock",
    "goes": "go",
    "scores": "score",
    "spreads": "spread",
    "lays": "lay",
    "wins": "win",
    "draws": "draw",
    "takes": "take",
}


# How each of the engine's result kinds is named to people (its kind "draw" is not the draw command).
RESULT_NAMES = {
    "gin": NP_("how a hand ended", "gin"),
    "big-gin": NP_("how a hand ended", "big gin"),
    "knock": NP_("how a hand ended", "knock"),
    "undercut": NP_("how a hand ended", "undercut"),
    "joker": NP_("how a hand ended", "the joker came first"),
    "draw": NP_("how a hand ended", "the wall"),
    "redeal": NP_("how a hand ended", "redeal"),
    "unfinished": NP_("how a hand ended", "unfinished"),  # a hand a saved game stopped inside (replay's table)
}


def result_name(kind: str) -> str:
    """How a hand's end is named to people: ``the wall`` (rule 1.9, a void hand), ``big gin``..."""
    return pgettext("how a hand ended", RESULT_NAMES[kind]) if kind in RESULT_NAMES else kind


def result_lines(explanation: Sequence[str], players: Sequence[str], seats: Sequence[str]) -> list[str]:
    """A hand's explanation as shown to the person: "You knock" for their seat.  The engine tells a
    solitaire to "You"; when a computer player plays it (the person watches, no seat is theirs) the
    lines name it instead: "Planner scores the count", never "You score"."""
    name = clean_name(players[0]) if HUMAN not in seats and players else None

    def third_person(m: re.Match[str]) -> str:
        return f"{name} {m.group(1)}s"

    out = []
    english = current_language() == "en"
    for line in explanation:
        text = clean_text(line)
        if name is not None:
            text = re.sub(r"\bYou (score|win)\b", third_person, text)
        text = you_grammar(text)
        out.append(text if english else _translated_explanation(text))
    return out


# The engine explains a hand's score in English sentences of a fixed form (engine.py, rule numbers
# in docs/rules.md); in another language each is matched here and said again from the catalog.  A
# line of a form not listed stays English (the pseudo-locale tests would show it).
_N = r"(?P<name>.+?)"
_EXPLANATIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (_N + r" (?:goes|go) gin: (?P<melds>.*)", N_("{name}: gin with {melds}")),
        (_N + r" (?:goes|go) big gin: (?P<melds>.*)", N_("{name}: big gin with {melds}")),
        (
            _N + r" (?:knocks|knock): (?P<melds>.*), deadwood (?P<cards>.+) = (?P<points>\d+)",
            N_("{name}: knock with {melds}, deadwood {cards} = {points}"),
        ),
        (_N + r" (?:knocks|knock): (?P<melds>.*)", N_("{name}: knock with {melds}")),
        (
            _N
            + r" (?:spreads|spread) no melds, (?:lays|lay) off (?P<laid>.+), deadwood (?P<cards>.+) = (?P<points>\d+)",
            N_("{name}: no melds, lays off {laid}, deadwood {cards} = {points}"),
        ),
        (
            _N + r" (?:spreads|spread) no melds, deadwood (?P<cards>.+) = (?P<points>\d+)",
            N_("{name}: no melds, deadwood {cards} = {points}"),
        ),
        (
            _N + r" (?:spreads|spread) (?P<melds>.+), (?:lays|lay) off (?P<laid>.+), deadwood (?P<cards>.+) = "
            r"(?P<points>\d+)",
            N_("{name}: spreads {melds}, lays off {laid}, deadwood {cards} = {points}"),
        ),
        (
            _N + r" (?:spreads|spread) (?P<melds>.+), deadwood (?P<cards>.+) = (?P<points>\d+)",
            N_("{name}: spreads {melds}, deadwood {cards} = {points}"),
        ),
        (
            r"Undercut: "
            + _N
            + r" (?:scores|score) (?P<a>\d+) - (?P<b>\d+) \+ (?P<bonus>\d+) bonus = (?P<points>\d+)\.?",
            N_("Undercut: {name} scores {a} − {b} + {bonus} bonus = {points}"),
        ),
        (
            _N + r" (?:scores|score) (?P<a>\d+) \+ (?P<bonus>\d+) big gin bonus = (?P<points>\d+)\.?",
            N_("{name} scores {a} + {bonus} big gin bonus = {points}"),
        ),
        (
            _N + r" (?:scores|score) (?P<a>\d+) \+ (?P<bonus>\d+) gin bonus = (?P<points>\d+)\.?",
            N_("{name} scores {a} + {bonus} gin bonus = {points}"),
        ),
        (
            _N + r" (?:scores|score) (?P<a>\d+) - (?P<b>\d+) = (?P<points>\d+)\.?",
            N_("{name} scores {a} − {b} = {points}"),
        ),
        (_N + r" (?:scores|score) the count: (?P<points>\d+)\.", N_("{name} scores the count: {points}")),
        (_N + r" (?:wins|win) the hand\.", N_("{name} wins the hand.")),
        (r"Equal counts: nobody scores\.?", N_("Equal counts: nobody scores.")),
        (
            r"Spades double \(the upcard was (?P<card>\S+)\): (?P<points>\d+)",
            N_("Spades double (the upcard was {card}): {points}"),
        ),
        (r"The joker was dealt: redeal\.", N_("The joker was dealt: redeal.")),
        (
            r"The joker was dealt: the hand is lost; the Joker scores (?P<points>\d+)\.",
            N_("The joker was dealt: the hand is lost; the Joker scores {points}."),
        ),
        (r"Only (?P<n>\d+) stock cards left: the hand is void\.", N_("Only {n} stock cards left: the hand is void.")),
        (
            r"The joker came first\. Deadwood (?P<cards>.+) = (?P<points>\d+)\.",
            N_("The joker came first. Deadwood {cards} = {points}."),
        ),
        (r"The hand is lost\.", N_("The hand is lost.")),
        (r"The Joker scores (?P<points>\d+)\.", N_("The Joker scores {points}.")),
        (
            r"Gin: (?P<melds>.*)\. (?P<n>\d+) cards turned before the joker\.",
            N_("Gin: {melds}. {n} cards turned before the joker."),
        ),
        (
            r"Big gin: (?P<melds>.*)\. (?P<n>\d+) cards turned before the joker\.",
            N_("Big gin: {melds}. {n} cards turned before the joker."),
        ),
        (
            r"Knock: (?P<melds>.*)\. (?P<n>\d+) cards turned before the joker\.",
            N_("Knock: {melds}. {n} cards turned before the joker."),
        ),
    )
)


def _translated_explanation(text: str) -> str:
    """One line of the engine's explanation of a hand, in the current language (see above)."""
    for pattern, message in _EXPLANATIONS:
        m = pattern.fullmatch(text)
        if m is not None:
            values = m.groupdict()
            if "name" in values:
                values["name"] = _("the Joker") if values["name"] == "the Joker" else display_name(values["name"])
            if values.get("melds") == "":
                values["melds"] = "-"
            return _(message).format(**values)
    return text


def final_part_text(part: FinalPart) -> str:
    """One line of a final total (the engine's ``final_parts``: the box bonus, Hollywood's games...)
    in the current language."""
    if part.kind == "box":
        line = ngettext("box bonus: {n} hand won × {bonus}", "box bonus: {n} hands won × {bonus}", part.hands).format(
            n=part.hands, bonus=part.bonus
        )
    elif part.kind == "game_bonus_doubled":
        line = _("game bonus, doubled for a shutout: 2 × {bonus}").format(bonus=part.bonus)
    else:
        line = _(_FINAL_PART_WORDS[part.kind])
    return _("game {number}: {part}").format(number=part.game, part=line) if part.game else line


_FINAL_PART_WORDS = {
    "hands": N_("points of the hands"),
    "game_bonus": N_("game bonus"),
    "shutout_doubled": N_("shutout: the total doubled"),
}


def just_drawn(card: str) -> str:
    """The card the person has just drawn (the solitaires draw it with the discard, in one move)."""
    return _("Just drawn: {card} (marked * in your hand).").format(card=card)


def _variant_of(obs: Mapping[str, Any]) -> Variant | None:
    """The registry's entry for an observation's variant (None when it names none)."""
    try:
        return find_variant(obs.get("variant"))
    except OptionError:
        return None


def upcard_notes(obs: Mapping[str, Any]) -> list[str]:
    """Oklahoma: what the hand's upcard decided, to be said all hand (rules 1b.1-1b.2): the knock
    limit it set, ``gin only`` for an ace, ``spades double`` for a spade."""
    up = obs.get("upcard")
    v = _variant_of(obs)
    if v is None or not v.upcard_sets_limit or not up or "hand" not in obs:
        return []
    notes = []
    limit = obs.get("knock_limit")
    if limit == 0:
        notes.append(_("gin only (the upcard {card} is an ace: no knocking this hand)").format(card=up))
    elif limit is not None:
        notes.append(_("knock limit {limit} (set by the upcard {card})").format(limit=limit, card=up))
    if obs.get("options", {}).get("spades_double") and up[-1:] == "s":
        notes.append(_("spades double (the upcard {card} is a spade: this hand scores double)").format(card=up))
    return notes


def top_discard_label(obs: Mapping[str, Any]) -> str:
    """The top of the discard pile: the upcard while it is being offered, the top discard after."""
    return _("Upcard") if obs.get("phase") == "upcard" else _("Top discard")


# What each key or command does, as the object of "You cannot ..." / "you can ...".
_DOING = {
    "draw": N_("draw from the stock"),
    "take": N_("take the discard"),
    "pass": N_("pass"),
    "discard": N_("discard"),
    "knock": N_("knock"),
    "gin": N_("go gin"),
    "big": N_("declare big gin"),
    "deal": N_("deal"),
    "hint": N_("have a hint"),
    "layoff": N_("lay off"),
}


def _doing(what: str) -> str:
    return _(_DOING[what]) if what in _DOING else what


def or_list(items: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` in the current language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} or {last}").format(items=_(", ").join(items[:-1]), last=items[-1])


def cannot_line(
    what: str,
    legal: Sequence[str],
    *,
    game_over: bool = False,
    between_hands: bool = False,
    playing: str | None = None,
) -> str:
    """Why a key or command cannot act now, in one short line, with what can be done instead:
    ``You cannot knock now; you can discard.``  ``legal`` is the viewer's legal actions."""
    doing = _doing(what)
    if game_over:
        return _("You cannot {doing}: the game is over (n starts a new one).").format(doing=doing)
    if what == "deal":
        return _("You cannot deal: the hand in play is not over.")
    if between_hands:
        return _("You cannot {doing}: no hand is in play (n deals the next).").format(doing=doing)
    if not legal:
        if playing:
            return _("You cannot {doing}: it is {name}'s turn.").format(doing=doing, name=display_name(playing))
        return _("You cannot {doing} now.").format(doing=doing)
    can = list(dict.fromkeys(_doing(a.split()[0]) for a in legal))
    return _("You cannot {doing} now; you can {choices}.").format(doing=doing, choices=or_list(can))


def no_hand_line(obs: Mapping[str, Any]) -> str:
    """What to say where the viewer's cards would be when they hold none: the sitter of ``three``
    (roles dealt, the viewer sits out), no hand dealt yet, or nothing for the solitaires' deck."""
    roles = obs.get("roles")
    if roles and roles.get("sitter") == obs.get("seat") and obs.get("phase") != "deal":
        return _("You hold no cards this hand (you are the sitter).")
    if obs.get("variant") in solo_variants():
        return ""
    return _("No hand is in play yet.") if not obs.get("hand_number") else _("No hand is in play.")


def you_grammar(line: str) -> str:
    """The engine writes ``{name} knocks``; when the name is "You" make it ``You knock``."""
    return re.sub(r"\bYou (" + "|".join(_YOU_VERBS) + r")\b", lambda m: "You " + _YOU_VERBS[m.group(1)], line)


# ---------------------------------------------------------------------------------------------
# The score sheet
# ---------------------------------------------------------------------------------------------
def target_of(obs: Mapping[str, Any]) -> int:
    """The game's target from an observation (Hollywood's three games have their own)."""
    opts = obs.get("options", {})
    v = _variant_of(obs)
    return int(opts.get(v.target_option if v is not None else "game_target", 100))


def card_list(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


def score_lines(obs: Mapping[str, Any]) -> list[str]:
    """The score sheet in words: totals to the target, hands won, Hollywood's three games, and the
    final totals with their bonuses once the game is over."""
    players = display_names(obs["players"])
    totals = obs["totals"]
    won = obs["hands_won"]
    lines = [_("Score after hand {hand} (game to {target}):").format(hand=obs["hand_number"], target=target_of(obs))]
    for i, p in enumerate(players):
        points = ngettext("{n} point", "{n} points", totals[i]).format(n=totals[i])
        hands = ngettext("{n} hand won", "{n} hands won", won[i]).format(n=won[i])
        if "boxes" in obs:
            boxes = ngettext("{n} box", "{n} boxes", obs["boxes"][i]).format(n=obs["boxes"][i])
            lines.append(
                "  " + _("{name}: {points}, {hands} ({boxes})").format(name=p, points=points, hands=hands, boxes=boxes)
            )
        else:
            lines.append("  " + _("{name}: {points}, {hands}").format(name=p, points=points, hands=hands))
    hw = obs.get("hollywood")
    if hw:
        for g, (col, closed) in enumerate(zip(hw["games"], hw["closed"], strict=True), 1):
            cells = _(", ").join(
                _("{name} {points}").format(name=players[i], points="-" if v is None else v) for i, v in enumerate(col)
            )
            msg = _("Game {number} (closed): {cells}") if closed else _("Game {number}: {cells}")
            lines.append("  " + msg.format(number=g, cells=cells))
    if obs.get("game_over"):
        final = obs.get("final_totals", totals)
        if list(final) != list(totals):
            opts = obs.get("options", {})
            game_bonus, box_bonus = opts.get("game_bonus", 0), opts.get("box_bonus", 0)
            if opts.get("shutout"):
                msg = _(
                    "Final totals with bonuses (game bonus {game_bonus}, {box_bonus} a hand won, shutout: {shutout}):"
                )
            else:
                msg = _("Final totals with bonuses (game bonus {game_bonus}, {box_bonus} a hand won):")
            lines.append(msg.format(game_bonus=game_bonus, box_bonus=box_bonus, shutout=opts.get("shutout")))
            for i, p in enumerate(players):
                lines.append("  " + _("{name}: {points}").format(name=p, points=final[i]))
        w = obs.get("winner")
        if w is None:
            lines.append(_("Game over: no winner"))
        else:
            lines.append(_("Game over: {name} wins").format(name=players[w]))
    return lines


# ---------------------------------------------------------------------------------------------
# The cut, takebacks, a knocker's choice of melds
# ---------------------------------------------------------------------------------------------
def cut_lines(players: Sequence[str], cut: Cut, viewer: int | None = None) -> list[str]:
    """The cut before the first deal in words: each round's cards (a tie re-cuts), then who deals
    first (rule 1.2: the lower card) or, in three, the roles (rule 2.1: highest in the box)."""

    def who(seat: int) -> str:
        return _("You") if seat == viewer else display_name(clean_name(players[seat]))

    lines = []
    for n, round_ in enumerate(cut.rounds):
        cards = _(", ").join(_("{name} {card}").format(name=who(seat), card=card) for seat, card in round_)
        msg = _("The cut: {cards}.") if n == 0 else _("Tie, cut again: {cards}.")
        lines.append(msg.format(cards=cards))
    if cut.roles is not None:
        box, captain, sitter = cut.roles
        lines.append(
            _("Highest in the box: {box}; captain {captain}; sitter {sitter}.").format(
                box=who(box), captain=who(captain), sitter=who(sitter)
            )
        )
    elif cut.dealer == viewer:
        lines.append(_("The lower card deals: you deal first."))
    else:
        lines.append(_("The lower card deals: {name} deals first.").format(name=who(cut.dealer)))
    return lines


def takeback_line(undone: int, takebacks: int) -> str:
    """What a takeback did: how many moves went back, and that the game is marked for it."""
    moves = ngettext("Took back {n} move: your turn again.", "Took back {n} moves: your turn again.", undone)
    marked = ngettext(
        "This game now has {n} takeback (shown in your history).",
        "This game now has {n} takebacks (shown in your history).",
        takebacks,
    )
    return moves.format(n=undone) + " " + marked.format(n=takebacks)


def arrangement_line(arrangement: Arrangement) -> str:
    """One way to spread a knock: ``3h4h5h KcKdKs · deadwood 2c 3d = 5``."""
    melds = " ".join("".join(str(c) for c in m) for m in arrangement.melds) or _("no melds")
    rest = " ".join(str(c) for c in arrangement.unmatched)
    if rest:
        return _("{melds} · deadwood {cards} = {points}").format(melds=melds, cards=rest, points=arrangement.deadwood)
    return _("{melds} · deadwood 0").format(melds=melds)
