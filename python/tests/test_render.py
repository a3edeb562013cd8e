"""Game.render(), Game._repr_svg_() and Game.render_rgb(): exact text
boards for every variant's start position and for the extras (Poison
countdowns, Hostage prisons and airfields, Mad Scientist hands, Traitor
announcements), SVG that parses as XML with its 64 squares, and RGB
frames checked pixel by pixel."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from heterodox import Game, VecEnv

FILES = "   a  b  c  d  e  f  g  h\n"
EMPTY_MIDDLE = (
    "6  .  .  .  .  .  .  .  .  6\n"
    "5  .  .  .  .  .  .  .  .  5\n"
    "4  .  .  .  .  .  .  .  .  4\n"
    "3  .  .  .  .  .  .  .  .  3\n"
)
FIDE_START = (
    FILES
    + "8  r  n  b  q  k  b  n  r  8\n"
    + "7  p  p  p  p  p  p  p  p  7\n"
    + EMPTY_MIDDLE
    + "2  P  P  P  P  P  P  P  P  2\n"
    + "1  R  N  B  Q  K  B  N  R  1\n"
    + FILES
)

START_TEXT = {
    "chess": FIDE_START + "white to move\n",
    "poison": FILES
    + "8  h  n  b  d  k  b  n  h  8\n"
    + "7  p  p  p  p  p  p  p  p  7\n"
    + EMPTY_MIDDLE
    + "2  P  P  P  P  P  P  P  P  2\n"
    + "1  H  N  B  D  K  B  N  H  1\n"
    + FILES
    + "white to move\n"
    + "H harpy, D doctor, G guard (white upper case, black lower case)\n",
    "hostage": FILES
    + "8  r  n  b  q  k  b  n  r  8   black airfield: empty\n"
    + "7  p  p  p  p  p  p  p  p  7   black prison: empty\n"
    + EMPTY_MIDDLE
    + "2  P  P  P  P  P  P  P  P  2   white prison: empty\n"
    + "1  R  N  B  Q  K  B  N  R  1   white airfield: empty\n"
    + FILES
    + "white to move\n",
    "madscientist": FILES
    + "8  r  n  b  q  k  b  n  r  8   black hand: -\n"
    + "7  p  p  p  p  p  p  p  p  7\n"
    + EMPTY_MIDDLE
    + "2  P  P  P  P  P  P  P  P  2\n"
    + "1  R  N  B  Q  K  B  N  R  1   white hand: -\n"
    + FILES
    + "white to move\n"
    + "parts: W wazir, F ferz, C crab, B barc; [WWC] is one piece of those parts, "
    + "two of a part ride\n",
    "traitor": FIDE_START
    + "mode traitor, commitment standard\n"
    + "white to select\n"
    + "budgets: white 9, black 9\n"
    + "secrets: white not chosen yet, black not chosen yet\n",
}

POISONED = "h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2"
HOSTAGE = "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("variant", sorted(START_TEXT))
def test_start_position_text(variant):
    assert Game(variant).render() == START_TEXT[variant]


def test_poisoned_pieces_carry_their_countdowns():
    assert Game("poison", POISONED).render() == (
        FILES
        + "8  h  .  .  .  .  .  k  .  8\n"
        + "7  .  .  .  .  .  p  p  p  7\n"
        + "6  .  .  n 2d2 .  .  .  .  6\n"
        + "5  .  .  .  .  .  .  .  .  5\n"
        + "4  .  .  .  .  .  .  .  .  4\n"
        + "3  .  .  .  .  .  .  .  .  3\n"
        + "2  .  B  .  .  h  P  P  P  2\n"
        + "1  .  .  H  .  .  D 4K4 .  1\n"
        + FILES
        + "white to move\n"
        + "H harpy, D doctor, G guard (white upper case, black lower case)\n"
        + "4B4: a poisoned piece; the digits count the opposing moves before it dies\n"
    )


def test_hostage_reserves_beside_the_board():
    lines = Game("hostage", HOSTAGE).render().splitlines()
    assert lines[1] == "8  r  .  b  q  .  b  .  r  8   black airfield: empty"
    assert lines[2] == "7  p  p  p  .  .  .  p  p  7   black prison: 1 white knight, 1 white pawn"
    assert lines[7] == "2  P  P  P  P  .  P  P  P  2   white prison: 2 black pawns"
    assert lines[8] == "1  R  N  B  .  K  .  .  R  1   white airfield: empty"


def test_finished_games_show_the_result_instead_of_the_turn():
    game = Game()
    for move in ["f3", "e5", "g4", "Qh4#"]:
        game.play(move)
    assert game.render().splitlines()[-1] == "result 0-1: black wins by checkmate"
    stalemate = Game("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.render().splitlines()[-1] == "result 1/2-1/2: draw by stalemate"
    assert "black to move" not in stalemate.render()


def test_mad_scientist_composites_by_parts():
    game = Game("madscientist", "k[cbww]6/8/8/8/8/8/8/K[FWFW][BC]5 b - - FCwb 12 30")
    lines = game.render().splitlines()
    assert lines[1].split() == ["8", "k", "[wwcb]", ".", ".", ".", ".", ".", ".", "8"] + [
        "black",
        "hand:",
        "wb",
    ]
    assert lines[8].endswith("1   white hand: FC")
    assert lines[-2] == "black to move"


def test_traitor_announced_pieces():
    fen = (
        "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 "
        "f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -"
    )
    lines = Game("traitor", fen).render().splitlines()
    assert lines[8] == "1  R  .  B  Q  . (R) K  .  1"
    assert "announced f1 (from h1): moved by black" in lines


def squares(svg_text):
    root = ET.fromstring(svg_text)
    assert root.tag == SVG + "svg"
    return [
        rect for rect in root.iter(SVG + "rect") if "square" in rect.get("class", "").split()
    ]


@pytest.mark.parametrize("variant", sorted(START_TEXT))
def test_svg_parses_with_64_squares(variant):
    svg = Game(variant)._repr_svg_()
    found = squares(svg)
    assert len(found) == 64
    assert sorted(rect.get("id") for rect in found) == sorted(
        f"{file}{rank}" for file in "abcdefgh" for rank in range(1, 9)
    )
    root = ET.fromstring(svg)
    pieces = [t for t in root.iter(SVG + "text") if "piece" in t.get("class", "")]
    assert len(pieces) == 32


def test_svg_extras():
    root = ET.fromstring(Game("poison", POISONED)._repr_svg_())
    countdowns = [t.text for t in root.iter(SVG + "text") if t.get("class") == "countdown"]
    assert sorted(countdowns) == ["2", "2", "4", "4"]
    root = ET.fromstring(Game("hostage", HOSTAGE)._repr_svg_())
    notes = [t.text for t in root.iter(SVG + "text") if t.get("class") == "note"]
    # Reserves are drawn as their men (clickable, with counts) under a name.
    assert notes == [
        "white prison",
        "white airfield: empty",
        "black prison",
        "black airfield: empty",
        "white to move",
    ]
    counts = [t.text for t in root.iter(SVG + "text") if t.get("class") == "count"]
    assert counts == ["2", "1", "1"]


# --- RGB frames (Game.render_rgb, VecEnv.render_rgb): the layout of
# docs/python.md, "Rendering", pixel for pixel.

HEIGHT, WIDTH = 384, 576
SQUARE, BOARD_LEFT, BOARD_TOP = 32, 16, 16
PANEL_LEFT, BELOW_TOP = 288, 292
LIGHT, DARK = [240, 217, 181], [181, 136, 99]
POISONED_DARK = [165, 95, 117]
ANNOUNCED = [224, 112, 0]
CHIP_EDGE = [200, 200, 200]


def square_box(name):
    """(top, left) of a square's 32 x 32 pixels, e.g. 'e4'."""
    file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
    return BOARD_TOP + (7 - rank) * SQUARE, BOARD_LEFT + file * SQUARE


