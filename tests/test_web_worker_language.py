"""The server's worker processes start in English: the reasons and hints they work out are worded
in the language the server passes them (the connection's), as they would be in the server."""

from __future__ import annotations

import re

import pytest

from ginrummy.session import HUMAN, make_session

pytest.importorskip("starlette")

from ginrummy.web.thinker import _advise_in_worker, _decide_in_worker

HANGUL = re.compile("[\uac00-\ud7a3]")


def _position() -> tuple[dict[str, object], list[str]]:
    s = make_session("classic", seats=[HUMAN, "expert"], deal_seed=7)
    s.start_hand()
    seat = s.state.current_player
    assert seat is not None
    return s.state.observation(seat), [str(a) for a in s.state.legal_actions()]


def test_a_worker_words_the_computers_reasons_in_the_language_it_is_given() -> None:
    obs, legal = _position()
    _action, english = _decide_in_worker("expert", "classic", obs, legal)
    action, korean = _decide_in_worker("expert", "classic", obs, legal, "ko")
    assert english and not HANGUL.search(english)
    assert korean and HANGUL.search(korean)
    assert action == _action  # the language changes the words only


def test_a_worker_words_a_hint_in_the_language_it_is_given() -> None:
    obs, legal = _position()
    english = _advise_in_worker("classic", obs, legal)
    latvian = _advise_in_worker("classic", obs, legal, "lv")
    assert english["best"] == latvian["best"]
    assert english["why"] != latvian["why"]
