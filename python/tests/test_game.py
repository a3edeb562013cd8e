"""Behaviour of heterodox.Game and heterodox.Outcome, with exact values."""

import copy
import pickle

import gymnasium
import pytest

import heterodox
from heterodox import Game, Outcome

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4_FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Black to move, king on h8, no legal move, not in check.
STALEMATE_FEN = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"


# --- module -------------------------------------------------------------------


def test_module_exports():
    assert heterodox.variants() == ["chess", "poison", "hostage", "madscientist", "traitor"]
    assert heterodox.__version__ == "0.1.0"
    assert heterodox.Game is heterodox._core.Game
    assert heterodox.VecEnv is heterodox.vector.VecEnv
    assert heterodox.VecEnv.__mro__[1] is gymnasium.vector.VectorEnv
    # The package exports every public name of the native module (whose
    # list test_stub.py pins to the stub), VecEnv being the gymnasium one,
    # and the Python-side Env, make, agent and NetworkAgent: in order, each
    # once. The native functions a Python module wraps are exported by it:
    # heterodox.stats (stats_*), heterodox.play (play_games, PlayedGames).
    wrapped = {"play_games", "check_measures", "PlayedGames"}
    native = {
        name
        for name in dir(heterodox._core)
        if not name.startswith(("_", "stats_")) and name not in wrapped
    }
    python_side = {"__version__", "Env", "make", "agent", "NetworkAgent", "play", "Games", "stats",
                   "Claim", "Condition", "Verdict"}
    assert set(heterodox.__all__) == native | python_side
    assert heterodox.__all__ == sorted(set(heterodox.__all__))
    for name in native - {"VecEnv"}:
        assert getattr(heterodox, name) is getattr(heterodox._core, name), name
    assert heterodox.Env is heterodox.env.Env
    assert heterodox.make is heterodox.env.make


# --- construction -------------------------------------------------------------


def test_start_position():
    game = Game()
    assert game.variant == "chess"
    assert game.turn == "white"
    assert game.plies == 0
    assert game.fen() == START_FEN
    assert game.outcome() is None
    assert not game.is_over()
    assert Game("chess").fen() == START_FEN
    assert Game(variant="chess", fen=None).fen() == START_FEN


def test_from_fen():
    game = Game(fen=KIWIPETE_FEN)
    assert game.fen() == KIWIPETE_FEN
    assert game.turn == "white"
    assert len(game.legal_moves()) == 48


def test_unknown_variant_lists_the_valid_ones():
    with pytest.raises(ValueError) as info:
        Game("grand-chess")
    assert str(info.value) == (
        "unknown variant 'grand-chess' "
        "(valid variants: chess, poison, hostage, madscientist, traitor)"
    )


@pytest.mark.parametrize(
    "fen, field",
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn field 'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling field 'KQkx'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1", "en passant field 'e5'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock 'x'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number '0'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board field"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "white has no king"),
    ],
)
def test_malformed_fen_names_the_field(fen, field):
    with pytest.raises(ValueError) as info:
        Game(fen=fen)
    message = str(info.value)
    assert message.startswith(f"invalid FEN '{fen}': ")
    assert field in message


def test_empty_fen():
    with pytest.raises(ValueError, match="empty FEN"):
        Game(fen="")


