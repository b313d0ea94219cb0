"""Shared test setup.

The command line speaks the language the environment asks for (issue 18: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); the suite's expected texts are English, so it runs with ``LANGUAGE=en``
(read only for messages, inherited by the commands the tests start), whatever the machine's
locale.  A test that wants another language says so (``--lang``, ``ginrummy.i18n.using``).
"""

from __future__ import annotations

import os

os.environ["LANGUAGE"] = "en"
