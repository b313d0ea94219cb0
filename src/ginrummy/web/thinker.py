"""Where the browser's computer players, hints and post-game analyses think: worker processes
(so a long think never holds up the server) or inline.  The workers call the application layer's
own code (agents, advisor, :func:`ginrummy.finish.solitaire_analysis`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .. import i18n
from ..actions import Action
from ..agents import available_agents, reasons
from ..errors import GinRummyError
from ..observe import Observation
from ..session import ComputerPlayerError, Session
from ..variants import solo_variants
from ..words import computer_failed, move_text, reason_text

__all__ = ["Thinker", "advice_json", "advice_words", "hint_inputs"]

log = logging.getLogger("ginrummy.web")
SOLO = solo_variants()


_WORKER_AGENTS: dict[tuple[str, str], Any] = {}


def _warm_worker(parent: int | None = None) -> None:
    """Worker start: exit when the server is gone (even if it was killed and could not stop its
    workers), and import the computer players (and their tables) once."""
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), name="ginrummy-parent-watch", daemon=True).start()
    available_agents()


def _watch_parent(parent: int, interval: float = 0.5) -> None:
    """In a worker: end this process as soon as ``parent`` is no longer its parent (a killed
    parent's children are handed to another process)."""
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(interval)


def _decide_in_worker(
    kind: str, variant: str, observation: Observation, legal: list[str]
) -> tuple[str, reasons.Value | None]:
    """A computer player's decision, computed in a worker process: the action as a string and its
    reasons as data (:mod:`ginrummy.agents.reasons`; the session's move log keeps them private
    until the hand is over and words them for each viewer in the viewer's language)."""
    from ..agents import make_agent

    agent = _WORKER_AGENTS.get((kind, variant))
    if agent is None:
        agent = _WORKER_AGENTS[(kind, variant)] = make_agent(kind, variant)
    decision = agent.decide(observation, [Action.parse(a) for a in legal])
    return str(decision.action), decision.explanation


def _analyse_in_worker(session: Session) -> dict[str, Any] | None:
    """The solitaire post-game analysis, the terminal's own (:func:`ginrummy.finish.solitaire_analysis`):
    its summary is data, worded for each connection that shows it (:func:`ginrummy.finish.analysis_lines`)."""
    from ..finish import solitaire_analysis

    return solitaire_analysis(session)


def _advise_in_worker(variant: str, observation: Observation, legal: list[str]) -> dict[str, Any]:
    """The advisor's advice, computed in a worker process: its ``why`` is data, worded by
    :func:`advice_words` for the connection that shows it."""
    from ..agents.advisor import advise

    return advice_json(advise(observation, [Action.parse(a) for a in legal], variant))


class Thinker:
    """Where the computer players and the advisor think: in worker processes, so that a long
    think never holds up the event loop (``workers`` > 0, as ``ginrummy serve`` does), or inline
    in the event loop (``workers`` = 0: tests, tiny machines).

    The pool starts when it is first needed (an idle server holds no workers), is joined when the
    server stops (a worker still thinking is given ``join_timeout`` seconds, then terminated), and
    each worker ends itself when the server process is gone."""

    def __init__(self, workers: int = 0, join_timeout: float = 5.0) -> None:
        self.workers = workers
        self.join_timeout = join_timeout
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False
        self._warmed = False

    def start(self) -> None:
        """Nothing to do until a computer player or a hint needs a worker (see :meth:`_pool`)."""
        self.broken = False

    def _pool(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0 or self.broken:
            return None
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm_worker,
                initargs=(os.getpid(),),
            )
        return self.pool

    def warm(self) -> None:
        """Start the workers now (a table with computer players was opened), so that the first
        computer move does not wait for them."""
        pool = self._pool()
        if pool is not None and not self._warmed:
            self._warmed = True
            for _ in range(self.workers):
                pool.submit(_warm_worker)

    def stop(self) -> None:
        """Stop the pool and wait for every worker to end (terminate one that will not)."""
        pool, self.pool = self.pool, None
        self._warmed = False
        if pool is None:
            return
        procs = [p for p in (getattr(pool, "_processes", None) or {}).values() if p is not None]
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + self.join_timeout
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in procs:
            if proc.is_alive():
                log.warning("a worker process did not stop in %g s: terminating it", self.join_timeout)
                proc.terminate()
                proc.join(2)
            if proc.is_alive():
                proc.kill()
                proc.join(2)
        with contextlib.suppress(Exception):
            pool.shutdown(wait=True)

    async def computer_step(self, session: Session) -> None:
        """The computer seat to act takes one action (:class:`ComputerPlayerError` if it fails)."""
        seat = session.to_act
        assert seat is not None
        pool = self._pool()
        if pool is not None:
            st = session.state
            obs, legal = st.observation(seat), [str(a) for a in st.legal_actions()]
            try:
                loop = asyncio.get_running_loop()
                action, reason = await loop.run_in_executor(
                    pool, _decide_in_worker, session.seats[seat], st.variant, obs, legal
                )
            except BrokenProcessPool:
                log.error("the computer players' worker process died; thinking in the server from now on")
                self.broken = True
            except Exception as exc:  # the agent failed in the worker: its error may list its hand
                raise ComputerPlayerError(computer_failed(st.players[seat])) from exc
            else:
                session.play_computer(seat, action, reason)
                return
        session.computer_step()

    async def advise(self, variant: str, observation: Observation, legal: list[str]) -> dict[str, Any]:
        """The advisor's advice as a message, from inputs taken under the table's lock (see
        :func:`hint_inputs`); the advisor itself runs without holding the table up."""
        pool = self._pool()
        if pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(pool, _advise_in_worker, variant, observation, legal)
            except BrokenProcessPool:
                log.error("the hints' worker process died; thinking in the server from now on")
                self.broken = True
        return _advise_in_worker(variant, observation, legal)

    async def analyse(self, session: Session) -> dict[str, Any] | None:
        """A finished solitaire's analysis, worked out in a worker process (or a thread)."""
        pool = self._pool()
        if pool is not None:
            try:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(pool, _analyse_in_worker, session)
            except BrokenProcessPool:
                log.error("the analysis' worker process died; thinking in the server from now on")
                self.broken = True
        return await asyncio.to_thread(_analyse_in_worker, session)


def hint_inputs(session: Session, seat: int) -> tuple[str, Observation, list[str]]:
    """What the advisor needs for ``seat`` (see :meth:`Session.advised_seat`), taken here so that
    the advice itself can be worked out in a worker process."""
    st = session.state
    target = session.advised_seat(seat)
    return st.variant, st.observation(target), [str(a) for a in st.legal_actions()]


def advice_json(advice: Any) -> dict[str, Any]:
    """The advisor's Advice as a message (its best action, the ranked options and why); ``why``
    stays data (:mod:`ginrummy.agents.reasons`) until :func:`advice_words` words it for a reader."""
    ranked = []
    for item in list(getattr(advice, "ranked", []) or [])[:12]:
        action, value = item[0], item[1]
        ranked.append([str(action), round(float(value), 3)])
    return {"type": "hint", "best": str(advice.best), "ranked": ranked, "why": getattr(advice, "why", "") or ""}


def advice_words(advice: dict[str, Any], players: list[str], actor: int, viewer: int, variant: str) -> dict[str, Any]:
    """The hint message with words for people, in the current language (the reader's): ``why``,
    ``best_words`` and ``ranked_words`` (``[[words, value], ...]``, in the words of the move log)
    and ``unit``, what the values mean (the units of :class:`ginrummy.agents.advisor.Advice`)."""

    def words(action: str) -> str:
        try:
            return move_text(players, actor, Action.parse(action), viewer=viewer)
        except GinRummyError:
            return action

    if variant in SOLO:
        unit = i18n._("a score of each option (higher is better; going out ranks first)")
    else:
        unit = i18n._("points: the hand's expected score for the player to act (above 0: expects to score)")
    return {
        **advice,
        "why": reason_text(advice.get("why")),
        "best_words": words(str(advice.get("best", ""))),
        "ranked_words": [[words(str(a)), v] for a, v in advice.get("ranked", [])],
        "unit": unit,
    }
