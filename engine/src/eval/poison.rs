//! Poison Chess: the shared board terms with the Poison roles (Doctor and
//! Guard as queen movers, the Harpy as a rook mover that attacks nothing
//! but Harpies), poisoned pieces frozen (no mobility, no attacks) and
//! discounted by whether a Doctor can cure them before their countdown
//! runs out, and a Harpy next to a King.
//!
//! Quiescence also searches poisonings and cures: each changes material
//! at once by these values (a doomed piece is nearly lost the moment it is
//! poisoned). Null move is refused while the side to act has a poisoned
//! piece (frozen pieces make zugzwang likely) or only King, pawns and
//! Harpies that have already left.

use heterodox_env::attacks;
use heterodox_env::poison::{ActionVisitor, ListVisitor};
use heterodox_env::{Bitboard, Color, Move, PoisonAction, PoisonChess, Role, Square};

use super::endgame::endgame;
use super::fide::{self, material_balance, role, s, RoleTable, Shape, Taper, NO_ROLE};
use super::fide_moves::{has_pieces, noisy_move, NoisyMoves};
use super::{for_side_to_act, Knowledge, Noisy, Pruning};

/// The Poison role table (docs/engine.md, "Poison").
pub(crate) const ROLES: RoleTable = [
    role(s(85, 110), Shape::Pawn, 0, Taper::ZERO, 0, 0),
    role(s(310, 290), Shape::Knight, 1, s(4, 4), 4, 2),
    role(s(330, 320), Shape::Bishop, 1, s(5, 5), 6, 2),
    role(s(470, 520), Shape::Rook, 2, s(2, 4), 6, 3),
    NO_ROLE,
    role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
    role(s(380, 400), Shape::Harpy, 2, s(1, 2), 6, 0),
    role(s(950, 960), Shape::Queen, 4, s(1, 2), 12, 5),
    role(s(920, 940), Shape::Queen, 4, s(1, 2), 12, 5),
];

/// A poisoned King its side cannot cure in time: close to lost, but not a
/// mate score (the search finds the death itself within ten steps).
const DOOMED_KING: i32 = 3_000;
/// A poisoned King that can be cured: frozen, and a turn spent curing.
const CURABLE_KING: i32 = 80;
/// An unpoisoned enemy Harpy next to the King: poisoning is one step away.
const HARPY_NEXT_TO_KING: i32 = 40;
/// ... and no Doctor to cure it.
const HARPY_NEXT_TO_KING_NO_DOCTOR: i32 = 600;

pub(crate) struct PoisonKnowledge;

impl Knowledge for PoisonKnowledge {
    type Pos = PoisonChess;

    const PRUNING: Pruning = Pruning::ALL;

    type Weights = ();
    const HAND: () = ();
    const TUNED: () = ();

    fn evaluate(pos: &PoisonChess, _: &()) -> i32 {
        let board = pos.board();
        let (mut terms, phase) = fide::board_terms(board, &ROLES, pos.all_poisoned());
        for color in Color::ALL {
            let own = poison_terms(pos, color);
            terms += if color == Color::White { own } else { -own };
        }
        let white = endgame(board, terms.blend(phase), &ROLES);
        let score = for_side_to_act(white, pos.turn());
        score.clamp(-crate::score::EVAL_LIMIT, crate::score::EVAL_LIMIT)
    }

    fn material(pos: &PoisonChess, side: Color) -> i32 {
        let board = pos.board();
        let mut total = material_balance(board, side, &ROLES);
        total += poison_terms(pos, side).mg - poison_terms(pos, !side).mg;
        total
    }

    fn in_check(pos: &PoisonChess) -> bool {
        pos.is_check()
    }

