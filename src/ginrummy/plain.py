"""Plain mode: a game line by line on stdin and stdout, for screen readers and scripts.

The commands are the record notation (``draw``, ``take``, ``pass``, ``discard 7h``, ``knock 7h``,
``gin 7h``, ``gin``) plus ``hint``, ``hand``, ``score``, ``record``, ``help`` and ``quit``.  The
game is saved after every action; a later ``ginrummy play --plain`` resumes it.  A bad command gets
one line starting ``error:`` that names what was wrong, and changes nothing.

This module also holds the small helpers the terminal app shares: building a session from the
start-screen choices, describing actions and score sheets in words, and filing a finished game.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import IO, Any

from .actions import Action
from .cards import Card, parse_cards
from .errors import GinRummyError, IllegalAction
from .session import HUMAN, Session
from .store import Store, new_game_id

__all__ = [
    "PlainGame",
    "action_words",
    "default_players",
    "file_finished_game",
    "make_session",
    "public_record",
    "score_lines",
    "solitaire_analysis",
    "you_grammar",
]

SOLO = ("solitaire", "gin-solitaire")
SEATS = {"classic": 2, "oklahoma": 2, "hollywood": 2, "three": 3, "solitaire": 2, "gin-solitaire": 2}

HELP = """\
Commands (the record notation):
  draw            draw the top card of the stock
  take            take the upcard or the top discard
  pass            refuse the first upcard
  discard 7h      discard a card (cards: rank A23456789TJQK or 10, suit c d h s, e.g. Td 10d 7h As)
  knock 7h        discard 7h and knock (deadwood within the knock limit)
  gin 7h          discard 7h and go gin;  gin  (no card): big gin, or declare the dealt ten
  knock           (solitaire opening) knock with the dealt ten
