"""Shared test setup.

The command line speaks the language the environment asks for (issue 18: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); the suite's expected texts are English, so it runs with ``LANGUAGE=en``
(read only for messages, inherited by the commands the tests start), whatever the machine's
locale.  A test that wants another language says so (``--lang``, ``ginrummy.i18n.using``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from ginrummy import i18n

os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """A test that switches the process's language (the terminal's ctrl+l, ``cli.main``) leaves
    the next test in English."""
    yield
    i18n.set_language("en")