def block(frame, name):
    top, left = square_box(name)
    return frame[top : top + SQUARE, left : left + SQUARE]


def changed_outside(before, after, squares, regions=()):
    """The changed pixels not inside the named squares or the (top, bottom,
    left, right) regions."""
    changed = np.any(before != after, axis=2)
    for name in squares:
        top, left = square_box(name)
        changed[top : top + SQUARE, left : left + SQUARE] = False
    for top, bottom, left, right in regions:
        changed[top:bottom, left:right] = False
    return np.argwhere(changed)


BELOW = (BELOW_TOP, HEIGHT, 0, WIDTH)


@pytest.mark.parametrize("variant", sorted(START_TEXT))
def test_rgb_frame_shape_dtype_and_bytes(variant):
    frame = Game(variant).render_rgb()
    assert frame.shape == (HEIGHT, WIDTH, 3) and frame.dtype == np.uint8
    assert frame.flags.c_contiguous and frame.flags.writeable
    assert frame[0, 0].tolist() == [255, 255, 255]
    assert Game(variant).render_rgb().tobytes() == frame.tobytes()


def test_rgb_light_and_dark_squares():
    frame = Game("chess").render_rgb()
    assert frame[square_box("e4")[0] + 16, square_box("e4")[1] + 16].tolist() == LIGHT
    assert frame[square_box("d4")[0] + 16, square_box("d4")[1] + 16].tolist() == DARK
    assert (frame[160, 160].tolist(), frame[160, 128].tolist()) == (LIGHT, DARK)  # e4, d4
    assert frame[240, 16].tolist() == DARK  # a1's corner, beside its rook
    assert frame[240, 240].tolist() == LIGHT  # h1's corner
    assert np.all(block(frame, "e4") == LIGHT) and np.all(block(frame, "d5") == LIGHT)


