"""The OpenSpiel games: OpenSpiel's own random-simulation test, chance nodes, returns against the
engine's scoring, parameters, and that observations and information states hold only what the
seat may know (a state resampled from a seat's information state looks the same to that seat)."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import ginrummy.openspiel as gos  # noqa: E402
from ginrummy.actions import Action  # noqa: E402
from ginrummy.cards import JOKER  # noqa: E402
from ginrummy.envs.encoding import OBS_SIZE  # noqa: E402
from ginrummy.record import replay  # noqa: E402

VARIANTS = list(gos.GAME_NAMES)


def _play(game: Any, seed: int, stop: Any = None) -> Any:
    """A hand with seeded random chance and random legal moves (ending moves preferred, so that
    hands end soon); stops early where ``stop(state)`` is true."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if stop is not None and stop(s):
            return s
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choice(outcomes)[0])
            continue
        legal = s.legal_actions()
        ending = [a for a in legal if Action.from_id(a).kind in ("knock", "gin")]
        s.apply_action(ending[0] if ending and rng.random() < 0.8 else rng.choice(legal))
    return s


@pytest.mark.parametrize("variant", VARIANTS)
def test_openspiel_random_simulation(variant: str) -> None:
    game = pyspiel.load_game(gos.game_name(variant))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_registered_games_and_their_shapes() -> None:
    names = set(pyspiel.registered_names())
    assert set(gos.GAME_NAMES.values()) <= names
    three = pyspiel.load_game("ginrummy_three")
    assert three.num_players() == 3 and three.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solo = pyspiel.load_game("ginrummy_solitaire")
    assert solo.num_players() == 1 and solo.max_chance_outcomes() == 53
    assert three.observation_tensor_shape() == [OBS_SIZE]
    assert three.information_state_tensor_shape() == [OBS_SIZE + three.max_game_length() + 24]


def test_parameters_are_the_options() -> None:
    game = pyspiel.load_game("ginrummy_classic", {"gin_bonus": 20, "layoffs": False})
    s = game.new_initial_state()
    assert s.engine.options.gin_bonus == 20 and s.engine.options.layoffs is False
    assert pyspiel.load_game("ginrummy_oklahoma").new_initial_state().engine.options.spades_double is True
    with pytest.raises(pyspiel.SpielError, match="bogus"):
        pyspiel.load_game("ginrummy_classic", {"bogus": 1})
    with pytest.raises(ValueError, match="scoring"):
        pyspiel.load_game("ginrummy_solitaire", {"scoring": "lots"})


@pytest.mark.parametrize("variant", VARIANTS)
def test_returns_are_the_engines_points_and_the_record_replays(variant: str) -> None:
    game = pyspiel.load_game(gos.game_name(variant))
    for seed in range(6):
        s = _play(game, seed)
        eng = s.engine
        res = eng.hand_result
        assert res is not None and res.result != "redeal"
        pts = list(res.points)
        ret = s.returns()
        if variant in ("solitaire", "gin-solitaire"):
            assert ret == [pts[0] - pts[1]]
        else:
            n = len(pts)
            assert ret == pytest.approx([p - (sum(pts) - p) / (n - 1) for p in pts])
            assert sum(ret) == pytest.approx(0.0)
        # The chance outcomes were written into the hand's deck: the record replays to the same end.
        again = replay(eng.to_record())
        assert again.hand_result == res


def test_chance_nodes_deal_then_draw() -> None:
    game = pyspiel.load_game("ginrummy_classic")
    s = game.new_initial_state()
    rng = random.Random(3)
    for n in range(21):  # ten cards each and the upcard
        outcomes = s.chance_outcomes()
        assert len(outcomes) == 52 - n and sum(p for _, p in outcomes) == pytest.approx(1.0)
        s.apply_action(rng.choice(outcomes)[0])
    assert not s.is_chance_node() and s.engine.phase == "upcard"
    s.apply_action(Action.parse("pass").id)
    s.apply_action(Action.parse("pass").id)
    s.apply_action(Action.parse("draw").id)  # the stock's card is a chance node
    assert s.is_chance_node() and len(s.chance_outcomes()) == 31
    card = s.chance_outcomes()[5][0]
    seat = s.engine.current_player
    s.apply_action(card)
    assert s.engine.hands[seat] >> card & 1 and s.engine.phase == "discard"


