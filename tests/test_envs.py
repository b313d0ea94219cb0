"""The reinforcement-learning environments: PettingZoo's and Gymnasium's own checkers, seeding,
rewards, the sitter of three-player gin, and that observations hold only what a seat may know."""

from __future__ import annotations

import csv
import doctest
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ginrummy import i18n  # noqa: E402
from ginrummy.actions import NUM_ACTIONS, Action  # noqa: E402
from ginrummy.cards import CARDS, Card  # noqa: E402
from ginrummy.engine import State  # noqa: E402
from ginrummy.envs import GYM_IDS, make_aec, make_gym  # noqa: E402
from ginrummy.envs.encoding import OBS_SIZE, PLANES, encode, plane_slice, scalar_index  # noqa: E402
from ginrummy.errors import IllegalAction, OptionError  # noqa: E402
from ginrummy.melds import deadwood_after_discards  # noqa: E402

TABLE = ["classic", "oklahoma", "hollywood", "three"]


_ENDING = np.zeros(NUM_ACTIONS, dtype=bool)
_ENDING[[i for i in range(NUM_ACTIONS) if Action.from_id(i).kind in ("knock", "gin")]] = True


def _choose(obs: dict[str, Any], rng: Any, eager: bool) -> int:
    """A random legal action; with ``eager``, knock or go gin whenever possible and otherwise
    discard the card that leaves the least deadwood (hands that end soon)."""
    legal = np.flatnonzero(obs["action_mask"])
    if eager:
        ending = legal[_ENDING[legal]]
        if len(ending):
            return int(ending[0])
        discards = [a for a in legal if 3 <= a < 55]
        if discards:
            hand = sum(1 << int(c) for c in np.flatnonzero(obs["observation"][plane_slice("hand")]))
            after = deadwood_after_discards(hand)
            return min(discards, key=lambda a: (after[CARDS[a - 3]], a))
    return int(rng.choice(legal))


def _random_play(env: Any, seed: int, eager: bool = True) -> tuple[dict[str, float], int, list[dict[str, Any]]]:
    """Play one episode with random legal actions; the cumulative rewards, steps and hand results."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    results: list[dict[str, Any]] = []
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if agent == env.possible_agents[0]:
            results.extend(info.get("hand_results", []))  # the hands that ended since it last acted
        if term or trunc:
            env.step(None)
            continue
        env.step(_choose(obs, rng, eager))
        steps += 1
    return totals, steps, results


# ---------------------------------------------------------------------------- API checkers
@pytest.mark.parametrize("variant", TABLE)
def test_pettingzoo_api_and_seed(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict observation draws PettingZoo's generic advice
        api_test(make_aec(variant), num_cycles=300)
        seed_test(lambda: make_aec(variant), num_cycles=300)


@pytest.mark.parametrize("variant", ["classic", "three"])
def test_pettingzoo_api_game_episodes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_aec(variant, episode="game", game_target=10), num_cycles=400)
        seed_test(lambda: make_aec(variant, episode="game", reward="win"), num_cycles=200)


@pytest.mark.parametrize("variant", ["solitaire", "gin-solitaire"])
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_gymnasium_check_env(variant: str, episode: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec, cannot test other render modes"
        check_env(make_gym(variant, episode=episode))


@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_registered_ids(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi")
    assert env.unwrapped.variant == GYM_IDS[env_id]
    check_env(env.unwrapped)  # with a spec: every render mode is tried too
    obs, _info = env.reset(seed=1)
    assert "hand 1" in env.render()
    assert obs["observation"].shape == (OBS_SIZE,)
    env2 = gym.make(env_id, gin_bonus=20)
    assert env2.unwrapped.match.state.options.gin_bonus == 20


def test_ids_in_a_fresh_interpreter() -> None:
    """Gymnasium 1.x dropped the ``gymnasium.envs`` entry-point plugins, so an id needs its module:
    ``gymnasium.make("ginrummy.envs:ginrummy/Solitaire-v0")`` imports and registers in one call."""
    code = """
