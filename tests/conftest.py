"""Shared test setup.

The command line speaks the language the environment asks for (issue 18: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); the suite's expected texts are English, so it runs with ``LANGUAGE=en``
(read only for messages, inherited by the commands the tests start), whatever the machine's
locale.  A test that wants another language says so (``--lang``, ``ginrummy.i18n.using``).
The person's own data directory is never touched either (see ``_HOME``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from ginrummy import i18n

os.environ["LANGUAGE"] = "en"

# Nothing the suite runs reads or writes the person's own data (saved games, history, the remembered
# language): the default data and config directories point into a directory of the run's own.
_HOME = tempfile.mkdtemp(prefix="ginrummy-tests-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ.pop("GINRUMMY_DATA_DIR", None)


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """A test that switches the process's language (the terminal's ctrl+l, ``cli.main``) leaves
    the next test in English."""
    yield
    i18n.set_language("en")
