"""Plain mode: a game line by line on stdin and stdout, for screen readers and scripts.

The commands are the record notation (``draw``, ``take``, ``pass``, ``discard 7h``, ``knock 7h``,
``gin 7h``, ``gin``) plus ``hint``, ``hand``, ``score``, ``record``, ``help`` and ``quit``.  The
game is saved after every action; a later ``ginrummy play --plain`` resumes it.  A bad command gets
one line starting ``error:`` that names what was wrong, and changes nothing.

Every move is printed from the session's move log as the person's seat may read it
(:meth:`ginrummy.session.Session.move_text`): a computer player's reasons about its own cards are
shown only after the hand, by ``why``.  The helpers that used to live here are in the application
layer (:mod:`ginrummy.session`, :mod:`ginrummy.words`, :mod:`ginrummy.finish`); the names are kept for old imports.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from .actions import Action
from .cards import Card, parse_cards
from .errors import GinRummyError, IllegalAction, StoreError
from .finish import analysis_lines, file_finished_game, solitaire_analysis
from .i18n import N_, _, ngettext
from .observe import Observation
from .session import HUMAN, ComputerPlayerError, Session, make_session, public_record, viewer_seat
from .store import Store, new_game_id
from .variants import find_variant
from .words import (
    action_words,
    arrangement_line,
    card_list,
    cut_lines,
    default_players,
    display_names,
    move_name,
    no_hand_line,
    reason_text,
    result_lines,
    result_name,
    score_lines,
    seat_kind,
    takeback_line,
    target_of,
    top_discard_label,
    upcard_notes,
    variant_title,
    you_grammar,
)

__all__ = [
    "PlainGame",
    "action_words",
    "default_players",
    "file_finished_game",
    "make_session",
    "public_record",
    "score_lines",
    "solitaire_analysis",
    "target_of",
    "viewer_seat",
    "you_grammar",
]

HELP = N_("""\
Commands (the record notation):
  draw            draw the top card of the stock
  take            take the upcard or the top discard
  pass            refuse the first upcard
  discard 7h      discard a card (cards: rank A23456789TJQK or 10, suit c d h s, e.g. Td 10d 7h As)
  knock 7h        discard 7h and knock (deadwood within the knock limit)
  gin 7h          discard 7h and go gin;  gin  (no card): big gin, or declare the dealt ten
  knock           (solitaire opening) knock with the dealt ten
  layoff 8h       after the other side knocks: lay off 8h yourself (the first replaces the
                  automatic layoffs, each next one adds a card)
