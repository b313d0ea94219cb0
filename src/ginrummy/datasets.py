"""Game records as arrays for imitation learning (needs the ``rl`` extra: numpy and gymnasium).

``ginrummy simulate ... --records FILE`` writes every game it plays as a record (RECORD.md), one
JSON line each, with each seat named after the agent that played it.  :func:`load_records` reads
such a file (or one record in a JSON file) and :func:`decisions` replays the records through the
engine and returns every decision as one row of :class:`Decisions`:

* ``observations`` -- ``float32[N, OBS_SIZE]``: the deciding seat's observation, encoded as the
  environments encode it (:func:`ginrummy.envs.encoding.encode_state`: what that seat may know
  and nothing else);
* ``masks`` -- ``int8[N, 213]``: its legal actions;
* ``actions`` -- ``int64[N]``: the action id it chose (:class:`ginrummy.actions.Action`; a knock
  that names its melds counts as the plain knock of the same card);
* ``outcomes`` -- ``float32[N]``: how it came out for that seat, as the environments' rewards:
  the hand's points for the seat minus the mean of the others' (``outcome="hand"``), or the same
  of the game's final totals (``outcome="game"``); the solitaires: the player's points minus the
  Joker's (``scoring="none"``: +1 a win, -1 a loss);
* ``seats``, ``games`` (the record's index), ``hands`` (the hand's number in its game) and
  ``players`` (the seat's name in the record).

>>> from ginrummy.sim import SimJob, simulate
>>> result = simulate(SimJob("classic", ("greedy", "random"), 2, records=True), workers=1)
>>> data = decisions([o.record for o in result.outcomes], players=["greedy"])
>>> data.observations.shape[1], set(data.players)
(280, {'greedy'})
>>> bool((data.masks[range(len(data)), data.actions] == 1).all())
True

Explicit ``layoff`` actions (RECORD.md) follow the end of a hand; they are no decision of a seat
to act and are left out.  A record that is not valid raises :class:`ginrummy.errors.RecordError`
naming the record, then the field, hand and action at fault.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS, Action
from .engine import State
from .envs.encoding import OBS_SIZE, encode_state
from .errors import RecordError, json_reason, system_reason
from .i18n import _
from .options import SolitaireOptions
from .record import replay
from .variants import find_variant

__all__ = ["Decisions", "decisions", "load_records"]


@dataclass(frozen=True)
class Decisions:
    """Every decision of some records, one row each (see the module's documentation)."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.int8]
    actions: npt.NDArray[np.int64]
    outcomes: npt.NDArray[np.float32]
    seats: npt.NDArray[np.int16]
    games: npt.NDArray[np.int32]
    hands: npt.NDArray[np.int32]
    players: list[str]

    def __len__(self) -> int:
        return len(self.actions)

    def subset(self, rows: Any) -> Decisions:
        """The rows ``rows`` (an index array or a boolean mask)."""
        idx = np.arange(len(self))[rows]
        return Decisions(
            self.observations[idx],
            self.masks[idx],
            self.actions[idx],
            self.outcomes[idx],
            self.seats[idx],
            self.games[idx],
            self.hands[idx],
            [self.players[i] for i in idx.tolist()],
        )


def load_records(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The records of a JSON-lines file (one record a line; blank lines are skipped), or of a
    JSON file holding one record or a list of records."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise RecordError(
            _("records: cannot read {path}: {reason}").format(path=os.fspath(path), reason=system_reason(exc))
        ) from None
    except UnicodeDecodeError:
        raise RecordError(_("records: {path} is not UTF-8 text").format(path=os.fspath(path))) from None
    stripped = text.strip()
    if stripped.startswith("[") or (stripped.startswith("{") and "\n{" not in stripped):
        try:
            whole = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise RecordError(
                _("records: {path} is not JSON ({reason} at line {line})").format(
                    path=os.fspath(path), reason=json_reason(exc.msg), line=exc.lineno
                )
            ) from None
        return list(whole) if isinstance(whole, list) else [whole]
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RecordError(
                _("records: line {n} of {path} is not JSON ({reason})").format(
                    n=n, path=os.fspath(path), reason=json_reason(exc.msg)
                )
            ) from None
    return out


def _zero_sum(points: Sequence[float]) -> list[float]:
    n = len(points)
    total = sum(points)
    return [p - (total - p) / (n - 1) for p in points]


def _outcome(state: State, points: Sequence[int], winner: int | None) -> list[float]:
    """Each seat's outcome of a hand (or a game), as the environments reward it."""
    if find_variant(state.variant).solo:
        opts = state.options
        if isinstance(opts, SolitaireOptions) and opts.scoring == "none":
            return [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]
        return [float(points[0] - points[1]), float(points[1] - points[0])]
    return _zero_sum([float(p) for p in points])


def decisions(
    records: Iterable[Mapping[str, Any]],
    *,
    players: Iterable[str] | None = None,
    outcome: Literal["hand", "game"] = "hand",
) -> Decisions:
    """Replay ``records`` and return every decision (of the seats named in ``players``, when given)."""
    if outcome not in ("hand", "game"):
        raise RecordError(
            _("outcome must be {hand} or {game}, got {value}").format(hand="'hand'", game="'game'", value=repr(outcome))
        )
    wanted = set(players) if players is not None else None
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    acts: list[int] = []
    outs: list[float] = []
    seats: list[int] = []
    games: list[int] = []
    hands: list[int] = []
    names: list[str] = []
    for g, record in enumerate(records):
        try:
            final = replay(record)  # validates the whole record first, naming what is wrong
        except RecordError as exc:
            raise RecordError(_("record {record}: {text}").format(record=g, text=exc)) from None
        game_outcome = _outcome(final, final.final_totals(), final.winner) if outcome == "game" else None
        st = State.new(final.variant, final.options, final.players)
        for h, hand in enumerate(record.get("hands", [])):
            if "seed" in hand:
                st.deal(seed=hand["seed"])
            else:
                st.deal(list(hand["deck"]))
            start = len(outs)
            hand_seats: list[int] = []
            for text in hand.get("actions", []):
                act = Action.parse(text)
                seat = st.current_player
                if seat is not None and act.kind != "layoff" and (wanted is None or st.players[seat] in wanted):
                    enc = encode_state(st, seat)
                    obs.append(enc["observation"])
                    masks.append(enc["action_mask"])
                    acts.append(Action(act.kind, act.card).id)
                    seats.append(seat)
                    games.append(g)
                    hands.append(h + 1)
                    names.append(st.players[seat])
                    hand_seats.append(seat)
                    outs.append(0.0)
                st.apply(act)
            if game_outcome is not None:
                per_seat = game_outcome
            elif st.hand_result is not None and st.is_hand_over:
                per_seat = _outcome(st, st.hand_result.points, st.hand_result.winner)
            else:
                per_seat = [0.0] * st.num_seats  # an unfinished hand (a saved game)
            for k, seat in enumerate(hand_seats):
                outs[start + k] = per_seat[seat]
    n = len(acts)
    return Decisions(
        np.stack(obs) if n else np.zeros((0, OBS_SIZE), dtype=np.float32),
        np.stack(masks) if n else np.zeros((0, NUM_ACTIONS), dtype=np.int8),
        np.array(acts, dtype=np.int64),
        np.array(outs, dtype=np.float32),
        np.array(seats, dtype=np.int16),
        np.array(games, dtype=np.int32),
        np.array(hands, dtype=np.int32),
        names,
    )
