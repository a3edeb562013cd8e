"""Game.render() and Game._repr_svg_(): exact text boards for every
variant's start position and for the extras (Poison countdowns, Hostage
prisons and airfields, Mad Scientist hands, Traitor announcements), and
SVG that parses as XML with its 64 squares."""

import xml.etree.ElementTree as ET

import pytest

from heterodox import Game

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
