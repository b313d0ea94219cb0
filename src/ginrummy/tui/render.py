"""The game screen's texts, built from what the person may see (the observation, the legal moves and
the session's public words): pure functions, so the screen only places them.

Every name is put in a :class:`~rich.text.Text`, never in markup: a name like ``[/b]`` is shown as
typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..cards import Card, CardSet
from ..i18n import _, ngettext
from ..melds import min_deadwood
from ..observe import Observation
from ..session import HUMAN, Session
from ..variants import find_variant
from ..words import (
    display_name,
    just_drawn,
    no_hand_line,
    result_lines,
    result_name,
    seat_kind,
    upcard_notes,
    variant_title,
)
from .common import SOLO
from .widgets import bonus_formula, cards_text

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


def sorted_hand(obs: Observation, by: str, group_melds: bool) -> list[str]:
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


def info_line(obs: Observation) -> Text:
    """The variant and the hand: who plays, the dealer, the knock limit (Oklahoma's notes), roles."""
    v = obs["variant"]
    players = [display_name(p) for p in obs["players"]]
    parts = [_("hand {number}").format(number=obs["hand_number"] or 1)]
    kinds = obs.get("seat_kinds", [])
    if v in SOLO:
        if kinds and kinds[0] != HUMAN:
            parts.append(_("watching the {kind} v. the Joker").format(kind=seat_kind(kinds[0])))
        else:
            parts.append(_("you v. the Joker"))
    else:
        if "dealer" in obs and not find_variant(v).roles:
            parts.append(_("dealer {name}").format(name=players[obs["dealer"]]))
        opp = [
            _("{name} ({kind})").format(name=players[i], kind=seat_kind(k)) for i, k in enumerate(kinds) if k != HUMAN
        ]
        if opp:
            parts.append(_("v. {opponents}").format(opponents=_(", ").join(opp)))
    notes = upcard_notes(obs)  # Oklahoma: the knock limit, gin only, spades double, all hand
    if notes:
        parts.extend(notes)
    elif obs.get("knock_limit") is not None and obs.get("hand"):
        parts.append(_("knock limit {limit}").format(limit=obs["knock_limit"]))
    if "roles" in obs:
        r = obs["roles"]
        names = {"box": players[r["box"]], "captain": players[r["captain"]], "sitter": players[r["sitter"]]}
        if r["sitter"] == obs["seat"]:
            parts.append(_("box {box} · captain {captain} · sitter {sitter} (you)").format(**names))
        else:
            parts.append(_("box {box} · captain {captain} · sitter {sitter}").format(**names))
    line = Text()
    line.append(variant_title(v, short=True), style="bold")  # in the reader's words, not the id
    line.append(" · " + " · ".join(parts))
    return line


def piles_text(obs: Observation, palette: str, *, drawn: str | None) -> Text | str:
    """Beside the piles: the solitaire's deck and discards (``drawn``: the card just drawn), or the
    table's stock, pile and the opponents' card counts and known cards."""
    players = [display_name(p) for p in obs["players"]]
    if obs["variant"] in SOLO:
        info: list[str] = []
        if "deck_size" in obs:
            above = obs.get("cards_above_joker_max", 0)
            chance = obs.get("joker_next_chance")
            info.append(
                ngettext(
                    "Deck: {n} card, the joker among them.", "Deck: {n} cards, the joker among them.", obs["deck_size"]
                ).format(n=obs["deck_size"])
            )
            info.append(
                ngettext(
                    "At most {n} card lies above the joker.", "At most {n} cards lie above the joker.", above
                ).format(n=above)
            )
            if chance is not None:
                info.append(_("Chance the joker is next: {chance}").format(chance=f"{chance:.1%}"))
        if drawn is not None:
            info.insert(0, just_drawn(drawn))
        if obs.get("discards"):
            in_pack = find_variant(obs["variant"]).joker == "in_pack"
            t = Text(_("Discards (under the joker): ") if in_pack else _("Discards (face down, out of play): "))
            t.append_text(cards_text(obs["discards"][-12:], palette))
            return Text("\n").join([Text("\n".join(info)), t])
        return "\n".join(info)
    pile = obs.get("discard_pile") or []
    lines = Text()
    if obs.get("stock_size") is not None:
        lines.append(
            ngettext(
                "Stock {n} card · discard pile {pile}", "Stock {n} cards · discard pile {pile}", obs["stock_size"]
            ).format(n=obs["stock_size"], pile=len(pile)),
            style="dim",
        )
        if pile:
            lines.append(_(" · top "), style="dim")
            lines.append_text(cards_text(pile[-1:], palette))
        lines.append("\n")
    for i in range(len(players)):
        if i == obs["seat"] or obs.get("hand_sizes", [0] * 3)[i] == 0:
            continue
        n = obs["hand_sizes"][i]
        lines.append(ngettext("{name}: {n} card ", "{name}: {n} cards ", n).format(name=players[i], n=n) + "▮" * n)
        known = (obs.get("known_cards") or {}).get(str(i))
        if known:
            lines.append("\n  " + _("known to hold: "))
            lines.append_text(cards_text(known, palette))
        lines.append("\n")
    current = obs.get("current_player")
    if current is not None and current != obs["seat"]:
        lines.append(_("{name} to play…").format(name=players[current]), style="italic")
    return lines


def melds_text(obs: Observation, legal: Sequence[str], selected: str | None, palette: str) -> Text | str:
    """Your melds and deadwood, the deadwood after discarding the selected card, and the discards
    that let you knock or go gin."""
    hand = obs.get("hand") or []
    if not hand:
        return no_hand_line(obs)
    t = Text()
    melds = obs.get("melds") or []
    t.append(_("Melds: "), style="bold")
    if melds:
        for i, m in enumerate(melds):
            if i:
                t.append("  ")
            t.append_text(cards_text(m, palette))
    else:
        t.append(_("none"))
    t.append("   " + _("Deadwood: {points}").format(points=obs.get("deadwood", 0)), style="bold")
    if selected and len(hand) == 11 and any(a.startswith("discard") for a in legal):
        rest = CardSet.parse(" ".join(c for c in hand if c != selected))
        t.append(" " + _("→ {points} after discarding {card}").format(points=min_deadwood(int(rest)), card=selected))
    knocks = [a.split()[1] for a in legal if a.startswith("knock ")]
    gins = [a.split()[1] for a in legal if a.startswith("gin ")]
    if gins:
        # TRANSLATORS: followed by the cards, then by " and press g"
        t.append("\n" + _("Gin is yours: discard "), style="bold")
        t.append_text(cards_text(gins, palette))
        t.append(_(" and press g"))
    if knocks:
        # TRANSLATORS: followed by the cards that may be discarded to knock
        t.append("\n" + _("You may knock discarding "))
        t.append_text(cards_text(knocks, palette))
    if "gin" in legal:
        t.append("\n" + _("All your cards are melded: big gin (b) / declare (g)"), style="bold")
    if "knock" in legal:
        t.append("\n" + _("You may knock with the dealt hand (k)"))
    return t


def fairness_text(obs: Observation, *, short: bool) -> str:
    """The deal's commitment, the revealed seed, and the next deal's commitment (one line each, the
    digests shortened on a small terminal)."""
    lines = []
    if short:
        if obs.get("revealed_seed"):
            lines.append(_("Deal seed revealed: {seed}… (ginrummy verify)").format(seed=obs["revealed_seed"][:24]))
        if next_commitment := obs.get("next_commitment"):
            lines.append(_("Next deal committed: {commitment}…").format(commitment=next_commitment[:32]))
        elif obs.get("commitment") and not obs.get("revealed_seed"):
            lines.append(_("Deal committed: {commitment}…").format(commitment=obs["commitment"][:32]))
        return "\n".join(lines)
    if obs.get("revealed_seed"):
        lines.append(
            _("Deal {number} seed revealed: {seed}").format(number=obs["hand_number"], seed=obs["revealed_seed"])
            + "\n  "
            + _("its commitment was {commitment} (check: ginrummy verify)").format(
                commitment=obs.get("commitment", "?")
            )
        )
    if obs.get("next_commitment"):
        lines.append(_("Next deal committed before dealing: {commitment}").format(commitment=obs["next_commitment"]))
    elif obs.get("commitment") and not obs.get("revealed_seed"):
        lines.append(_("This deal was committed: {commitment}").format(commitment=obs["commitment"]))
    return "\n".join(lines)


def status_text(
    obs: Observation, session: Session, legal: Sequence[str], *, message: str, recent: Sequence[str], short: bool
) -> Text:
    """What to do now (or who is playing), after the last message; on a small terminal the latest
    computer moves too (the log is folded away)."""
    players = [display_name(p) for p in obs["players"]]
    t = Text()
    if recent and short:
        t.append(_("{moves}.").format(moves=_("; ").join(recent[-3:])) + "\n", style="italic")
    if message:
        t.append(message + "\n", style="bold")
    if obs.get("game_over"):
        win = obs.get("winner")
        t.append(
            (_("Game over: nobody wins.") if win is None else _("Game over: {name} wins.").format(name=players[win]))
            + " ",
            style="bold reverse",
        )
        t.append(_("Press n for a new game with the same settings, Esc for the menu."))
    elif session.state.needs_deal:
        t.append(
            _("Hand {number}: the deal is committed (see above). Press n to deal.").format(
                number=obs["hand_number"] + 1
            )
        )
    elif session.human_to_act() is not None:
        phase = obs["phase"]
        if phase == "upcard":
            t.append(_("Your turn: take the upcard {card} (t) or pass (p).").format(card=obs.get("upcard")))
        elif phase == "draw":
            if "take" in legal:
                t.append(_("Your turn: draw from the stock (s) or take the discard (t)."))
            else:
                t.append(_("Your turn: draw from the stock (s)."))
        elif phase == "opening":
            t.append(_("Your turn: draw (s), or declare the dealt ten if you can."))
        elif any(a.startswith(("knock", "gin")) for a in legal):
            t.append(
                _("Your turn: select a card (1-9, 0, -, ← →, or click) and discard it (d), knock (k) or go gin (g).")
            )
        else:
            t.append(_("Your turn: select a card (1-9, 0, -, ← →, or click) and discard it (d)."))
    elif session.to_act is not None:
        t.append(_("{name} is playing…").format(name=players[session.to_act]), style="italic")
    return t


def captain_text(obs: Observation, session: Session, palette: str) -> Text:
    """Three players: the captain's hand shown to the sitter, or a computer sitter's advice to the
    person who captains (empty otherwise)."""
    t = Text()
    roles = obs.get("roles")
    if roles and obs.get("captain_hand"):
        t.append(_("You are the sitter. The captain's hand: "), style="bold")
        t.append_text(cards_text(obs["captain_hand"], palette))
    elif roles and roles["captain"] == obs["seat"] and session.human_to_act() == obs["seat"]:
        suggestion = session.sitter_text()  # a computer sitter advises the person who captains
        if suggestion:
            t.append(suggestion, style="bold")
    return t


def buttons(
    obs: Observation,
    session: Session,
    legal: Sequence[str],
    selected: str | None,
    *,
    undo: bool = False,
    layoffs: Sequence[str] = (),
) -> tuple[dict[str, bool], dict[str, str]]:
    """Which action buttons to show (only the legal ones) and the labels that name a card;
    ``undo``: a takeback is possible; ``layoffs``: the cards the person defending may lay off."""
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
        "layoff": bool(layoffs),
        "undo": undo,
    }
    pile = obs.get("discard_pile") or []
    labels = {
        "take": _("Take {card} (t)").format(card=pile[-1]) if pile else _("Take (t)"),
        "discard": _("Discard {card} (d)").format(card=sel) if sel else _("Discard (d)"),
        "knock": _("Knock {card} (k)").format(card=sel) if sel and f"knock {sel}" in legal else _("Knock (k)"),
        "gin": _("Gin {card} (g)").format(card=sel) if sel and f"gin {sel}" in legal else _("Gin (g)"),
        "deal": _("New game (n)") if session.state.is_terminal else _("Deal (n)"),
        "layoff": _("Lay off {card} (l)").format(card=sel) if sel in layoffs else _("Lay off (l)"),
    }
    return show, labels


