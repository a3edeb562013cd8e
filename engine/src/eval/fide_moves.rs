//! What the variants played with FIDE moves on the shared `Board` (chess,
//! Poison, Hostage, Traitor) share about those moves: which are noisy and
//! what they gain, the list of noisy moves from a variant's generator,
//! static exchange evaluation, and when a null move risks zugzwang. Each
//! variant keeps only its own values and its own actions beside the FIDE
//! moves.

use heterodox_env::attacks;
use heterodox_env::fide::movegen::MoveSink;
use heterodox_env::{Bitboard, Board, Color, Move, Role, Square};

use super::Noisy;

/// Material and exchange values (centipawns) by role: pawn, knight,
/// bishop, rook, queen; the King is never exchanged.
pub(crate) const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

#[inline]
pub(crate) fn see_value(role: Role) -> i32 {
    SEE_VALUES.get(role.index()).copied().unwrap_or(0)
}

/// A FIDE move's material change when it is noisy (a capture or a
/// promotion): the captured man by `victim`, a promotion's gain over the
/// pawn and the moving man by `value`. The variants differ only in those
/// two measures (Hostage's captor keeps its prisoner, Traitor's capture
/// of its own traitor loses).
#[inline]
pub(crate) fn noisy_move(
    m: &Move,
    victim: impl Fn(Role) -> i32,
    value: impl Fn(Role) -> i32,
) -> Option<Noisy> {
    let captured = m.capture().map_or(0, victim);
    let promotion = m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
    (m.is_capture() || m.promotion().is_some()).then(|| Noisy {
        gain: captured + promotion,
        mover: value(m.role()),
    })
}

/// Passes on the noisy moves a FIDE move generator offers (captures,
/// promotions, en passant) to `inner`, the variant's list: quiescence's
/// list without building the quiet moves. A `MoveSink` for chess and
/// Hostage; Poison's own visitor trait uses [`NoisyMoves::piece_moves_to`].
pub(crate) struct NoisyMoves<S> {
    pub inner: S,
    /// The opponent's men, read once: the generator reports the moves of
    /// the position it was built for.
    enemy: Bitboard,
}

impl<S> NoisyMoves<S> {
    pub fn new(inner: S, board: &Board, us: Color) -> NoisyMoves<S> {
        NoisyMoves {
            inner,
            enemy: board.by_color(!us),
        }
    }

    /// The noisy part of `targets` for a man of `role`: enemy men, and
    /// the last rank for a pawn.
    #[inline]
    fn targets(&self, role: Role, targets: Bitboard) -> Bitboard {
        let noisy = if role == Role::Pawn {
            self.enemy | Bitboard::BACKRANKS
        } else {
            self.enemy
        };
        targets & noisy
    }

    /// Passes a generator's moves of a man of `role` to `targets` on to
    /// `inner` (through `pass`, which calls the visitor trait's own
    /// method) with the noisy targets only, and not at all when none is
    /// noisy: the one filter of both visitor traits, `MoveSink` here and
    /// Poison's `ActionVisitor`.
    #[inline]
    pub fn piece_moves_to(
        &mut self,
        role: Role,
        targets: Bitboard,
        pass: impl FnOnce(&mut S, Bitboard),
    ) {
        let targets = self.targets(role, targets);
        if targets.any() {
            pass(&mut self.inner, targets);
        }
    }
}

impl<P, S: MoveSink<P>> MoveSink<P> for NoisyMoves<S> {
    #[inline]
    fn piece_moves(&mut self, position: &P, role: Role, from: Square, targets: Bitboard) {
        self.piece_moves_to(role, targets, |inner, noisy| {
            inner.piece_moves(position, role, from, noisy);
        });
    }

    #[inline]
    fn special(&mut self, m: Move) {
        if matches!(m, Move::EnPassant { .. }) {
            self.inner.special(m);
        }
    }
}

/// True when `color` has a piece besides King and pawns: then a null move
/// is no zugzwang risk worth its gain.
pub(crate) fn has_pieces(board: &Board, color: Color) -> bool {
    (board.by_color(color) - board.by_role(Role::Pawn) - board.by_role(Role::King)).any()
}

/// Static exchange evaluation of a FIDE move on a FIDE board (pins are
/// ignored): does the exchange on the target square win `threshold`?
pub(crate) fn see_at_least(board: &Board, us: Color, m: &Move, threshold: i32) -> bool {
    let (from, to) = match *m {
        Move::Castle { .. } => return 0 >= threshold,
        _ => (m.from(), m.to()),
    };
    let mut balance = m.capture().map_or(0, see_value) - threshold;
    let mut next = see_value(m.role());
    if let Some(promotion) = m.promotion() {
        balance += see_value(promotion) - SEE_VALUES[0];
        next = see_value(promotion);
    }
    if balance < 0 {
        return false;
    }
    balance -= next;
    if balance >= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if let Move::EnPassant { from, to } = *m {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    let diagonal = board.bishops_and_queens();
    let straight = board.rooks_and_queens();
    let mut attackers = board.attackers_to(to, Color::White, occupied)
        | board.attackers_to(to, Color::Black, occupied);
    let mut side = !us;
    loop {
        attackers &= occupied;
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        let (role, sq) = least_valuable(board, ours);
        side = !side;
        balance = -balance - 1 - see_value(role);
        if balance >= 0 {
            if role == Role::King && (attackers & board.by_color(side)).any() {
                side = !side;
            }
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & straight;
        }
    }
    side != us
}

fn least_valuable(board: &Board, pieces: Bitboard) -> (Role, Square) {
    for role in Role::FIDE {
        if let Some(sq) = (pieces & board.by_role(role)).first() {
            return (role, sq);
        }
    }
    unreachable!("a non-empty set of FIDE pieces")
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::{Chess, Position};

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos = Chess::from_fen(fen).unwrap();
        let m = pos.parse_action(uci).unwrap();
        see_at_least(pos.board(), pos.turn(), &m, threshold)
    }

    #[test]
    fn static_exchange_evaluation() {
        // Rook takes a pawn guarded by a pawn: loses the exchange.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        // Nxe5: N for P, then the x-rayed rook and queen recapture.
        assert!(!see(fen, "d3e5", 1));
        assert!(see(fen, "d3e5", -220));
    }
}