def test_argument_types():
    with pytest.raises(TypeError):
        Game(1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game(fen=1)  # type: ignore[arg-type]


# --- moves --------------------------------------------------------------------


def test_start_legal_moves():
    game = Game()
    moves = game.legal_moves()
    assert len(moves) == 20
    assert moves[:4] == ["b1a3", "b1c3", "g1f3", "g1h3"]
    assert {"e2e4", "d2d4", "a2a3", "h2h4"} <= set(moves)
    assert len(set(moves)) == 20
    san = game.legal_moves_san()
    assert san[:4] == ["Na3", "Nc3", "Nf3", "Nh3"]
    assert san[moves.index("e2e4")] == "e4"
    assert sorted(san) == sorted(
        ["Na3", "Nc3", "Nf3", "Nh3"] + [f + r for f in "abcdefgh" for r in "34"]
    )


@pytest.mark.parametrize("move", ["e4", "e2e4"])
def test_play_uci_or_san(move):
    game = Game()
    assert game.play(move) == "e2e4"
    assert game.fen() == AFTER_E4_FEN
    assert game.turn == "black"
    assert game.plies == 1


def test_play_keyword_argument():
    game = Game()
    assert game.play(move="Nf3") == "g1f3"


def test_en_passant_square_only_when_capturable():
    game = Game()
    for move in ["e4", "a6", "e5", "d5"]:
        game.play(move)
    assert game.fen() == "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    assert game.legal_moves_san()[game.legal_moves().index("e5d6")] == "exd6"
    assert game.play("exd6") == "e5d6"
    assert game.fen() == "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"


def test_castling_and_promotion():
    game = Game(fen="r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert game.copy().play("O-O") == "e1g1"
    assert game.copy().play("O-O-O") == "e1c1"
    assert game.play("bxa8=Q+") == "b7a8q"
    assert game.fen() == "Q3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1"


def test_illegal_move_leaves_the_game_unchanged():
    game = Game()
    game.play("e4")
    for move in ["e4", "e2e4", "e7e4", "Ke2", "a1a8"]:
        with pytest.raises(ValueError) as info:
            game.play(move)
        assert str(info.value) == f"illegal move '{move}' in position {AFTER_E4_FEN}"
        assert game.fen() == AFTER_E4_FEN
        assert game.plies == 1


@pytest.mark.parametrize("move", ["", "zz", "e2e9", "Qxx9", "e2e4e4"])
def test_unreadable_move(move):
    game = Game()
    with pytest.raises(ValueError, match="cannot read move"):
        game.play(move)
    assert game.fen() == START_FEN


def test_ambiguous_move():
    game = Game()
    for move in ["d4", "d5", "Nf3", "Nf6"]:
        game.play(move)
    before = game.fen()
    with pytest.raises(ValueError, match="ambiguous move 'Nd2'"):
        game.play("Nd2")
    assert game.fen() == before
    assert game.play("Nbd2") == "b1d2"


ITALIAN_FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


@pytest.mark.parametrize(
    "line",
    [
        "1.e4 e5 2.Nf3 Nc6 3.Bc4",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 *",
        "1.e4 1...e5 2.Nf3 2... Nc6 3.Bc4",
        "e2e4 e7e5 g1f3 b8c6 f1c4",
    ],
)
def test_play_a_line_of_moves_with_or_without_numbers(line):
    game = Game("chess")
    assert game.play(line) == "e2e4 e7e5 g1f3 b8c6 f1c4"
    assert game.moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]
    assert game.fen() == ITALIAN_FEN
    assert game.plies == 5


def test_play_a_numbered_move():
    game = Game("chess")
    assert game.play("1.e4") == "e2e4"
    assert game.play("1...e5") == "e7e5"
    assert game.play("2. Nf3") == "g1f3"
    assert game.play("2... Nc6") == "b8c6"
    # Move numbers are not checked, as in python-chess.
    assert game.play("12.Bc4") == "f1c4"
    assert game.fen() == ITALIAN_FEN


def test_a_bad_move_in_a_line_is_named_and_nothing_is_played():
    game = Game("chess")
    with pytest.raises(heterodox.NotationError) as info:
        game.play("1.e9")
    assert str(info.value) == "cannot read move 'e9': bad destination square"
    with pytest.raises(heterodox.NotationError) as info:
        game.play("1.e4 e5 2.Qxf9")
    assert str(info.value).startswith("cannot read move 'Qxf9': ")
    with pytest.raises(heterodox.IllegalMoveError) as info:
        game.play("1.e4 e5 2.Ke3")
    assert str(info.value) == (
        "illegal move 'Ke3' in position "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    )
    assert game.fen() == START_FEN
    assert game.moves == []


# --- outcomes -----------------------------------------------------------------


def fools_mate():
    game = Game()
    for move in ["f3", "e5", "g4", "Qh4#"]:
        game.play(move)
    return game


def test_fools_mate():
    game = fools_mate()
    assert game.is_over()
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.winner == "black"
    assert outcome.termination == "checkmate"
    assert outcome.result == "0-1"
    assert not outcome.is_draw
    assert outcome == Outcome("black", "checkmate")
    assert outcome.reward("black") == 1.0
    assert outcome.reward("white") == -1.0
    assert game.legal_moves() == []
    assert game.legal_moves_san() == []
    assert game.fen() == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def test_no_move_after_mate():
    game = fools_mate()
    fen = game.fen()
    # A finished game refuses every move and says why.
    with pytest.raises(ValueError, match=r"^the game is over: 0-1 \(checkmate\); no move can be played$"):
        game.play("a3")
    assert game.fen() == fen
    assert game.plies == 4


def test_stalemate():
    game = Game(fen=STALEMATE_FEN)
    assert game.is_over()
    assert game.legal_moves() == []
    assert game.outcome() == Outcome(None, "stalemate")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.termination, outcome.result) == (None, "stalemate", "1/2-1/2")
    assert outcome.is_draw
    assert outcome.reward("white") == 0.0
    assert game.perft(1) == 0