def _spread(t: Text, who: str, you: bool, melds: Sequence[Sequence[str]], palette: str) -> None:
    t.append(_("You spread: ") if you else _("{name} spreads: ").format(name=who), style="bold")
    for m in melds:
        t.append_text(cards_text(m, palette))
        t.append("  ")


def result_text(
    obs: Observation, session: Session, palette: str, analysis_lines: Sequence[str], layoffs: Sequence[str] = ()
) -> Text:
    """The end of a hand: both spreads, the layoffs, the points line by line, the computers'
    reasons (the hand is over: they may be read now) and, at the end of a solitaire, the analysis.
    ``layoffs``: the cards the person defending may still lay off themselves."""
    res = obs["result"]
    players = [display_name(p) for p in obs["players"]]
    t = Text(
        _("Hand {number}: {result}").format(number=obs["hand_number"], result=result_name(res["result"])) + "\n",
        style="bold",
    )
    defender = session.defender()
    if res.get("knocker") is not None and "knocker_melds" in res and defender is not None:
        k, d = res["knocker"], defender
        you = obs["seat"]
        _spread(t, players[k], k == you, res["knocker_melds"], palette)
        if res.get("knocker_unmatched"):
            t.append(_("deadwood "))
            t.append_text(cards_text(res["knocker_unmatched"], palette))
        t.append("\n")
        _spread(t, players[d], d == you, res.get("defender_melds", []), palette)
        if not res.get("defender_melds"):
            t.append(_("no melds") + "  ")
        if res.get("laid_off"):
            # TRANSLATORS: followed by the cards laid off (the viewer's own, or another's)
            t.append(_("lay off ") if d == you else _("lays off "))
            t.append_text(cards_text(res["laid_off"], palette))
            t.append("  ")
        if res.get("defender_unmatched"):
            t.append(_("deadwood "))
            t.append_text(cards_text(res["defender_unmatched"], palette))
        t.append("\n")
        if layoffs:
            t.append(_("Choose your layoffs: "), style="bold")
            t.append(
                _(
                    "select a card and press l (the best layoffs are counted until you do; the first replaces "
                    "them, each next one adds a card). Can go now: "
                )
            )
            t.append_text(cards_text(layoffs, palette))
            t.append("\n")
    if res.get("counted_cards"):
        t.append(_("Counted down to the joker ({n}): ").format(n=res.get("counted", 0)))
        t.append_text(cards_text(res["counted_cards"], palette))
        t.append("\n")
    for line in result_lines(res.get("explanation", []), obs["players"], session.seats):
        t.append("• " + line + "\n")
    if obs.get("game_over"):  # the final totals here too: on a small terminal the score sheet is hidden
        final = obs.get("final_totals", obs["totals"])
        formula = bonus_formula(obs)
        names = [display_name(p) for p in obs["players"]]
        t.append(
            (_("Final totals with bonuses:") if formula else _("Final totals:"))
            + " "
            + " – ".join(f"{n} {x}" for n, x in zip(names, final, strict=True))
            + "\n",
            style="bold",
        )
        if formula:
            t.append(formula + "\n")
    reasons = session.reasons_text(obs["seat"])  # the hand is over: the computers' reasons
    if reasons:
        t.append(_("Why the computer players moved as they did:") + "\n", style="bold")
        for line in reasons[-12:]:
            t.append("  " + line + "\n")
    if analysis_lines and session.state.is_terminal:
        t.append(_("Your play against the planner:") + "\n", style="bold")
        for line in analysis_lines:
            t.append("  " + line + "\n")
    return t
