"""heterodox.play: games between agents into a table, the arena's games."""

import re
import subprocess

import numpy as np
import pytest

import heterodox
from support import BINARY

# Black to move mates at once (Qh4#): the fool's mate.
FOOLS_MATE = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"


def movetexts(pgn):
    """Each game's result and movetext, headers left out."""
    games = []
    for block in re.split(r"\n\n(?=\[Event)", pgn.strip()):
        result = re.search(r'\[Result "([^"]+)"\]', block).group(1)
        moves = " ".join(line for line in block.splitlines() if line and not line.startswith("["))
        games.append((result, moves))
    return games


def test_the_same_games_as_the_arena(tmp_path):
    games = heterodox.play("hostage", ["ab@2", "greedy"], 6, seed=3, opening_plies=4, progress=False)
    out = tmp_path / "arena"
    subprocess.run(
        [BINARY, "arena", "--variant", "hostage", "--agents", "ab@2,greedy", "--games", "6",
         "--seed", "3", "--opening-plies", "4", "--out", out, "--quiet"],
        check=True, capture_output=True,
    )
    arena = movetexts((out / "games.pgn").read_text())
    assert movetexts(games.pgn()) == arena
    table = games.to_pandas()
    assert list(table.white) == ["ab@2", "greedy"] * 3
    assert list(table.black) == ["greedy", "ab@2"] * 3
    assert list(table.result) == [result for result, _ in arena]
    assert list(table.pair) == [0, 0, 1, 1, 2, 2]
    # One opening per pair, the first 4 plies of both games.
    openings = [" ".join(moves.split()[:4]) for moves in table.moves]
    assert openings[0] == openings[1] and openings[2] == openings[3]


def test_a_known_position_gives_an_exact_row():
    games = heterodox.play("chess", ["ab@2", "random"], 2, start=FOOLS_MATE, opening_plies=0,
                           seed=0, progress=False, measures=["checks", "captures", "men:white"])
    row = games.to_pandas().iloc[1]  # ab@2 has Black, to move
    assert (row.white, row.black) == ("random", "ab@2")
    assert (row.result, row.white_score, row.termination, row.plies) == ("0-1", 0.0, "checkmate", 1)
    assert row.moves == "Qh4#"
    assert row.start == FOOLS_MATE
    # Columns are plies; after the game's end, NaN (game 0 is longer).
    width = games.to_pandas().plies.max() + 1
    assert games.measure("checks").shape == (2, width)
    np.testing.assert_array_equal(games.measure("checks")[1, :2], [np.nan, 1.0])
    np.testing.assert_array_equal(games.measure("captures")[1, :2], [np.nan, 0.0])
    np.testing.assert_array_equal(games.measure("men:white")[1, :2], [16.0, 16.0])
    assert np.isnan(games.measure("men:white")[1, 2:]).all()
    assert row["checks"] == 1.0  # a measure's column: its value at the last ply
    end = games.replay(1)
    assert end.is_over() and end.moves == ["d8h4"]


def test_self_play_gives_every_game_its_own_opening():
    games = heterodox.play("chess", "ab@1", 6, seed=5, progress=False)
    table = games.to_pandas()
    assert games.agents == ("ab@1", "ab@1")
    assert list(table.pair) == [0, 1, 2, 3, 4, 5]
    assert len(set(table.moves)) == 6
    # The same seed, the same games; another seed, others.
    assert list(heterodox.play("chess", "ab@1", 6, seed=5, progress=False).to_pandas().moves) == list(table.moves)
    assert list(heterodox.play("chess", "ab@1", 6, seed=6, progress=False).to_pandas().moves) != list(table.moves)


def test_move_lines_start_the_games():
    games = heterodox.play("chess", ["ab@1", "random"], 2, start="1.e4 e5 2.Nf3", opening_plies=0,
                           max_plies=5, progress=False)
    game = heterodox.Game("chess")
    for move in ("e4", "e5", "Nf3"):
        game.play(move)
    assert set(games.to_pandas().start) == {game.fen()}


def test_measures_agree_with_the_replayed_positions():
    games = heterodox.play("hostage", ["greedy", "random"], 4, seed=2, max_plies=40, progress=False)
    white = games.measure("men:white")
    queens = games.measure("men:black:Q")
    prison = games.measure("reserve:white:prison")
    for index in range(len(games)):
        game = games.replay(index)
        plies = game.plies
        assert np.isnan(white[index, plies + 1:]).all()
        for ply in range(plies, -1, -1):
            board = game.fen().split()[0].split("[")[0]
            assert white[index, ply] == sum(ch.isupper() for ch in board)
            assert queens[index, ply] == board.count("q")
            assert prison[index, ply] == sum(game.prisons()["white"].values())
            if ply:
                game.undo()


def test_ctrl_c_returns_the_games_so_far_and_resume_plays_the_rest(tmp_path):
    out = tmp_path / "run"

    def interrupt(done, total):
        if done == 3:
            raise KeyboardInterrupt

    first = heterodox.play("chess", ["greedy", "random"], 8, seed=4, concurrent=1, out=out,
                           progress=interrupt)
    assert first.interrupted and len(first) == 3
    assert (tmp_path / "run.journal").is_dir()
    with pytest.raises(ValueError, match="resume"):
        heterodox.play("chess", ["greedy", "random"], 8, seed=4, out=out, progress=False)
    rest = heterodox.play("chess", ["greedy", "random"], 8, seed=4, out=out, resume=True, progress=False)
    whole = heterodox.play("chess", ["greedy", "random"], 8, seed=4, progress=False)
    assert not rest.interrupted and len(rest) == 8
    assert rest.pgn() == whole.pgn()
    assert (out / "games.pgn").read_text() == whole.pgn()
    assert (out / "games.csv").read_text().splitlines()[0] == (
        "game,white,black,result,white_score,termination,plies,start,moves")
    assert not (tmp_path / "run.journal").exists()


