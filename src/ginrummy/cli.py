"""The ``ginrummy`` command.

Each sub-command lives in ``ginrummy.commands.<name>`` with ``add_arguments(parser)`` and
``run(args) -> int``; heavy imports (Textual, the web server) happen inside ``run`` so that
``ginrummy deadwood`` starts fast.

The parser is a :class:`Parser`: argparse whose own words (``usage:``, the headings ``positional
arguments`` and ``options``, ``show this help message and exit``, the error line and its messages:
``the following arguments are required``, ``invalid choice``, ``unrecognized arguments``...) come
from our catalogs in the language chosen (``--lang``, the setting, the environment), like every
other text of ginrummy.  argparse words each of them with ``gettext.gettext``/``ngettext``
(Python's argparse howto, "How to translate the argparse output"), which read the process-wide
gettext domain from the environment's language and compiled ``.mo`` files only; ours follow
``--lang`` and a source tree's ``.po``.  So while a :class:`Parser` builds itself, parses or
formats its help, argparse's two lookups are pointed at :mod:`ginrummy.i18n`'s (and put back
after): the English messages are argparse's own, listed in :data:`ARGPARSE_MESSAGES` so that
Babel extracts them into our catalogs.  A message a later Python adds stays English until it is
listed there.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__, i18n
from .errors import GinRummyError
from .i18n import N_, _, ngettext
from .store import default_data_dir

# name -> one-line help (translated when shown); the module ginrummy.commands.<name with - as _> implements it.
COMMANDS: dict[str, str] = {
    "play": N_("play a game (the terminal app; --plain for a line-by-line game)"),
    "deadwood": N_("show a hand's best arrangement and deadwood"),
    "replay": N_("replay a game record and print its summary"),
    "verify": N_("check that a record's deals match their fairness commitments"),
    "simulate": N_("play many hands between computer players on every core"),
    "stats": N_("your history: games, win rate, points per hand, running average"),
    "export": N_("write your finished games as records"),
    "serve": N_("start the browser app on a local web server"),
}

# The commands that read or write the saved games take --data-dir after their name too.
DATA_COMMANDS = ("play", "stats", "export", "serve")
DATA_DIR_HELP = N_("where saved games and history live (default: the user data directory)")
LANG_HELP = N_("the language of the apps and messages: en, ko (Korean) or lv (Latvian); remembered for next time")
LANG_CHOICES = (*i18n.LANGUAGES, i18n.PSEUDO)  # xx: the pseudo-locale of the tests, never remembered


# argparse's own messages (Python 3.11 to 3.13), as it looks them up: extracted into our catalogs
# (docs/translating.md), and translated keeping argparse's %-placeholders.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
# (a call, so that Babel extracts the plural pair; its value is not used)
ARGPARSE_PLURALS = (ngettext("expected %s argument", "expected %s arguments", 2),)


@contextlib.contextmanager
def _argparse_in_our_words() -> Iterator[None]:
    """Point argparse's gettext lookups at our catalogs for the block (put back after it)."""
    module = vars(argparse)
    saved = module["_"], module["ngettext"]
    module["_"], module["ngettext"] = _, ngettext
    try:
        yield
    finally:
        module["_"], module["ngettext"] = saved