import sys, gymnasium
assert "ginrummy" not in sys.modules
env = gymnasium.make("ginrummy.envs:ginrummy/Solitaire-v0", scoring="none")
obs, info = env.reset(seed=1)
print(env.unwrapped.variant, obs["observation"].shape)
print(gymnasium.make("ginrummy/GinSolitaire-v0").unwrapped.variant)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [f"solitaire ({OBS_SIZE},)", "gin-solitaire"]


# ---------------------------------------------------------------------------- construction
def test_options_are_passed_and_checked() -> None:
    env = make_aec("classic", gin_bonus=20, undercut_bonus=10)
    assert env.match.state.options.gin_bonus == 20
    assert env.match.state.options.undercut_bonus == 10
    assert make_aec("oklahoma").match.state.options.game_target == 150
    with pytest.raises(OptionError, match="gin_bonus"):
        make_aec("classic", gin_bonus="lots")
    with pytest.raises(OptionError, match="unknown option"):
        make_gym("solitaire", layoffs=False)
    with pytest.raises(OptionError, match="make_gym"):
        make_aec("solitaire")
    with pytest.raises(OptionError, match="make_aec"):
        make_gym("classic")
    with pytest.raises(OptionError, match="episode"):
        make_aec("classic", episode="match")
    with pytest.raises(OptionError, match="reward"):
        make_gym("solitaire", reward="money")


def test_import_without_the_rl_extra() -> None:
    """``import ginrummy`` works without numpy, gymnasium and pettingzoo; ``ginrummy.envs`` says what to install."""
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('numpy', 'gymnasium', 'pettingzoo'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
import ginrummy
from ginrummy.engine import State
State.new('classic')
try:
    import ginrummy.envs
except ImportError as exc:
    print('ImportError', exc)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "ImportError" in out.stdout and "ginrummy[rl]" in out.stdout


# ---------------------------------------------------------------------------- seeding
def _trajectory(env: Any, seed: int | None, steps: int = 60) -> list[bytes]:
    if seed is not None:
        env.reset(seed=seed)
    else:
        env.reset()
    seen = []
    for _agent in env.agent_iter(steps):
        obs, _, term, trunc, _ = env.last()
        seen.append(obs["observation"].tobytes())
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))  # a fixed policy
    return seen


def test_seeded_resets_reproduce_the_deals() -> None:
    a, b = make_aec("classic"), make_aec("classic")
    assert _trajectory(a, 11) == _trajectory(b, 11)
    # Unseeded resets go on with the generator seeded before: still reproducible.
    assert _trajectory(a, None) == _trajectory(b, None)
    assert a.match.deal_seeds == b.match.deal_seeds
    c = make_aec("classic")
    assert _trajectory(c, 12) != _trajectory(make_aec("classic"), 11)

    g1, g2 = make_gym("gin-solitaire"), make_gym("gin-solitaire")
    o1, i1 = g1.reset(seed=5)
    o2, i2 = g2.reset(seed=5)
    assert np.array_equal(o1["observation"], o2["observation"]) and i1 == i2
    o1, _ = g1.reset()
    o2, _ = g2.reset()
    assert np.array_equal(o1["observation"], o2["observation"])


def test_hand_episodes_continue_the_game() -> None:
    env = make_aec("classic", game_target=30)
    env.reset(seed=3)
    hands = []
    for _ in range(30):
        _random_play(env, len(hands))
        st = env.match.state
        hands.append(st.hand_number)
        env.reset()
    # Hand numbers grow within a game and restart at 1 when a game is over.
    assert hands[:2] == [1, 2]
    assert 1 in hands[2:], "a game to 30 should have ended within 30 random hands"


# ---------------------------------------------------------------------------- rewards
@pytest.mark.parametrize("variant", ["classic", "oklahoma", "three"])
def test_hand_rewards_are_zero_sum_points(variant: str) -> None:
    env = make_aec(variant)
    scored = 0
    for seed in range(40):
        env.reset(seed=seed)
        totals, _, results = _random_play(env, seed)
        assert abs(sum(totals.values())) < 1e-9
        (res,) = results
        pts = res["points"]
        n = len(pts)
        for i, agent in enumerate(env.possible_agents):
            assert totals[agent] == pytest.approx(pts[i] - (sum(pts) - pts[i]) / (n - 1))
        scored += any(pts)
        if scored >= 3:
            break
    assert scored >= 3


