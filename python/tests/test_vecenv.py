"""heterodox.VecEnv: shapes and dtypes, masks equal to the legal moves,
auto-reset, determinism, fresh arrays, and every error."""

import numpy as np
import pytest

import heterodox
from heterodox import Game, VecEnv
from heterodox.spaces import random_legal_actions

CHESS_ACTIONS = 8 * 8 * 73  # AlphaZero: 73 move planes per from-square


def test_random_legal_actions_draws_legal_actions_from_the_seed():
    masks = np.zeros((3, 5), dtype=bool)
    masks[0, 4] = True  # one legal action: always it
    masks[1, [0, 2]] = True
    masks[2, :] = True
    first = random_legal_actions(masks, np.random.default_rng(7))
    assert first.dtype == np.int64 and first[0] == 4
    assert masks[np.arange(3), first].all()
    assert (random_legal_actions(masks, np.random.default_rng(7)) == first).all()
    draws = np.stack([random_legal_actions(masks, np.random.default_rng(s)) for s in range(200)])
    assert set(draws[:, 1]) == {0, 2} and set(draws[:, 2]) == {0, 1, 2, 3, 4}
    masks[1, :] = False
    with pytest.raises(ValueError, match="row 1 of the masks has no legal action"):
        random_legal_actions(masks, np.random.default_rng(7))


def test_random_legal_actions_reads_an_int8_mask_as_bool_without_a_copy():
    masks = np.zeros((2, 4), dtype=np.int8)
    masks[0, 3] = 1
    masks[1, [1, 2]] = 1
    view = heterodox.spaces.as_bool(masks)
    assert view.dtype == np.bool_ and np.shares_memory(view, masks)
    assert (random_legal_actions(masks, np.random.default_rng(3))
            == random_legal_actions(masks.astype(bool), np.random.default_rng(3))).all()


def test_random_actions_are_drawn_in_rust_from_the_legal_lists():
    env = VecEnv("chess", 4, seed=0, auto_reset=False)
    _, info = env.reset()
    actions = env.random_actions(11)
    assert actions.dtype == np.int64 and actions.shape == (4,)
    assert info["action_mask"][np.arange(4), actions].all()
    assert (env.random_actions(11) == actions).all()
    draws = np.stack([env.random_actions(seed) for seed in range(100)])
    assert len(set(draws[:, 0])) == 20  # every legal first move, from 100 seeds
    # A finished game that is not reset has no legal action: -1.
    mate = VecEnv("chess", 1, auto_reset=False,
                  fens=["r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"])
    mate.reset()
    assert mate.random_actions(0).tolist() == [-1]


def test_chess_shapes_and_dtypes():
    env = VecEnv("chess", 4)
    channels = len(env.channel_names)
    assert env.variant == "chess"
    assert env.num_envs == len(env) == 4
    assert env.num_actions == CHESS_ACTIONS
    assert env.observation_shape == (channels, 8, 8)
    assert env.channel_names[-2:] == ["repetition_1", "repetition_2"]
    assert env.auto_reset is True
    assert env.max_plies == 512
    obs, info = env.reset()
    assert obs.shape == (4, channels, 8, 8) and obs.dtype == np.float32
    assert sorted(info) == ["action_mask", "current_player"]
    assert info["action_mask"].shape == (4, CHESS_ACTIONS)
    assert info["action_mask"].dtype == np.int8
    assert info["current_player"].dtype == np.uint8
    assert info["current_player"].tolist() == [0, 0, 0, 0]
    obs, rewards, terminated, truncated, info = env.step(random_legal_actions(info["action_mask"], np.random.default_rng(0)))
    assert obs.shape == (4, channels, 8, 8) and obs.dtype == np.float32
    assert rewards.dtype == np.float32 and rewards.tolist() == [0.0] * 4
    assert terminated.dtype == np.bool_ and terminated.tolist() == [False] * 4
    assert truncated.dtype == np.bool_ and truncated.tolist() == [False] * 4
    assert info["current_player"].tolist() == [1, 1, 1, 1]


def test_history_stacks_planes():
    base = VecEnv("chess", 1)
    env = VecEnv("chess", 1, history=3)
    c = len(base.channel_names) - 2
    assert env.observation_shape == (3 * c + 2, 8, 8)
    assert env.channel_names[c] == "t-1:" + base.channel_names[0]


def test_start_masks_are_the_20_legal_moves():
    env = VecEnv("chess", 3)
    _, info = env.reset()
    masks = info["action_mask"]
    assert masks.sum(axis=1).tolist() == [20, 20, 20]
    for i in range(3):
        assert np.flatnonzero(masks[i]).tolist() == sorted(env.legal_actions(i))
        assert sorted(env.legal_moves(i)) == sorted(Game("chess").legal_moves())
        assert len(set(env.legal_actions(i))) == 20


