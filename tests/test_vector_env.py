"""The vectorised solitaires: every sub-environment plays exactly what the single environment
plays on the same seed (observations, masks, rewards, ends), through many hands and games, and
the vector API's conventions (spaces, SAME_STEP autoreset, illegal actions)."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from ginrummy.envs import make_gym  # noqa: E402
from ginrummy.envs.vector import SolitaireVectorEnv  # noqa: E402
from ginrummy.errors import IllegalAction, OptionError  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("solitaire", {}),
    ("solitaire", {"scoring": "none"}),
    ("solitaire", {"scoring": "basic", "joker_in_deal": "lose", "game_target": 40}),
    ("solitaire", {"end_before_first_draw": True, "big_gin": True, "count_includes_joker": True}),
    ("solitaire", {"reward": "win", "undercut_on_tie": True}),
    ("gin-solitaire", {}),
    ("gin-solitaire", {"end_after_opening_discard": True, "knock_limit": 5, "reward_scale": 0.1}),
]


def _policy(mask: Any, rng: Any) -> int:
    """Mostly end the hand when allowed (so knocks, gins and whole games happen), else random."""
    legal = np.flatnonzero(mask)
    ending = legal[legal >= 55]
    if len(ending) and rng.random() < 0.7:
        return int(rng.choice(ending))
    return int(rng.choice(legal))


@pytest.mark.parametrize(("variant", "kwargs"), CONFIGS)
def test_each_sub_environment_plays_the_single_environment(variant: str, kwargs: dict[str, Any]) -> None:
    n, seed, steps = 6, 11, 150
    venv = SolitaireVectorEnv(n, variant, **kwargs)
    singles = [make_gym(variant, **kwargs) for _ in range(n)]
    obs, _ = venv.reset(seed=seed)
    sobs = [e.reset(seed=seed + i)[0] for i, e in enumerate(singles)]
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(steps):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], sobs[i]["observation"]), i
            assert np.array_equal(obs["action_mask"][i], sobs[i]["action_mask"]), i
        actions = np.array([_policy(obs["action_mask"][i], rng) for i in range(n)])
        obs, rewards, terminated, truncated, info = venv.step(actions)
        assert not truncated.any()
        for i, e in enumerate(singles):
            o, r, term, _trunc, _ = e.step(actions[i])
            assert r == pytest.approx(rewards[i]) and term == terminated[i], i
            if term:
                ended += 1
                assert info["_final_obs"][i]
                assert np.array_equal(info["final_obs"]["observation"][i], o["observation"])
                o, _ = e.reset()
            sobs[i] = o
    assert ended > 10


def test_spaces_and_masks() -> None:
    venv = SolitaireVectorEnv(3, "gin-solitaire")
    obs, _ = venv.reset(seed=2)
    assert venv.observation_space.contains(obs)
    assert venv.single_action_space.n == 213 and venv.action_space.shape == (3,)
    assert venv.action_masks().shape == (3, 213) and venv.action_masks().dtype == bool
    assert (venv.action_masks().sum(axis=1) == 11).all()  # the opening discard: any of the eleven


def test_illegal_actions() -> None:
    venv = SolitaireVectorEnv(2, "solitaire", illegal_action="raise")
    obs, _ = venv.reset(seed=4)
    before = venv._observe()["observation"].copy()
    good = int(np.flatnonzero(obs["action_mask"][0])[0])
    bad = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalAction, match="sub-environment 1"):
        venv.step([good, bad])
    assert np.array_equal(venv._observe()["observation"], before)  # nothing moved
    term = SolitaireVectorEnv(2, "solitaire", illegal_reward=-5.0)
    obs, _ = term.reset(seed=4)
    _, rewards, terminated, _, _ = term.step([good, bad])
    assert terminated[1] and rewards[1] == -5.0 and not terminated[0]
    with pytest.raises(OptionError, match="no vectorised"):
        SolitaireVectorEnv(2, "classic")
    with pytest.raises(OptionError, match="scoring"):
        SolitaireVectorEnv(2, "solitaire", scoring="lots")


@pytest.mark.parametrize("variant", ["classic", "solitaire", "gin-solitaire"])
def test_batch_decks_are_the_engines_shuffle(variant: str) -> None:
    from ginrummy.engine import State
    from ginrummy.envs.vector import batch_decks

    seeds = [0, 1, 2**63 - 1, *range(10**12, 10**12 + 37)]
    decks = batch_decks(variant, seeds)
    template = State.new(variant)
    for row, seed in zip(decks.tolist(), seeds, strict=True):
        assert [c for c in row if c >= 0] == [int(c) for c in template.deck_for_seed(seed)]


def test_make_vec_through_the_registered_id() -> None:
    import gymnasium

    venv = gymnasium.make_vec(
        "ginrummy/GinSolitaire-v0", num_envs=3, vectorization_mode="vector_entry_point", gin_bonus=20
    )
    assert isinstance(venv, SolitaireVectorEnv) and venv.opts.gin_bonus == 20
    obs, _ = venv.reset(seed=0)
    assert obs["observation"].shape == (3, 280)


# ---------------------------------------------------------------------------- the table games
TABLE_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"big_gin": True, "discard_drawn_upcard_allowed": True, "next_dealer": "alternate", "game_target": 30}),
    ("oklahoma", {"oklahoma_ace": "one", "layoffs": False, "wall_cards": 8, "reward_scale": 0.5}),
    ("oklahoma", {}),
    ("hollywood", {"hollywood_target": 40}),
    ("three", {"game_target": 40}),
]


def _eager(obs: Any, mask: Any, rng: Any) -> int:
    """Knock or go gin when allowed, else discard a card that leaves the least deadwood (so that
    hands end soon and games end too); draw or take at random."""
    from ginrummy.envs.encoding import plane_slice
    from ginrummy.melds import min_deadwood

    legal = np.flatnonzero(mask)
    ending = legal[legal >= 55]
    if len(ending):
        return int(rng.choice(ending))
    discards = legal[(legal >= 3) & (legal < 55)]
    if len(discards):
        hand = sum(1 << int(c) for c in np.flatnonzero(obs[plane_slice("hand")]))
        return int(min(discards, key=lambda a: (min_deadwood(hand & ~(1 << int(a - 3))), a)))
    return int(rng.choice(legal))


@pytest.mark.parametrize(("variant", "kwargs"), TABLE_CONFIGS)
def test_each_table_game_plays_the_aec_environment(variant: str, kwargs: dict[str, Any]) -> None:
    from ginrummy.envs import make_aec
    from ginrummy.envs.table_vector import TableVectorEnv

    n, seed = 4, 7
    venv = TableVectorEnv(n, variant, **kwargs)
    aecs = [make_aec(variant, **kwargs) for _ in range(n)]
    obs, info = venv.reset(seed=seed)
    for i, e in enumerate(aecs):
        e.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    ended = new_games = 0
    for _ in range(250):
        actions = []
        for i, e in enumerate(aecs):
            agent = e.agent_selection
            assert info["agent"][i] == e.possible_agents.index(agent)
            o = e.observe(agent)
            assert np.array_equal(o["observation"], obs["observation"][i])
            assert np.array_equal(o["action_mask"], obs["action_mask"][i])
            actions.append(_eager(o["observation"], o["action_mask"], rng))
        obs, rewards, terminated, _, info = venv.step(actions)
        for i, e in enumerate(aecs):
            e.step(actions[i])
            assert all(e.terminations.values()) == bool(terminated[i])
            if terminated[i]:
                ended += 1
                assert [e.rewards[a] for a in e.possible_agents] == pytest.approx(rewards[i].tolist())
                new_games += e.match.state.is_terminal
                e.reset()
    assert ended > 8
    if "game_target" in kwargs:
        assert new_games  # whole games ended and new ones began


def test_table_illegal_actions_and_options() -> None:
    from ginrummy.envs.table_vector import TableVectorEnv

    venv = TableVectorEnv(2, "three", illegal_action="raise")
    _, info = venv.reset(seed=1)
    assert info["agent"].tolist() == [1, 1]  # the captain has the first upcard
    with pytest.raises(IllegalAction, match="sub-environment 0"):
        venv.step([0, 1])  # draw is not legal on the first upcard
    term = TableVectorEnv(2, "classic", illegal_reward=-3.0)
    term.reset(seed=1)
    _, rewards, terminated, _, _ = term.step([0, 2])
    assert terminated.tolist() == [True, False] and rewards[0].tolist() == [0.0, -3.0]
    with pytest.raises(OptionError, match="no vectorised table game"):
        TableVectorEnv(2, "solitaire")