@pytest.mark.parametrize("variant", ["classic", "hollywood", "three"])
def test_game_rewards_add_up_to_the_final_margin(variant: str) -> None:
    target = {"hollywood_target": 25} if variant == "hollywood" else {"game_target": 25}
    env = make_aec(variant, episode="game", **target)
    env.reset(seed=4)
    totals, _, results = _random_play(env, 4)
    st = env.match.state
    assert st.is_terminal and len(results) == st.hand_number
    final = st.final_totals()
    n = len(final)
    for i, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(final[i] - (sum(final) - final[i]) / (n - 1))


def test_win_rewards() -> None:
    env = make_aec("classic", episode="game", reward="win", game_target=20)
    env.reset(seed=8)
    totals, _, _ = _random_play(env, 8)
    winner = env.match.state.winner
    assert totals[f"player_{winner}"] == 1.0 and totals[f"player_{1 - winner}"] == -1.0


def test_solitaire_without_scoring_is_won_or_lost() -> None:
    env = make_gym("solitaire", scoring="none", reward_scale=2.0)
    outcomes = set()
    rng = np.random.default_rng(0)
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            gins = [a for a in legal if Action.from_id(int(a)).kind == "gin"]
            obs, r, done, _trunc, info = env.step(int(gins[0]) if gins else int(rng.choice(legal)))
            total += r
        outcomes.add(total)
        assert info["hand_results"][0]["result"] in ("gin", "joker")
        assert total == (2.0 if info["hand_results"][0]["result"] == "gin" else -2.0)
    assert outcomes <= {2.0, -2.0} and -2.0 in outcomes


def test_solitaire_points_and_game_episode() -> None:
    env = make_gym("solitaire", episode="game", game_target=30)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        ends = [a for a in legal if Action.from_id(int(a)).kind in ("gin", "knock")]
        obs, r, done, trunc, info = env.step(int(ends[0]) if ends else int(rng.choice(legal)))
        total += r
        assert not trunc
    final = info["final_totals"]
    assert total == final[0] - final[1] and max(final) >= 30


# ---------------------------------------------------------------------------- three players
def test_three_sitter_never_acts_and_all_agents_end() -> None:
    env = make_aec("three", episode="game", game_target=100)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    ended: list[str] = []
    sitters = set()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            ended.append(agent)
            env.step(None)
            continue
        roles = env.raw_observation(agent)["roles"]
        sitters.add(roles["sitter"])
        assert env.possible_agents.index(agent) != roles["sitter"]
        assert obs["observation"][scalar_index("role_sitter")] == 0
        env.step(_choose(obs, rng, eager=True))
    assert sorted(ended) == ["player_0", "player_1", "player_2"]
    assert env.agents == []
    assert len(sitters) >= 2, "the sitter should change over a game"


def test_three_sitter_observation_shows_the_captains_hand() -> None:
    env = make_aec("three")
    env.reset(seed=1)
    roles = env.raw_observation("player_0")["roles"]
    sitter, captain = f"player_{roles['sitter']}", f"player_{roles['captain']}"
    s_obs, c_obs = env.observe(sitter)["observation"], env.observe(captain)["observation"]
    assert np.array_equal(s_obs[plane_slice("hand")], c_obs[plane_slice("hand")])
    assert not env.observe(sitter)["action_mask"].any()