def test_the_parts_of_a_call_are_its_games(tmp_path):
    # part=(k, 3): the pairs whose number is k modulo 3, each game as in
    # the whole call; a part keeps its journal for the whole run to resume.
    import pandas

    args = dict(seed=4, opening_plies=2, progress=False)
    whole = heterodox.play("hostage", ["ab@1", "greedy"], 8, **args).to_pandas()
    parts = [heterodox.play("hostage", ["ab@1", "greedy"], 8, part=(k, 3), out=tmp_path / f"part-{k}", **args)
             for k in range(3)]
    assert [len(p) for p in parts] == [4, 2, 2]
    assert sorted(parts[0].to_pandas().pair) == [0, 0, 3, 3]
    merged = pandas.concat([p.to_pandas() for p in parts]).sort_values("game").reset_index(drop=True)
    pandas.testing.assert_frame_equal(merged, whole)
    assert (tmp_path / "part-0.journal" / "run.json").is_file()
    with pytest.raises(ValueError, match=r"^part: \(index, count\) with 0 <= index < count, got \(3, 3\)$"):
        heterodox.play("hostage", "greedy", 2, part=(3, 3), progress=False)


def test_bad_requests_are_refused_before_any_game():
    with pytest.raises(ValueError, match="unknown measure 'material'"):
        heterodox.play("chess", "random", 2, measures=["material"], progress=False)
    with pytest.raises(heterodox.AgentError, match="unknown agent|cannot read|agent"):
        heterodox.play("chess", "alphabeta", 2, progress=False)
    with pytest.raises(ValueError, match="one agent string .* or two"):
        heterodox.play("chess", ["random", "greedy", "ab@1"], 2, progress=False)
    with pytest.raises(ValueError, match="resume=True continues the journal beside out=DIR"):
        heterodox.play("chess", "random", 2, resume=True, progress=False)
    with pytest.raises(IndexError, match="game 2 of 2 games"):
        heterodox.play("chess", "random", 2, progress=False).replay(2)
    with pytest.raises(IndexError, match="game -1 of 2 games"):
        heterodox.play("chess", "random", 2, progress=False).replay(-1)
    with pytest.raises(heterodox.AgentError, match="it has no network, so no evaluator"):
        heterodox._core.play_games("chess", ["random"], 2, evaluators=[lambda r: r])
    with pytest.raises(ValueError, match="concurrent = 1000 is out of range"):
        heterodox.play("chess", "random", 2, concurrent=1000, progress=False)
    with pytest.raises(ValueError, match="games = 0 is out of range"):
        heterodox.play("chess", "random", 0, progress=False)
    with pytest.raises(ValueError, match="start"):
        heterodox.play("chess", "random", 2, start="1.e5", progress=False)
    with pytest.raises(heterodox.OptionError):
        heterodox.play("traitor", "random", 2, rules={"mode": "nonsense"}, progress=False)


def test_a_real_ctrl_c_stops_the_call_with_the_games_finished(tmp_path):
    import signal
    import sys
    import time

    # A terminal's Python raises KeyboardInterrupt on SIGINT; a process
    # started in the background (CI, `make test &`) inherits SIGINT ignored,
    # which Python keeps, so the child asks for the terminal's behaviour.
    script = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import heterodox\n"
        "def started(done, total):\n"
        "    if done == 1:\n"
        "        print('started', flush=True)\n"
        "games = heterodox.play('chess', ['ab@20ms', 'ab@20ms/classical'], 400, concurrent=2, progress=started)\n"
        "print(len(games) < 400, games.interrupted, flush=True)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "started\n"  # a game is done: the call is under way
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    assert out.split() == ["True", "True"]


def test_a_game_shows_its_men_and_reserves():
    game = heterodox.Game("hostage")
    board = game.board()
    assert len(board) == 32
    assert board["e1"] == {"kind": "K", "color": "white", "countdown": None, "announced": False}
    assert board["d8"]["kind"] == "Q" and board["d8"]["color"] == "black"
    for move in ("e4", "d5", "exd5"):
        game.play(move)
    prisons = [r for r in game.reserves() if r["area"] == "prison"]
    assert {r["owner"]: r["men"] for r in prisons if r["men"]} == {"white": {"P": 1}}
    assert heterodox.Game("chess").reserves() == []
    poison = heterodox.Game("poison")
    assert poison.board()["a1"]["kind"] == "H" and poison.board()["d1"]["kind"] == "D"


def test_a_network_agent_plays_through_its_pytorch_evaluator():
    pytest.importorskip("torch")
    first = heterodox.play("hostage", ["zoo:hostage@8", "greedy"], 2, max_plies=12, seed=2, progress=False)
    again = heterodox.play("hostage", ["zoo:hostage@8", "greedy"], 2, max_plies=12, seed=2, progress=False)
    assert first.agents == ("zoo:hostage@8", "greedy")
    assert list(first.to_pandas().plies) == [12, 12]  # both cut at the cap: every ply replays
    assert first.pgn() == again.pgn()
    with pytest.raises(heterodox.AgentError, match="plays hostage games; game 0 differs in its variant"):
        heterodox.play("chess", "zoo:hostage@8", 2, progress=False)
