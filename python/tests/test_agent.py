"""heterodox.agent: every agent string of the command line, in one line.

Exact answers: the grammar's dicts and messages, mates in one found by
every searching kind that probes, the same seed giving the same moves, the
batched form giving one legal move per game, and a network refusing a
game of another variant.
"""

import numpy as np
import pytest

import heterodox as hx

# 1. e4 e5 2. Bc4 Nc6 3. Qf3 Nd4: White mates with Qxf7.
MATE_IN_ONE = "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 3 4"


def test_parse_agent_reads_the_command_line_grammar():
    parse = hx.parse_agent
    assert parse("zoo:hostage@64") == {
        "spec": "zoo:hostage@64",
        "kind": "zoo",
        "network": "hostage",
        "simulations": 64,
        "root_policy": "gumbel",
        "immediate_wins": True,
        "avoid_losses_in_one": True,
        "quiescence_weight": 0.0,
    }
    assert parse("net:runs/h1@v2/last@200/puct/nowins/quiescence=0.25") == {
        "spec": "net:runs/h1@v2/last@200/puct/nowins/quiescence=0.25",
        "kind": "net",
        "network": "runs/h1@v2/last",
        "simulations": 200,
        "root_policy": "puct",
        "immediate_wins": False,
        "avoid_losses_in_one": False,
        "quiescence_weight": 0.25,
    }
    assert parse("ab@7/tuned") == {"spec": "ab@7/classical", "kind": "engine", "network": None}
    assert parse("ab@7") == {"spec": "ab@7", "kind": "engine", "network": None}
    assert parse("rollout") == {
        "spec": "rollout@64",
        "kind": "rollout",
        "network": None,
        "simulations": 64,
        "root_policy": "gumbel",
        "immediate_wins": False,
        "avoid_losses_in_one": False,
        "quiescence_weight": 0.0,
    }


@pytest.mark.parametrize(
    "spec, reason",
    [
        ("ab@0", "the engine's budget after '@' must be a depth from 1 to 64, MSms (1 to 3600000 ms) or NODESn (1 to 2^40 nodes)"),
        ("uniform@0", "the simulations after '@' must be a number from 1 to 1048576"),
        ("alphabeta", "unknown kind of agent"),
        ("greedy@3", "the greedy player has no budget"),
        ("zoo:../x@64", "zoo: needs the name of a shipped agent (letters, digits, '-' and '_'; see agents/)"),
    ],
)
def test_a_bad_agent_string_is_an_agent_error_saying_why(spec, reason):
    with pytest.raises(hx.AgentError) as info:
        hx.agent(spec)
    assert str(info.value).startswith(f"bad agent '{spec}': {reason} (agents: random, greedy, ab@DEPTH")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec", ["ab@2", "ab@2000n", "zoo:chess@8"])
def test_searching_agents_find_the_mate_in_one(spec):
    game = hx.Game("chess", MATE_IN_ONE)
    move = hx.agent(spec).move(game)
    assert move == "f3f7"
    game.play(move)
    assert game.outcome() == hx.Outcome("white", "checkmate")


def test_the_engine_agent_plays_the_engine_s_move():
    game = hx.Game("hostage")
    for move in ["e4", "e5", "Nf3"]:
        game.play(move)
    engine = hx.Engine("hostage").search(game, depth=4)
    assert hx.agent("ab@4").move(game) == engine.move


@pytest.mark.parametrize("spec", ["random", "greedy", "ab@2", "uniform@8", "rollout@8"])
def test_agents_without_a_network_are_rust_agents_and_repeat_with_their_seed(spec):
    agent = hx.agent(spec, seed=7)
    assert isinstance(agent, hx.Agent)
    assert agent.spec == spec and agent.seed == 7
    assert repr(agent) == f"Agent('{spec}', seed=7)"
    game = hx.Game("poison")
    played = []
    for _ in range(6):
        move = agent.move(game)
        assert move in game.legal_moves()
        played.append(game.play(move))
    again = hx.agent(spec, seed=7)
    replay = hx.Game("poison")
    for move in played:
        assert again.move(replay) == move
        replay.play(move)


def test_moves_gives_one_move_per_game_as_move_does():
    agent = hx.agent("ab@2")
    games = [hx.Game("hostage"), hx.Game("chess", MATE_IN_ONE), hx.Game("traitor")]
    moves = agent.moves(games)
    assert moves == [agent.move(game) for game in games]
    assert moves[1] == "f3f7"
    for game, move in zip(games, moves):
        assert move in game.legal_moves()


def _games_of(variant, openings):
    games = []
    for opening in openings:
        game = hx.Game(variant)
        for move in opening:
            game.play(move)
        games.append(game)
    return games


