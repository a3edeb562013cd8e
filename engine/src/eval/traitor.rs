//! The Traitor Chess family: the shared board terms by colour with chess
//! values, material counted for whoever controls a piece (Traitor mode: an
//! announced traitor counts for its announcer; Defector: colour is
//! control; the shared modes: an announced piece counts for neither), and
//! each player's potential announcements: half the value of the enemy
//! pieces its remaining secret can still turn (Standard: its ids on the
//! board; Simplified: its type counts; Impromptu: the best piece its
//! public budget buys; a secret still to choose: half the budget).
//!
//! The evaluation reads the position it is given. Under hidden information
//! the engine gives it determinizations only: the opponent's secret there
//! is a sample consistent with the searcher's view, never the true one.
//!
//! Announcements are quiet (quiescence does not search them: the
//! potential already counts them, half-way). The selection phase's
//! thousands of secret choices are searched to quiescence only. Null move
//! only at the start of a turn (never between an announcement and its
//! move) and with a piece besides King and pawns.

use heterodox_env::traitor::{self as rules, Mode, Secret, Selection, Step};
use heterodox_env::{Bitboard, Color, Piece, Role, Traitor, TraitorAction};

use super::chess::ROLES;
use super::endgame::endgame;
use super::fide::{self, s, Taper};
use super::fide_moves::{has_pieces, noisy_move, see_value};

use super::{
    for_side_to_act, pass_turn, white_minus_black, Evaluated, Knowledge, Noisy, Pruning, Tuning,
};

/// Per cent of a piece's value that a possible announcement of it is worth.
const POTENTIAL_PERCENT: i32 = 50;

pub(crate) struct TraitorKnowledge;

/// The knowledge Traitor is searched with.
impl Evaluated for Traitor {
    type Knowledge = TraitorKnowledge;
}

impl Tuning for TraitorKnowledge {
    type Weights = ();
    const HAND: () = ();
    const TUNED: () = ();
}

impl Knowledge for TraitorKnowledge {
    type Pos = Traitor;

    const PRUNING: Pruning = Pruning::ALL;

    fn evaluate(pos: &Traitor, _: &()) -> i32 {
        let board = pos.board();
        let (mut terms, phase) = fide::board_terms(board, &ROLES, Bitboard::EMPTY);
        terms += control_correction(pos);
        let potential = white_minus_black(|player| potential(pos, player));
        terms += s(potential, potential);
        for_side_to_act(endgame(board, terms.blend(phase), &ROLES), pos.turn())
    }

    fn material(pos: &Traitor, side: Color) -> i32 {
        let mut total = 0;
        for sq in pos.board().occupied() - pos.board().by_role(Role::King) {
            let role = pos.board().role_at(sq).expect("occupied");
            let v = ROLES[role.index()].value.mg;
            match controller(pos, sq) {
                Some(c) if c == side => total += v,
                Some(_) => total -= v,
                None => {}
            }
        }
        total
    }

    fn in_check(pos: &Traitor) -> bool {
        pos.step() != Step::Select && pos.is_check()
    }

    fn noisy(pos: &Traitor, action: &TraitorAction) -> Option<Noisy> {
        let TraitorAction::Move(m) = action else {
            return None;
        };
        // Capturing a piece the mover controls (its own announced
        // traitor) loses that piece.
        let victim = |role: Role| {
            let sq = match *m {
                heterodox_env::Move::EnPassant { from, to } => {
                    heterodox_env::Square::from_coords(to.file(), from.rank())
                }
                _ => m.to(),
            };
            match controller(pos, sq) {
                Some(c) if c == pos.turn() => -see_value(role),
                _ => see_value(role),
            }
        };
        noisy_move(m, victim, see_value)
    }

    /// A cheap exchange test: the gain, less the capturing piece when an
    /// enemy-coloured piece guards the square (control is not modelled:
    /// traitors may guard either side).
    fn see_at_least(pos: &Traitor, action: &TraitorAction, threshold: i32) -> bool {
        let Some(noisy) = Self::noisy(pos, action) else {
            return 0 >= threshold;
        };
        let TraitorAction::Move(m) = action else {
            return noisy.gain >= threshold;
        };
        let board = pos.board();
        let occupied = board.occupied() ^ Bitboard::from_square(m.from());
        let defended = board.attackers_to(m.to(), !pos.turn(), occupied).any();
        noisy.gain - if defended { noisy.mover } else { 0 } >= threshold
    }