def test_threefold_repetition():
    game = Game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        assert game.outcome() is None
        game.play(move)
    assert game.outcome() == Outcome(None, "threefold repetition")
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"
    assert game.legal_moves() == []
    # A move legal in the position is refused: the game is over.
    with pytest.raises(ValueError, match=r"^the game is over: 1/2-1/2 \(threefold repetition\); no move can be played$"):
        game.play("e4")
    assert game.plies == 8


def test_insufficient_material():
    assert Game(fen="8/8/4k3/8/8/3K4/8/8 w - - 0 1").outcome() == Outcome(
        None, "insufficient material"
    )


def test_outcome_value_semantics():
    outcome = Outcome("white", "checkmate")
    assert outcome.result == "1-0"
    assert repr(outcome) == "Outcome(winner='white', termination='checkmate')"
    assert str(outcome) == "1-0 (checkmate)"
    assert repr(Outcome(None, "stalemate")) == "Outcome(winner=None, termination='stalemate')"
    assert outcome != Outcome("black", "checkmate")
    assert outcome != Outcome("white", "stalemate")
    assert outcome != ("white", "checkmate")
    assert len({outcome, Outcome("white", "checkmate"), Outcome(None, "stalemate")}) == 2
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    with pytest.raises(AttributeError):
        outcome.winner = "black"  # type: ignore[misc]
    with pytest.raises(ValueError, match="invalid color 'red'"):
        Outcome("red", "checkmate")
    with pytest.raises(ValueError, match="invalid color 'blue'"):
        outcome.reward("blue")


# --- perft --------------------------------------------------------------------


@pytest.mark.parametrize("depth, nodes", [(0, 1), (1, 20), (2, 400), (3, 8902), (4, 197281)])
def test_perft_start(depth, nodes):
    assert Game().perft(depth) == nodes


def test_perft_kiwipete():
    game = Game(fen=KIWIPETE_FEN)
    assert game.perft(1) == 48
    assert game.perft(2) == 2039
    assert game.perft(3) == 97862


def test_divide():
    game = Game()
    counts = game.divide(3)
    assert list(counts) == game.legal_moves()
    assert sum(counts.values()) == 8902
    assert counts["e2e4"] == 600
    assert counts["g1f3"] == 440
    assert game.divide(1) == {move: 1 for move in game.legal_moves()}
    assert game.divide(0) == {}


@pytest.mark.parametrize("depth", [-1, 11, 2**64])
def test_perft_depth_out_of_range(depth):
    game = Game()
    message = f"depth must be an int from 0 to 10, not {depth}"
    with pytest.raises(ValueError, match=message):
        game.perft(depth)
    with pytest.raises(ValueError, match=message):
        game.divide(depth)


def test_perft_depth_type():
    with pytest.raises(TypeError):
        Game().perft(2.0)  # type: ignore[arg-type]


# --- copies and text ----------------------------------------------------------


@pytest.mark.parametrize("clone", [Game.copy, copy.copy, copy.deepcopy])
def test_copies_are_independent(clone):
    game = Game()
    game.play("e4")
    other = clone(game)
    assert type(other) is Game
    assert other is not game
    assert other.fen() == game.fen()
    other.play("e5")
    assert game.fen() == AFTER_E4_FEN
    assert game.plies == 1
    assert other.plies == 2
    game.play("c5")
    assert other.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_copy_keeps_the_history():
    game = Game()
    for move in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        game.play(move)
    other = game.copy()
    other.play("Ng8")
    assert other.outcome() == Outcome(None, "threefold repetition")
    assert game.outcome() is None


def test_repr_and_str():
    game = Game()
    assert repr(game) == f"Game(variant='chess', fen='{START_FEN}')"
    # print(game) shows the board render() draws.
    assert str(game) == game.render() == (
        "   a  b  c  d  e  f  g  h\n"
        "8  r  n  b  q  k  b  n  r  8\n"
        "7  p  p  p  p  p  p  p  p  7\n"
        "6  .  .  .  .  .  .  .  .  6\n"
        "5  .  .  .  .  .  .  .  .  5\n"
        "4  .  .  .  .  .  .  .  .  4\n"
        "3  .  .  .  .  .  .  .  .  3\n"
        "2  P  P  P  P  P  P  P  P  2\n"
        "1  R  N  B  Q  K  B  N  R  1\n"
        "   a  b  c  d  e  f  g  h\n"
        "white to move\n"
    )
