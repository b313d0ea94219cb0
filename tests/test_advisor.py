"""Every sentence the advisor (and the expert's explanation) can say is checked against the position.

Seeded hands are played by the expert and the levels; at every decision the advice's sentence is
split into its claims, and each claim is checked against facts computed here independently from
the observation (the seat's own view): deadwood counts, melds, what the opponent discarded or
passed on, whether a knock was legal, whether the hand is at the wall.  A claim this file does
not recognise fails the test, so a new sentence must come with its check.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from ginrummy.actions import Action
from ginrummy.agents import make_agent
from ginrummy.agents.advisor import advise
from ginrummy.agents.expert import evaluate
from ginrummy.agents.knowledge import CARD_INDEX, RELATED, card_mask
from ginrummy.agents.reasons import Value, move, move_in_sentence
from ginrummy.engine import State
from ginrummy.melds import is_meld, min_deadwood
from ginrummy.words import reason_text
from pseudo_audit import plain

CARD = r"([2-9TJQKA][cdhs])"


def _facts(obs: Mapping[str, Any]) -> dict[str, Any]:
    """What the seat knows, recomputed from the history (not with ginrummy.agents.knowledge)."""
    seat = int(obs["seat"])
    pile: list[str] = [obs["upcard"]] if obs.get("upcard") else []
    discarded: set[str] = set()
    passed: set[str] = set()
    took: set[str] = set()
    for entry in obs.get("history") or []:
        kind, _, rest = str(entry["action"]).partition(" ")
        mine = entry["seat"] == seat
        if kind == "pass":
            if not mine and pile:
                passed.add(pile[-1])
        elif kind == "take":
            card = pile.pop()
            if not mine:
                took.add(card)
        elif kind == "draw":
            if not mine and pile:
                passed.add(pile[-1])
        elif kind in ("discard", "knock", "gin") and rest:
            card = rest.split()[0]
            pile.append(card)
            if not mine:
                discarded.add(card)
    assert pile == list(obs["discard_pile"])
    return {
        "hand": card_mask(obs["hand"]),
        "top": pile[-1] if pile else None,
        "discarded": discarded,
        "passed": passed - took,
        "stock": int(obs["stock_size"]),
        "wall": int((obs.get("options") or {}).get("wall_cards", 2)),
    }


def _meld_ok(text: str, hand: int) -> bool:
    cards = [CARD_INDEX[c] for c in text.split("-")]
    mask = sum(1 << c for c in cards)
    return len(cards) >= 3 and mask & hand == mask and is_meld(mask)


def check_sentence(
    reason: Value, obs: Mapping[str, Any], legal: Sequence[Action], values: Mapping[Action, float]
) -> list[str]:
    """The kinds of claim made by ``reason`` (in English); asserts that each one is true of the position."""
    why = plain(reason_text(reason))
    f = _facts(obs)
    hand = f["hand"]
    knocks = [a for a in legal if a.kind == "knock"]
    kinds: list[str] = []
    assert why.endswith("."), why
    head, _, tail = why[:-1].partition(": ")
    clauses = [c.strip() for c in tail.split("; ")] if tail else []

    # -- the head: the action ------------------------------------------------------------------
    if m := re.fullmatch(rf"Discard {CARD}", head):
        card = CARD_INDEX[m[1]]
        assert Action.parse(f"discard {m[1]}") in legal
        kept = hand & ~(1 << card)
        first = clauses.pop(0)
        m2 = re.fullmatch(r"it leaves deadwood (\d+)(?: and keeps (.+))?", first)
        assert m2, why
        assert int(m2[1]) == min_deadwood(kept), why
        for meld in (m2[2] or "").split(", ") if m2[2] else []:
            assert _meld_ok(meld, kept), why
        kinds.append("discard")
    elif m := re.fullmatch(rf"Knock, throwing {CARD}", head):
        card = CARD_INDEX[m[1]]
        assert Action.parse(f"knock {m[1]}") in legal
        m2 = re.fullmatch(r"deadwood (\d+), undercut chance about (\d+)%", clauses.pop(0))
        assert m2 and int(m2[1]) == min_deadwood(hand & ~(1 << card)), why
        assert 0 <= int(m2[2]) <= 100
        kinds.append("knock")
    elif m := re.fullmatch(rf"Go gin, throwing {CARD}", head):
        assert min_deadwood(hand & ~(1 << CARD_INDEX[m[1]])) == 0, why
        kinds.append("gin")
    elif head == "Big gin":
        assert min_deadwood(hand) == 0 and hand.bit_count() == 11, why
        kinds.append("gin")
    elif m := re.fullmatch(rf"Take {CARD}", head):
        assert m[1] == f["top"] and Action("take") in legal, why
        top = CARD_INDEX[m[1]]
        m2 = re.fullmatch(rf"(.+) and leaves deadwood (\d+) after throwing {CARD}", clauses.pop(0))
        assert m2, why
        after = (hand | (1 << top)) & ~(1 << CARD_INDEX[m2[3]])
        assert CARD_INDEX[m2[3]] != top and int(m2[2]) == min_deadwood(after), why
        how = m2[1]
        if m3 := re.fullmatch(r"it melds with (\S+)", how):
            assert _meld_ok(f"{m3[1]}-{m[1]}", after), why
            kinds.append("take-melds")
        elif m3 := re.fullmatch(r"it lowers the count from (\d+)", how):
            assert int(m3[1]) == min_deadwood(hand) > int(m2[2]), why
            kinds.append("take-lowers")
        elif m3 := re.fullmatch(r"it goes with (.+)", how):
            for c in m3[1].split(", "):
                assert hand >> CARD_INDEX[c] & 1 and RELATED[top] >> CARD_INDEX[c] & 1, why
            kinds.append("take-goes-with")
        else:
            assert how == "it is a low card" and not hand & RELATED[top], why
            kinds.append("take-low")
    elif m := re.fullmatch(rf"(Pass on {CARD}|Draw from the stock)", head):
        assert Action("pass" if head.startswith("Pass") else "draw") in legal, why
        first = clauses.pop(0) if clauses else ""
        if m2 := re.fullmatch(rf"taking {CARD} would leave deadwood (\d+) after throwing {CARD} \(now (\d+)\)", first):
            top = CARD_INDEX[m2[1]]
            assert m2[1] == f["top"], why
            assert int(m2[4]) == min_deadwood(hand), why
            after = (hand | (1 << top)) & ~(1 << CARD_INDEX[m2[3]])
            assert int(m2[2]) == min_deadwood(after), why
            rest = clauses.pop(0)
            m3 = re.fullmatch(r"the expert rates the stock higher \(deadwood (\d+)", rest)
            assert m3 and int(m3[1]) == min_deadwood(hand), why
            rest2 = clauses.pop(0)
            assert re.fullmatch(r"by its estimate a stock card saves \d+\.\d on average\)", rest2), why
        else:
            raise AssertionError(f"unchecked draw sentence: {why}")
        kinds.append("draw")
    else:
        pytest.fail(f"a sentence this test does not know: {why!r}")

    # -- the clauses -----------------------------------------------------------------------------
    for clause in clauses:
        if m := re.fullmatch(rf"the opponent discarded {CARD}", clause):
            assert m[1] in f["discarded"], f"{why} / discarded {f['discarded']}"
            kinds.append("opp-discarded")
        elif m := re.fullmatch(rf"the opponent passed on {CARD}", clause):
            assert m[1] in f["passed"] and m[1] not in f["discarded"], f"{why} / passed {f['passed']}"
            kinds.append("opp-passed")
        elif clause == "it is unlikely to help the opponent":
            kinds.append("safe")
        elif clause == "playing on is worth more than knocking now":
            assert knocks and f["stock"] > f["wall"], why
            best = max(values[a] for a in knocks)
            chosen = next(a for a in legal if str(a).lower() == head.lower())
            assert values[chosen] > best, why
            kinds.append("play-on")
        elif clause == "not knocking lets the hand end void at the wall, which is worth more than the knock":
            assert knocks and f["stock"] <= f["wall"], why
            kinds.append("void-better")
        elif clause == "that is worth more than playing on":
            assert f["stock"] > f["wall"], why
            kinds.append("knock-better")
        elif clause == "otherwise the hand ends void at the wall, and the knock is worth more":
            assert f["stock"] <= f["wall"], why
            kinds.append("knock-at-wall")
        elif clause == "knocking at the first chance":
            kinds.append("knock-habit")
        else:
            pytest.fail(f"a clause this test does not know: {clause!r} in {why!r}")
    return kinds


def _positions(
    variant: str, names: Sequence[str], seeds: range, options: Mapping[str, Any] | None = None
) -> list[tuple[dict[str, Any], list[Action]]]:
    out = []
    for seed in seeds:
        s = State.new(variant, options=options)
        agents = [make_agent(names[i % len(names)], variant, seed=seed + i) for i in range(s.num_seats)]
        s.deal(seed=seed)
        while not s.is_hand_over:
            seat = s.current_player
            assert seat is not None
            obs, legal = s.observation(seat), s.legal_actions()
            out.append((obs, legal))
            s.apply(agents[seat].act(obs, legal))
    return out


@pytest.mark.parametrize("variant", ["classic", "oklahoma"])
def test_every_advice_sentence_is_true(variant: str) -> None:
    seen: Counter[str] = Counter()
    for obs, legal in _positions(variant, ("expert", "casual"), range(30)):
        if len(legal) < 2:
            continue
        adv = advise(obs, legal, variant)
        seen.update(check_sentence(adv.why, obs, legal, dict(adv.ranked)))
    # The sample reaches the sentences that were wrong before.
    for kind in ("discard", "opp-discarded", "opp-passed", "play-on", "draw", "take-melds"):
        assert seen[kind] > 0, seen


def test_the_level_explanations_are_true() -> None:
    seen: Counter[str] = Counter()
    for name in ("beginner", "casual", "intermediate", "advanced"):
        agent = make_agent(name, "classic", seed=3)
        for obs, legal in _positions("classic", (name,), range(8)):
            if len(legal) < 2:
                continue
            d = agent.decide(obs, legal)
            assert d.explanation
            values = {Action.parse(k): v for k, v in d.values.items()}
            seen[_check_level(d.explanation, obs, legal, values)] += 1
    assert seen["expert"] and seen["misjudged"], seen


def _check_level(reason: Value, obs: Mapping[str, Any], legal: Sequence[Action], values: Mapping[Action, float]) -> str:
    """A level's sentence: the expert's, or for a misjudged choice the action and its noted facts."""
    why = plain(reason_text(reason))
    f = _facts(obs)
    m: re.Match[str] | None
    if m := re.fullmatch(rf"Discard {CARD}: deadwood (\d+)(?:, \d+% chance it melds for the opponent)?\.", why):
        assert int(m[2]) == min_deadwood(f["hand"] & ~(1 << CARD_INDEX[m[1]])), why
        return "misjudged"
    if m := re.fullmatch(rf"Knock {CARD}: deadwood (\d+), undercut chance about \d+%\.", why):
        assert int(m[2]) == min_deadwood(f["hand"] & ~(1 << CARD_INDEX[m[1]])), why
        return "misjudged"
    estimate = r"by its estimate a stock card saves \d+\.\d on average"
    if m := re.fullmatch(rf"(?:Draw|Pass): deadwood (\d+); {estimate}\.", why):
        assert int(m[1]) == min_deadwood(f["hand"]), why
        return "misjudged"
    m = re.fullmatch(r"Take it: deadwood (\d+) -> (\d+)\.", why)
    if m or why == "The card does not lower the deadwood.":
        # The beginner's draw (greedy): the best count after taking the top card and throwing one.
        top = CARD_INDEX[f["top"]]
        with_top = f["hand"] | (1 << top)
        after = min(min_deadwood(with_top & ~(1 << c)) for c in range(52) if with_top >> c & 1 and c != top)
        if m is None:
            assert after >= min_deadwood(f["hand"]), why
        else:
            assert (int(m[1]), int(m[2])) == (min_deadwood(f["hand"]), after) and after < int(m[1]), why
        return "misjudged"
    if why.startswith("Take: "):
        check_sentence(f"Take {f['top']}: {why[6:]}", obs, legal, values)
        return "misjudged"
    check_sentence(why, obs, legal, values)
    return "expert"


def _wall_position(want_knock: bool) -> tuple[dict[str, Any], list[Action]]:
    """A real position where a knock is legal, moved to the wall (two stock cards left)."""
    for obs, legal in _positions("classic", ("expert",), range(60)):
        if any(a.kind == "knock" for a in legal) and not any(a.kind == "gin" for a in legal):
            wall = dict(obs, stock_size=2)
            adv = advise(wall, legal, "classic")
            if (adv.best.kind == "knock") == want_knock:
                return wall, legal
    raise AssertionError("no such position in the sample")


def test_at_the_wall_playing_on_is_not_called_playing_on() -> None:
    # The last discard before a void hand: not knocking ends the hand, it does not play on.
    obs, legal = _wall_position(want_knock=False)
    adv = advise(obs, legal, "classic")
    assert "playing on" not in plain(reason_text(adv.why))
    assert "void" in plain(reason_text(adv.why))
    assert "void-better" in check_sentence(adv.why, obs, legal, dict(adv.ranked))


def test_a_knock_at_the_wall_says_why() -> None:
    obs, legal = _wall_position(want_knock=True)
    adv = advise(obs, legal, "classic")
    assert "knock-at-wall" in check_sentence(adv.why, obs, legal, dict(adv.ranked))


def test_a_discarded_card_is_not_called_passed() -> None:
    # The reported bug: the opponent had discarded the king of clubs, and the advice said that it
    # passed on it.  Here the opponent took the upcard 9d and threw Kc; the advice throws Kd.
    s = State.new("classic")
    s.deal(seed=1)
    obs = dict(s.observation(s.current_player or 0))
    seat = int(obs["seat"])
    opp = 1 - seat
    hand = ["2c", "3c", "4c", "7h", "8h", "9h", "5s", "5d", "Kd", "Qs", "Jd"]
    obs.update(
        phase="discard",
        hand=hand,
        upcard="9d",
        discard_pile=["Kc"],
        stock_size=30,
        hand_sizes=[11, 10] if seat == 0 else [10, 11],
        known_cards={str(opp): ["9d"]},
        history=[
            {"seat": opp, "action": "take"},
            {"seat": opp, "action": "discard Kc"},
            {"seat": seat, "action": "draw"},
        ],
    )
    legal = [Action.parse("discard Kd"), Action.parse("discard 2c")]
    adv = advise(obs, legal, "classic")
    assert adv.best == Action.parse("discard Kd")
    assert "opp-discarded" in check_sentence(adv.why, obs, legal, dict(adv.ranked))
    assert "passed on" not in plain(reason_text(adv.why))


def test_the_solitaire_fallback_sentences_are_true() -> None:
    """The greedy ranking used when the solitaire planner offers no advice: its sentence names
    the deadwood kept and the outs (unseen cards that would lower it), or the way out."""
    from ginrummy.agents.advisor import _greedy_solo
    from ginrummy.melds import best_discards

    seen: Counter[str] = Counter()
    for variant in ("solitaire", "gin-solitaire"):
        for seed in range(6):
            s = State.new(variant)
            s.deal(seed=seed)
            player = make_agent("greedy", variant, seed=seed)
            while not s.is_hand_over:
                seat = s.current_player
                assert seat is not None
                obs, legal = s.observation(seat), s.legal_actions()
                adv = _greedy_solo(obs, list(legal))
                hand = card_mask(obs["hand"])
                unseen = [CARD_INDEX[c] for c in obs.get("unseen") or []]
                why = plain(reason_text(adv.why))
                if m := re.fullmatch(rf"Discard {CARD}: keeps deadwood (\d+) with (\d+) outs\.", why):
                    kept = hand & ~(1 << CARD_INDEX[m[1]])
                    d = min_deadwood(kept)
                    assert int(m[2]) == d, why
                    assert int(m[3]) == sum(1 for u in unseen if best_discards(kept | (1 << u))[0] < d), why
                    seen["discard"] += 1
                elif m := re.fullmatch(rf"Knock {CARD}: knock with deadwood (\d+)\.", why):
                    assert int(m[2]) == min_deadwood(hand & ~(1 << CARD_INDEX[m[1]])), why
                    seen["knock"] += 1
                elif m := re.fullmatch(rf"Gin {CARD}: gin: every card is melded after throwing {CARD}\.", why):
                    assert m[1] == m[2] and min_deadwood(hand & ~(1 << CARD_INDEX[m[1]])) == 0, why
                    seen["gin"] += 1
                elif m := re.fullmatch(r"Draw: draw to improve deadwood (\d+)\.", why):
                    assert int(m[1]) == min_deadwood(hand), why
                    seen["draw"] += 1
                else:
                    pytest.fail(f"a sentence this test does not know: {why!r}")
                s.apply(player.act(obs, legal))
    assert seen["discard"] and seen["knock"], seen


def test_a_hint_is_the_move_the_expert_would_play() -> None:
    # With the EAAI scoring the expert searches its close calls, and the search sometimes turns
    # away from the evaluation's best action: the hint follows it (the same choice, ginrummy.
    # agents.expert.choose), so a hint never names a weaker move than the computer would play.
    eaai = {"box_bonus": 0, "game_bonus": 0, "shutout": "none", "next_dealer": "alternate"}
    agent = make_agent("expert", "classic", seed=0)
    overridden = 0
    for obs, legal in _positions("classic", ("expert",), range(5), eaai):
        if len(legal) < 2:
            continue
        d = agent.decide(obs, legal)
        adv = advise(obs, legal, "classic")
        assert (adv.best, adv.why) == (d.action, d.explanation)
        assert adv.ranked[0][0] == adv.best
        static = evaluate(obs, legal).best
        if d.action != static:
            overridden += 1
            # The sentence of an action the evaluation did not rank first: its noted facts, and
            # that it played out better than the evaluation's best, named.
            why = plain(reason_text(adv.why))
            m = re.fullmatch(
                r"(.*?)(?:;|:) played out over the hands the opponent may hold, it does better than (.+)\.", why
            )
            assert m is not None, why
            assert m[2] == plain(reason_text(move_in_sentence(static))), why
            if m[1] != plain(reason_text(move(d.action))):  # facts noted: checked against the position
                assert _check_level(m[1] + ".", obs, legal, dict(adv.ranked)) == "misjudged"
    assert overridden >= 2  # the sample reaches decisions the search changed