@pytest.mark.parametrize("variant", heterodox.variants())
def test_random_playouts_masks_rewards(variant):
    """Masks equal the legal moves every step; rewards are +-1 or 0 when a
    game ends by the rules and 0 otherwise; auto-reset starts a new game."""
    env = VecEnv(variant, 8, seed=3, max_plies=120)
    rng = np.random.default_rng(1)
    _, info = env.reset()
    ended = 0
    for _ in range(300):
        masks = info["action_mask"]
        for i in range(env.num_envs):
            assert np.flatnonzero(masks[i]).tolist() == sorted(env.legal_actions(i))
            assert len(env.legal_moves(i)) == len(env.legal_actions(i)) > 0
        _, rewards, terminated, truncated, info = env.step(random_legal_actions(masks, rng))
        assert not np.any(terminated & truncated)
        assert np.all(rewards[~terminated] == 0.0)
        assert np.all(np.isin(rewards[terminated], [-1.0, 0.0, 1.0]))
        for i in np.flatnonzero(terminated | truncated):
            assert env.plies(int(i)) == 0
        ended += int(np.count_nonzero(terminated | truncated))
    assert ended >= 8  # every env hit the ply cap at least once


def test_truncation_at_the_ply_cap_and_auto_reset():
    env = VecEnv("chess", 2, max_plies=4)
    start_obs, info = env.reset()
    rng = np.random.default_rng(5)
    for step in range(4):
        obs, rewards, terminated, truncated, info = env.step(random_legal_actions(info["action_mask"], rng))
    assert truncated.tolist() == [True, True]
    assert terminated.tolist() == [False, False]
    assert rewards.tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(obs, start_obs)  # the new games' first observation
    assert env.fen(0) == Game("chess").fen()


def test_fools_mate_rewards_the_mover_and_stops_without_auto_reset():
    env = VecEnv("chess", 1, auto_reset=False)
    _, info = env.reset()
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        action = env.legal_actions(0)[env.legal_moves(0).index(move)]
        _, rewards, terminated, truncated, info = env.step(np.array([action], dtype=np.int64))
    assert rewards.tolist() == [1.0]  # black, who mated
    assert terminated.tolist() == [True] and truncated.tolist() == [False]
    assert info["action_mask"].sum() == 0
    assert env.legal_moves(0) == []


@pytest.mark.parametrize("variant", heterodox.variants())
def test_shapes_and_dtypes_of_every_variant(variant):
    env = VecEnv(variant, 3)
    obs, info = env.reset()
    assert obs.shape == (3, *env.observation_shape) and obs.dtype == np.float32
    assert env.observation_shape == (len(env.channel_names), 8, 8)
    assert info["action_mask"].shape == (3, env.num_actions)
    assert info["action_mask"].dtype == np.int8
    assert set(np.unique(info["action_mask"]).tolist()) == {0, 1}
    assert np.all(np.isfinite(obs))
    for i in range(3):
        assert np.flatnonzero(info["action_mask"][i]).tolist() == sorted(env.legal_actions(i))


@pytest.mark.parametrize("variant", heterodox.variants())
def test_same_seed_same_games(variant):
    def run(seed):
        env = VecEnv(variant, 16, seed=seed, max_plies=50)
        rng = np.random.default_rng(11)
        _, info = env.reset()
        trace = []
        for _ in range(120):
            obs, rewards, terminated, truncated, info = env.step(random_legal_actions(info["action_mask"], rng))
            trace.append((obs.sum(), rewards.tolist(), terminated.tolist(), truncated.tolist()))
        return trace, [env.fen(i) for i in range(16)]

    assert run(7) == run(7)


def test_reset_with_seed_replays():
    env = VecEnv("chess", 4, seed=1)
    first, _ = env.reset(seed=9)
    again, _ = env.reset(seed=9)
    np.testing.assert_array_equal(first, again)


def test_arrays_are_fresh_every_call():
    env = VecEnv("chess", 2)
    obs, info = env.reset()
    kept_obs, kept_mask = obs.copy(), info["action_mask"].copy()
    env.step(random_legal_actions(info["action_mask"], np.random.default_rng(0)))
    np.testing.assert_array_equal(obs, kept_obs)
    np.testing.assert_array_equal(info["action_mask"], kept_mask)


