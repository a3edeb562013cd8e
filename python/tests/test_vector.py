"""VecEnv as a gymnasium.vector.VectorEnv: spaces, close, reset with an int
or a list of seeds and options, same-step auto-reset with Gymnasium 1.x's
final observation and final info, outcomes, and Gymnasium's vector
wrappers on top."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import heterodox
from heterodox import Game, Outcome, VecEnv

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def action_of(env, i, move):
    return env.legal_actions(i)[env.legal_moves(i).index(move)]


def test_is_a_vector_env_with_spaces():
    env = VecEnv("chess", 3)
    assert isinstance(env, VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.num_envs == 3
    shape = env.observation_shape
    assert env.single_observation_space == gymnasium.spaces.Box(0.0, 1.0, shape, np.float32)
    assert env.observation_space.shape == (3, *shape)
    assert env.single_action_space.n == 4672
    assert env.action_space.nvec.tolist() == [4672] * 3
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    actions = env.action_space.sample()
    assert actions.dtype == np.int64
    for i in range(3):
        assert actions[i] in env.legal_actions(i)
        masked = env.action_space.sample(mask=info["action_mask"])
        assert masked[i] in env.legal_actions(i)
    env.close()
    assert env.closed


def test_constructor_seed_and_reset_seed_start_the_same_games():
    def start(env, **kwargs):
        env.reset(**kwargs)
        return [env.fen(i) for i in range(env.num_envs)]

    a = start(VecEnv("traitor", 4, seed=7, selection="random"))
    b = start(VecEnv("traitor", 4, seed=1, selection="random"), seed=7)
    assert a == b
    assert len(set(a)) == 4  # random set-ups differ between envs


def test_reset_with_a_list_of_seeds_and_options():
    env = VecEnv("traitor", 2, selection="random")
    first = env.reset(seed=[3, None])[0]
    again = env.reset(seed=[3, None])[0]
    np.testing.assert_array_equal(first, again)
    other = env.reset(seed=[4, None])[0]
    assert not np.array_equal(first, other)
    with pytest.raises(ValueError, match="seed must be an int or a list of one seed per env \\(2\\), not 3 seeds"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="unknown reset option 'level' \\(valid options: fens, reset_mask\\)"):
        env.reset(options={"level": 1})


def test_same_step_autoreset_gives_final_obs_and_info():
    env = VecEnv("chess", 2, seed=0)
    obs, _ = env.reset()
    other = env.legal_actions(1)[0]
    for move in FOOLS_MATE[:-1]:
        _, _, _, _, info = env.step(np.array([action_of(env, 0, move), other], dtype=np.int64))
        assert "final_obs" not in info and "outcome" not in info
        other = env.legal_actions(1)[0]
    before = Game("chess")
    for move in FOOLS_MATE[:-1]:
        before.play(move)
    obs, rewards, terminated, truncated, info = env.step(
        np.array([action_of(env, 0, "d8h4"), other], dtype=np.int64)
    )
    assert terminated.tolist() == [True, False] and rewards.tolist() == [1.0, 0.0]
    assert info["_final_obs"].tolist() == [True, False]
    assert info["final_obs"][1] is None
    mated = Game("chess")
    for move in FOOLS_MATE:
        mated.play(move)
    np.testing.assert_array_equal(info["final_obs"][0], mated.observation())
    assert info["_final_info"].tolist() == [True, False]
    assert info["final_info"]["outcome"][0] == Outcome("black", "checkmate")
    assert info["final_info"]["fen"][0] == mated.fen()
    assert info["final_info"]["current_player"][0] == 0
    assert info["outcome"].tolist() == [Outcome("black", "checkmate"), None]
    assert info["_outcome"].tolist() == [True, False]
    np.testing.assert_array_equal(obs[0], Game("chess").observation())
    assert env.fen(0) == Game("chess").fen()


def test_outcome_without_auto_reset():
    env = VecEnv("chess", 1, auto_reset=False)
    env.reset()
    for move in FOOLS_MATE:
        _, _, terminated, _, info = env.step(np.array([action_of(env, 0, move)], dtype=np.int64))
    assert terminated.tolist() == [True]
    assert info["outcome"].tolist() == [Outcome("black", "checkmate")]
    assert "final_obs" not in info
    assert env.last_outcome(0) == Outcome("black", "checkmate")


def test_truncation_has_final_obs_but_no_outcome():
    env = VecEnv("chess", 1, max_plies=1)
    env.reset()
    _, _, terminated, truncated, info = env.step(env.action_space.sample())
    assert (terminated.tolist(), truncated.tolist()) == ([False], [True])
    assert info["outcome"].tolist() == [None] and info["_outcome"].tolist() == [False]
    assert info["final_obs"][0].shape == env.observation_shape
    assert info["final_info"]["outcome"][0] is None


def test_record_episode_statistics():
    env = RecordEpisodeStatistics(VecEnv("chess", 4, seed=1, max_plies=10), buffer_length=100)
    env.reset(seed=1)
    env.action_space.seed(1)
    episodes = 0
    for _ in range(25):
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        if np.any(terminated | truncated):
            done = info["_episode"]
            assert np.all(info["episode"]["l"][done] <= 10)
            episodes += int(done.sum())
    assert episodes == len(env.length_queue) >= 8
    assert list(env.length_queue)[:4] == [10, 10, 10, 10]


def test_other_vector_wrappers():
    from gymnasium.wrappers.vector import ClipReward, DtypeObservation, NormalizeObservation

    env = ClipReward(
        DtypeObservation(NormalizeObservation(VecEnv("poison", 2, autoreset_mode="NextStep")), np.float64),
        0.0,
        0.5,
    )
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float64 and obs.shape == (2, *env.unwrapped.observation_shape)
    for _ in range(5):
        obs, rewards, _, _, info = env.step(env.unwrapped.action_space.sample(mask=info["action_mask"]))
    assert rewards.tolist() == [0.0, 0.0]
    # Wrappers written for next-step auto-reset refuse the same-step mode.
    with pytest.raises(ValueError, match="Expected autoreset_mode to be NEXT_STEP or DISABLED"):
        NormalizeObservation(VecEnv("poison", 2))


def test_next_step_autoreset():
    env = VecEnv("chess", 2, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    start, _ = env.reset(seed=0)
    for move in FOOLS_MATE:
        obs, rewards, terminated, truncated, info = env.step(
            np.array([action_of(env, 0, move), env.legal_actions(1)[0]], dtype=np.int64)
        )
    mated = Game()
    for move in FOOLS_MATE:
        mated.play(move)
    assert terminated.tolist() == [True, False] and rewards.tolist() == [1.0, 0.0]
    np.testing.assert_array_equal(obs[0], mated.observation())  # the final observation
    assert info["outcome"][0] == Outcome("black", "checkmate") and "final_obs" not in info
    assert info["action_mask"][0].sum() == 0
    # The next step restarts env 0 (its action ignored) and plays env 1.
    obs, rewards, terminated, truncated, info = env.step(
        np.array([-1, env.legal_actions(1)[0]], dtype=np.int64)
    )
    assert terminated.tolist() == [False, False] and rewards.tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(obs[0], start[0])
    assert env.plies(0) == 0 and env.plies(1) == 5
    wrapped = RecordEpisodeStatistics(VecEnv("chess", 2, max_plies=3, autoreset_mode="NextStep"))
    wrapped.reset(seed=0)
    wrapped.action_space.seed(0)
    for _ in range(8):
        wrapped.step(wrapped.action_space.sample())
    assert list(wrapped.length_queue) == [3, 3, 3, 3]


def test_disabled_autoreset_with_a_reset_mask():
    env = VecEnv("chess", 2, auto_reset=False)
    assert env.metadata["autoreset_mode"] is AutoresetMode.DISABLED
    env.reset()
    for move in FOOLS_MATE:
        env.step(np.array([action_of(env, 0, move), env.legal_actions(1)[0]], dtype=np.int64))
    obs, info = env.reset(options={"reset_mask": np.array([True, False])})
    assert env.plies(0) == 0 and env.plies(1) == 4
    assert info["action_mask"][0].sum() == 20
    with pytest.raises(ValueError, match="reset_mask must have shape \\(2,\\) \\(one per env\\), not \\(3,\\)"):
        env.reset(options={"reset_mask": np.ones(3, dtype=np.bool_)})
    with pytest.raises(ValueError, match="autoreset_mode must be 'NextStep', 'SameStep' or 'Disabled'"):
        VecEnv("chess", 1, autoreset_mode="sometimes")


def test_make_vec_through_the_registry():
    env = gymnasium.make_vec("heterodox/poison-v0", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env, VecEnv) and env.num_envs == 3 and env.variant == "poison"


def test_render_and_svg():
    env = VecEnv("chess", 2, render_mode="ansi")
    env.reset()
    assert env.render() == (Game().render(), Game().render())
    assert env._repr_svg_() == Game()._repr_svg_()
    assert VecEnv("chess", 1).render() is None
    assert env.metadata["render_modes"] == ["ansi", "svg", "rgb_array"]
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi', 'svg' or 'rgb_array'"):
        VecEnv("chess", 1, render_mode="human")


def test_render_rgb_array_gives_one_frame_per_env():
    env = VecEnv("chess", 2, render_mode="rgb_array")
    env.reset()
    env.step([action_of(env, 0, "e2e4"), action_of(env, 1, "d2d4")])
    frames = env.render()
    assert isinstance(frames, tuple) and len(frames) == 2
    for frame, move in zip(frames, ["e4", "d4"]):
        game = Game()
        game.play(move)
        assert frame.shape == (384, 576, 3) and frame.dtype == np.uint8
        assert frame.tobytes() == game.render_rgb().tobytes()
    assert env.render_rgb(1).tobytes() == frames[1].tobytes()


@pytest.mark.parametrize(
    "actions",
    [
        lambda a: np.array(a, dtype=np.int32),
        lambda a: np.array(a, dtype=np.uint8),
        list,
        tuple,
    ],
)
def test_step_takes_integer_arrays_and_lists(actions):
    env = VecEnv("chess", 2, autoreset_mode="NextStep")
    env.reset()
    moves = [action_of(env, 0, "e2e4"), action_of(env, 1, "d2d4")]
    env.step(actions(moves))
    assert [env.plies(i) for i in range(2)] == [1, 1]
    with pytest.raises(TypeError, match="actions must be integers, not dtype float64"):
        env.step(np.array(moves, dtype=np.float64))
    with pytest.raises(TypeError, match="not dtype bool"):
        env.step(np.ones(2, dtype=bool))
    with pytest.raises(ValueError, match="not \\(3,\\)"):
        env.step(np.zeros(3, dtype=np.int64))
    assert [env.plies(i) for i in range(2)] == [1, 1]
    assert repr(env).startswith("heterodox.VecEnv(variant='chess', num_envs=2")


@pytest.mark.parametrize("variant", heterodox.variants())
def test_observations_stay_in_the_space_over_random_games(variant):
    env = VecEnv(variant, 8, seed=2, max_plies=80, history=2)
    obs, _ = env.reset()
    env.action_space.seed(2)
    for _ in range(160):
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, info = env.step(env.action_space.sample())
        for final in info.get("final_obs", []):
            assert final is None or env.single_observation_space.contains(final)