Other commands:
  hand            your cards, melds, deadwood and the table
  score           the score sheet
  hint            the advisor's suggestion
  deal            deal the next hand (also an empty line) when a hand is over
  record          the game record so far, as one line of JSON
  help            this list
  quit            stop; the game is saved and resumes next time"""


# ---------------------------------------------------------------------------------------------
# Shared helpers (also used by the terminal app)
# ---------------------------------------------------------------------------------------------
def default_players(variant: str, seats: Sequence[str], name: str = "You") -> list[str]:
    """Display names: the person's name, the Joker, or the computer's level (``Expert``, ``Expert 2``)."""
    if variant in SOLO:
        return [name if seats[0] == HUMAN else seats[0].capitalize(), "Joker"]
    out: list[str] = []
    humans = 0
    if name == "You" and sum(k == HUMAN for k in seats) > 1:
        name = "Player 1"  # a hot seat: nobody is "you"
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


def make_session(
    variant: str,
    *,
    options: Mapping[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    players: Sequence[str] | None = None,
    name: str = "You",
    deal_seed: int | None = None,
) -> Session:
    """A new session from the start-screen choices; ``seats`` defaults to the person against experts."""
    n = SEATS.get(variant)
    if n is None:
        from .options import VARIANTS

        raise GinRummyError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    if seats is None:
        seats = [HUMAN, "joker"] if variant in SOLO else [HUMAN] + ["expert"] * (n - 1)
    seats = list(seats)
    if variant in SOLO and len(seats) == 2:
        seats[1] = "joker"
    if players is None:
        players = default_players(variant, seats, name)
    return Session.new(variant, dict(options or {}), list(players), seats, deal_seed=deal_seed)


def viewer_seat(session: Session) -> int:
    """The seat whose view a single-screen front end shows: the person to act, else the first person."""
    to_act = session.human_to_act()
    if to_act is not None:
        return to_act
    return next((i for i, k in enumerate(session.seats) if k == HUMAN), 0)


def action_words(players: Sequence[str], seat: int | None, action: str, viewer: int | None = None) -> str:
    """``Expert draws from the stock``; ``You discard 7h`` for the viewer."""
    who = "You" if seat is not None and seat == viewer else (players[seat] if seat is not None else "?")
    you = who == "You"
    a = Action.parse(action)
    card = str(a.card) if a.card is not None else ""

    def verb(v: str, s: str) -> str:
        return v if you else s

    if a.kind == "draw":
        return f"{who} {verb('draw', 'draws')} from the stock"
    if a.kind == "take":
        return f"{who} {verb('take', 'takes')} the discard"
    if a.kind == "pass":
        return f"{who} {verb('pass', 'passes')} on the upcard"
    if a.kind == "discard":
        return f"{who} {verb('discard', 'discards')} {card}"
    if a.kind == "knock":
        return f"{who} {verb('knock', 'knocks')}" + (f", discarding {card}" if card else "")
    if a.kind == "gin":
        return f"{who} {verb('go', 'goes')} gin" + (f", discarding {card}" if card else " with every card melded")
    if a.kind == "layoff":
        return f"{who} {verb('lay', 'lays')} off {card}"
    return f"{who}: {action}"


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


def you_grammar(line: str) -> str:
    """The engine writes ``{name} knocks``; when the name is "You" make it ``You knock``."""
    import re

    return re.sub(r"\bYou (" + "|".join(_YOU_VERBS) + r")\b", lambda m: "You " + _YOU_VERBS[m.group(1)], line)


def target_of(obs: Mapping[str, Any]) -> int:
    opts = obs.get("options", {})
    if obs.get("variant") == "hollywood":
        return int(opts.get("hollywood_target", 100))
    return int(opts.get("game_target", 100))


def score_lines(obs: Mapping[str, Any]) -> list[str]:
    """The score sheet in words: totals to the target, hands won, Hollywood's three games, and the
    final totals with their bonuses once the game is over."""
    players = obs["players"]
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


def solitaire_analysis(session: Session, rollouts: int | None = None) -> dict[str, Any] | None:
    """The post-game analysis of a solitaire (``ginrummy.analysis.analyse_record``) as JSON, with
    its ``summary`` lines for people, if that module exists and works; None otherwise.  It replays
    every decision against the planner, so it takes a while: front ends run it in the background."""
    if session.state.variant not in SOLO:
        return None
    try:
        from . import analysis
    except ImportError:
        return None  # the analysis is optional
    try:
        kwargs: dict[str, Any] = {} if rollouts is None else {"rollouts": rollouts}
        result: Any = analysis.analyse_record(session.state.to_record(), **kwargs)
    except Exception as exc:  # a failing analysis never loses the game; say why
        return {"error": f"{type(exc).__name__}: {exc}", "summary": [f"(The analysis failed: {exc})"]}
    summary = result.summary() if hasattr(result, "summary") else None
    if hasattr(result, "to_json"):
        result = result.to_json()
    elif hasattr(result, "__dataclass_fields__"):
        from dataclasses import asdict

        result = asdict(result)
    if not isinstance(result, dict):
        return None
    if isinstance(summary, str):
        result["summary"] = summary.splitlines()
    return result


def file_finished_game(
    store: Store | None, game_id: str, session: Session, *, analyse: bool = True
) -> dict[str, Any] | None:
    """File a finished game in the history, with the solitaire analysis when there is one."""
    analysis = solitaire_analysis(session) if analyse else None
    if store is not None:
        store.finish_game(game_id, session, analysis)
    return analysis


def public_record(session: Session) -> dict[str, Any]:
    """The game record as a player may see it: the hand in play keeps its seed secret (only its
    commitment is shown) until the hand is over."""
    record = session.state.to_record()
    if record["hands"] and not session.state.is_hand_over:
        hand = record["hands"][-1]
        hand.pop("seed", None)
        hand.pop("deck", None)
    return record


def card_list(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "-"


# ---------------------------------------------------------------------------------------------
# The line-by-line game
# ---------------------------------------------------------------------------------------------
class PlainGame:
    """Play ``session`` on text streams, saving to ``store`` under ``game_id`` after every action."""

    def __init__(
        self,
        session: Session,
        store: Store | None,
        game_id: str | None = None,
        *,
        inp: IO[str] | None = None,
        out: IO[str] | None = None,
        analyse: bool = True,
    ) -> None:
        self.session = session
        self.analyse = analyse
        self.store = store
        self.game_id = game_id or new_game_id()
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        if store is not None:  # saved after every change; a failed save undoes the change
            store.autosave(self.game_id, session)

    # -- output -------------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.say(f"error: {text}")

    @property
    def viewer(self) -> int:
        return viewer_seat(self.session)

    @property
    def hot_seat(self) -> bool:
        """More than one person plays at this terminal: name them instead of saying "you"."""
        return sum(k == HUMAN for k in self.session.seats) > 1

    def _you(self, seat: int) -> int | None:
        return None if self.hot_seat else seat

    def obs(self) -> dict[str, Any]:
        return self.session.observation(self.viewer)

    def show_hand(self) -> None:
        obs = self.obs()
        v = obs["variant"]
        if not obs.get("hand") and "hand" not in obs:
            self.say("No hand is in play.")
            return
        if v == "three" and "roles" in obs:
            r = obs["roles"]
            p = obs["players"]
            self.say(f"Roles: {p[r['box']]} in the box, {p[r['captain']]} captain, {p[r['sitter']]} sitter.")
            if obs.get("captain_hand"):
                self.say(f"You are the sitter. The captain's hand: {card_list(obs['captain_hand'])}")
        if obs.get("hand"):
            whose = f"{obs['players'][obs['seat']]}'s hand" if self.hot_seat else "Your hand"
            self.say(f"{whose}: {card_list(obs['hand'])}")
            melds = obs.get("melds") or []
            self.say(
                "Melds: "
                + (" ".join("".join(m) for m in melds) if melds else "none")
                + f". Deadwood: {obs.get('deadwood', 0)} (knock limit {obs.get('knock_limit')})."
            )
        elif v not in SOLO:
            self.say("You hold no cards this hand.")
        if v in SOLO:
            if obs.get("hand_sizes") is None and "deck_size" in obs:
                self.say(
                    f"Deck: {obs['deck_size']} cards. At most {obs.get('cards_above_joker_max', 0)} cards lie above "
                    "the joker"
                    + (
                        f"; chance the joker is next: {obs['joker_next_chance']:.1%}."
                        if obs.get("joker_next_chance") is not None
                        else "."
                    )
                )
        else:
            p = obs["players"]
            top = obs["discard_pile"][-1] if obs.get("discard_pile") else None
            self.say(
                f"Upcard: {top or '-'}. Stock: {obs.get('stock_size', 0)} cards. Dealer: {p[obs['dealer']]}."
                if "dealer" in obs
                else ""
            )
            for seat, cards in (obs.get("known_cards") or {}).items():
                if cards:
                    self.say(f"{p[int(seat)]} is known to hold {card_list(cards)}.")

    def show_score(self) -> None:
        for line in score_lines(self.obs()):
            self.say(line)

    def prompt_line(self) -> None:
        obs = self.obs()
        s = self.session
        seat = s.human_to_act()
        if seat is None:
            return
        legal = obs["legal_actions"]
        if len([i for i, k in enumerate(s.seats) if k == HUMAN]) > 1:
            self.say(f"{obs['players'][seat]} to act.")
        phase = obs["phase"]
        if phase == "upcard":
            self.say(f"The upcard is {obs['upcard']}: take it or pass.")
        self.say("Legal: " + _compress_legal(legal))

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        s = self.session
        self.say(
            f"ginrummy {s.state.variant}: "
            + " v. ".join(f"{p} ({k})" for p, k in zip(s.state.players, s.seats, strict=True) if k != "joker")
            + (" v. the Joker" if s.state.variant in SOLO else "")
            + f". Game {self.game_id}. Type help for the commands."
        )
        if s.state.logs and s.state.is_hand_over and not s.state.is_terminal:
            self._show_hand_end()
        elif s.state.logs and not s.state.is_hand_over:
            self.show_hand()
        while True:
            if s.state.is_terminal:
                return self._game_over()
            if s.state.needs_deal and not s.state.logs:
                self._deal()
                continue
            self._computers()
            if s.state.is_terminal:
                continue
            if s.state.is_hand_over:
                self.say("Type deal (or an empty line) for the next hand.")
            else:
                self.prompt_line()
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say("")
                self.say("End of input: the game is saved.")
                return 0
            if self.handle(line.strip()) == "quit":
                self.say("Saved. Resume with: ginrummy play --plain")
                return 0

    def _deal(self) -> None:
        s = self.session
        c = s.commitment_for_next_deal()
        self.say(f"Hand {s.state.hand_number + 1}. Fairness commitment for this deal: {c}")
        before = len(s.state.results)
        s.start_hand()
        self.say("Dealt.")
        if s.state.is_hand_over and len(s.state.results) > before:
            self._show_hand_end()
            return
        self.show_hand()

    def _computers(self) -> None:
        s = self.session
        while True:
            hand_before = s.state.hand_number
            viewer = self.viewer
            step = s.computer_step()
            if step is None:
                return
            seat, action, why = step
            obs = s.observation(viewer)
            words = action_words(obs["players"], seat, str(action), self._you(viewer))
            self.say(words + (f" ({why})" if why else "") + ".")
            if s.state.is_hand_over and s.state.hand_number == hand_before:
                self._show_hand_end()
                return

    def _show_hand_end(self) -> None:
        obs = self.obs()
        res = obs.get("result")
        if res:
            self.say(f"Hand {obs['hand_number']} is over ({res['result']}).")
            for line in res.get("explanation", []):
                self.say("  " + you_grammar(line))
        if obs.get("revealed_seed"):
            self.say(
                f"The deal's seed was {obs['revealed_seed']} (commitment {obs.get('commitment', '?')}); "
                "anyone can check it with ginrummy verify."
            )
        for line in score_lines(obs):
            self.say(line)
        if obs.get("next_commitment"):
            self.say(f"Fairness commitment for the next deal: {obs['next_commitment']}")
            if self.store is not None:  # keep the committed seed with the game: a resume deals from it
                self.store.save_game(self.game_id, self.session)

    def _game_over(self) -> int:
        analysis = None
        if self.analyse and self.session.state.variant in SOLO:
            self.say("Analysing your play against the planner (Ctrl-C skips)...")
            try:
                analysis = solitaire_analysis(self.session)
            except KeyboardInterrupt:
                self.say("Analysis skipped.")
        if self.store is not None:
            self.store.finish_game(self.game_id, self.session, analysis)
        for line in (analysis or {}).get("summary", []):
            self.say(line)
        self.say("The game is over and filed in your history (ginrummy stats).")
        return 0

    def handle(self, line: str) -> str | None:
        """One command.  Returns ``"quit"`` to stop."""
        s = self.session
        words = line.split()
        cmd = words[0].lower() if words else ""
        if cmd in ("quit", "exit", "q"):
            return "quit"
        if cmd in ("help", "?"):
            self.say(HELP)
            return None
        if cmd == "hand":
            self.show_hand()
            return None
        if cmd == "score":
            self.show_score()
            return None
        if cmd == "record":
            self.say(json.dumps(public_record(s), separators=(",", ":"), ensure_ascii=False))
            return None
        if cmd in ("", "deal", "next"):
            if s.state.needs_deal:
                self._deal()
            elif cmd:
                self.error("the hand in play is not over; deal comes after it ends")
            return None
        if cmd == "hint":
            self._hint()
            return None
        seat = s.human_to_act()
        if seat is None:
            if s.state.needs_deal:
                self.error(f"{line!r}: the hand is over; type deal for the next one")
            else:
                self.error(f"{line!r}: it is not your turn")
            return None
        try:
            action = _parse_command(words)
        except GinRummyError as exc:
            self.error(str(exc))
            return None
        before = s.state.hand_number
        old_hand = set(s.observation(seat).get("hand", []))
        try:
            s.act(seat, action)
        except GinRummyError as exc:
            self.error(str(exc))
            return None
        obs = s.observation(seat)
        line_out = action_words(obs["players"], seat, str(action), self._you(seat))
        new_cards = [c for c in obs.get("hand", []) if c not in old_hand]
        if new_cards and action.kind in ("draw", "discard"):
            line_out += f" and draw {new_cards[0]}" if action.kind == "discard" else f": {new_cards[0]}"
        self.say(line_out + ".")
        if s.state.is_hand_over and s.state.hand_number == before:
            self._show_hand_end()
        elif obs.get("hand") and action.kind in ("draw", "take", "discard"):
            self.show_hand()
        return None

    def _hint(self) -> None:
        s = self.session
        seat = self.viewer
        try:
            advice = s.hint(seat)
        except ImportError:
            self.error("hints are not available in this installation")
            return
        except Exception as exc:  # a hint is a courtesy: never stop the game for it
            self.error(f"no hint: {exc}")
            return
        best = getattr(advice, "best", None)
        self.say(f"Hint: {best}" + (f". {advice.why}" if getattr(advice, "why", None) else ""))
        ranked = getattr(advice, "ranked", None) or []
        if ranked:
            self.say("Options: " + ", ".join(f"{a} ({v:+.2f})" for a, v in ranked[:5]))


def _parse_command(words: list[str]) -> Action:
    kind = words[0].lower()
    valid = ("draw", "take", "pass", "discard", "knock", "gin")
    if kind not in valid:
        raise IllegalAction(
            f"unknown command {words[0]!r}; commands: {', '.join(valid)}, hint, hand, score, record, help, quit"
        )
    rest = " ".join(words[1:])
    if kind in ("draw", "take", "pass") and rest:
        raise IllegalAction(f"{kind} takes no card (got {rest!r})")
    if kind == "discard" and not rest:
        raise IllegalAction("discard needs a card, e.g. 'discard 7h'")
    if rest and "|" not in rest:
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise IllegalAction(f"{kind} takes one card, got {len(cards)}: {rest!r}")
        if Card(cards[0]).is_joker:
            raise IllegalAction("the joker cannot be played")
        return Action(kind, cards[0])
    return Action.parse(" ".join([kind, *words[1:]]))


def _compress_legal(legal: list[str]) -> str:
    """``draw, take`` or ``discard <any of 2c 3c ...>, knock 7h 9c``."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        kind, _, card = a.partition(" ")
        groups.setdefault(kind, []).append(card)
    parts = []
    for kind, cards in groups.items():
        named = [c for c in cards if c]
        if not named:
            parts.append(kind)
        elif kind == "discard":
            parts.append(f"discard one of {' '.join(named)}")
        else:
            parts.append(f"{kind} with {' '.join(named)}" + (f" or {kind} alone" if "" in cards else ""))
    return "; ".join(parts)