def test_illegal_action_names_action_and_position_and_changes_nothing():
    env = VecEnv("chess", 2)
    _, info = env.reset()
    legal = env.legal_actions(0)[0]
    before = [env.fen(0), env.fen(1)]
    with pytest.raises(ValueError) as error:
        env.step(np.array([legal, 0], dtype=np.int64))
    message = str(error.value)
    assert "illegal action 0 in env 1" in message
    assert Game("chess").fen() in message
    assert [env.fen(0), env.fen(1)] == before
    assert env.plies(0) == 0
    for bad in (-1, CHESS_ACTIONS, 2**40):
        with pytest.raises(ValueError, match=f"illegal action {bad} in env 0"):
            env.step(np.array([bad, legal], dtype=np.int64))
    env.step(np.array([legal, legal], dtype=np.int64))
    assert env.plies(0) == env.plies(1) == 1


INTEGER_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def e4_and_d4(env):
    """The action indices of e2e4 (env 0) and d2d4 (envs 1 and 2), which
    fit every integer dtype."""
    e4, d4 = (env.legal_actions(0)[env.legal_moves(0).index(m)] for m in ("e2e4", "d2d4"))
    assert max(e4, d4) < 127
    return [e4, d4, d4]


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_step_takes_every_integer_dtype(dtype):
    env = VecEnv("chess", 3)
    env.reset()
    actions = e4_and_d4(env)
    env.step(np.array(actions, dtype=dtype))
    assert [env.fen(i).split()[0] for i in range(3)] == [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR",
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR",
    ]


@pytest.mark.parametrize("container", [list, tuple])
def test_step_takes_a_list_or_tuple_of_ints(container):
    env = VecEnv("chess", 3)
    env.reset()
    actions = e4_and_d4(env)
    expected = VecEnv("chess", 3)
    expected.reset()
    want = expected.step(np.array(actions, dtype=np.int64))
    got = env.step(container(actions))
    for a, b in zip(want[:4], got[:4]):
        np.testing.assert_array_equal(a, b)
    # numpy integer scalars count as ints too.
    got = env.step(container(np.int16(a) for a in env_actions(env)))
    assert [env.plies(i) for i in range(3)] == [2, 2, 2]


def env_actions(env):
    return [env.legal_actions(i)[0] for i in range(env.num_envs)]


def test_same_actions_in_any_dtype_give_the_same_step():
    results = []
    for dtype in INTEGER_DTYPES:
        env = VecEnv("chess", 3)
        env.reset()
        out = env.step(np.array(e4_and_d4(env), dtype=dtype))
        results.append(out)
    for out in results[1:]:
        for a, b in zip(results[0][:4], out[:4]):
            np.testing.assert_array_equal(a, b)


def bad_actions_leave_the_games(env, call, error, message):
    """`call()` raises `error` matching `message`; every env's position,
    plies and the next step's result are as before."""
    before = [(env.fen(i), env.plies(i)) for i in range(env.num_envs)]
    with pytest.raises(error, match=message):
        call()
    assert [(env.fen(i), env.plies(i)) for i in range(env.num_envs)] == before


def test_bad_actions_are_clear_errors_and_change_nothing():
    env = VecEnv("chess", 3)
    env.reset()
    legal = e4_and_d4(env)
    cases = [
        (np.zeros(3), TypeError, "actions must be integers, not dtype float64"),
        (np.zeros(3, dtype=np.float32), TypeError, "not dtype float32"),
        (np.ones(3, dtype=np.bool_), TypeError, "actions must be integers, not dtype bool"),
        (np.array(["a", "b", "c"]), TypeError, "not dtype <U1"),
        (np.zeros(2, dtype=np.int64), ValueError, r"shape \(3,\) \(one per env\), not \(2,\)"),
        (np.zeros((3, 1), dtype=np.int32), ValueError, r"not \(3, 1\)"),
        (np.array(0), ValueError, r"not \(\)"),
        (np.int64(0), TypeError, "a list or a tuple of ints with one entry per env \\(3\\), not int64"),
        (np.zeros(3, dtype=">i8"), TypeError, "not in the machine's byte order"),
        ([0, 0], ValueError, "actions must have 3 entries \\(one per env\\), not 2"),
        ((0, 0, 0, 0), ValueError, "not 4"),
        ([0, 1.0, 0], TypeError, r"actions\[1\] must be an int, not float"),
        ([True, 0, 0], TypeError, r"actions\[0\] must be an int, not bool"),
        ([0, 0, np.True_], TypeError, r"actions\[2\] must be an int, not bool"),
        ([0, "1", 0], TypeError, r"actions\[1\] must be an int, not str"),
        ([0, [1], 0], TypeError, r"actions\[1\] must be an int, not list"),
        (None, TypeError, "actions must be a numpy array of integers .* not NoneType"),
        (7, TypeError, "not int"),
        ({0: 1}, TypeError, "not dict"),
        (np.array([legal[0], 2**64 - 1, 0], dtype=np.uint64), heterodox.IllegalMoveError,
         "illegal action 18446744073709551615 in env 1: action indices run 0..4672"),
        ([legal[0], legal[1], 2**70], heterodox.IllegalMoveError,
         f"illegal action {2**70} in env 2: action indices run 0..4672"),
        ([legal[0], -1, legal[2]], heterodox.IllegalMoveError, "illegal action -1 in env 1"),
        (np.array([legal[0], legal[1], 200], dtype=np.uint8), heterodox.IllegalMoveError,
         "illegal action 200 in env 2"),
    ]
    for actions, error, message in cases:
        bad_actions_leave_the_games(env, lambda: env.step(actions), error, message)
    # ... and the env steps on as if nothing had happened.
    env.step(legal)
    assert [env.plies(i) for i in range(3)] == [1, 1, 1]