class Parser(argparse.ArgumentParser):
    """An argparse parser that speaks the language chosen: its own words come from our catalogs
    (the module's docstring says how), and its error line is ours to translate too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with _argparse_in_our_words():  # the headings and -h's help are worded here
            super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        with _argparse_in_our_words():
            return super().parse_known_args(args, namespace)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        with _argparse_in_our_words():  # 'unrecognized arguments' is worded here
            return super().parse_args(args, namespace)

    def format_usage(self) -> str:
        with _argparse_in_our_words():
            return super().format_usage()

    def format_help(self) -> str:
        with _argparse_in_our_words():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        """The usage and ``ginrummy: error: MESSAGE`` on stderr, status 2 (as argparse's own)."""
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="ginrummy",
        description=_("The Gin Rummy family: play, analyse, simulate. With no command, opens the terminal app."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"ginrummy {__version__}",
        help=_("show program's version number and exit"),
    )
    parser.add_argument("--data-dir", help=_(DATA_DIR_HELP))
    parser.add_argument("--lang", choices=LANG_CHOICES, metavar="LANG", help=_(LANG_HELP))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        module = _module(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        module.add_arguments(p)
        if name in DATA_COMMANDS:  # also accepted after the command; it wins over one given before
            p.add_argument("--data-dir", default=argparse.SUPPRESS, help=_(DATA_DIR_HELP))
        p.add_argument("--lang", choices=LANG_CHOICES, metavar="LANG", default=argparse.SUPPRESS, help=_(LANG_HELP))
    return parser


def _module(name: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(f"ginrummy.commands.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("ginrummy.commands"):
            return None
        raise


EXIT_USAGE = 2  # a usage error, or input ginrummy refuses (GinRummyError)
EXIT_INTERRUPTED = 130  # Ctrl-C
EXIT_BUG = 70  # an unexpected exception: a bug in ginrummy (EX_SOFTWARE)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ginrummy`` command; its exit status.  Never lets a traceback reach the terminal:
    an error ginrummy raises on purpose (:class:`GinRummyError`) is one line on stderr and status 2;
    Ctrl-C exits quietly with 130; anything else is a bug, reported in one line naming the file
    that holds the details, with status 70."""
    command = "ginrummy"
    before = i18n.current_language()
    try:
        if argv is None:
            argv = sys.argv[1:]
        command = next((f"ginrummy {a}" for a in argv if a in COMMANDS), "ginrummy")
        _lenient_stdout()
        i18n.set_language(_language(argv))
        return _main(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except GinRummyError as exc:
        print(f"{command}: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        where = _log_bug(exc)
        if where:
            msg = _(
                "internal error ({error}), a bug in ginrummy {version}; the details are in {file}; please report it"
            )
        else:
            msg = _("internal error ({error}), a bug in ginrummy {version}; please report it")
        print(f"{command}: " + msg.format(error=type(exc).__name__, version=__version__, file=where), file=sys.stderr)
        return EXIT_BUG
    finally:
        i18n.set_language(before)  # main() called again in one process (tests) starts afresh


def _option(argv: Sequence[str], name: str) -> str | None:
    """The last value of ``--name VALUE`` or ``--name=VALUE`` in ``argv`` (before argparse runs:
    the language decides the words of the parser's own help and errors)."""
    value = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == name and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith(name + "="):
            value = arg[len(name) + 1 :]
    return value


def _settings_folder(argv: Sequence[str]) -> Path:
    data_dir = _option(argv, "--data-dir")
    return Path(data_dir).expanduser() if data_dir else default_data_dir()


def _remember_language(argv: Sequence[str], saved_at_start: str | None) -> None:
    """Remember ``--lang`` (a real language) in the data directory's settings, once the command
    has succeeded (a refused command line or a failed command changes no file); not over a
    language the command saved itself meanwhile (the terminal app's ``ctrl+l``, the person's
    later choice); a setting that cannot be saved is not an error."""
    wanted = _option(argv, "--lang")
    folder = _settings_folder(argv)
    if wanted in i18n.LANGUAGES:
        with contextlib.suppress(OSError):
            saved = i18n.saved_language(folder)
            if saved == saved_at_start and saved != wanted:
                i18n.save_language(folder, wanted)


def _language(argv: Sequence[str]) -> str:
    """The language to speak: ``--lang``, else the saved setting, else the environment's, else
    English.  An unknown ``--lang`` is left for argparse to refuse."""
    wanted = _option(argv, "--lang")
    folder = _settings_folder(argv)
    if wanted is not None and wanted not in i18n.LANGUAGES and wanted != i18n.PSEUDO:
        wanted = None
    return i18n.choose_language(wanted, i18n.saved_language(folder))


def _one_line(text: str) -> str:
    from .commands import one_line

    return one_line(text)


def _lenient_stdout() -> None:
    """Text the terminal's encoding cannot show (a name in a record, on an ASCII terminal) is
    written as a backslash escape rather than failing the command."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and getattr(sys.stdout, "errors", "strict") == "strict":
        with contextlib.suppress(ValueError, OSError):  # a closed or detached stream
            reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    """After the reader of our output went away: point stdout at /dev/null so that the flush at
    exit does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _log_bug(exc: BaseException) -> str | None:
    """Write the traceback of an unexpected exception to a file in the user log directory (or the
    temporary directory); its path, or None if it could not be written."""
    text = "".join(traceback.format_exception(exc))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for folder in _log_dirs():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, path = tempfile.mkstemp(prefix=f"ginrummy-crash-{stamp}-", suffix=".log", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as f:
                f.write(f"ginrummy {__version__}, {sys.argv!r}\n{text}")
            return path
        except OSError:
            continue
    return None


def _log_dirs() -> list[Path]:
    """Where crash details go: the user log directory, else the temporary directory."""
    dirs: list[Path] = []
    try:
        from platformdirs import user_log_dir

        dirs.append(Path(user_log_dir("ginrummy", appauthor=False)))
    except ImportError:
        pass
    dirs.append(Path(tempfile.gettempdir()))
    return dirs


def _main(argv: Sequence[str]) -> int:
    parser = build_parser()
    saved = i18n.saved_language(_settings_folder(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code in (0, None):  # --help, --version: the command line was accepted and answered
            _remember_language(argv, saved)
        raise
    command = args.command or "play"
    module = _module(command)
    if module is None:
        parser.print_help()
        _remember_language(argv, saved)
        return 0
    if args.command is None:
        args = parser.parse_args([*argv, "play"])
    status = int(module.run(args) or 0)
    if status == 0:  # only a command that succeeded remembers its --lang (docs/translating.md)
        _remember_language(argv, saved)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