    fn noisy(pos: &PoisonChess, action: &PoisonAction) -> Option<Noisy> {
        match *action {
            PoisonAction::Move(m) => noisy_move(&m, value, value),
            PoisonAction::Poison { target, .. } => Some(Noisy {
                gain: pos.board().role_at(target).map_or(0, |r| {
                    if r == Role::King {
                        DOOMED_KING
                    } else {
                        value(r)
                    }
                }),
                mover: value(Role::Harpy),
            }),
            PoisonAction::Cure { target, .. } => Some(Noisy {
                gain: pos.board().role_at(target).map_or(0, value),
                mover: 0,
            }),
        }
    }

    fn noisy_actions(pos: &PoisonChess, out: &mut Vec<PoisonAction>) -> bool {
        out.clear();
        let mut noisy = NoisyMoves::new(ListVisitor(out), pos.board(), pos.turn());
        pos.visit_legal_actions(&mut noisy);
        true
    }

    /// A cheap exchange test: the gain, less the acting piece when the
    /// target square is defended (a poisoning always gives its Harpy up).
    fn see_at_least(pos: &PoisonChess, action: &PoisonAction, threshold: i32) -> bool {
        let Some(noisy) = Self::noisy(pos, action) else {
            return 0 >= threshold;
        };
        let lost = match *action {
            PoisonAction::Poison { .. } => noisy.mover,
            PoisonAction::Cure { .. } => 0,
            PoisonAction::Move(m) => {
                let defended = pos
                    .attackers_to(
                        m.to(),
                        !pos.turn(),
                        pos.board().occupied() ^ Bitboard::from_square(m.from()),
                    )
                    .any();
                if defended {
                    noisy.mover
                } else {
                    0
                }
            }
        };
        noisy.gain - lost >= threshold
    }

    fn null_move(pos: &PoisonChess) -> Option<PoisonChess> {
        let us = pos.turn();
        let board = pos.board();
        let movers = board.by_color(us) - board.by_role(Role::Harpy);
        if pos.poisoned(us).any()
            || !has_pieces(board, us)
            || !(movers - board.by_role(Role::Pawn) - board.by_role(Role::King)).any()
        {
            return None;
        }
        let mut setup = pos.to_setup();
        setup.base.turn = !us;
        setup.base.ep_square = None;
        PoisonChess::from_setup(setup).ok()
    }
}

/// Poison's generator reports piece moves by targets and every other
/// action one by one: the noisy piece moves, en passant, poisonings and
/// cures pass, castling does not. (While a piece is dying the generator
/// reports every action one by one, and all but castling pass.)
impl ActionVisitor for NoisyMoves<ListVisitor<'_, Vec<PoisonAction>>> {
    #[inline]
    fn piece_moves(&mut self, position: &PoisonChess, role: Role, from: Square, targets: Bitboard) {
        let targets = self.targets(role, targets);
        if targets.any() {
            self.inner.piece_moves(position, role, from, targets);
        }
    }

    #[inline]
    fn action(&mut self, action: PoisonAction) {
        if !matches!(action, PoisonAction::Move(Move::Castle { .. })) {
            self.inner.action(action);
        }
    }
}

#[inline]
fn value(role: Role) -> i32 {
    ROLES[role.index()]
        .value
        .mg
        .max(if role == Role::King { 0 } else { 1 })
}

/// How many of its own turns `color` needs to cure the piece on `sq`: one
/// when a Doctor stands next to it (or it is the Doctor), two when a
/// Doctor can step next to it, three otherwise; `None` without a Doctor.
fn cure_turns(pos: &PoisonChess, color: Color, sq: Square) -> Option<u32> {
    let board = pos.board();
    if board.role_at(sq) == Some(Role::Doctor) {
        return Some(1);
    }
    let doctors =
        board.by_piece(heterodox_env::Piece::new(color, Role::Doctor)) - pos.poisoned(color);
    let neighbours = attacks::king_attacks(sq);
    let mut best = None;
    for doctor in doctors {
        let turns = if neighbours.contains(doctor) {
            1
        } else if (attacks::queen_attacks(doctor, board.occupied())
            & (neighbours - board.occupied()))
        .any()
        {
            2
        } else {
            3
        };
        best = Some(best.map_or(turns, |b: u32| b.min(turns)));
    }
    best
}

