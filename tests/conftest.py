"""Shared test setup.

The command line speaks the language the environment asks for (issue 18: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); the suite's expected texts are English, so it runs with ``LANGUAGE=en``
(read only for messages, inherited by the commands the tests start), whatever the machine's
locale.  A test that wants another language says so (``--lang``, ``ginrummy.i18n.using``).
The person's own data directory is never touched either (see ``_HOME``).

``--pseudo-locale`` (or ``GINRUMMY_TEST_LANG=xx``) runs the tests in the pseudo-locale instead and
audits the text they capture (``pseudo_audit.py``; docs/translating.md); ``@pytest.mark.english``
marks a test of English wording, which that run skips.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

import pseudo_audit
from ginrummy import i18n

os.environ["LANGUAGE"] = "en"

# Nothing the suite runs reads or writes the person's own data (saved games, history, the remembered
# language): the default data and config directories point into a directory of the run's own.
_HOME = tempfile.mkdtemp(prefix="ginrummy-tests-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ.pop("GINRUMMY_DATA_DIR", None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--pseudo-locale",
        action="store_true",
        help="run every test in the pseudo-locale xx and fail on text that bypassed the catalogs",
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the cores.  With one a core, about a third of the CPU sat
    idle (browser and terminal-app tests wait on another process); with one more the suite took
    5 min 21 s instead of 6 min 39 s on the 2-core CI machine.  PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "english: checks English wording itself; skipped in the pseudo-locale run")
    if config.getoption("--pseudo-locale") or pseudo_audit.active():
        pseudo_audit.subprocess_environment()
        pseudo_audit.switch_language(i18n)
        pseudo_audit.install_hooks()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not pseudo_audit.active():
        return
    for item in items:
        marker = item.get_closest_marker("english")
        if marker is not None:
            why = marker.kwargs.get("reason") or (marker.args[0] if marker.args else "checks English wording")
            item.add_marker(pytest.mark.skip(reason=f"pseudo-locale run: {why}"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    if pseudo_audit.active() and call.when in ("call", "teardown"):
        problem = pseudo_audit.report(item.nodeid)
        if problem is not None and report.passed:
            report.outcome = "failed"
            report.longrepr = problem
    return report


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """A test that switches the process's language (the terminal's ctrl+l, ``cli.main``) leaves
    the next test in English (in the pseudo-locale in that run)."""
    pseudo_audit.AUDIT.reset()
    yield
    i18n.set_language(pseudo_audit.PSEUDO if pseudo_audit.active() else "en")
