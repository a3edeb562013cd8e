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
use super::weights::{ParameterVector, VectorReader};

use super::{
    for_side_to_act, pass_turn, white_minus_black, Evaluated, Knowledge, Noisy, Pruning, Tuning,
};

/// The Poison role table set by hand (docs/engine.md, "Poison"): move
/// ordering, static exchange and the greedy player's material use it.
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
/// mate score (the search finds the death itself within ten steps). Not
/// tuned: it stands for a loss, not for a chance.
const DOOMED_KING: i32 = 3_000;

/// The Poison evaluation's numbers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct PoisonWeights {
    /// Values and mobility of the men.
    pub roles: RoleTable,
    /// A poisoned King that can be cured: frozen, and a turn spent curing.
    pub curable_king: i32,
    /// A poisoned piece that can be cured in time loses this per cent of
    /// its value, plus `curable_extra`.
    pub curable_percent: i32,
    pub curable_extra: i32,
    /// A poisoned piece that cannot be cured in time loses this per cent
    /// of its value (it still blocks lines until it dies).
    pub doomed_percent: i32,
    /// An unpoisoned enemy Harpy next to the King: poisoning is one step
    /// away; and the same without a Doctor to cure it.
    pub harpy_next_to_king: i32,
    pub harpy_next_to_king_no_doctor: i32,
}

/// The numbers set by hand from the rules' reasoning (module docs).
pub(crate) const HAND: PoisonWeights = PoisonWeights {
    roles: ROLES,
    curable_king: 80,
    curable_percent: 15,
    curable_extra: 20,
    doomed_percent: 90,
    harpy_next_to_king: 40,
    harpy_next_to_king_no_doctor: 600,
};

/// The numbers `heterodox tune` found from [`HAND`] (docs/engine.md,
/// "Tuning").
pub(crate) const TUNED: PoisonWeights = PoisonWeights {
    roles: [
        role(s(74, 164), Shape::Pawn, 0, Taper::ZERO, 0, 0),
        role(s(375, 408), Shape::Knight, 1, s(6, 5), 4, 2),
        role(s(355, 496), Shape::Bishop, 1, s(1, 4), 6, 2),
        role(s(470, 518), Shape::Rook, 2, s(2, 4), 6, 3),
        NO_ROLE,
        role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
        role(s(376, 249), Shape::Harpy, 2, s(-2, 4), 6, 0),
        role(s(1370, 1380), Shape::Queen, 4, s(7, 5), 12, 5),
        role(s(1275, 1308), Shape::Queen, 4, s(1, 2), 12, 5),
    ],
    curable_king: 80,
    curable_percent: 24,
    curable_extra: 21,
    doomed_percent: 100,
    harpy_next_to_king: 40,
    harpy_next_to_king_no_doctor: 380,
};

const SCALARS: [&str; 6] = [
    "curable_king",
    "curable_percent",
    "curable_extra",
    "doomed_percent",
    "harpy_next_to_king",
    "harpy_next_to_king_no_doctor",
];

impl ParameterVector for PoisonWeights {
    fn names(&self) -> Vec<String> {
        let mut names = self.roles.names();
        names.extend(SCALARS.map(String::from));
        names
    }

    fn to_vector(&self) -> Vec<i32> {
        let mut vector = self.roles.to_vector();
        vector.extend([
            self.curable_king,
            self.curable_percent,
            self.curable_extra,
            self.doomed_percent,
            self.harpy_next_to_king,
            self.harpy_next_to_king_no_doctor,
        ]);
        vector
    }

    fn with_vector(&self, vector: &[i32]) -> PoisonWeights {
        let mut reader = VectorReader::new(vector);
        PoisonWeights {
            roles: reader.weights(&self.roles),
            curable_king: reader.one(),
            curable_percent: reader.one(),
            curable_extra: reader.one(),
            doomed_percent: reader.one(),
            harpy_next_to_king: reader.one(),
            harpy_next_to_king_no_doctor: reader.one(),
        }
    }
}

