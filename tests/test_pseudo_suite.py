"""The pseudo-locale run inside the normal run (issue 18): the test modules that show the most text
to people run again in the pseudo-locale ``xx`` (``pytest --pseudo-locale``, see
``pseudo_audit.py``), where a word that reaches a person outside a catalog message fails them.

The whole suite in the pseudo-locale takes as long as the normal run (and does not pass yet:
docs/translating.md); it is run by hand.  These modules are the fast ones that cover most ways text
reaches a person: the command line's output and errors (in process and as commands started by the
tests), plain mode, the web protocol's messages, the session's words, the statistics (in the
terminal app too).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pseudo_audit

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
MODULES = [
    "test_cli.py",
    "test_deadwood_cli.py",
    "test_envs.py",
    "test_i18n_reasons.py",
    "test_lock.py",
    "test_melds.py",
    "test_plain.py",
    "test_plain_choices.py",
    "test_replay_file.py",
    "test_resume_kill.py",
    "test_rules_examples.py",
    "test_session.py",
    "test_stats.py",
    "test_store.py",
    "test_variants.py",
    "test_web.py",
    "test_web_replay_file.py",
]


@pytest.mark.skipif(pseudo_audit.active(), reason="already the pseudo-locale run")
def test_text_reaching_people_comes_from_the_catalogs() -> None:
    env = {k: v for k, v in os.environ.items() if k not in (pseudo_audit.ENV, pseudo_audit.REPORT_ENV)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "--pseudo-locale"]
        + [str(TESTS / m) for m in MODULES],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]


def test_the_audit_finds_english_outside_the_markers() -> None:
    audit = pseudo_audit.Audit()
    audit.text("t", "⟦Your turn: draw from the stock⟧ 7h 8h 9h · 12 · --data-dir DIR · game_target · ginrummy")
    audit.text("t", '{"error": "not a card"}')  # JSON is data
    audit.text("t", "Jūs velkat no kavas")  # a language the test chose
    audit.text("t", "│ ⟦The expert keeps 7h because  │\n│ it melds⟧ and then some      │")  # wrapped in its pane
    assert audit.findings == [
        {"where": "t", "line": "│ it melds⟧ and then some      │", "words": ["and", "then", "some"]}
    ]
    audit.text("t", "ginrummy replay: ⟦record: bad⟧ Hand over")
    assert audit.findings[-1]["words"] == ["Hand", "over"]
    assert pseudo_audit.plain("⟦⟦Expert⟧ draws⟧ \\u27e6x\\u27e7") == "Expert draws x"


def test_a_command_the_tests_start_speaks_the_pseudo_locale(tmp_path: Path) -> None:
    """The switch reaches a command started as a process (``pseudo_site``'s ``sitecustomize``)."""
    env = {**os.environ, pseudo_audit.ENV: pseudo_audit.PSEUDO, "GINRUMMY_DATA_DIR": str(tmp_path)}
    env["PYTHONPATH"] = os.pathsep.join([str(pseudo_audit.SITE), *sys.path])
    hand = ["As", "2s", "3s", "7c", "7d", "Kh", "Qh", "Jh", "9c", "9d"]
    args = [sys.executable, "-m", "ginrummy.cli", "deadwood", *hand]
    # (Popen: in the pseudo-locale run, subprocess.run gives a ginrummy command's output without the markers)
    with subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True) as proc:
        out, _err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert pseudo_audit.OPEN in out and pseudo_audit.CLOSE in out, out
    audit = pseudo_audit.Audit()
    audit.text("deadwood", out)
    assert audit.findings == []
