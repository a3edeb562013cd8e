//! Hostage Chess: the shared board terms with Hostage values, men off the
//! board valued as the drop and exchange rules make them worth, a
//! seventh-rank pawn worth its promotion only when a piece waits in the
//! opponent's prison (H6), and the King's exposure to drops.
//!
//! * A man in its owner's airfield can be dropped anywhere: 90% of its
//!   board value (a drop costs a tempo).
//! * A man in a prison is currency for its captor: exchanged for one of
//!   the captor's own men of at most its value (H2). 30% of its value to
//!   the captor. With these numbers an exchange of equal men is neutral
//!   and a capture gains 130% of the victim.
//! * Drop danger: each empty square next to a King is a square where the
//!   opponent's airfield men (and the best man it could rescue by an
//!   exchange) land with check.
//!
//! Quiescence: captures and promotions only. Drops and exchanges are
//! quiet (hundreds per position; they change no material by these
//! values). Null move: always sound but in check (a drop is almost always
//! available, so zugzwang is rare).

use heterodox_env::attacks;
use heterodox_env::hostage::{exchange_value, ActionVisitor, ListVisitor, Reserve, RESERVE_ROLES};
use heterodox_env::{Bitboard, Color, Hostage, HostageAction, Piece, Rank, Role};

use super::fide::{self, material_balance, role, s, RoleTable, Shape, Taper, NO_ROLE};
use super::fide_moves::{noisy_move, see_at_least as fide_see, NoisyMoves};
use super::weights::{taper_names, ParameterVector, VectorReader};

use super::{
    for_side_to_act, pass_turn, white_minus_black, Evaluated, Knowledge, Noisy, Pruning, Tuning,
};

/// The Hostage role table set by hand (docs/engine.md, "Hostage"): move
/// ordering, static exchange and the greedy player's material use it.
pub(crate) const ROLES: RoleTable = [
    role(s(90, 110), Shape::Pawn, 0, Taper::ZERO, 0, 0),
    role(s(310, 300), Shape::Knight, 1, s(4, 4), 4, 2),
    role(s(320, 310), Shape::Bishop, 1, s(5, 5), 6, 2),
    role(s(460, 500), Shape::Rook, 2, s(2, 4), 6, 3),
    role(s(900, 920), Shape::Queen, 4, s(1, 2), 12, 5),
    role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
    NO_ROLE,
    NO_ROLE,
    NO_ROLE,
];

/// The Hostage evaluation's numbers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct HostageWeights {
    /// Values and mobility of the men on the board.
    pub roles: RoleTable,
    /// Per cent of its value a man keeps in its owner's airfield.
    pub airfield_percent: i32,
    /// Per cent of its value a prisoner is worth to its captor.
    pub prison_percent: i32,
    /// Centipawns per empty square next to a King per pawn of droppable
    /// material the opponent holds (capped at [`DROP_DANGER_MAX`]).
    pub drop_danger: i32,
    /// A pawn on the seventh rank that can promote, or cannot.
    pub seventh_can_promote: Taper,
    pub seventh_blocked: Taper,
}

/// The numbers set by hand from the rules' reasoning (module docs).
pub(crate) const HAND: HostageWeights = HostageWeights {
    roles: ROLES,
    airfield_percent: 90,
    prison_percent: 30,
    drop_danger: 4,
    seventh_can_promote: s(70, 110),
    seventh_blocked: s(-20, -30),
};

/// The numbers `heterodox tune` found from [`HAND`] (docs/engine.md,
/// "Tuning").
pub(crate) const TUNED: HostageWeights = HostageWeights {
    roles: [
        role(s(88, 22), Shape::Pawn, 0, Taper::ZERO, 0, 0),
        role(s(305, 233), Shape::Knight, 1, s(20, 7), 4, 2),
        role(s(349, 336), Shape::Bishop, 1, s(13, 8), 6, 2),
        role(s(409, 301), Shape::Rook, 2, s(17, 7), 6, 3),
        role(s(792, 1149), Shape::Queen, 4, s(6, 4), 12, 5),
        role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
        NO_ROLE,
        NO_ROLE,
        NO_ROLE,
    ],
    airfield_percent: 81,
    prison_percent: 25,
    drop_danger: 10,
    seventh_can_promote: s(41, 91),
    seventh_blocked: s(-18, -30),
};