BATCH_OPENINGS = [[], ["e4"], ["d4", "d5"], ["Nf3", "c5", "c4"], ["e4", "e5", "Nf3", "Nc6"]]


@pytest.mark.parametrize(
    "spec",
    ["ab@3", "ab@3000n", "ab@3000n/classical", "ab@2000n/hand/vary=6:30", "greedy", "random", "uniform@16", "rollout@16"],
)
@pytest.mark.parametrize("variant", ["chess", "hostage"])
def test_moves_plays_exactly_what_move_plays_on_each_game(spec, variant):
    """The batch's moves are the single calls', game by game, in any order
    and after any earlier calls of the same Agent: every move is thought
    afresh (an engine from an empty table), so no state leaks from one game
    or call into another."""
    games = _games_of(variant, BATCH_OPENINGS)
    agent = hx.agent(spec, seed=5)
    for _ in range(4):
        alone = [hx.agent(spec, seed=5).move(game) for game in games]
        assert [agent.move(game) for game in games] == alone
        assert agent.moves(games) == alone
        assert agent.moves(games[::-1]) == alone[::-1]
        assert [agent.move(game) for game in reversed(games)] == alone[::-1]
        for game, move in zip(games, alone):
            game.play(move)


def test_before_the_fix_a_shared_table_changed_the_batch_s_moves():
    """The researcher's case: ab@3000n/classical on these chess games, one
    call each against one batch (a table shared across the batch used to
    make game 1's move g8f6 instead of b8c6)."""
    games = _games_of("chess", [[], ["e4"], ["d4", "d5"], ["Nf3", "c5", "c4"]])
    agent = hx.agent("ab@3000n/classical", seed=1)
    alone = [hx.agent("ab@3000n/classical", seed=1).move(game) for game in games]
    assert alone == ["b1c3", "b8c6", "g1f3", "b8c6"]
    assert agent.moves(games) == alone


def test_the_engine_s_variety_is_seeded_and_off_by_default():
    agent = hx.agent("ab@2000n/classical/vary=2:30", seed=0)
    assert agent.spec == "ab@2000n/classical/vary=2:30"
    assert hx.parse_agent("ab@2000n/tuned/vary=2:30")["spec"] == "ab@2000n/classical/vary=2:30"
    start = hx.Game("chess")
    drawn = [hx.agent("ab@2000n/classical/vary=2:30", seed=seed).move(start) for seed in range(12)]
    assert len(set(drawn)) > 1
    assert drawn == [hx.agent("ab@2000n/classical/vary=2:30", seed=seed).move(start) for seed in range(12)]
    plain = {hx.agent("ab@2000n/classical", seed=seed).move(start) for seed in range(12)}
    assert len(plain) == 1
    # Past its plies, the engine's own move.
    later = _games_of("chess", [["e4", "e5"]])[0]
    assert {hx.agent("ab@2000n/classical/vary=2:30", seed=seed).move(later) for seed in range(6)} == {
        hx.agent("ab@2000n/classical").move(later)
    }
    with pytest.raises(hx.AgentError, match=r"^bad agent 'ab@8/vary=0:30': the plies of /vary=PLIES:CP must be a number from 1 to 1000, not '0'"):
        hx.agent("ab@8/vary=0:30")


def test_the_duel_varies_the_engine_s_games_by_their_seed():
    """The duels' engine (heterodox.play, the arena) draws its varied moves
    from each game's seed: games from one start differ, and replay."""
    from heterodox._core import play_games

    def games(spec, seed):
        pgn = play_games("chess", [spec], 4, opening_plies=0, seed=seed, max_plies=6).pgn()
        return [line for line in pgn.split("\n") if line.startswith("1.")]

    assert len(set(games("ab@1000n/classical", 1))) == 1
    varied = games("ab@1000n/classical/vary=4:30", 1)
    assert len(set(varied)) > 1
    assert games("ab@1000n/classical/vary=4:30", 1) == varied


def test_a_finished_game_has_no_move():
    game = hx.Game("chess", MATE_IN_ONE)
    game.play("Qxf7#")
    with pytest.raises(hx.AgentError, match=r"^the game is over: there is no move to choose$"):
        hx.agent("greedy").move(game)
    with pytest.raises(hx.AgentError, match=r"^game 1 is over: there is no move to choose$"):
        hx.agent("greedy").moves([hx.Game("chess"), game])


