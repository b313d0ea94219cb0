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