def test_solitaire_joker_dealing_and_counting() -> None:
    redeal = pyspiel.load_game("ginrummy_solitaire").new_initial_state()
    assert int(JOKER) not in [a for a, _ in redeal.chance_outcomes()]  # redealing = never dealt into the ten
    lose = pyspiel.load_game("ginrummy_solitaire", {"joker_in_deal": "lose"}).new_initial_state()
    assert int(JOKER) in [a for a, _ in lose.chance_outcomes()]
    game = pyspiel.load_game("ginrummy_solitaire")
    counted_hands = 0
    for seed in range(40):
        s = _play(game, seed)
        res = s.engine.hand_result
        if res.result in ("knock", "gin", "undercut"):
            counts = [a for a in s.history()[-(res.counted + 1) :]]
            assert counts[-1] == int(JOKER) and int(JOKER) not in counts[:-1]
            assert [int(c) for c in res.counted_cards] == counts[:-1]
            counted_hands += 1
    assert counted_hands  # some seeded hands end by a knock or gin


def test_max_moves_ends_the_hand_void() -> None:
    game = pyspiel.load_game("ginrummy_classic", {"max_moves": 3})
    s = _play(game, 1)
    assert s.engine.hand_result is None and s.returns() == [0.0, 0.0]
    assert len(s.history()) <= game.max_game_length()


def _decision_points(game: Any, seed: int) -> list[Any]:
    out = []
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
            continue
        out.append(s.clone())
        s.apply_action(rng.choice(s.legal_actions()))
        if len(out) >= 30:
            break
    return out


@pytest.mark.parametrize("variant", ["classic", "three", "solitaire", "gin-solitaire"])
def test_a_seat_cannot_tell_a_resampled_state(variant: str) -> None:
    """Every view a seat gets (observation and information state, string and tensor) is the same
    in a state whose cards that seat has not seen were dealt anew: none of them depends on them."""
    game = pyspiel.load_game(gos.game_name(variant))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for s in _decision_points(game, 5)[::3]:
        for p in range(game.num_players()):
            r = s.resample_from_infostate(p, sampler)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.observation_string(p) == s.observation_string(p)
            assert r.observation_tensor(p) == s.observation_tensor(p)
            assert r.information_state_tensor(p) == s.information_state_tensor(p)
            if p == s.current_player():
                assert r.legal_actions() == s.legal_actions()
            changed += str(r) != str(s)
    # Table games: the other hand's cards changed.  Solitaires: nothing is hidden at a decision (the
    # stock's next cards are chance nodes still to come), so nothing changes.
    assert bool(changed) == (game.num_players() > 1)


def test_information_states_separate_what_a_seat_saw() -> None:
    game = pyspiel.load_game("ginrummy_classic")
    a, b = _decision_points(game, 1)[0], _decision_points(game, 2)[0]
    p = a.current_player()
    assert a.information_state_string(p) != b.information_state_string(p)  # other cards dealt to it
    tokens = a.events(p)
    seen = [t - gos.event_token("seen", 0) for t in tokens if 0 <= t - gos.event_token("seen", 0) < 53]
    assert sorted(seen) == sorted(i for i in range(52) if a.engine.hands[p] >> i & 1)


def test_python_ismcts_plays_a_decision() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("ginrummy_classic")
    state = _decision_points(game, 7)[3]
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=6, random_state=np.random.RandomState(1))
    action = bot.step(state)
    assert action in state.legal_actions()


def test_doctest() -> None:
    assert doctest.testmod(gos, optionflags=doctest.ELLIPSIS).failed == 0


def test_the_example_runs() -> None:
    """examples/openspiel_algorithms.py, shortened: IS-MCTS against the expert, and the sampled
    solitaire evaluation of every player."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "examples" / "openspiel_algorithms.py"
    run = [sys.executable, str(script)]
    proc = subprocess.run(
        [*run, "ismcts", "--variant", "three", "--pairs", "1", "--simulations", "4"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "three: IS-MCTS (4 simulations, greedy rollouts" in proc.stdout and "points a hand" in proc.stdout
    proc = subprocess.run(
        [*run, "solitaire", "--deals", "2", "--mcts-deals", "1", "--simulations", "3"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    for player in ("uniform random", "greedy", "IS-MCTS", "planner"):
        assert f"{player}" in proc.stdout
    assert proc.stdout.count("95% interval") == 4
