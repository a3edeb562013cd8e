//! Mad Scientist Chess: pieces valued by their parts (a single part is a
//! leaper, two of a type a rider, and mixing types adds reach), parts in
//! hand valued as the pieces and upgrades they become, pawns and
//! centralisation, and enemy pieces close to the Scientist.
//!
//! "Check" is a Scientist attacked by an enemy piece (M1: it is never in
//! check by the rules, but a Scientist left attacked is captured and the
//! game lost): quiescence answers it with every action, the search
//! extends it and passes no turn then. Quiescence searches captures (the
//! Scientist's first), promotions and removes of a part from an enemy
//! piece. Animations and attaches are quiet. Discards (M4) are steps the
//! same player must complete: quiescence searches every discard there and
//! no null move is made mid-turn.

use heterodox_env::attacks;
use heterodox_env::madscientist::{composite_attacks, MoveKind, Part, Parts, PieceKind};
use heterodox_env::{Bitboard, Color, MadAction, MadScientist, Square};

use super::fide::{s, Shape, Taper};
use super::pst;

use super::{
    for_side_to_act, pass_turn, white_minus_black, Evaluated, Knowledge, Noisy, Pruning, Tuning,
};

/// One part of a type (a leaper) and two (a rider), by part type
/// (Wazir, Ferz, Crab, Barc).
const ONE_PART: [i32; 4] = [110, 130, 140, 140];
const TWO_PARTS: [i32; 4] = [480, 330, 250, 250];
/// Per cent added for each part type beyond the first.
const MIXED_TYPES: i32 = 15;
/// A part in hand: animated as a leaper or attached as an upgrade.
const HAND: [i32; 4] = [90, 100, 100, 100];
const PAWN: Taper = s(90, 110);
/// Value of capturing a Scientist, for move ordering.
const SCIENTIST: i32 = 20_000;
/// Centralisation of a composite piece by ring (centre .. edge).
const RING_MG: [i32; 4] = [14, 8, 0, -10];
const RING_EG: [i32; 4] = [10, 6, 0, -8];
/// An enemy piece within two squares of the Scientist.
const NEAR_SCIENTIST: i32 = 14;

const fn parts_value(bits: u8) -> i32 {
    let mut total = 0;
    let mut types = 0;
    let mut part = 0;
    while part < 4 {
        match (bits >> (2 * part)) & 3 {
            0 => {}
            1 => {
                total += ONE_PART[part];
                types += 1;
            }
            _ => {
                total += TWO_PARTS[part];
                types += 1;
            }
        }
        part += 1;
    }
    if types > 1 {
        total * (100 + MIXED_TYPES * (types - 1)) / 100
    } else {
        total
    }
}

const fn build_values() -> [i32; 256] {
    let mut table = [0; 256];
    let mut bits = 0;
    while bits < 256 {
        table[bits] = parts_value(bits as u8);
        bits += 1;
    }
    table
}

/// The value of every part set, by its byte.
static PARTS_VALUE: [i32; 256] = build_values();

#[inline]
fn value_of(parts: Parts) -> i32 {
    PARTS_VALUE[usize::from(parts.bits())]
}

pub(crate) struct MadKnowledge;

/// The knowledge MadScientist is searched with.
impl Evaluated for MadScientist {
    type Knowledge = MadKnowledge;
}

impl Tuning for MadKnowledge {
    type Weights = ();
    const HAND: () = ();
    const TUNED: () = ();
}

impl Knowledge for MadKnowledge {
    type Pos = MadScientist;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &MadScientist, _: &()) -> i32 {
        let mut parts_on_board = 0;
        let total = white_minus_black(|color| {
            let (side, parts) = side_terms(pos, color);
            parts_on_board += parts;
            side
        });
        let phase = parts_on_board * 3 / 4;
        for_side_to_act(total.blend(phase), pos.turn())
    }

    fn material(pos: &MadScientist, side: Color) -> i32 {
        material_of(pos, side) - material_of(pos, !side)
    }

    fn in_check(pos: &MadScientist) -> bool {
        scientist_attacked(pos, pos.turn())
    }

    fn noisy(pos: &MadScientist, action: &MadAction) -> Option<Noisy> {
        let board = pos.board();
        match *action {
            MadAction::Move(m) => {
                let mover = piece_value(pos, m.from);
                let victim = match m.kind {
                    MoveKind::Castle => return None,
                    MoveKind::EnPassant => PAWN.mg + HAND[Part::Ferz.index()],
                    _ => match board.piece_at(m.to) {
                        Some(piece) if piece.color != pos.turn() => match piece.kind {
                            PieceKind::Scientist => SCIENTIST,
                            PieceKind::Pawn => PAWN.mg + HAND[0],
                            PieceKind::Composite(parts) => value_of(parts),
                        },
                        _ => 0,
                    },
                };
                let promotion = match m.kind {
                    MoveKind::Promotion(p) => value_of(p.parts()) - PAWN.mg,
                    _ => 0,
                };
                (victim > 0 || promotion > 0).then_some(Noisy {
                    gain: victim + promotion,
                    mover,
                })
            }
            MadAction::Remove { part, from } if board.color_at(from) == Some(!pos.turn()) => {
                let parts = board.parts_at(from);
                let mut rest = parts;
                rest.remove(part);
                Some(Noisy {
                    gain: value_of(parts) - value_of(rest) + HAND[part.index()],
                    mover: 0,
                })
            }
            _ => None,
        }
    }

    /// A cheap exchange test: the gain, less the moving piece when an enemy
    /// piece attacks the target square.
    fn see_at_least(pos: &MadScientist, action: &MadAction, threshold: i32) -> bool {
        let Some(noisy) = Self::noisy(pos, action) else {
            return 0 >= threshold;
        };
        let lost = match action {
            MadAction::Move(m) if attacked_by(pos, m.to, !pos.turn()) => noisy.mover,
            _ => 0,
        };
        noisy.gain - lost >= threshold
    }

    fn null_move(pos: &MadScientist) -> Option<MadScientist> {
        let us = pos.turn();
        if pos.is_discarding() || (pos.board().composites() & pos.board().by_color(us)).is_empty() {
            return None;
        }
        let mut setup = pos.to_setup();
        pass_turn(&mut setup.setup);
        MadScientist::from_setup(setup).ok()
    }

    fn must_act(pos: &MadScientist) -> bool {
        pos.is_discarding()
    }
}