With knocker_arrangement=choose, a knock lists the ways to spread your melds: type the number
of the one you want (Enter: the first, the least deadwood).
Other commands:
  hand            your cards, melds, deadwood and the table
  score           the score sheet
  hint            the advisor's suggestion
  why             the computer players' reasons for their moves (after the hand)
  undo            take back your last move (against the computer; the game is marked)
  deal            deal the next hand (also an empty line) when a hand is over
  record          the game record so far, as one line of JSON
  help            this list
  quit            stop; the game is saved and resumes next time""")


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
        self.say(_("error: {message}").format(message=text))

    @property
    def viewer(self) -> int:
        return viewer_seat(self.session)

    @property
    def hot_seat(self) -> bool:
        """More than one person plays at this terminal: name them instead of saying "you"."""
        return sum(k == HUMAN for k in self.session.seats) > 1

    @property
    def log_viewer(self) -> int | None:
        """Whose view the moves are told in: the person's; with several people at one terminal,
        nobody's (the lines stay on the shared screen: no drawn card, no reasons)."""
        return None if self.hot_seat else self.viewer

    @property
    def names(self) -> list[str]:
        """The seats' names as shown: the names ginrummy gives (``You``, ``Expert 2``) in the language."""
        return display_names(self.session.names)

    def obs(self) -> Observation:
        return self.session.observation(self.viewer)

    def show_hand(self) -> None:
        obs = self.obs()
        v = find_variant(obs["variant"])
        if not obs.get("hand") and "hand" not in obs:
            self.say(_("No hand is in play."))
            return
        if v.roles and "roles" in obs:
            r = obs["roles"]
            p = self.names
            self.say(
                _("Roles: {box} in the box, {captain} captain, {sitter} sitter.").format(
                    box=p[r["box"]], captain=p[r["captain"]], sitter=p[r["sitter"]]
                )
            )
            if obs.get("captain_hand"):
                self.say(
                    _("You are the sitter. The captain's hand: {cards}").format(cards=card_list(obs["captain_hand"]))
                )
        if obs.get("hand"):
            if self.hot_seat:
                whose = _("{name}'s hand: {cards}").format(name=self.names[obs["seat"]], cards=card_list(obs["hand"]))
            else:
                whose = _("Your hand: {cards}").format(cards=card_list(obs["hand"]))
            self.say(whose)
            melds = obs.get("melds") or []
            dead, limit = obs.get("deadwood", 0), obs.get("knock_limit")
            if melds:
                msg = _("Melds: {melds}. Deadwood: {deadwood} (knock limit {limit}).")
            else:
                msg = _("Melds: none. Deadwood: {deadwood} (knock limit {limit}).")
            self.say(msg.format(melds=" ".join("".join(m) for m in melds), deadwood=dead, limit=limit))
        elif no_hand_line(obs):
            self.say(no_hand_line(obs))
        if v.solo:
            if obs.get("hand_sizes") is None and "deck_size" in obs:
                above = obs.get("cards_above_joker_max", 0)
                if obs.get("joker_next_chance") is not None:
                    msg = ngettext(
                        "Deck: {cards}. At most {above} card lies above the joker; chance the joker is next: {chance}.",
                        "Deck: {cards}. At most {above} cards lie above the joker; chance the joker is next: {chance}.",
                        above,
                    )
                else:
                    msg = ngettext(
                        "Deck: {cards}. At most {above} card lies above the joker.",
                        "Deck: {cards}. At most {above} cards lie above the joker.",
                        above,
                    )
                chance = f"{obs['joker_next_chance']:.1%}" if obs.get("joker_next_chance") is not None else ""
                cards = ngettext("{n} card", "{n} cards", obs["deck_size"]).format(n=obs["deck_size"])
                self.say(msg.format(cards=cards, above=above, chance=chance))
        else:
            p = self.names
            top = obs["discard_pile"][-1] if obs.get("discard_pile") else None
            self.say(
                _("{label}: {card}. Stock: {cards}. Dealer: {name}.").format(
                    label=top_discard_label(obs),
                    card=top or "-",
                    cards=ngettext("{n} card", "{n} cards", obs.get("stock_size", 0)).format(
                        n=obs.get("stock_size", 0)
                    ),
                    name=p[obs["dealer"]],
                )
                if "dealer" in obs
                else ""
            )
            for note in upcard_notes(obs):
                self.say(_("{note}.").format(note=note[0].upper() + note[1:]))
            for seat, known in (obs.get("known_cards") or {}).items():
                if known:
                    self.say(_("{name} is known to hold {cards}.").format(name=p[int(seat)], cards=card_list(known)))

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
            self.say(_("{name} to act.").format(name=self.names[seat]))
        phase = obs["phase"]
        if phase == "upcard":
            self.say(_("The upcard is {card}: take it or pass.").format(card=obs["upcard"]))
        suggestion = s.sitter_text()  # three: a computer sitter advises the person who captains
        if suggestion:
            self.say(_("{note}.").format(note=suggestion))
        self.say(_("Legal: {actions}").format(actions=_compress_legal(legal)))

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        s = self.session
        players = _(" v. ").join(
            _("{name} ({kind})").format(name=p, kind=seat_kind(k))
            for p, k in zip(self.names, s.seats, strict=True)
            if k != "joker"
        )
        if find_variant(s.state.variant).solo:
            msg = _("ginrummy {variant}: {players} v. the Joker. Game {id}. Type help for the commands.")
        else:
            msg = _("ginrummy {variant}: {players}. Game {id}. Type help for the commands.")
        self.say(msg.format(variant=variant_title(s.state.variant, short=True), players=players, id=self.game_id))
        if s.first_cut is not None and not s.state.logs:
            for line in cut_lines(self.names, s.first_cut, None if self.hot_seat else self.viewer):
                self.say(line)
        try:
            if s.state.logs and s.state.is_hand_over and not s.state.is_terminal:
                self._show_hand_end()
            elif s.state.logs and not s.state.is_hand_over:
                self.show_hand()
        except StoreError as exc:  # the next deal's commitment could not be saved
            self.error(str(exc))
            return 1
        while True:
            if s.state.is_terminal:
                return self._game_over()
            try:
                if s.state.needs_deal and not s.state.logs:
                    self._deal()
                    continue
                computers = self._computers()
            except StoreError as exc:  # a failed save: the session is back as it was saved
                self.error(str(exc))
                return 1
            if not computers:
                self.error(_("the game cannot go on; it is saved as it was"))
                return 1
            if s.state.is_terminal:
                continue
            if s.state.is_hand_over:
                self.say(_("Type deal (or an empty line) for the next hand."))
            else:
                self.prompt_line()
            self.out.write("> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say("")
                self.say(_("End of input: the game is saved."))
                return 0
            try:
                done = self.handle(line.strip())
            except StoreError as exc:  # a failed save (a full disk): the session is back as it was saved
                self.error(str(exc))
                continue
            if done == "quit":
                self.say(_("Saved. Resume with: ginrummy play --plain"))
                return 0

    def _deal(self) -> None:
        s = self.session
        c = s.commitment_for_next_deal()
        self.say(
            _("Hand {number}. Fairness commitment for this deal: {commitment}").format(
                number=s.state.hand_number + 1, commitment=c
            )
        )
        before = len(s.state.results)
        s.start_hand()
        self.say(_("Dealt."))
        if s.state.is_hand_over and len(s.state.results) > before:
            self._show_hand_end()
            return
        self.show_hand()

    def _computers(self) -> bool:
        """The computer players move until a person must act; False if one of them failed."""
        s = self.session
        while True:
            hand_before = s.state.hand_number
            try:
                event = s.computer_step()
            except ComputerPlayerError as exc:
                self.error(str(exc))
                return False
            if event is None:
                return True
            self.say(_("{move}.").format(move=s.move_text(event, self.log_viewer, you=not self.hot_seat)))
            if s.state.is_hand_over and s.state.hand_number == hand_before:
                self._show_hand_end()
                return True

    def _show_hand_end(self) -> None:
        obs = self.obs()
        res = obs.get("result")
        if res:
            self.say(
                _("Hand {number} is over ({result}).").format(
                    number=obs["hand_number"], result=result_name(res["result"])
                )
            )
            for line in result_lines(res.get("explanation", []), obs["players"], self.session.seats):
                self.say("  " + line)
            if any(e.reason for e in self.session.moves()):
                self.say(_("Type why for the computer players' reasons this hand."))
        if obs.get("revealed_seed"):
            self.say(
                _(
                    "The deal's seed was {seed} (commitment {commitment}); anyone can check it with ginrummy verify."
                ).format(seed=obs["revealed_seed"], commitment=obs.get("commitment", "?"))
            )
        for line in score_lines(obs):
            self.say(line)
        self._offer_layoffs()
        if obs.get("next_commitment"):
            self.say(_("Fairness commitment for the next deal: {commitment}").format(commitment=obs["next_commitment"]))
            if self.store is not None:  # keep the committed seed with the game: a resume deals from it
                self.store.save_game(self.game_id, self.session)

    def _game_over(self) -> int:
        analysis = None
        if self.analyse and find_variant(self.session.state.variant).solo:
            self.say(_("Analysing your play against the planner (Ctrl-C skips)..."))
            try:
                analysis = solitaire_analysis(self.session)
            except KeyboardInterrupt:
                self.say(_("Analysis skipped."))
        if self.store is not None:
            self.store.finish_game(self.game_id, self.session, analysis)
        for line in analysis_lines(analysis):
            self.say(line)
        self.say(_("The game is over and filed in your history (ginrummy stats)."))
        return 0

    def handle(self, line: str) -> str | None:
        """One command.  Returns ``"quit"`` to stop."""
        s = self.session
        words = line.split()
        cmd = words[0].lower() if words else ""
        if cmd in ("quit", "exit", "q"):
            return "quit"
        if cmd in ("help", "?"):
            self.say(_(HELP))
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
                self.error(_("the hand in play is not over; deal comes after it ends"))
            return None
        if cmd == "hint":
            self._hint()
            return None
        if cmd == "why":
            self._why()
            return None
        if cmd in ("undo", "takeback"):
            self._take_back()
            return None
        if cmd == "layoff":
            self._layoff(words)
            return None
        seat = s.human_to_act()
        if seat is None:
            if s.state.needs_deal:
                self.error(_("{command}: the hand is over; type deal for the next one").format(command=repr(line)))
            else:
                self.error(_("{command}: it is not your turn").format(command=repr(line)))
            return None
        try:
            action = _parse_command(words)
        except GinRummyError as exc:
            self.error(str(exc))
            return None
        before = s.state.hand_number
        try:
            choices = s.spread_choices(seat, action)
            if choices:
                chosen = self._choose_arrangement(choices)
                if chosen is None:
                    return None
                event = s.declare(seat, action, chosen)
            else:
                event = s.act(seat, action)
        except GinRummyError as exc:
            self.error(str(exc))
            return None
        obs = s.observation(seat)
        self.say(_("{move}.").format(move=s.move_text(event, None if self.hot_seat else seat, you=not self.hot_seat)))
        if s.state.is_hand_over and s.state.hand_number == before:
            self._show_hand_end()
        elif obs.get("hand") and action.kind in ("draw", "take", "discard"):
            self.show_hand()
        return None

    def _choose_arrangement(self, choices: list[Any]) -> Any:
        """Ask which arrangement to spread (knocker_arrangement=choose); None (with an error
        line) when the answer is not one of them: nothing is played."""
        self.say(_("Which melds do you spread? (Enter: 1, the least deadwood)"))
        for i, arrangement in enumerate(choices, 1):
            self.say(_("  {number}. {melds}").format(number=i, melds=arrangement_line(arrangement)))
        self.out.write("spread> ")
        self.out.flush()
        answer = self.inp.readline().strip()
        if answer == "":
            return choices[0]
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1]
        self.error(
            _("{answer} is not one of 1 to {count}; nothing was played").format(answer=repr(answer), count=len(choices))
        )
        return None

    def _offer_layoffs(self) -> None:
        """After a computer's knock: say which cards the person defending may lay off themselves."""
        s = self.session
        seat = s.defender()
        cards = s.layoff_options(seat) if seat is not None else []
        if cards:
            self.say(
                _(
                    "You may choose your layoffs (the automatic best is counted otherwise): layoff <card>, "
                    "now one of {cards}."
                ).format(cards=card_list([str(c) for c in cards]))
            )

    def _layoff(self, words: list[str]) -> None:
        s = self.session
        seat = s.defender()
        if seat is None or not s.is_human(seat) or not s.state.is_hand_over:
            self.error(_("layoff comes after the other side knocks, from the defender"))
            return
        if len(words) != 2:
            self.error(_("layoff needs one card, e.g. 'layoff 8h'"))
            return
        try:
            event = s.act(seat, f"layoff {words[1]}")
        except GinRummyError as exc:
            self.error(str(exc))
            return
        self.say(_("{move}.").format(move=s.move_text(event, seat)))
        self._show_hand_end()

    def _take_back(self) -> None:
        s = self.session
        seat = next((i for i, k in enumerate(s.seats) if k == HUMAN), None)
        if seat is None:
            self.error(_("only a person's moves can be taken back"))
            return
        try:
            undone = s.take_back(seat)
        except GinRummyError as exc:
            self.error(str(exc))
            return
        self.say(takeback_line(len(undone), s.takebacks))
        self.show_hand()

    def _why(self) -> None:
        """The computer players' reasons: the hand's review once it is over, else only a seat's own."""
        s = self.session
        lines = s.reasons_text(self.viewer)
        if lines:
            self.say(_("Why the computer players moved as they did this hand:"))
            for line in lines:
                self.say("  " + line)
        elif s.state.logs and not s.state.is_hand_over:
            self.say(
                _("The computer players' reasons are about their own cards: they are shown when the hand is over.")
            )
        elif s.state.logs and not s.hands_shown():
            self.say(_("This hand ended without showing the hands: the computer players' reasons stay private."))
        else:
            self.say(_("No reasons to show for this hand."))

    def _hint(self) -> None:
        s = self.session
        seat = self.viewer
        try:
            advice = s.hint(seat)
        except ImportError:
            self.error(_("hints are not available in this installation"))
            return
        except Exception as exc:  # a hint is a courtesy: never stop the game for it
            self.error(_("no hint: {error}").format(error=exc))
            return
        # The move in words, and the command that plays it as data (the record notation plain mode reads).
        best = advice.best
        why = reason_text(advice.why)
        if why:
            # TRANSLATORS: {command} is what to type for the move, in the record notation (discard 7h): untranslated
            hint = _("Hint: {move} (type: {command}). {why}").format(move=move_name(best), command=best, why=why)
        else:
            # TRANSLATORS: {command} is what to type for the move, in the record notation (discard 7h): untranslated
            hint = _("Hint: {move} (type: {command})").format(move=move_name(best), command=best)
        self.say(hint)
        if advice.ranked:
            options = [
                # TRANSLATORS: one of the hint's options: {command} as typed (discard 7h), {value} its estimate
                _("{move} (type: {command}): {value}").format(move=move_name(a), command=a, value=f"{v:+.2f}")
                for a, v in advice.ranked[:5]
            ]
            self.say(_("Options: {options}").format(options=_("; ").join(options)))


