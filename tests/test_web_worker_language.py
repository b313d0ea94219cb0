"""The server's worker processes word nothing: the reasons and hints they work out come back as
data (:mod:`ginrummy.agents.reasons`), worded by the server for each connection in its language."""

from __future__ import annotations

import pickle
import re

import pytest

from ginrummy.agents.reasons import Joined, Message
from ginrummy.i18n import using
from ginrummy.session import HUMAN, make_session
from ginrummy.words import reason_text

pytest.importorskip("starlette")

from ginrummy.web.thinker import _advise_in_worker, _decide_in_worker, advice_words

HANGUL = re.compile("[\uac00-\ud7a3]")


def _position() -> tuple[dict[str, object], list[str]]:
    s = make_session("classic", seats=[HUMAN, "expert"], deal_seed=7)
    s.start_hand()
    seat = s.state.current_player
    assert seat is not None
    return s.state.observation(seat), [str(a) for a in s.state.legal_actions()]


def test_a_worker_returns_the_computers_reasons_as_data() -> None:
    obs, legal = _position()
    with using("ko"):  # the language a worker happens to run in changes nothing
        action, reason = _decide_in_worker("expert", "classic", obs, legal)
    assert isinstance(reason, (Message, Joined))
    assert pickle.loads(pickle.dumps(reason)) == reason  # it crosses the process boundary as it is
    english = reason_text(reason)
    with using("ko"):
        korean = reason_text(reason)
    assert english and not HANGUL.search(english)
    assert korean and HANGUL.search(korean)
    assert _decide_in_worker("expert", "classic", obs, legal) == (action, reason)


def test_a_workers_hint_is_worded_for_the_connection_that_shows_it() -> None:
    obs, legal = _position()
    with using("lv"):
        advice = _advise_in_worker("classic", obs, legal)  # asked from a Latvian page
    assert isinstance(advice["why"], (Message, Joined))
    players, seat = ["You", "Expert"], int(str(obs["seat"]))
    with using("lv"):
        latvian = advice_words(advice, players, seat, seat, "classic")
    with using("ko"):
        korean = advice_words(advice, players, seat, seat, "classic")
    english = advice_words(advice, players, seat, seat, "classic")
    assert latvian["best"] == korean["best"] == english["best"]
    assert HANGUL.search(korean["why"]) and not HANGUL.search(latvian["why"])
    assert HANGUL.search(korean["unit"]) and latvian["unit"] != english["unit"]  # what the figures mean
    assert len({english["why"], latvian["why"], korean["why"]}) == 3
