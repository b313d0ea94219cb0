"""``ginrummy play``: the terminal app, or with ``--plain`` a line-by-line game on stdin/stdout."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import GinRummyError, StoreError
from ..i18n import _
from ..variants import find_variant, variant_names

if TYPE_CHECKING:
    from ..tui.app import GinRummyApp


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--plain", action="store_true", help=_("play line by line on stdin/stdout (screen readers, scripts)")
    )
    p.add_argument("--variant", help=_("one of: {variants}").format(variants=", ".join(variant_names())))
    p.add_argument(
        "--opponent",
        action="append",
        metavar="LEVEL",
        help=_(
            "computer level of each opponent seat (random, greedy, expert; human for a second person); "
            "repeat or separate with commas for three players"
        ),
    )
    p.add_argument("--name", default="You", help=_("your name on the score sheet"))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=_("a rule option (repeatable)"))
    p.add_argument("--seed", type=int, help=_("derive every deal from this seed (reproducible games)"))
    p.add_argument(
        "--resume", nargs="?", const="", metavar="GAME_ID", help=_("resume a saved game (the newest if no id)")
    )
    p.add_argument("--new", action="store_true", help=_("start a new game even if a saved one could be resumed"))
    p.add_argument(
        "--new-database",
        action="store_true",
        help=_("if the saved-games database is damaged or not ginrummy's, move it aside and start a new one"),
    )
    p.add_argument("--no-analysis", action="store_true", help=_("solitaires: skip the post-game analysis of your play"))
    look = p.add_argument_group(_("terminal app display"))
    look.add_argument("--four-colour", "--four-color", action="store_true", help=_("clubs green, diamonds blue"))
    look.add_argument("--large", action="store_true", help=_("large cards"))
    look.add_argument("--high-contrast", action="store_true", help=_("high-contrast theme"))
    look.add_argument("--delay", type=float, default=0.6, help=_("seconds between computer moves (default 0.6)"))


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise GinRummyError(_("--option needs NAME=VALUE, got {value}").format(value=repr(pair)))
        out[name.strip()] = value.strip()
    return out


def _seats(variant: str, opponents: list[str] | None) -> list[str] | None:
    if not opponents:
        return None
    levels = [x.strip() for o in opponents for x in o.split(",") if x.strip()]
    facts = find_variant(variant)
    if facts.solo:
        raise GinRummyError(
            _("{variant} is played alone against the Joker: --opponent does not apply").format(variant=variant)
        )
    need = facts.seats - 1
    if len(levels) == 1:
        levels = levels * need
    if len(levels) != need:
        raise GinRummyError(
            _("{variant} needs {need} opponent level(s), got {count}: {levels}").format(
                variant=variant, need=need, count=len(levels), levels=", ".join(levels)
            )
        )
    return ["human", *levels]


def new_game_spec(args: argparse.Namespace) -> dict[str, Any]:
    """The new game the command line asks for, as keyword arguments of
    :func:`ginrummy.session.make_session`, checked completely (variant, options, opponents, name):
    a bad value raises :class:`GinRummyError` with one line naming it.  Both front ends use it."""
    from ..session import make_session

    variant = args.variant or "classic"
    spec: dict[str, Any] = {
        "variant": variant,
        "options": _options(args.option),
        "seats": _seats(variant, args.opponent),
        "name": args.name,
        "deal_seed": args.seed,
        "cut": True,  # a new game cuts for the first deal (or the roles), shown to the player
    }
    kwargs = dict(spec)
    make_session(kwargs.pop("variant"), **kwargs)  # builds nothing lasting: only checks every choice
    return spec


def _check_flags(args: argparse.Namespace) -> None:
    if args.new and args.resume is not None:
        raise GinRummyError(_("--new and --resume exclude each other: start a new game or resume one"))
    if args.variant is not None:
        find_variant(args.variant)


def _saved_choice(store: Any, args: argparse.Namespace) -> tuple[list[Any], Any]:
    """(the saved games of --variant, the one --resume names or None); an unknown or busy id raises."""
    saved = [g for g in store.saved_games() if args.variant is None or g.variant == args.variant]
    if not args.resume:
        return saved, None
    wanted = [g for g in saved if g.id == args.resume]
    if not wanted:
        raise GinRummyError(_("no saved game {id} (see ginrummy play --plain)").format(id=repr(args.resume)))
    if wanted[0].open_in:  # one game, one process: name where it is, offer the others
        raise GinRummyError(_in_use(wanted[0].id, wanted[0].open_in, saved))
    return saved, wanted[0]


def run(args: argparse.Namespace) -> int:
    data_dir = getattr(args, "data_dir", None)
    if not args.plain:
        return _run_app(args, data_dir)
    return _run_plain(args, data_dir)


def _run_app(args: argparse.Namespace, data_dir: str | None) -> int:
    try:
        app = make_app(args, data_dir)
    except (StoreError, GinRummyError) as exc:
        print(f"ginrummy play: {exc}", file=sys.stderr)
        return 2
    app.run()
    return int(app.return_code or 0)


def make_app(args: argparse.Namespace, data_dir: str | None = None) -> GinRummyApp:
    """The terminal app the command line asks for.  Every choice is checked here, before the app
    starts, by the code plain mode uses (a bad one raises, one line): ``--resume [ID]`` opens that
    saved game (the newest, of ``--variant`` if given, when no id), ``--new`` or any game setting
    (``--name``, ``--opponent``, ``--option``) starts a new game with them at once, else the start
    screen opens on ``--variant``."""
    from ..store import Store
    from ..tui.app import GinRummyApp

    store: Any = None
    start: dict[str, Any] | None = None
    resume: str | None = None
    _check_flags(args)
    if args.resume is not None:
        where = "the terminal app"
        store = Store.fresh(data_dir, front_end=where) if args.new_database else Store(data_dir, front_end=where)
        saved, wanted = _saved_choice(store, args)
        if wanted is None:
            free = [g for g in saved if not g.open_in]
            if not free:
                if saved:
                    busy = _in_use(saved[0].id, saved[0].open_in, saved)
                    if args.variant:
                        msg = _("no saved game to resume in {variant} ({why})")
                    else:
                        msg = _("no saved game to resume ({why})")
                elif args.variant:
                    msg, busy = _("no saved game to resume in {variant}: start one with --new"), ""
                else:
                    msg, busy = _("no saved game to resume: start one with --new"), ""
                raise GinRummyError(msg.format(variant=args.variant, why=busy))
            wanted = free[0]
        resume = wanted.id
    elif args.new or args.opponent or args.option or args.name != "You":
        start = new_game_spec(args)
    extra: dict[str, Any] = {"store": store} if store is not None else {}
    return GinRummyApp(
        data_dir=data_dir,
        new_database=args.new_database,
        variant=args.variant,
        four_colour=args.four_colour,
        large=args.large,
        high_contrast=args.high_contrast,
        computer_delay=args.delay,
        deal_seed=args.seed,
        start=start,
        resume=resume,
        analyse=not args.no_analysis,
        **extra,
    )


def _run_plain(args: argparse.Namespace, data_dir: str | None) -> int:
    from ..plain import PlainGame
    from ..store import GameInUse, Store, new_game_id

    try:
        where = "play --plain"  # named to anyone who finds a game open here
        store = Store.fresh(data_dir, front_end=where) if args.new_database else Store(data_dir, front_end=where)
    except StoreError as exc:
        print(f"ginrummy play: {exc}", file=sys.stderr)
        return 2
    game_id = None
    try:
        session = None
        _check_flags(args)
        spec = None if args.resume else new_game_spec(args)  # a bad choice stops here, whatever is saved
        if not args.new:
            saved, wanted = _saved_choice(store, args)
            if wanted is not None:
                saved = [wanted]
            for g in saved:
                if g.open_in and args.resume is None:
                    print(
                        _("The saved {variant} game {id} is open in {where}: not resuming it here.").format(
                            variant=g.variant, id=g.id, where=g.open_in
                        )
                    )
            free = [g for g in saved if not g.open_in]
            if free:
                g = free[0]
                resume = True
                if args.resume is None and sys.stdin.isatty():
                    answer = input(
                        _("Resume the saved {variant} game {id} (hand {hand}, totals {totals})? [Y/n] ").format(
                            variant=g.variant, id=g.id, hand=g.hand_number, totals=g.totals
                        )
                    )
                    resume = answer.strip().lower() not in ("n", "no", _("n"), _("no"))
                elif args.resume is None:
                    print(
                        _("Resuming the saved {variant} game {id} (use --new for a new game).").format(
                            variant=g.variant, id=g.id
                        )
                    )
                if resume:
                    try:
                        session = store.open_game(g.id)  # locks it: no other process can resume it now
                    except GameInUse as exc:  # opened elsewhere a moment ago
                        print(f"ginrummy play: {exc}", file=sys.stderr)
                        return 2
                    game_id = g.id
        if session is None:
            from ..session import make_session

            spec = spec or new_game_spec(args)
            session = make_session(spec.pop("variant"), **spec)
            game_id = new_game_id()
            store.save_game(game_id, session)  # saving takes the lock
        return PlainGame(session, store, game_id, analyse=not args.no_analysis).run()
    except StoreError as exc:
        print(f"ginrummy play: {exc}", file=sys.stderr)
        return 2
    except GinRummyError as exc:
        print(f"ginrummy play: {exc}", file=sys.stderr)
        return 2
    finally:
        if game_id is not None:
            store.release_game(game_id)  # open to others again (a killed process frees it too)


def _in_use(game_id: str, where: str, saved: list[Any]) -> str:
    """One line: where the game is open, and the other games that can be resumed."""
    others = [g.id for g in saved if g.id != game_id and not g.open_in]
    if others:
        choice = _("resume another one ({options}) or start a new one (--new)").format(
            options=_(" or ").join(f"--resume {o}" for o in others[:3])
        )
    else:
        choice = _("start a new one (--new)")
    return _("game {id} is open in {where}; a game is played in one place at a time: {choice}").format(
        id=game_id, where=where, choice=choice
    )