def test_a_bad_step_does_not_end_the_constructors_games():
    """reset() after construction starts the constructor's games (a step
    moves on to the next games of the seed sequence); a failed step in
    between changes nothing, that included."""

    def fens(env):
        return [env.fen(i) for i in range(env.num_envs)]

    def make():
        return VecEnv("traitor", 4, seed=4, selection="random")

    constructed = fens(make())
    stepped = make()
    stepped.step(env_actions(stepped))
    stepped.reset()
    assert fens(stepped) != constructed
    env = make()
    with pytest.raises(TypeError):
        env.step(np.zeros(4))
    with pytest.raises(heterodox.IllegalMoveError):
        env.step([-1, -1, -1, -1])
    env.reset()
    assert fens(env) == constructed


def test_strided_views_are_read_correctly():
    env = VecEnv("chess", 3)
    for dtype in (np.int64, np.uint16):
        actions = np.zeros(6, dtype=dtype)
        actions[::2] = env_actions(env)
        env.step(actions[::2])
    assert [env.plies(i) for i in range(3)] == [2, 2, 2]


def test_construction_errors():
    with pytest.raises(ValueError, match="unknown variant 'chss' \\(valid variants: chess, poison, hostage, madscientist, traitor\\)"):
        VecEnv("chss", 2)
    with pytest.raises(ValueError, match="chess has no rule option 'mode' \\(valid options: none\\)"):
        VecEnv("chess", 2, mode="defector")
    with pytest.raises(ValueError, match="num_envs must be an int from 1 to 1048576, not 0"):
        VecEnv("chess", 0)
    with pytest.raises(ValueError, match="history must be an int from 1 to 256, not 0"):
        VecEnv("chess", 1, history=0)
    with pytest.raises(ValueError, match="max_plies must be an int from 1 to 4294967295, not 0"):
        VecEnv("chess", 1, max_plies=0)
    env = VecEnv("chess", 2)
    with pytest.raises(IndexError, match="env 2 is out of range: there are 2 envs"):
        env.fen(2)


def test_render_and_repr():
    env = VecEnv("chess", 2)
    assert env.render(1) == Game("chess").render()
    assert env.render_svg(0) == Game("chess")._repr_svg_()
    assert repr(env).startswith("heterodox.VecEnv(variant='chess', num_envs=2, num_actions=4672")


def test_copy_false_returns_read_only_views_of_the_env_buffers():
    copied = VecEnv("chess", 4, seed=2)
    viewed = VecEnv("chess", 4, seed=2, copy=False)
    assert (copied.copy, viewed.copy) == (True, False)
    rng = np.random.default_rng(3)
    obs_c, info_c = copied.reset()
    obs_v, info_v = viewed.reset()
    first_obs = obs_v
    assert not obs_v.flags.writeable and not info_v["action_mask"].flags.writeable
    with pytest.raises(ValueError):
        obs_v[0, 0, 0, 0] = 1.0
    for _ in range(30):
        actions = random_legal_actions(info_c["action_mask"], rng)
        out_c = copied.step(actions)
        out_v = viewed.step(actions)
        for a, b in zip(out_c[:4], out_v[:4]):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(out_c[4]["action_mask"], out_v[4]["action_mask"])
        info_c = out_c[4]
        # The same memory every call, showing the latest step.
        assert np.shares_memory(out_v[0], first_obs)
    np.testing.assert_array_equal(first_obs, out_c[0])
    # The views keep the env's buffers alive.
    del viewed
    np.testing.assert_array_equal(first_obs, out_c[0])