const DROP_DANGER_MAX: i32 = 260;

impl ParameterVector for HostageWeights {
    fn names(&self) -> Vec<String> {
        let mut names = self.roles.names();
        names.extend(["airfield_percent", "prison_percent", "drop_danger"].map(String::from));
        names.extend(taper_names("seventh_can_promote"));
        names.extend(taper_names("seventh_blocked"));
        names
    }

    fn to_vector(&self) -> Vec<i32> {
        let mut vector = self.roles.to_vector();
        vector.extend([self.airfield_percent, self.prison_percent, self.drop_danger]);
        for taper in [self.seventh_can_promote, self.seventh_blocked] {
            vector.extend([taper.mg, taper.eg]);
        }
        vector
    }

    fn with_vector(&self, vector: &[i32]) -> HostageWeights {
        let mut reader = VectorReader::new(vector);
        HostageWeights {
            roles: reader.weights(&self.roles),
            airfield_percent: reader.one(),
            prison_percent: reader.one(),
            drop_danger: reader.one(),
            seventh_can_promote: reader.taper(),
            seventh_blocked: reader.taper(),
        }
    }
}

pub(crate) struct HostageKnowledge;

/// The knowledge Hostage is searched with.
impl Evaluated for Hostage {
    type Knowledge = HostageKnowledge;
}

impl Tuning for HostageKnowledge {
    type Weights = HostageWeights;
    const HAND: HostageWeights = HAND;
    const TUNED: HostageWeights = TUNED;
}

impl Knowledge for HostageKnowledge {
    type Pos = Hostage;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &Hostage, weights: &HostageWeights) -> i32 {
        let (mut terms, phase) = fide::board_terms(pos.board(), &weights.roles, Bitboard::EMPTY);
        terms += white_minus_black(|color| reserve_terms(pos, color, weights));
        for_side_to_act(terms.blend(phase.max(8)), pos.turn())
    }

    fn material(pos: &Hostage, side: Color) -> i32 {
        let board_only = material_balance(pos.board(), side, &ROLES);
        board_only + reserves(pos, side, &HAND) - reserves(pos, !side, &HAND)
    }

    fn in_check(pos: &Hostage) -> bool {
        pos.is_check()
    }

    fn noisy(_pos: &Hostage, action: &HostageAction) -> Option<Noisy> {
        let HostageAction::Move(m) = action else {
            return None;
        };
        noisy_move(
            m,
            |r| value(r, &HAND) * (100 + HAND.prison_percent) / 100,
            |r| value(r, &HAND),
        )
    }

    fn noisy_actions(pos: &Hostage, out: &mut Vec<HostageAction>) -> bool {
        out.clear();
        let mut noisy = NoisyMoves::new(ListVisitor(out), pos.board(), pos.turn());
        pos.visit_legal_actions(&mut noisy);
        true
    }

    fn see_at_least(pos: &Hostage, action: &HostageAction, threshold: i32) -> bool {
        match action {
            HostageAction::Move(m) => fide_see(pos.board(), pos.turn(), m, threshold),
            _ => 0 >= threshold,
        }
    }

    fn null_move(pos: &Hostage) -> Option<Hostage> {
        let mut setup = pos.to_setup();
        pass_turn(&mut setup.setup);
        Hostage::from_setup(setup).ok()
    }
}

/// The noisy moves only: no drops, no exchanges.
impl ActionVisitor for NoisyMoves<ListVisitor<'_, Vec<HostageAction>>> {
    fn drops(&mut self, _role: Role, _targets: Bitboard) {}

    fn exchanges(&mut self, _given: Role, _rescued: Role, _targets: Bitboard) {}
}

#[inline]
fn value(role: Role, weights: &HostageWeights) -> i32 {
    weights.roles[role.index()].value.mg
}

fn reserve_value(reserve: &Reserve, percent: i32, weights: &HostageWeights) -> i32 {
    RESERVE_ROLES
        .iter()
        .map(|&r| value(r, weights) * i32::from(reserve.count(r)))
        .sum::<i32>()
        * percent
        / 100
}

/// What `color` holds off the board: its airfield and its prison.
fn reserves(pos: &Hostage, color: Color, weights: &HostageWeights) -> i32 {
    reserve_value(pos.airfield(color), weights.airfield_percent, weights)
        + reserve_value(pos.prison(color), weights.prison_percent, weights)
}

