"""make() envs as Gymnasium defines an Env: check_env passes for every
variant (directly and through the registered ids), the action space is a
Discrete whose sample() draws legal actions and takes Gymnasium's int8
mask from info (the one mask dtype of make(), VecEnv and PettingZoo),
observations stay inside their finite bounds, rgb_array frames record a
video, and the Traitor rule seed is the rules' own, never the env's."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import heterodox
from heterodox import Game, Outcome

VARIANTS = heterodox.variants()


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_env_passes(variant):
    env = heterodox.make(variant, max_plies=100)
    assert env.spec.id == f"heterodox/{variant}-v0"
    assert env.spec.kwargs == {"variant": variant, "max_plies": 100}
    check_env(env)


@pytest.mark.parametrize("variant", VARIANTS)
def test_registered_ids_pass_check_env_with_every_render_mode(variant):
    env = gymnasium.make(f"heterodox/{variant}-v0", render_mode="ansi")
    assert env.spec.id == f"heterodox/{variant}-v0"
    assert env.unwrapped.variant == variant
    check_env(env.unwrapped)
    env.reset(seed=1)
    assert env.render() == Game(variant).render()
    frames = gymnasium.make(f"heterodox/{variant}-v0", render_mode="rgb_array")
    check_env(frames.unwrapped)
    frames.reset(seed=1)
    assert frames.render().tobytes() == Game(variant).render_rgb().tobytes()


def test_registered_kwargs_pass_through():
    env = gymnasium.make("heterodox/traitor-v0", mode="defector", max_plies=30)
    assert env.unwrapped.max_plies == 30
    assert env.unwrapped.game.options == {"mode": "defector"}


def test_render_modes():
    assert heterodox.make("chess").metadata["render_modes"] == ["ansi", "svg", "rgb_array"]
    text = heterodox.make("chess", render_mode="ansi")
    text.reset()
    assert text.render() == Game("chess").render()
    picture = heterodox.make("chess", render_mode="svg")
    picture.reset()
    assert picture.render() == Game("chess")._repr_svg_()
    with pytest.warns(UserWarning, match="render\\(\\) called without a render_mode"):
        assert heterodox.make("chess").render() is None
    frames = heterodox.make("chess", render_mode="rgb_array")
    frames.reset()
    frame = frames.render()
    assert frame.shape == (384, 576, 3) and frame.dtype == np.uint8
    assert frame.tobytes() == Game("chess").render_rgb().tobytes()
    with pytest.raises(
        ValueError, match="render_mode must be None, 'ansi', 'svg' or 'rgb_array', not 'human'"
    ):
        heterodox.make("chess", render_mode="human")


def test_rgb_frames_follow_the_game():
    env = heterodox.make("chess", render_mode="rgb_array")
    _, info = env.reset()
    first = env.render()
    env.step(info["legal_actions"][info["legal_moves"].index("e2e4")])
    game = Game("chess")
    game.play("e4")
    assert env.render().tobytes() == game.render_rgb().tobytes() != first.tobytes()


def test_record_video_writes_a_video(tmp_path):
    """Gymnasium's RecordVideo (moviepy underneath) records rgb_array frames
    of a short game to a video file."""
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = gymnasium.make("heterodox/hostage-v0", render_mode="rgb_array", max_plies=6)
    folder = tmp_path / "videos"  # RecordVideo warns about a folder that exists
    env = RecordVideo(env, str(folder), episode_trigger=lambda episode: True, name_prefix="hostage")
    env.reset(seed=0)
    env.unwrapped.action_space.seed(0)
    done = False
    steps = 0
    while not done:
        _, _, terminated, truncated, _ = env.step(env.unwrapped.action_space.sample())
        done = terminated or truncated
        steps += 1
    env.close()
    assert steps == 6
    videos = sorted(p.name for p in folder.iterdir())
    assert videos == ["hostage-episode-0.mp4"]
    assert (folder / videos[0]).stat().st_size > 0


def test_action_masks_are_int8_in_make_vecenv_and_pettingzoo():
    """One mask dtype everywhere: int8 0 / 1, which Gymnasium's
    Discrete.sample(mask=...) takes as it is."""
    pytest.importorskip("pettingzoo")
    import heterodox.pettingzoo as hz

    _, single = heterodox.make("chess").reset(seed=0)
    vector = heterodox.VecEnv("chess", 2)
    _, batch = vector.reset(seed=0)
    native = heterodox._core.VecEnv("chess", 2, copy=False)
    _, viewed = native.reset()
    aec = hz.env("chess")
    aec.reset(seed=0)
    observed = aec.observe("white")["action_mask"]
    assert heterodox.env.MASK_DTYPE is np.int8
    for mask in (single["action_mask"], batch["action_mask"], viewed["action_mask"], observed):
        assert mask.dtype == np.int8
        assert sorted(np.unique(mask).tolist()) == [0, 1]
        assert int(mask.sum()) == 20 * (mask.size // 4672)
    np.testing.assert_array_equal(batch["action_mask"][0], single["action_mask"])
    np.testing.assert_array_equal(observed, single["action_mask"])
    np.testing.assert_array_equal(viewed["action_mask"], batch["action_mask"])
    assert aec.observation_space("white")["action_mask"].dtype == np.int8
    # A VecEnv row goes straight into Gymnasium's masked sampling.
    space = gymnasium.spaces.Discrete(4672, seed=1)
    legal = set(vector.legal_actions(0))
    assert all(int(space.sample(mask=batch["action_mask"][0])) in legal for _ in range(20))
    # The zero-copy view stays read-only: numpy will not make it writeable.
    assert not viewed["action_mask"].flags.writeable
    with pytest.raises(ValueError):
        viewed["action_mask"].flags.writeable = True


def test_masked_sampling_follows_gymnasium():
    env = heterodox.make("chess")
    _, info = env.reset(seed=0)
    assert info["action_mask"].dtype == np.int8
    assert type(env.action_space).__name__ == "LegalDiscrete"
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    assert env.action_space.n == 4672
    legal = set(info["legal_actions"])
    env.action_space.seed(3)
    for _ in range(50):
        assert int(env.action_space.sample(mask=info["action_mask"])) in legal
        assert int(env.action_space.sample()) in legal


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_stay_in_their_bounds_over_random_games(variant):
    env = heterodox.make(variant, max_plies=150)
    space = env.observation_space
    assert (space.low.min(), space.high.max()) == (0.0, 1.0)
    env.action_space.seed(5)
    obs, info = env.reset(seed=5)
    seen = 0
    for _ in range(600):
        assert space.contains(obs), (obs.min(), obs.max())
        obs, _, terminated, truncated, info = env.step(env.action_space.sample())
        seen += 1
        if terminated or truncated:
            assert space.contains(obs)
            obs, info = env.reset()
    assert seen == 600


def test_outcome_in_info_at_the_end():
    env = heterodox.make("chess")
    _, info = env.reset()
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        assert "outcome" not in info
        _, reward, terminated, truncated, info = env.step(
            info["legal_actions"][info["legal_moves"].index(move)]
        )
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["outcome"] == Outcome("black", "checkmate")
    capped = heterodox.make("chess", max_plies=2)
    _, info = capped.reset()
    capped.step(info["legal_actions"][0])
    *_, truncated, info = capped.step(capped.action_space.sample())
    assert truncated and info["outcome"] is None


def test_traitor_rule_seed_is_the_rules_not_the_env():
    game = Game("traitor", selection="random", seed=7)
    env = heterodox.make("traitor", selection="random", seed=7)
    env.reset()
    assert env.fen() == game.fen()
    env.reset(seed=123)
    assert env.fen() == game.fen()
    # Without a rule seed each game draws its set-up from the env's seed.
    free = heterodox.make("traitor", selection="random")
    free.reset(seed=1)
    first = free.fen()
    free.reset(seed=1)
    assert free.fen() == first
    assert {free.reset(seed=s) and free.fen() for s in range(2, 8)} - {first}
