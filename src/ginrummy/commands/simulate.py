"""``ginrummy simulate``: many hands between computer players, on every core.

    ginrummy simulate --variant classic --agents expert,greedy --hands 10000
    ginrummy simulate --variant classic --agents expert,greedy --hands 500 --games
    ginrummy simulate --variant solitaire --agents planner,greedy,random --hands 2000 --exact
    ginrummy simulate --variant solitaire --agents planner:rollouts=32 --hands 500 --options scoring=none --json
    ginrummy simulate --variant classic --agents expert,expert --hands 1000 --records expert.jsonl

Two-player games play every deal twice with the seats swapped; three-player gin three times with
the seats rotated; the solitaires once per agent (the same deals for every agent).  The results
depend only on ``--seed`` (each deal's seed is derived from it and the deal's number), not on the
number of workers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..errors import GinRummyError, system_reason
from ..i18n import _, ngettext
from ..variants import find_variant, variant_names
from ..words import variant_title

if TYPE_CHECKING:
    from ..sim import Progress, SimJob, SimResult


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--variant", default="classic", help=_("one of: {variants}").format(variants=", ".join(variant_names()))
    )
    p.add_argument(
        "--agents",
        default=None,
        help=_(
            "comma-separated agents, one a seat (solitaires: one or more, each plays every deal); "
            "options as name:key=value, e.g. planner:rollouts=32 (default: greedy for every seat)"
        ),
    )
    p.add_argument("--hands", type=int, default=1000, help=_("number of deals (default 1000)"))
    p.add_argument("--workers", type=int, default=None, help=_("worker processes (default: every core)"))
    p.add_argument("--seed", type=int, default=0, help=_("master seed (default 0)"))
    p.add_argument("--options", default="", help=_("rule options as key=value,... (e.g. scoring=none)"))
    p.add_argument(
        "--exact",
        action="store_true",
        help=_("solitaires: score each deal by its exact expectation over the joker's place"),
    )
    p.add_argument(
        "--games",
        action="store_true",
        help=_("play whole games to the target (--hands is then the number of games)"),
    )
    p.add_argument("--backend", choices=("process", "ray"), default="process", help=_("process pool or Ray"))
    p.add_argument("--json", action="store_true", help=_("print the results as JSON"))
    p.add_argument(
        "--records", metavar="FILE", help=_("write every game played as a record (RECORD.md), one JSON line each")
    )
    p.add_argument("--no-progress", action="store_true", help=_("no progress bar"))


def parse_options(text: str) -> dict[str, Any]:
    """``key=value,key=value`` -> dict (values are checked by the engine's option rules)."""
    out: dict[str, Any] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise GinRummyError(_("option {option} must look like key=value").format(option=repr(part)))
        out[key.strip()] = value.strip()
    return out


def worker_count(requested: int | None, jobs: int, backend: str = "process") -> int:
    """How many worker processes to start: what was asked (default: every core), but never more
    than there are deals (or games) to play, nor, for local processes, more than the cores."""
    cores = os.cpu_count() or 1
    wanted = cores if requested is None else requested
    cap = jobs if backend == "ray" else min(jobs, cores)
    return max(1, min(wanted, cap))


def _nothing() -> None:
    return None


class RecordsFile:
    """JSON lines written to a temporary file beside ``path`` and moved into place at the end: a
    failed or interrupted run leaves ``path`` as it was."""

    def __init__(self, path: str) -> None:
        import os
        import tempfile

        self.path = path
        folder = os.path.dirname(os.path.abspath(path))
        fd, self.tmp = tempfile.mkstemp(prefix=".records-", suffix=".jsonl", dir=folder)  # fails now, not later
        os.close(fd)

    def write(self, records: Iterable[dict[str, Any]]) -> None:
        import os

        try:
            with open(self.tmp, "w", encoding="utf-8") as f:
                for rec in records:
                    f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            os.replace(self.tmp, self.path)
        except OSError:
            self.abandon()
            raise

    def abandon(self) -> None:
        import contextlib
        import os

        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def run(args: argparse.Namespace) -> int:
    from ..sim import SimJob, have_ray, progress_printer, simulate

    if args.backend == "ray" and not have_ray():
        print(
            "ginrummy simulate: "
            + _(
                "the Ray backend needs Ray, which is not installed; "
                "install it with: pip install 'ginrummy[ray]' (or use the default --backend process)"
            ),
            file=sys.stderr,
        )
        return 2
    try:
        variant = args.variant
        facts = find_variant(variant)  # OptionError naming the variants
        if args.agents:
            agents = tuple(a.strip() for a in args.agents.split(",") if a.strip())
            for agent in agents:
                if any(part.partition("=")[0].strip() == "seed" for part in agent.split(":")[1:]):
                    raise GinRummyError(
                        _("agent {agent}: the agents' seeds come from --seed, not an agent option").format(
                            agent=repr(agent)
                        )
                    )
        else:
            agents = ("greedy",) * (1 if facts.solo else facts.seats)
        job = SimJob(
            variant,
            agents,
            args.hands,
            args.seed,
            parse_options(args.options),
            args.exact,
            args.games,
            bool(args.records),
        )
        job.check()
    except GinRummyError as exc:
        print(f"ginrummy simulate: {exc}", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("ginrummy simulate: " + _("--workers must be at least 1"), file=sys.stderr)
        return 2
    workers = worker_count(args.workers, job.hands, args.backend)
    records: RecordsFile | None = None
    if args.records:
        try:
            records = RecordsFile(args.records)
        except OSError as exc:
            print(
                "ginrummy simulate: "
                + _("cannot write the records to {path}: {error}").format(path=args.records, error=system_reason(exc)),
                file=sys.stderr,
            )
            return 2
    progress: Progress | None = None
    finish: Callable[[], None] = _nothing
    if not args.no_progress:
        progress, finish = progress_printer(sys.stderr, "ginrummy simulate")
    try:
        result = simulate(job, workers=workers, progress=progress, backend=args.backend)
    except BaseException:
        if records is not None:
            records.abandon()
        raise
    finally:
        finish()
    if records is not None:
        try:
            records.write(o.record for o in result.outcomes if o.record is not None)
        except OSError as exc:
            print(
                "ginrummy simulate: "
                + _("cannot write the records to {path}: {error}").format(path=args.records, error=system_reason(exc)),
                file=sys.stderr,
            )
            return 2
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return 0
    print(summary_line(variant, job, result, exact=args.exact, solo=facts.solo, roles=facts.roles))
    if job.options:
        print(_("options: {options}").format(options=", ".join(f"{k}={v}" for k, v in job.options.items())))
    print(result.table())
    if job.games:
        print(_("95% confidence intervals, clustered by game (its seatings)."))
    else:
        print(_("95% confidence intervals, clustered by deal."))
    return 0


def summary_line(variant: str, job: SimJob, result: SimResult, *, exact: bool, solo: bool, roles: bool) -> str:
    """What was simulated, as a list of facts: ``Classic gin (classic): 1000 mirrored deals, seed 1, 2 workers,
    3.1 s (process)`` (the variant and the backend by the names they are given with)."""
    n = job.hands
    if job.games:
        if solo:
            count = ngettext("{n} game", "{n} games", n)
        elif roles:
            count = ngettext("{n} rotated game", "{n} rotated games", n)
        else:
            count = ngettext("{n} mirrored game", "{n} mirrored games", n)
    elif solo:
        count = ngettext("{n} deal", "{n} deals", n)
    elif roles:
        count = ngettext("{n} rotated deal", "{n} rotated deals", n)
    else:
        count = ngettext("{n} mirrored deal", "{n} mirrored deals", n)
    facts = [count.format(n=n)]
    if exact:
        facts.append(_("scored exactly over the joker's place"))
    facts.append(_("seed {seed}").format(seed=job.seed))
    facts.append(ngettext("{n} worker", "{n} workers", result.workers).format(n=result.workers))
    facts.append(_("{seconds} s ({backend})").format(seconds=f"{result.seconds:.1f}", backend=result.backend))
    # the game's title, and its name as --variant takes it (as stats heads each game)
    game = _("{game} ({variant})").format(game=variant_title(variant, short=True), variant=variant)
    return _("{variant}: {facts}").format(variant=game, facts=_(", ").join(facts))
