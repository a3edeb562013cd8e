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
use super::{for_side_to_act, Knowledge, Noisy, Pruning};

/// The Hostage role table (docs/engine.md, "Hostage").
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

/// Per cent of its value a man keeps in its owner's airfield.
const AIRFIELD_PERCENT: i32 = 90;
/// Per cent of its value a prisoner is worth to its captor.
const PRISON_PERCENT: i32 = 30;
/// Centipawns per empty square next to a King per pawn of droppable
/// material the opponent holds; capped.
const DROP_DANGER: i32 = 4;
const DROP_DANGER_MAX: i32 = 260;
/// A pawn on the seventh rank that can promote, or cannot.
const SEVENTH_CAN_PROMOTE: Taper = s(70, 110);
const SEVENTH_BLOCKED: Taper = s(-20, -30);

pub(crate) struct HostageKnowledge;

impl Knowledge for HostageKnowledge {
    type Pos = Hostage;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &Hostage) -> i32 {
        let (mut terms, phase) = fide::board_terms(pos.board(), &ROLES, Bitboard::EMPTY);
        for color in Color::ALL {
            let own = reserve_terms(pos, color);
            terms += if color == Color::White { own } else { -own };
        }
        for_side_to_act(terms.blend(phase.max(8)), pos.turn())
    }

    fn material(pos: &Hostage, side: Color) -> i32 {
        let board_only = material_balance(pos.board(), side, &ROLES);
        board_only + reserves(pos, side) - reserves(pos, !side)
    }

    fn in_check(pos: &Hostage) -> bool {
        pos.is_check()
    }

    fn noisy(_pos: &Hostage, action: &HostageAction) -> Option<Noisy> {
        let HostageAction::Move(m) = action else {
            return None;
        };
        noisy_move(m, |r| value(r) * (100 + PRISON_PERCENT) / 100, value)
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
        setup.setup.turn = !setup.setup.turn;
        setup.setup.ep_square = None;
        Hostage::from_setup(setup).ok()
    }
}

/// The noisy moves only: no drops, no exchanges.
impl ActionVisitor for NoisyMoves<ListVisitor<'_, Vec<HostageAction>>> {
    fn drops(&mut self, _role: Role, _targets: Bitboard) {}

    fn exchanges(&mut self, _given: Role, _rescued: Role, _targets: Bitboard) {}
}

#[inline]
fn value(role: Role) -> i32 {
    ROLES[role.index()].value.mg
}

fn reserve_value(reserve: &Reserve, percent: i32) -> i32 {
    RESERVE_ROLES
        .iter()
        .map(|&r| value(r) * i32::from(reserve.count(r)))
        .sum::<i32>()
        * percent
        / 100
}

/// What `color` holds off the board: its airfield and its prison.
fn reserves(pos: &Hostage, color: Color) -> i32 {
    reserve_value(pos.airfield(color), AIRFIELD_PERCENT)
        + reserve_value(pos.prison(color), PRISON_PERCENT)
}

/// The most valuable man `color` can put on the board next turn: from its
/// airfield, or rescued from the opponent's prison by an exchange.
fn best_drop(pos: &Hostage, color: Color) -> i32 {
    let airfield = RESERVE_ROLES
        .iter()
        .filter(|&&r| pos.airfield(color).contains(r))
        .map(|&r| value(r))
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
            .map(|&r| value(r))
            .max()
            .unwrap_or(0)
    });
    let others = reserve_value(pos.airfield(color), 100) - airfield;
    airfield.max(rescued) + others / 2
}

/// `color`'s reserve terms: airfield and prison, seventh-rank pawns by
/// whether they can promote, and its King's exposure to enemy drops.
fn reserve_terms(pos: &Hostage, color: Color) -> Taper {
    let board = pos.board();
    let reserves = reserves(pos, color);
    let mut score = s(reserves, reserves);
    let seventh = board.by_piece(Piece::new(color, Role::Pawn))
        & Bitboard::relative_rank(color, Rank::SEVENTH);
    let sevenths = seventh.count() as i32;
    score += if pos.can_promote(color) {
        SEVENTH_CAN_PROMOTE.times(sevenths)
    } else {
        SEVENTH_BLOCKED.times(sevenths)
    };
    if let Some(king) = board.king_of(color) {
        let open = (attacks::king_attacks(king) - board.occupied()).count() as i32;
        let danger = (open * DROP_DANGER * best_drop(pos, !color) / 100).min(DROP_DANGER_MAX);
        score -= s(danger, danger / 2);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