fn piece_value(pos: &MadScientist, sq: Square) -> i32 {
    match pos.board().piece_at(sq).map(|p| p.kind) {
        Some(PieceKind::Composite(parts)) => value_of(parts),
        Some(PieceKind::Pawn) => PAWN.mg,
        _ => 0,
    }
}

fn hand_value(pos: &MadScientist, color: Color) -> i32 {
    let hand = pos.hand(color);
    Part::ALL
        .iter()
        .map(|&part| HAND[part.index()] * i32::from(hand.count(part)))
        .sum()
}

fn material_of(pos: &MadScientist, color: Color) -> i32 {
    let board = pos.board();
    let own = board.by_color(color);
    let composites: i32 = (board.composites() & own)
        .map(|sq| value_of(board.parts_at(sq)))
        .sum();
    composites + PAWN.mg * (board.pawns() & own).count() as i32 + hand_value(pos, color)
}

/// `color`'s terms and its number of parts on the board.
fn side_terms(pos: &MadScientist, color: Color) -> (Taper, i32) {
    let board = pos.board();
    let own = board.by_color(color);
    let mut score = Taper::ZERO;
    let mut parts = 0;
    for sq in board.composites() & own {
        let piece = board.parts_at(sq);
        let v = value_of(piece);
        parts += i32::from(piece.total());
        let ring = ring(sq);
        score += s(v + RING_MG[ring], v + RING_EG[ring]);
    }
    for sq in board.pawns() & own {
        score += PAWN + pst::pst(Shape::Pawn, color, sq);
    }
    let hand = hand_value(pos, color);
    score += s(hand, hand);
    if let Some(scientist) = board.scientist_of(color) {
        score += pst::pst(Shape::King, color, scientist);
        let near = near_squares(scientist) & (board.by_color(!color) - board.pawns());
        score -= s(NEAR_SCIENTIST * near.count() as i32, 0);
    }
    (score, parts)
}

/// The ring of `sq` (0 for the four centre squares .. 3 for the edge), as
/// the piece-square tables count it.
#[inline]
fn ring(sq: Square) -> usize {
    pst::ring(sq.index()) as usize
}

/// Squares within two king steps.
fn near_squares(sq: Square) -> Bitboard {
    attacks::king_attacks(sq)
        .fold(Bitboard::EMPTY, |acc, n| acc | attacks::king_attacks(n))
        .without(sq)
}

/// True when an enemy piece attacks `color`'s Scientist.
pub(crate) fn scientist_attacked(pos: &MadScientist, color: Color) -> bool {
    match pos.board().scientist_of(color) {
        Some(scientist) => attacked_by(pos, scientist, !color),
        None => false,
    }
}

/// True when a piece of `attacker` attacks `target`.
fn attacked_by(pos: &MadScientist, target: Square, attacker: Color) -> bool {
    let board = pos.board();
    let enemy = board.by_color(attacker);
    if (attacks::pawn_attacks(!attacker, target) & board.pawns() & enemy).any()
        || (attacks::king_attacks(target) & board.scientists() & enemy).any()
    {
        return true;
    }
    let occupied = board.occupied();
    for sq in board.composites() & enemy {
        if composite_attacks(board.parts_at(sq), attacker, sq, occupied).contains(target) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::TEMPO;

    #[test]
    fn the_start_pieces_are_valued_as_in_chess() {
        assert_eq!(value_of(Parts::ROOK), 480);
        assert_eq!(value_of(Parts::BISHOP), 330);
        assert_eq!(value_of(Parts::KNIGHT), 322);
        assert_eq!(value_of(Parts::QUEEN), 931);
        assert_eq!(value_of(Parts::single(Part::Wazir)), 110);
    }

    #[test]
    fn the_start_is_balanced_and_an_attacked_scientist_is_check() {
        let start = MadScientist::new();
        assert_eq!(MadKnowledge::evaluate(&start, &()), TEMPO);
        assert!(!MadKnowledge::in_check(&start));
        let attacked = MadScientist::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - - 0 1").unwrap();
        assert!(!MadKnowledge::in_check(&attacked));
        let attacked = MadScientist::from_fen("4k3/8/8/8/8/8/8/4R1K1 b - - - 0 1").unwrap();
        assert!(MadKnowledge::in_check(&attacked));
    }
}
