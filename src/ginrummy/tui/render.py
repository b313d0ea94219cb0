"""The game screen's texts, built from what the person may see (the observation, the legal moves and
the session's public words): pure functions, so the screen only places them.

Every name is put in a :class:`~rich.text.Text`, never in markup: a name like ``[/b]`` is shown as
typed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ..cards import Card, CardSet
from ..melds import min_deadwood
from ..session import HUMAN, Session
from ..variants import find_variant
from ..words import just_drawn, no_hand_line, result_lines, result_name, upcard_notes
from .common import SOLO
from .widgets import cards_text

__all__ = [
    "buttons",
    "captain_text",
    "fairness_text",
    "info_line",
    "melds_text",
    "piles_text",
    "result_text",
    "sorted_hand",
    "status_text",
]


def sorted_hand(obs: dict[str, Any], by: str, group_melds: bool) -> list[str]:
    """The hand in display order: by rank or by suit (``by``), the melds first when grouped."""

    def key(c: str) -> tuple[int, int]:
        card = Card.parse(c)
        return (card.rank, int(card.suit)) if by == "rank" else (int(card.suit), card.rank)

    hand = list(obs.get("hand", []))
    if not group_melds:
        return sorted(hand, key=key)
    melds = [sorted(m, key=key) for m in obs.get("melds", [])]
    melds.sort(key=lambda m: key(m[0]))
    in_melds = {c for m in melds for c in m}
    return [c for m in melds for c in m] + sorted((c for c in hand if c not in in_melds), key=key)


def info_line(obs: dict[str, Any]) -> Text:
    """The variant and the hand: who plays, the dealer, the knock limit (Oklahoma's notes), roles."""
    v = obs["variant"]
    players = obs["players"]
    parts = [f"hand {obs['hand_number'] or 1}"]
    kinds = obs.get("seat_kinds", [])
    if v in SOLO:
        if kinds and kinds[0] != HUMAN:
            parts.append(f"watching the {kinds[0]} v. the Joker")
        else:
            parts.append("you v. the Joker")
    else:
        if "dealer" in obs and not find_variant(v).roles:
            parts.append(f"dealer {players[obs['dealer']]}")
        opp = [f"{players[i]} ({k})" for i, k in enumerate(kinds) if k != HUMAN]
        if opp:
            parts.append("v. " + ", ".join(opp))
    notes = upcard_notes(obs)  # Oklahoma: the knock limit, gin only, spades double, all hand
    if notes:
        parts.extend(notes)
    elif obs.get("knock_limit") is not None and obs.get("hand"):
        parts.append(f"knock limit {obs['knock_limit']}")
    if "roles" in obs:
        r = obs["roles"]
        parts.append(
            f"box {players[r['box']]} · captain {players[r['captain']]} · sitter {players[r['sitter']]}"
            + (" (you)" if r["sitter"] == obs["seat"] else "")
        )
    line = Text()
    line.append(v, style="bold")
    line.append(" · " + " · ".join(parts))
    return line


def piles_text(obs: dict[str, Any], palette: str, *, drawn: str | None) -> Text | str:
    """Beside the piles: the solitaire's deck and discards (``drawn``: the card just drawn), or the
    table's stock, pile and the opponents' card counts and known cards."""
    players = obs["players"]
    if obs["variant"] in SOLO:
        info: list[str] = []
        if "deck_size" in obs:
            above = obs.get("cards_above_joker_max", 0)
            chance = obs.get("joker_next_chance")
            info.append(f"Deck: {obs['deck_size']} cards, the joker among them.")
            info.append(f"At most {above} cards lie above the joker.")
            if chance is not None:
                info.append(f"Chance the joker is next: {chance:.1%}")
        if drawn is not None:
            info.insert(0, just_drawn(drawn))
        if obs.get("discards"):
            in_pack = find_variant(obs["variant"]).joker == "in_pack"
            where = "under the joker" if in_pack else "face down, out of play"
            t = Text(f"Discards ({where}): ")
            t.append_text(cards_text(obs["discards"][-12:], palette))
            return Text("\n").join([Text("\n".join(info)), t])
        return "\n".join(info)
    pile = obs.get("discard_pile") or []
    lines = Text()
    if obs.get("stock_size") is not None:
        lines.append(f"Stock {obs['stock_size']} cards · discard pile {len(pile)}", style="dim")
        if pile:
            lines.append(" · top ", style="dim")
            lines.append_text(cards_text(pile[-1:], palette))
        lines.append("\n")
    for i in range(len(players)):
        if i == obs["seat"] or obs.get("hand_sizes", [0] * 3)[i] == 0:
            continue
        n = obs["hand_sizes"][i]
        lines.append(f"{players[i]}: {n} cards " + "▮" * n)
        known = (obs.get("known_cards") or {}).get(str(i))
        if known:
            lines.append("\n  known to hold: ")
            lines.append_text(cards_text(known, palette))
        lines.append("\n")
    if obs.get("current_player") is not None and obs["current_player"] != obs["seat"]:
        lines.append(f"{players[obs['current_player']]} to play…", style="italic")
    return lines


def melds_text(obs: dict[str, Any], legal: Sequence[str], selected: str | None, palette: str) -> Text | str:
    """Your melds and deadwood, the deadwood after discarding the selected card, and the discards
    that let you knock or go gin."""
    hand = obs.get("hand") or []
    if not hand:
        return no_hand_line(obs)
    t = Text()
    melds = obs.get("melds") or []
    t.append("Melds: ", style="bold")
    if melds:
        for i, m in enumerate(melds):
            if i:
                t.append("  ")
            t.append_text(cards_text(m, palette))
    else:
        t.append("none")
    t.append(f"   Deadwood: {obs.get('deadwood', 0)}", style="bold")
    if selected and len(hand) == 11 and any(a.startswith("discard") for a in legal):
        rest = CardSet.parse(" ".join(c for c in hand if c != selected))
        t.append(f" → {min_deadwood(int(rest))} after discarding {selected}")
    knocks = [a.split()[1] for a in legal if a.startswith("knock ")]
    gins = [a.split()[1] for a in legal if a.startswith("gin ")]
    if gins:
        t.append("\nGin is yours: discard ", style="bold")
        t.append_text(cards_text(gins, palette))
        t.append(" and press g")
    if knocks:
        t.append("\nYou may knock discarding ")
        t.append_text(cards_text(knocks, palette))
    if "gin" in legal:
        t.append("\nAll your cards are melded: big gin (b) / declare (g)", style="bold")
    if "knock" in legal:
        t.append("\nYou may knock with the dealt hand (k)")
    return t


def fairness_text(obs: dict[str, Any], *, short: bool) -> str:
    """The deal's commitment, the revealed seed, and the next deal's commitment (one line each, the
    digests shortened on a small terminal)."""
    lines = []
    if short:
        if obs.get("revealed_seed"):
            lines.append(f"Deal seed revealed: {obs['revealed_seed'][:24]}… (ginrummy verify)")
        if obs.get("next_commitment"):
            lines.append(f"Next deal committed: {obs['next_commitment'][:32]}…")
        elif obs.get("commitment") and not obs.get("revealed_seed"):
            lines.append(f"Deal committed: {obs['commitment'][:32]}…")
        return "\n".join(lines)
    if obs.get("revealed_seed"):
        lines.append(
            f"Deal {obs['hand_number']} seed revealed: {obs['revealed_seed']}\n"
            f"  its commitment was {obs.get('commitment', '?')} (check: ginrummy verify)"
        )
    if obs.get("next_commitment"):
        lines.append(f"Next deal committed before dealing: {obs['next_commitment']}")
    elif obs.get("commitment") and not obs.get("revealed_seed"):
        lines.append(f"This deal was committed: {obs['commitment']}")
    return "\n".join(lines)


def status_text(
    obs: dict[str, Any], session: Session, legal: Sequence[str], *, message: str, recent: Sequence[str], short: bool
) -> Text:
    """What to do now (or who is playing), after the last message; on a small terminal the latest
    computer moves too (the log is folded away)."""
    players = obs["players"]
    t = Text()
    if recent and short:
        t.append("; ".join(recent[-3:]) + ".\n", style="italic")
    if message:
        t.append(message + "\n", style="bold")
    if obs.get("game_over"):
        win = obs.get("winner")
        t.append(
            "Game over: " + ("nobody wins" if win is None else f"{players[win]} wins") + ". ",
            style="bold reverse",
        )
        t.append("Press n for a new game with the same settings, Esc for the menu.")
    elif session.state.needs_deal:
        t.append(f"Hand {obs['hand_number'] + 1}: the deal is committed (see above). Press n to deal.")
    elif session.human_to_act() is not None:
        phase = obs["phase"]
        if phase == "upcard":
            t.append(f"Your turn: take the upcard {obs.get('upcard')} (t) or pass (p).")
        elif phase == "draw":
            tail = " or take the discard (t)." if "take" in legal else "."
            t.append("Your turn: draw from the stock (s)" + tail)
        elif phase == "opening":
            t.append("Your turn: draw (s), or declare the dealt ten if you can.")
        else:
            t.append("Your turn: select a card (1-9, 0, -, ← →, or click) and discard it (d)")
            if any(a.startswith(("knock", "gin")) for a in legal):
                t.append(", knock (k) or go gin (g)")
            t.append(".")
    elif session.to_act is not None:
        t.append(f"{players[session.to_act]} is playing…", style="italic")
    return t


def captain_text(obs: dict[str, Any], session: Session, palette: str) -> Text:
    """Three players: the captain's hand shown to the sitter, or a computer sitter's advice to the
    person who captains (empty otherwise)."""
    t = Text()
    roles = obs.get("roles")
    if roles and obs.get("captain_hand"):
        t.append("You are the sitter. The captain's hand: ", style="bold")
        t.append_text(cards_text(obs["captain_hand"], palette))
    elif roles and roles["captain"] == obs["seat"] and session.human_to_act() == obs["seat"]:
        suggestion = session.sitter_text()  # a computer sitter advises the person who captains
        if suggestion:
            name, _, advice = suggestion.partition(" suggests: ")
            t.append(f"{name} suggests: ", style="bold")
            t.append(advice)
    return t


def buttons(
    obs: dict[str, Any], session: Session, legal: Sequence[str], selected: str | None
) -> tuple[dict[str, bool], dict[str, str]]:
    """Which action buttons to show (only the legal ones) and the labels that name a card."""
    sel = selected
    show = {
        "draw": "draw" in legal,
        "take": "take" in legal,
        "pass": "pass" in legal,
        "discard": any(a.startswith("discard") for a in legal),
        "knock": (sel is not None and f"knock {sel}" in legal) or "knock" in legal,
        "gin": (sel is not None and f"gin {sel}" in legal) or ("gin" in legal and obs.get("phase") == "opening"),
        "big": "gin" in legal and obs.get("phase") != "opening",
        "deal": session.state.needs_deal or session.state.is_terminal,
        "hint": bool(legal),
    }
    pile = obs.get("discard_pile") or []
    labels = {
        "take": f"Take {pile[-1]} (t)" if pile else "Take (t)",
        "discard": f"Discard {sel} (d)" if sel else "Discard (d)",
        "knock": f"Knock {sel} (k)" if sel and f"knock {sel}" in legal else "Knock (k)",
        "gin": f"Gin {sel} (g)" if sel and f"gin {sel}" in legal else "Gin (g)",
        "deal": "New game (n)" if session.state.is_terminal else "Deal (n)",
    }
    return show, labels


def _spread(t: Text, who: str, you: bool, melds: Sequence[Sequence[str]], palette: str) -> None:
    t.append(f"{'You' if you else who} {'spread' if you else 'spreads'}: ", style="bold")
    for m in melds:
        t.append_text(cards_text(m, palette))
        t.append("  ")


def result_text(obs: dict[str, Any], session: Session, palette: str, analysis_lines: Sequence[str]) -> Text:
    """The end of a hand: both spreads, the layoffs, the points line by line, the computers'
    reasons (the hand is over: they may be read now) and, at the end of a solitaire, the analysis."""
    res = obs["result"]
    players = obs["players"]
    t = Text(f"Hand {obs['hand_number']}: {result_name(res['result'])}\n", style="bold")
    defender = session.defender()
    if res.get("knocker") is not None and "knocker_melds" in res and defender is not None:
        k, d = res["knocker"], defender
        you = obs["seat"]
        _spread(t, players[k], k == you, res["knocker_melds"], palette)
        if res.get("knocker_unmatched"):
            t.append("deadwood ")
            t.append_text(cards_text(res["knocker_unmatched"], palette))
        t.append("\n")
        _spread(t, players[d], d == you, res.get("defender_melds", []), palette)
        if not res.get("defender_melds"):
            t.append("no melds  ")
        if res.get("laid_off"):
            t.append("lay off " if d == you else "lays off ")
            t.append_text(cards_text(res["laid_off"], palette))
            t.append("  ")
        if res.get("defender_unmatched"):
            t.append("deadwood ")
            t.append_text(cards_text(res["defender_unmatched"], palette))
        t.append("\n")
    if res.get("counted_cards"):
        t.append(f"Counted down to the joker ({res.get('counted', 0)}): ")
        t.append_text(cards_text(res["counted_cards"], palette))
        t.append("\n")
    for line in result_lines(res.get("explanation", []), players, session.seats):
        t.append("• " + line + "\n")
    reasons = session.reasons_text(obs["seat"])  # the hand is over: the computers' reasons
    if reasons:
        t.append("Why the computer players moved as they did:\n", style="bold")
        for line in reasons[-12:]:
            t.append("  " + line + "\n")
    if analysis_lines and session.state.is_terminal:
        t.append("Your play against the planner:\n", style="bold")
        for line in analysis_lines:
            t.append("  " + line + "\n")
    return t