/// `color`'s poison terms: its poisoned pieces discounted (a little when a
/// Doctor can cure them in time, nearly all of their value when not), and
/// enemy Harpies next to its King.
fn poison_terms(pos: &PoisonChess, color: Color) -> Taper {
    let board = pos.board();
    let mut score = Taper::ZERO;
    for sq in pos.poisoned(color) {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let counter = u32::from(pos.counter(sq).unwrap_or(1));
        let turns_left = if pos.turn() == color {
            counter
        } else {
            counter - 1
        };
        let curable = cure_turns(pos, color, sq).is_some_and(|needed| needed <= turns_left);
        let penalty = match (role, curable) {
            (Role::King, true) => s(CURABLE_KING, CURABLE_KING),
            (Role::King, false) => s(DOOMED_KING, DOOMED_KING),
            (_, true) => {
                let v = ROLES[role.index()].value;
                s(v.mg * 15 / 100 + 20, v.eg * 15 / 100 + 20)
            }
            (_, false) => {
                let v = ROLES[role.index()].value;
                s(v.mg * 9 / 10, v.eg * 9 / 10)
            }
        };
        score -= penalty;
    }
    if let Some(king) = board.king_of(color) {
        let harpies =
            board.by_piece(heterodox_env::Piece::new(!color, Role::Harpy)) - pos.poisoned(!color);
        if !pos.poisoned(color).contains(king) && (attacks::king_attacks(king) & harpies).any() {
            let doctors = board.by_piece(heterodox_env::Piece::new(color, Role::Doctor));
            let danger = if doctors.is_empty() {
                HARPY_NEXT_TO_KING_NO_DOCTOR
            } else {
                HARPY_NEXT_TO_KING
            };
            score -= s(danger, danger);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::poison::PoisonSetup;
    use heterodox_env::Position;

    #[test]
    fn the_evaluation_does_not_care_which_colour_is_which() {
        let mut rng = heterodox_env::rng::SplitMix64::new(5);
        let mut actions = Vec::new();
        let mut poisoned = 0;
        for _ in 0..30 {
            let mut pos = PoisonChess::new();
            for _ in 0..80 {
                if pos.outcome().is_some() {
                    break;
                }
                pos.legal_actions(&mut actions);
                pos.play_unchecked(&actions[rng.below(actions.len())]);
                if pos.outcome_before_generation().is_some() {
                    break;
                }
                let setup = pos.to_setup();
                let mut counters = [0; 64];
                for sq in Square::all() {
                    counters[sq.flip_vertical().index()] = setup.counters[sq.index()];
                }
                poisoned += usize::from(pos.all_poisoned().any());
                let flipped = PoisonChess::from_setup(PoisonSetup {
                    base: crate::eval::chess::tests::mirrored(&setup.base),
                    counters,
                })
                .unwrap();
                assert_eq!(
                    PoisonKnowledge::evaluate(&pos, &()),
                    PoisonKnowledge::evaluate(&flipped, &()),
                    "{}",
                    pos.fen()
                );
            }
        }
        assert!(poisoned > 50, "poisoned positions seen: {poisoned}");
    }

    #[test]
    fn a_doomed_piece_is_worth_little_and_a_curable_one_most() {
        // White's Doctor on d1 is poisoned with 5 to go: it cures itself.
        let curable = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3DK3 w - - 0 1 d1:5").unwrap();
        let healthy = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3DK3 w - - 0 1").unwrap();
        let loss =
            PoisonKnowledge::evaluate(&healthy, &()) - PoisonKnowledge::evaluate(&curable, &());
        assert!(loss > 100 && loss < 300, "{loss}");
        // A rook with one count left and no Doctor is nearly gone.
        let doomed = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1 d1:1").unwrap();
        let rook = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1").unwrap();
        let gain = PoisonKnowledge::evaluate(&doomed, &()) - PoisonKnowledge::evaluate(&rook, &());
        assert!(gain > 350, "{gain}");
    }
}