    fn null_move(pos: &Traitor) -> Option<Traitor> {
        if pos.step() != Step::Open || !has_pieces(pos.board(), pos.turn()) {
            return None;
        }
        let mut setup = pos.to_setup();
        pass_turn(&mut setup.setup);
        setup.last_move = None;
        Traitor::from_setup(setup, *pos.rules()).ok()
    }

    fn shallow_step(pos: &Traitor) -> bool {
        pos.step() == Step::Select
    }
}

/// Who the piece on `sq` counts for: its controller, or nobody for a piece
/// both players may move.
fn controller(pos: &Traitor, sq: heterodox_env::Square) -> Option<Color> {
    let colour = pos.board().color_at(sq)?;
    if !pos.announced().contains(sq) {
        return Some(colour);
    }
    match pos.rules().mode {
        Mode::Traitor => Some(!colour),
        Mode::Defector => Some(colour),
        Mode::DoubleAgent | Mode::DefectorDoubleAgent | Mode::Mercenary => None,
    }
}

/// The board terms count every piece for its colour; this moves the value
/// of announced pieces to their controller (or to nobody), White minus
/// Black.
fn control_correction(pos: &Traitor) -> Taper {
    let board = pos.board();
    let mut correction = Taper::ZERO;
    for sq in pos.announced() - board.by_role(Role::King) {
        let (Some(colour), Some(role)) = (board.color_at(sq), board.role_at(sq)) else {
            continue;
        };
        let value = ROLES[role.index()].value;
        let moved = match controller(pos, sq) {
            Some(c) if c != colour => value.times(2),
            Some(_) => Taper::ZERO,
            None => value,
        };
        correction += if colour == Color::White {
            -moved
        } else {
            moved
        };
    }
    correction
}

/// What `player`'s remaining secret can still turn, in centipawns.
fn potential(pos: &Traitor, player: Color) -> i32 {
    let board = pos.board();
    let targets = board.by_color(!player) - pos.announced() - board.by_role(Role::King);
    let worth = |role: Role| ROLES[role.index()].value.mg;
    let total = match pos.secret(player) {
        Secret::Unchosen => i32::from(pos.budget(player)) * 100,
        Secret::Nothing => targets
            .filter_map(|sq| board.role_at(sq))
            .filter(|&role| rules::value(role) <= pos.budget(player))
            .map(worth)
            .max()
            .unwrap_or(0),
        Secret::Remaining(Selection::Pieces(ids)) => targets
            .filter(|&sq| pos.id_at(sq).is_some_and(|id| ids.contains(id)))
            .filter_map(|sq| board.role_at(sq))
            .map(worth)
            .sum(),
        Secret::Remaining(Selection::Types(counts)) => [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ]
        .into_iter()
        .map(|role| {
            let available = (targets & board.by_piece(Piece::new(!player, role))).count() as i32;
            available.min(i32::from(counts.get(role))) * worth(role)
        })
        .sum(),
    };
    total * POTENTIAL_PERCENT / 100
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::traitor::{Commitment, TraitorRules};
    use heterodox_env::Position;

    #[test]
    fn an_announced_traitor_counts_for_its_announcer() {
        let mut p = Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Standard)).unwrap();
        for step in ["S-d8", "S-d1"] {
            let action = p.parse_step(step).unwrap();
            p.play(&action).unwrap();
        }
        assert_eq!(TraitorKnowledge::material(&p, Color::White), 0);
        let before = potential(&p, Color::White);
        assert_eq!(before, 960 / 2);
        let announce = p.parse_step("T-d8").unwrap();
        p.play(&announce).unwrap();
        assert_eq!(TraitorKnowledge::material(&p, Color::White), 2 * 960);
        assert_eq!(potential(&p, Color::White), 0);
    }
}