/// The most valuable man `color` can put on the board next turn: from its
/// airfield, or rescued from the opponent's prison by an exchange.
fn best_drop(pos: &Hostage, color: Color, weights: &HostageWeights) -> i32 {
    let airfield = RESERVE_ROLES
        .iter()
        .filter(|&&r| pos.airfield(color).contains(r))
        .map(|&r| value(r, weights))
        .max()
        .unwrap_or(0);
    let currency = RESERVE_ROLES
        .iter()
        .filter(|&&r| pos.prison(color).contains(r))
        .filter_map(|&r| exchange_value(r))
        .max();
    let rescued = currency.map_or(0, |limit| {
        RESERVE_ROLES
            .iter()
            .filter(|&&r| {
                pos.prison(!color).contains(r) && exchange_value(r).is_some_and(|v| v <= limit)
            })
            .map(|&r| value(r, weights))
            .max()
            .unwrap_or(0)
    });
    let others = reserve_value(pos.airfield(color), 100, weights) - airfield;
    airfield.max(rescued) + others / 2
}

/// `color`'s reserve terms: airfield and prison, seventh-rank pawns by
/// whether they can promote, and its King's exposure to enemy drops.
fn reserve_terms(pos: &Hostage, color: Color, weights: &HostageWeights) -> Taper {
    let board = pos.board();
    let reserves = reserves(pos, color, weights);
    let mut score = s(reserves, reserves);
    let seventh = board.by_piece(Piece::new(color, Role::Pawn))
        & Bitboard::relative_rank(color, Rank::SEVENTH);
    let sevenths = seventh.count() as i32;
    score += if pos.can_promote(color) {
        weights.seventh_can_promote.times(sevenths)
    } else {
        weights.seventh_blocked.times(sevenths)
    };
    if let Some(king) = board.king_of(color) {
        let open = (attacks::king_attacks(king) - board.occupied()).count() as i32;
        let danger = (open * weights.drop_danger * best_drop(pos, !color, weights) / 100)
            .min(DROP_DANGER_MAX);
        score -= s(danger, danger / 2);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::assert_round_trip;

    #[test]
    fn an_exchange_of_equal_men_is_neutral_and_a_capture_gains() {
        let start = Hostage::new();
        assert_eq!(HostageKnowledge::material(&start, Color::White), 0);
        // White captured a knight: +130% of a knight.
        let captured =
            Hostage::from_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[n/-/-/-] w KQkq - 0 1")
                .unwrap();
        assert_eq!(
            HostageKnowledge::material(&captured, Color::White),
            310 * 130 / 100
        );
    }

    #[test]
    fn the_weights_round_trip_through_their_vector() {
        let (names, vector) = assert_round_trip(&HAND, 25, -3);
        assert_eq!(
            names[18..],
            [
                "airfield_percent",
                "prison_percent",
                "drop_danger",
                "seventh_can_promote.mg",
                "seventh_can_promote.eg",
                "seventh_blocked.mg",
                "seventh_blocked.eg"
            ]
        );
        assert_eq!(vector[18..], [90, 30, 4, 70, 110, -20, -30]);
        assert_eq!(HAND.with_vector(&vector), HAND);
    }

    #[test]
    fn the_tuned_numbers_are_the_tuning_runs() {
        // `heterodox tune --variant hostage --prior 0.002` on 5,760 teacher
        // games (docs/engine.md, "Tuning").
        assert_eq!(
            TUNED.to_vector(),
            [
                88, 22, 305, 233, 20, 7, 349, 336, 13, 8, 409, 301, 17, 7, 792, 1149, 6, 4, 81, 25,
                10, 41, 91, -18, -30
            ]
        );
        // Only the evaluation moves: the material measure keeps the hand
        // values. White holds a knight prisoner and has its own knight in
        // its airfield; each side has one knight on the board.
        let pos =
            Hostage::from_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[n/-/N/-] w KQkq - 0 1")
                .unwrap();
        let hand_material = 310 * 90 / 100 + 310 * 30 / 100;
        assert_eq!(
            HostageKnowledge::material(&pos, Color::White),
            hand_material
        );
        let (hand, tuned) = (
            HostageKnowledge::evaluate(&pos, &HAND),
            HostageKnowledge::evaluate(&pos, &TUNED),
        );
        assert_ne!(hand, tuned);
    }
}
