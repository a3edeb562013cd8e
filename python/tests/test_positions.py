"""Starting from positions and encoding any Game: make(fen=...),
VecEnv(fens=...) and reset to given positions; Game.observation equal to
what the envs give; action_index / action_from_index /
legal_action_indices consistent with the masks."""

import numpy as np
import pytest

import heterodox
from heterodox import Game, IllegalMoveError, NotationError, PositionError, VecEnv
from support import random_playout

VARIANTS = heterodox.variants()
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"


def test_make_from_a_position_and_reset_to_another():
    env = heterodox.make("chess", fen=MATE_IN_ONE)
    _, info = env.reset()
    assert env.fen() == MATE_IN_ONE
    _, reward, terminated, _, info = env.step(Game("chess", MATE_IN_ONE).action_index("Rd8#"))
    assert (reward, terminated) == (1.0, True)
    env.reset(options={"fen": Game().fen()})
    assert env.fen() == Game().fen()
    with pytest.raises(PositionError):
        heterodox.make("chess", fen="8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(ValueError, match="unknown reset options \\['level'\\]"):
        env.reset(options={"level": 2})


def test_vecenv_from_positions_restarts_there():
    env = VecEnv("chess", 2, fens=[MATE_IN_ONE, Game().fen()])
    env.reset()
    assert [env.fen(0), env.fen(1)] == [MATE_IN_ONE, Game().fen()]
    mate = Game("chess", MATE_IN_ONE).action_index("Rd8#")
    _, rewards, terminated, _, info = env.step(np.array([mate, env.legal_actions(1)[0]]))
    assert terminated.tolist() == [True, False] and rewards.tolist() == [1.0, 0.0]
    assert env.fen(0) == MATE_IN_ONE  # auto-reset starts from the position again
    env.reset(options={"fens": Game().fen()})
    assert [env.fen(0), env.fen(1)] == [Game().fen()] * 2
    env.reset(options={"fens": None})
    with pytest.raises(ValueError, match="fens must hold one position string or one per env \\(2\\), not 3"):
        VecEnv("chess", 2, fens=[MATE_IN_ONE] * 3)
    with pytest.raises(PositionError, match="invalid start position in fens"):
        VecEnv("chess", 2, fens=["nonsense"])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("history", [1, 3])
def test_game_observation_equals_the_vecenv_observation(variant, history):
    env = VecEnv(variant, 1, history=history, auto_reset=False)
    obs, _ = env.reset(seed=4)
    game = Game(variant, env.fen(0))
    rng = np.random.default_rng(len(variant) + history)
    for _ in range(40):
        np.testing.assert_array_equal(obs[0], game.observation(history=history))
        legal = game.legal_action_indices()
        if not legal:
            break
        assert game.legal_action_indices() == env.legal_actions(0)
        index = legal[rng.integers(len(legal))]
        game.play_index(index)
        obs, *_ = env.step(np.array([index], dtype=np.int64))
    assert game.channel_names(history) == env.channel_names


@pytest.mark.parametrize("variant", VARIANTS)
def test_action_index_round_trips(variant):
    game = Game(variant)
    rng = np.random.default_rng(9)
    for _ in range(30):
        indices = game.legal_action_indices()
        if not indices:
            break
        assert len(indices) == len(set(indices)) == len(game.legal_moves())
        for move, index in zip(game.legal_moves(), indices):
            assert game.action_index(move) == index
            assert game.action_from_index(index) == move
        random_playout(game, rng, 1)


def test_action_index_errors_and_observer():
    game = Game()
    assert game.action_index("e4") == game.action_index("e2e4") == 76
    assert game.num_actions == 4672
    with pytest.raises(IllegalMoveError):
        game.action_index("e2e5")
    with pytest.raises(NotationError):
        game.action_index("xyz")
    with pytest.raises(IllegalMoveError, match="no legal action has index 0 in position"):
        game.action_from_index(0)
    with pytest.raises(ValueError, match="index must be an int from 0 to 4671, not 4672"):
        game.action_from_index(4672)
    with pytest.raises(ValueError, match="index must be an int from 0 to 4671, not -1"):
        game.play_index(-1)
    game.play("e4")
    white, black = game.observation("white"), game.observation("black")
    assert white.shape == (len(game.channel_names()), 8, 8) and white.dtype == np.float32
    assert not np.array_equal(white, black)
    np.testing.assert_array_equal(game.observation(), black)
    with pytest.raises(ValueError, match="history must be an int from 1 to 256, not 0"):
        game.observation(history=0)