def _parse_command(words: list[str]) -> Action:
    kind = words[0].lower()
    valid = ("draw", "take", "pass", "discard", "knock", "gin")
    if kind not in valid:
        raise IllegalAction(
            _("unknown command {command}; commands: {commands}").format(
                command=repr(words[0]),
                commands=", ".join([*valid, "layoff", "undo", "hint", "hand", "score", "record", "help", "quit"]),
            )
        )
    rest = " ".join(words[1:])
    if kind in ("draw", "take", "pass") and rest:
        raise IllegalAction(_("{command} takes no card (got {text})").format(command=kind, text=repr(rest)))
    if kind == "discard" and not rest:
        raise IllegalAction(_("discard needs a card, e.g. 'discard 7h'"))
    if rest and "|" not in rest:
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise IllegalAction(
                _("{command} takes one card, got {n}: {text}").format(command=kind, n=len(cards), text=repr(rest))
            )
        if Card(cards[0]).is_joker:
            raise IllegalAction(_("the joker cannot be played"))
        return Action(kind, cards[0])
    return Action.parse(" ".join([kind, *words[1:]]))


def _compress_legal(legal: list[str]) -> str:
    """``draw, take`` or ``discard <any of 2c 3c ...>, knock 7h 9c``."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        kind, _sep, card = a.partition(" ")
        groups.setdefault(kind, []).append(card)
    parts = []
    for kind, cards in groups.items():
        named = [c for c in cards if c]
        if not named:
            parts.append(kind)
        elif kind == "discard":
            parts.append(_("discard one of {cards}").format(cards=" ".join(named)))
        elif "" in cards:
            parts.append(_("{command} with {cards} or {command} alone").format(command=kind, cards=" ".join(named)))
        else:
            parts.append(_("{command} with {cards}").format(command=kind, cards=" ".join(named)))
    return _("; ").join(parts)