# ---------------------------------------------------------------------------- information
def test_encoding_partitions_the_pack_and_hides_the_opponent() -> None:
    env = make_aec("classic")
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _agent in env.agent_iter(80):
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        for other in env.possible_agents:
            vec = env.observe(other)["observation"]
            planes = {name: vec[plane_slice(name)] for name in PLANES}
            cover = planes["hand"] + planes["discards"] + planes["opponent_known"] + planes["unseen"]
            assert np.array_equal(cover, np.ones(52)), "every card is in exactly one of these planes"
            opp = 1 - env.possible_agents.index(other)
            hidden = [int(c) for c in env.match.state.hand(opp)]
            assert all(planes["unseen"][c] or planes["opponent_known"][c] for c in hidden)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_observation_does_not_depend_on_hidden_cards() -> None:
    """Two deals that differ only in the opponent's hidden cards and the stock look the same."""
    base = State.new("classic")
    base.deal(seed=21)
    deck = list(base.logs[-1].deck)
    # Deal order: non-dealer (seat 1) gets deck[0], [2], ...; the dealer (seat 0) deck[1], [3], ...
    # Swap one of the dealer's cards with a stock card: seat 1 cannot tell the difference.
    swapped = list(deck)
    swapped[1], swapped[30] = swapped[30], swapped[1]
    other = State.new("classic")
    other.deal(swapped)
    a, b = encode(base.observation(1)), encode(other.observation(1))
    assert np.array_equal(a["observation"], b["observation"])
    assert np.array_equal(a["action_mask"], b["action_mask"])
    assert not np.array_equal(encode(base.observation(0))["observation"], encode(other.observation(0))["observation"])


def test_action_mask_matches_the_legal_actions() -> None:
    env = make_aec("oklahoma")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in env.agent_iter(200):
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        assert sorted(np.flatnonzero(mask).tolist()) == [a.id for a in env.legal_actions(agent)]
        env.step(int(rng.choice(np.flatnonzero(mask))))


# ---------------------------------------------------------------------------- illegal actions, rendering
def test_illegal_actions() -> None:
    env = make_aec("classic")
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(Action.parse("discard As").id)  # not legal at the upcard
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0 and "illegal_action" in env.infos[agent]
    env.reset()  # the abandoned hand cannot go on: a new game
    assert env.match.state.hand_number == 1

    strict = make_gym("solitaire", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction):
        strict.step(0)
    lenient = make_gym("solitaire", illegal_reward=-5.0)
    lenient.reset(seed=1)
    _, r, done, _, info = lenient.step(NUM_ACTIONS - 1)
    assert done and r == -5.0 and "illegal_action" in info
    with pytest.raises(gym.error.ResetNeeded):
        lenient.step(0)


def test_render() -> None:
    env = make_aec("three", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "three  hand 1" in text and "(box)" in text and "(sitter)" in text
    solo = make_gym("gin-solitaire", render_mode="ansi")
    solo.reset(seed=3)
    assert "deck 42" in solo.render()
    with pytest.raises(OptionError):
        make_aec("classic", render_mode="rgb_array")


def test_doctests() -> None:
    import ginrummy.envs
    import ginrummy.envs.aec
    import ginrummy.envs.encoding
    import ginrummy.envs.gym_env

    for mod in (ginrummy.envs, ginrummy.envs.aec, ginrummy.envs.encoding, ginrummy.envs.gym_env):
        with i18n.using("en"):  # the examples are written in English (also in the pseudo-locale run)
            result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, mod.__name__


def test_cards_index_as_the_engine() -> None:
    env = make_gym("solitaire")
    obs, _ = env.reset(seed=4)
    hand = {int(Card.parse(c)) for c in env.raw_observation()["hand"]}
    assert set(np.flatnonzero(obs["observation"][plane_slice("hand")]).tolist()) == hand


def test_training_example_runs_and_writes_its_curve(tmp_path: Any) -> None:
    """examples/train_solitaire.py, shortened: it trains, evaluates on fixed deals against the
    random policy and the planner, and writes the learning curve."""
    script = Path(__file__).resolve().parent.parent / "examples" / "train_solitaire.py"
    out = tmp_path / "curve"
    args = ["--episodes", "40", "--eval-every", "20", "--eval-deals", "12", "--planner-deals", "3"]
    args += ["--planner-rollouts", "8", "--workers", "1", "--out", str(out)]
    proc = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "random policy:  win rate" in proc.stdout and "planner agent:  win rate" in proc.stdout
    with (tmp_path / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["episodes"]) for r in rows] == [0, 20, 40]
    for r in rows:
        for key in ("trained_win_rate", "random_win_rate", "planner_win_rate"):
            assert 0.0 <= float(r[key]) <= 1.0
