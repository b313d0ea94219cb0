"""All the English the front ends show about a game, built for one viewer seat.

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
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import Action
from .cards import Card
from .errors import OptionError
from .variants import Variant, find_variant, solo_variants

__all__ = [
    "action_words",
    "cannot_line",
    "card_list",
    "clean_name",
    "clean_names",
    "clean_text",
    "computer_failed",
    "default_players",
    "just_drawn",
    "move_text",
    "no_hand_line",
    "reason_line",
    "result_lines",
    "result_name",
    "score_lines",
    "sitter_line",
    "target_of",
    "top_discard_label",
    "upcard_notes",
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
    reason: str | None = None,
    private: bool = False,
) -> str:
    """One move in words for ``viewer`` (``None``: a spectator).  ``taken`` (the card taken from
    the pile) is public; ``drawn`` (what a stock draw gave, or a solitaire's next card) and
    ``reason`` (a computer player's reasons, about its own cards) appear only with ``private``,
    which the caller sets when the viewer may see that seat's hand or the hands have been shown."""
    own = you and seat is not None and seat == viewer
    who = "You" if own else (clean_name(players[seat]) if seat is not None else "?")
    card = str(action.card) if action.card is not None else ""
    got = str(drawn) if private and drawn is not None else ""

    def verb(plain: str, third: str) -> str:
        return plain if own else third

    kind = action.kind
    if kind == "draw":
        text = f"{who} {verb('draw', 'draws')} from the stock" + (f": {got}" if got else "")
    elif kind == "take":
        text = f"{who} {verb('take', 'takes')} " + (str(taken) if taken is not None else "the discard")
    elif kind == "pass":
        text = f"{who} {verb('pass', 'passes')} on the upcard"
    elif kind == "discard":
        text = f"{who} {verb('discard', 'discards')} {card}" + (f" and {verb('draw', 'draws')} {got}" if got else "")
    elif kind == "knock":
        text = f"{who} {verb('knock', 'knocks')}" + (f", discarding {card}" if card else "")
    elif kind == "gin":
        text = f"{who} {verb('go', 'goes')} gin" + (f", discarding {card}" if card else " with every card melded")
    elif kind == "layoff":
        text = f"{who} {verb('lay', 'lays')} off {card}"
    else:
        text = f"{who}: {action}"
    if private and reason:
        text += f" ({reason})"
    return text


def action_words(players: Sequence[str], seat: int | None, action: str, viewer: int | None = None) -> str:
    """The public words of one move: ``Expert draws from the stock``; ``You discard 7h`` for the viewer."""
    return move_text(players, seat, Action.parse(action), viewer=viewer)


def reason_line(players: Sequence[str], seat: int | None, action: Action, reason: str) -> str:
    """A computer player's reason for one move, for the review after the hand."""
    who = clean_name(players[seat]) if seat is not None else "?"
    if reason.lower().startswith(action.kind):  # the reason names the move already ("Discard 9c: ...")
        return f"{who}: {reason}"
    return f"{who}, {action}: {reason}"


def computer_failed(name: str) -> str:
    """What a person is told when a computer player fails: never its error text (an agent's
    error may list the cards it holds), only that it failed and that nothing was lost."""
    return (
        f"The computer player {clean_name(name)} failed and did not move; the game is saved as it was"
        " (the details are in the log)"
    )


def sitter_line(players: Sequence[str], sitter: int, best: Action | str, why: str | None) -> str:
    """The computer sitter's suggestion to the captain (three): ``Expert 2 (the sitter) suggests: draw — why``."""
    return f"{clean_name(players[sitter])} (the sitter) suggests: {best}" + (f" — {why}" if why else "")


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


RESULT_NAMES = {"draw": "the wall", "big-gin": "big gin"}  # the engine's kind "draw" is not the draw command


def result_name(kind: str) -> str:
    """How a hand's end is named to people: ``the wall`` (rule 1.9, a void hand), ``big gin``..."""
    return RESULT_NAMES.get(kind, kind)


def result_lines(explanation: Sequence[str], players: Sequence[str], seats: Sequence[str]) -> list[str]:
    """A hand's explanation as shown to the person: "You knock" for their seat.  The engine tells a
    solitaire to "You"; when a computer player plays it (the person watches, no seat is theirs) the
    lines name it instead: "Planner scores the count", never "You score"."""
    name = clean_name(players[0]) if HUMAN not in seats and players else None

    def third_person(m: re.Match[str]) -> str:
        return f"{name} {m.group(1)}s"

    out = []
    for line in explanation:
        text = clean_text(line)
        if name is not None:
            text = re.sub(r"\bYou (score|win)\b", third_person, text)
        out.append(you_grammar(text))
    return out


def just_drawn(card: str) -> str:
    """The card the person has just drawn (the solitaires draw it with the discard, in one move)."""
    return f"Just drawn: {card} (marked * in your hand)."


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
        notes.append(f"gin only (the upcard {up} is an ace: no knocking this hand)")
    elif limit is not None:
        notes.append(f"knock limit {limit} (set by the upcard {up})")
    if obs.get("options", {}).get("spades_double") and up[-1:] == "s":
        notes.append(f"spades double (the upcard {up} is a spade: this hand scores double)")
    return notes


def top_discard_label(obs: Mapping[str, Any]) -> str:
    """The top of the discard pile: the upcard while it is being offered, the top discard after."""
    return "Upcard" if obs.get("phase") == "upcard" else "Top discard"


_DOING = {
    "draw": "draw from the stock",
    "take": "take the discard",
    "pass": "pass",
    "discard": "discard",
    "knock": "knock",
    "gin": "go gin",
    "big": "declare big gin",
    "deal": "deal",
    "hint": "have a hint",
}


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
    doing = _DOING.get(what, what)
    if game_over:
        return f"You cannot {doing}: the game is over (n starts a new one)."
    if what == "deal":
        return "You cannot deal: the hand in play is not over."
    if between_hands:
        return f"You cannot {doing}: no hand is in play (n deals the next)."
    if not legal:
        return f"You cannot {doing}: it is {clean_name(playing)}'s turn." if playing else f"You cannot {doing} now."
    can = list(dict.fromkeys(_DOING.get(a.split()[0], a) for a in legal))
    return f"You cannot {doing} now; you can {', '.join(can[:-1]) + ' or ' if len(can) > 1 else ''}{can[-1]}."


def no_hand_line(obs: Mapping[str, Any]) -> str:
    """What to say where the viewer's cards would be when they hold none: the sitter of ``three``
    (roles dealt, the viewer sits out), no hand dealt yet, or nothing for the solitaires' deck."""
    roles = obs.get("roles")
    if roles and roles.get("sitter") == obs.get("seat") and obs.get("phase") != "deal":
        return "You hold no cards this hand (you are the sitter)."
    if obs.get("variant") in solo_variants():
        return ""
    return "No hand is in play yet." if not obs.get("hand_number") else "No hand is in play."


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
    players = clean_names(obs["players"])
    totals = obs["totals"]
    won = obs["hands_won"]
    lines = [f"Score after hand {obs['hand_number']} (game to {target_of(obs)}):"]
    for i, p in enumerate(players):
        boxes = f" ({obs['boxes'][i]} boxes)" if "boxes" in obs else ""
        lines.append(f"  {p}: {totals[i]} points, {won[i]} hand{'s' if won[i] != 1 else ''} won{boxes}")
    hw = obs.get("hollywood")
    if hw:
        for g, (col, closed) in enumerate(zip(hw["games"], hw["closed"], strict=True), 1):
            cells = ", ".join(f"{players[i]} {'-' if v is None else v}" for i, v in enumerate(col))
            lines.append(f"  Game {g}{' (closed)' if closed else ''}: {cells}")
    if obs.get("game_over"):
        final = obs.get("final_totals", totals)
        if list(final) != list(totals):
            opts = obs.get("options", {})
            lines.append(
                "Final totals with bonuses (game bonus "
                f"{opts.get('game_bonus', 0)}, {opts.get('box_bonus', 0)} a hand won"
                + (f", shutout: {opts.get('shutout')}" if opts.get("shutout") else "")
                + "):"
            )
            for i, p in enumerate(players):
                lines.append(f"  {p}: {final[i]}")
        w = obs.get("winner")
        lines.append("Game over: " + ("no winner" if w is None else f"{players[w]} wins"))
    return lines