def test_a_network_agent_searches_in_one_batch_and_refuses_other_games():
    agent = hx.agent("zoo:hostage@16", seed=1)
    assert isinstance(agent, hx.NetworkAgent)
    assert (agent.spec, agent.variant) == ("zoo:hostage@16", "hostage")
    games = [hx.Game("hostage") for _ in range(3)]
    games[1].play("e4")
    games[2].play("d4")
    games[2].play("d5")
    moves = agent.moves(games)
    assert len(moves) == 3
    for game, move in zip(games, moves):
        assert move in game.legal_moves()
    assert agent.moves(games) == moves
    assert hx.agent("zoo:hostage@16", seed=1).moves(games) == moves
    with pytest.raises(hx.AgentError, match=r"^agent 'zoo:hostage@16' plays hostage games; game 0 differs in its variant: 'chess', the network's 'hostage'$"):
        agent.move(hx.Game("chess"))
    with pytest.raises(TypeError, match=r"^games\[0\] must be a heterodox.Game, not str$"):
        agent.moves(["e4"])
    with pytest.raises(hx.AgentError, match=r"^agent 'zoo:hostage@16/beliefs': /beliefs needs the game's history"):
        hx.agent("zoo:hostage@16/beliefs").move(hx.Game("hostage"))
    with pytest.raises(hx.AgentError, match=r"^agent 'zoo:nosuch@64': no shipped agent 'nosuch'"):
        hx.agent("zoo:nosuch@64")
    with pytest.raises(hx.AgentError, match=r"searches with a network: make it with heterodox.agent"):
        hx.Agent("zoo:hostage@64")


def test_game_undo_moves_and_pgn():
    game = hx.Game("hostage")
    with pytest.raises(IndexError, match=r"^undo: no move has been played$"):
        game.undo()
    assert game.moves == []
    for move in ["e4", "d5", "exd5"]:
        game.play(move)
    assert game.moves == ["e2e4", "d7d5", "e4d5"]
    # The capture put a black pawn in White's prison; undo takes it out.
    assert game.prisons()["white"]["P"] == 1
    assert game.undo() == "e4d5"
    assert game.moves == ["e2e4", "d7d5"]
    assert game.prisons()["white"]["P"] == 0
    assert game.fen() == "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[-/-/-/-] w KQkq - 0 2"
    game.play("exd5")
    assert game.pgn() == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n'
        '[Result "*"]\n[Variant "hostage"]\n[SetUp "1"]\n'
        '[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1"]\n\n'
        "1. e4 d5 2. exd5 *\n"
    )
    mate = hx.Game("chess", MATE_IN_ONE)
    mate.play("Qxf7#")
    assert mate.pgn().endswith('[Termination "checkmate"]\n\n1. Qxf7# 1-0\n')
    traitor = hx.Game("traitor", mode="defector")
    assert '[VariantOptions "mode=defector"]' in traitor.pgn()


def test_undo_restores_the_repetition_history():
    game = hx.Game("chess")
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]:
        game.play(move)
    assert game.outcome() == hx.Outcome(None, "threefold repetition")
    assert game.undo() == "f6g8"
    assert game.outcome() is None
    assert game.legal_moves_san()[:1] != []
    game.play("Ng8")
    assert game.outcome() == hx.Outcome(None, "threefold repetition")


def test_str_and_render_draw_one_board():
    game = hx.Game("hostage")
    assert str(game) == game.render()
    assert str(game).splitlines()[1] == "8  r  n  b  q  k  b  n  r  8   black airfield: empty"


def test_search_takes_games_and_their_history():
    game = hx.Game("chess")
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        game.play(move)
    repeat = np.array([game.action_index("Ng8")], dtype=np.int64)
    # From the Game: Ng8 is the third repetition, a draw.
    search = hx.Search("chess", simulations=4, fens=[game])
    search.run()
    assert search.step(repeat).tolist() == [True]
    assert search.results() == ["1/2-1/2"]
    # From its position string alone, the history is lost.
    search = hx.Search("chess", simulations=4, fens=[game.fen()])
    search.run()
    assert search.step(repeat).tolist() == [False]
    # The earlier positions fill the stacked observation of the root.
    search = hx.Search("chess", simulations=4, history=2, fens=[game])
    root = search.gather()["observations"][0]
    assert np.array_equal(root, game.observation(history=2))
    assert root[12:24].any()
    with pytest.raises(ValueError, match=r"^game 0 is a game of chess, not of hostage$"):
        hx.Search("hostage", fens=[game])
    with pytest.raises(ValueError, match=r"^game 0 was made under the rules"):
        hx.Search("traitor", fens=[hx.Game("traitor", mode="defector")], mode="traitor")
    with pytest.raises(TypeError, match=r"^fens\[1\] must be a position string or a Game, not int$"):
        hx.Search("chess", num_games=2, fens=[game, 3])
