"""The ``ginrummy`` command.

Each sub-command lives in ``ginrummy.commands.<name>`` with ``add_arguments(parser)`` and
``run(args) -> int``; heavy imports (Textual, the web server) happen inside ``run`` so that
``ginrummy deadwood`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__

# name -> one-line help; the module ginrummy.commands.<name with - as _> implements it.
COMMANDS: dict[str, str] = {
    "play": "play a game (the terminal app; --plain for a line-by-line game)",
    "deadwood": "show a hand's best arrangement and deadwood",
    "replay": "replay a game record and print its summary",
    "verify": "check that a record's deals match their fairness commitments",
    "simulate": "play many hands between computer players on every core",
    "stats": "your history: games, win rate, points per hand, running average",
    "export": "write your finished games as records",
    "serve": "start the browser app on a local web server",
}

# The commands that read or write the saved games take --data-dir after their name too.
DATA_COMMANDS = ("play", "stats", "export", "serve")
DATA_DIR_HELP = "where saved games and history live (default: the user data directory)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ginrummy",
        description="The Gin Rummy family: play, analyse, simulate. With no command, opens the terminal app.",
    )
    parser.add_argument("--version", action="version", version=f"ginrummy {__version__}")
    parser.add_argument("--data-dir", help=DATA_DIR_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        module = _module(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        if name in DATA_COMMANDS:  # also accepted after the command; it wins over one given before
            p.add_argument("--data-dir", default=argparse.SUPPRESS, help=DATA_DIR_HELP)
    return parser


def _module(name: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(f"ginrummy.commands.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("ginrummy.commands"):
            return None
        raise


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "play"
    module = _module(command)
    if module is None:
        parser.print_help()
        return 0
    if args.command is None:
        args = parser.parse_args([*(argv if argv is not None else sys.argv[1:]), "play"])
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