def test_rgb_a_move_changes_its_squares_and_the_turn_line_only():
    game = Game("chess")
    before = game.render_rgb()
    game.play("e4")
    after = game.render_rgb()
    assert changed_outside(before, after, ["e2", "e4"], [BELOW]).size == 0
    # The pawn left a light square for a light square: the same 32 x 32 pixels.
    assert np.array_equal(block(after, "e4"), block(before, "e2"))
    assert np.all(block(after, "e2") == LIGHT)
    assert not np.array_equal(before[BELOW_TOP:], after[BELOW_TOP:])  # "black to move"


def test_rgb_a_hostage_capture_changes_the_prison_too():
    game = Game("hostage")
    for move in ["e4", "d5"]:
        game.play(move)
    before = game.render_rgb()
    game.play("exd5")
    after = game.render_rgb()
    prison_row = (BOARD_TOP + 6 * SQUARE, BOARD_TOP + 7 * SQUARE, PANEL_LEFT, WIDTH)
    assert changed_outside(before, after, ["e4", "d5"], [BELOW, prison_row]).size == 0
    top, bottom, left, right = prison_row
    assert not np.array_equal(before[top:bottom, left:right], after[top:bottom, left:right])
    # One chip (a black pawn) in White's prison, none before.
    assert after[top + 12, PANEL_LEFT].tolist() == CHIP_EDGE
    assert before[top + 12, PANEL_LEFT].tolist() == [255, 255, 255]
    assert after[top + 12, PANEL_LEFT + 36].tolist() == [255, 255, 255]


def test_rgb_same_position_same_bytes():
    played = Game("poison")
    for move in ["e4", "e5", "Nf3"]:
        played.play(move)
    assert played.render_rgb().tobytes() == Game("poison", played.fen()).render_rgb().tobytes()
    assert played.copy().render_rgb().tobytes() == played.render_rgb().tobytes()


def test_rgb_extras():
    poison = Game("poison", POISONED).render_rgb()
    assert block(poison, "g1")[0, 0].tolist() == POISONED_DARK  # countdown 4
    assert block(poison, "d6")[0, 0].tolist() == POISONED_DARK  # countdown 2
    assert block(poison, "g1")[2, 5].tolist() == [200, 0, 0]  # '4', in red
    fen = (
        "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 "
        "f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -"
    )
    traitor = Game("traitor", fen).render_rgb()
    assert block(traitor, "f1")[1, 1].tolist() == ANNOUNCED
    assert block(traitor, "g1")[1, 1].tolist() == DARK
    mad = Game("madscientist", "k[cbww]6/8/8/8/8/8/8/K[FWFW][BC]5 b - - FCwb 12 30").render_rgb()
    rank1 = BOARD_TOP + 7 * SQUARE
    assert [mad[rank1 + 12, PANEL_LEFT + x].tolist() for x in (0, 36, 72)] == [
        CHIP_EDGE,  # F
        CHIP_EDGE,  # C
        [255, 255, 255],
    ]


def test_vecenv_render_rgb():
    env = VecEnv("chess", 2, fens=[Game("chess").fen(), "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"])
    env.reset()
    assert env.render_rgb(0).tobytes() == Game("chess").render_rgb().tobytes()
    assert env.render_rgb(1).tobytes() == Game("chess", env.fen(1)).render_rgb().tobytes()
    assert env.render_rgb().shape == (HEIGHT, WIDTH, 3)
    with pytest.raises(IndexError, match="env 2 is out of range: there are 2 envs"):
        env.render_rgb(2)