pub(crate) struct PoisonKnowledge;

/// The knowledge PoisonChess is searched with.
impl Evaluated for PoisonChess {
    type Knowledge = PoisonKnowledge;
}

impl Tuning for PoisonKnowledge {
    type Weights = PoisonWeights;
    const HAND: PoisonWeights = HAND;
    const TUNED: PoisonWeights = TUNED;
}

impl Knowledge for PoisonKnowledge {
    type Pos = PoisonChess;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &PoisonChess, weights: &PoisonWeights) -> i32 {
        let board = pos.board();
        let (mut terms, phase) = fide::board_terms(board, &weights.roles, pos.all_poisoned());
        terms += white_minus_black(|color| poison_terms(pos, color, weights));
        let white = endgame(board, terms.blend(phase), &weights.roles);
        let score = for_side_to_act(white, pos.turn());
        score.clamp(-super::EVAL_LIMIT, super::EVAL_LIMIT)
    }

    fn material(pos: &PoisonChess, side: Color) -> i32 {
        let board = pos.board();
        let mut total = material_balance(board, side, &ROLES);
        total += poison_terms(pos, side, &HAND).mg - poison_terms(pos, !side, &HAND).mg;
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
        pass_turn(&mut setup.base);
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
        self.piece_moves_to(role, targets, |inner, noisy| {
            inner.piece_moves(position, role, from, noisy);
        });
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
fn poison_terms(pos: &PoisonChess, color: Color, weights: &PoisonWeights) -> Taper {
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
        let v = weights.roles[role.index()].value;
        let penalty = match (role, curable) {
            (Role::King, true) => s(weights.curable_king, weights.curable_king),
            (Role::King, false) => s(DOOMED_KING, DOOMED_KING),
            (_, true) => {
                let (percent, extra) = (weights.curable_percent, weights.curable_extra);
                s(v.mg * percent / 100 + extra, v.eg * percent / 100 + extra)
            }
            (_, false) => {
                let percent = weights.doomed_percent;
                s(v.mg * percent / 100, v.eg * percent / 100)
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
                weights.harpy_next_to_king_no_doctor
            } else {
                weights.harpy_next_to_king
            };
            score -= s(danger, danger);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::assert_round_trip;
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
                    PoisonKnowledge::evaluate(&pos, &TUNED),
                    PoisonKnowledge::evaluate(&flipped, &TUNED),
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
            PoisonKnowledge::evaluate(&healthy, &HAND) - PoisonKnowledge::evaluate(&curable, &HAND);
        assert!(loss > 100 && loss < 300, "{loss}");
        // A rook with one count left and no Doctor is nearly gone.
        let doomed = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1 d1:1").unwrap();
        let rook = PoisonChess::from_fen("4k3/8/8/8/8/8/8/3RK3 b - - 0 1").unwrap();
        let gain =
            PoisonKnowledge::evaluate(&doomed, &HAND) - PoisonKnowledge::evaluate(&rook, &HAND);
        assert!(gain > 350, "{gain}");
    }

    #[test]
    fn the_weights_round_trip_and_the_tuned_ones_are_the_tuning_runs() {
        let (names, vector) = assert_round_trip(&HAND, 32, 5);
        assert_eq!(
            names[14..18],
            [
                "value.harpy.mg",
                "value.harpy.eg",
                "mobility.harpy.mg",
                "mobility.harpy.eg"
            ]
        );
        assert_eq!(names[26..], SCALARS);
        assert_eq!(vector[26..], [80, 15, 20, 90, 40, 600]);
        // `heterodox tune --variant poison --prior 0.002` on 2,880 teacher
        // games (docs/engine.md, "Tuning").
        assert_eq!(
            TUNED.to_vector(),
            [
                74, 164, 375, 408, 6, 5, 355, 496, 1, 4, 470, 518, 2, 4, 376, 249, -2, 4, 1370,
                1380, 7, 5, 1275, 1308, 1, 2, 80, 24, 21, 100, 40, 380
            ]
        );
    }
}
