//! FIDE chess: the shared board terms with chess values, the mop-up of a
//! lone King, drawish endings scaled down, static exchange evaluation, and
//! the null move (sound unless the side to act has only King and pawns,
//! where zugzwang is common).

use heterodox_env::attacks;
use heterodox_env::chess::ListVisitor;
use heterodox_env::fide::movegen::MoveSink;
use heterodox_env::{Bitboard, Board, Chess, Color, Move, Piece, Role, Square};

use super::fide::{self, s, RoleInfo, RoleTable, Shape, Taper, NO_ROLE};
use super::{Knowledge, Noisy, Pruning};

/// Material and exchange values (centipawns) by role: pawn, knight,
/// bishop, rook, queen; the King is never exchanged.
pub(crate) const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Bonus for the side to act.
pub(crate) const TEMPO: i32 = 12;

const fn role(
    value: Taper,
    shape: Shape,
    phase: i32,
    mobility: Taper,
    mobility_zero: i32,
    king_attack: i32,
) -> RoleInfo {
    RoleInfo {
        value,
        shape,
        phase,
        mobility,
        mobility_zero,
        king_attack,
    }
}

/// The chess role table (docs/engine.md, "Chess").
pub(crate) const ROLES: RoleTable = [
    role(s(85, 110), Shape::Pawn, 0, Taper::ZERO, 0, 0),
    role(s(320, 300), Shape::Knight, 1, s(4, 4), 4, 2),
    role(s(335, 320), Shape::Bishop, 1, s(5, 5), 6, 2),
    role(s(470, 520), Shape::Rook, 2, s(2, 4), 6, 3),
    role(s(960, 960), Shape::Queen, 4, s(1, 2), 12, 5),
    role(Taper::ZERO, Shape::King, 0, Taper::ZERO, 0, 0),
    NO_ROLE,
    NO_ROLE,
    NO_ROLE,
];

pub(crate) struct ChessKnowledge;

impl Knowledge for ChessKnowledge {
    type Pos = Chess;

    const PRUNING: Pruning = Pruning {
        late_move_reductions: true,
        futility: true,
    };

    fn evaluate(pos: &Chess) -> i32 {
        let board = pos.board();
        let (terms, phase) = fide::board_terms(board, &ROLES, Bitboard::EMPTY);
        let white = endgame(board, terms.blend(phase), &ROLES);
        let score = if pos.turn() == Color::White {
            white
        } else {
            -white
        };
        score + TEMPO
    }

    fn material(pos: &Chess, side: Color) -> i32 {
        material_balance(pos.board(), side, &ROLES)
    }

    fn in_check(pos: &Chess) -> bool {
        pos.is_check()
    }

    fn noisy(_pos: &Chess, action: &Move) -> Option<Noisy> {
        noisy_move(action)
    }

    fn noisy_actions(pos: &Chess, out: &mut Vec<Move>) -> bool {
        out.clear();
        pos.visit_legal_moves(&mut NoisyVisitor(ListVisitor(out)));
        true
    }

    fn see_at_least(pos: &Chess, action: &Move, threshold: i32) -> bool {
        see_at_least(pos.board(), pos.turn(), action, threshold)
    }

    fn null_move(pos: &Chess) -> Option<Chess> {
        if !has_pieces(pos.board(), pos.turn()) {
            return None;
        }
        let mut setup = pos.to_setup();
        setup.turn = !setup.turn;
        setup.ep_square = None;
        Chess::from_setup(setup).ok()
    }
}

/// Passes on captures, promotions and en passant only.
struct NoisyVisitor<'a>(ListVisitor<'a, Vec<Move>>);

impl MoveSink<Chess> for NoisyVisitor<'_> {
    #[inline]
    fn piece_moves(&mut self, chess: &Chess, role: Role, from: Square, targets: Bitboard) {
        let targets = targets & noisy_targets(chess.board(), chess.turn(), role);
        if targets.any() {
            self.0.piece_moves(chess, role, from, targets);
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        if matches!(m, Move::EnPassant { .. }) {
            self.0.special(m);
        }
    }
}

/// The targets of a noisy move of `role`: enemy pieces, and the last rank
/// for a pawn.
#[inline]
pub(crate) fn noisy_targets(board: &Board, us: Color, role: Role) -> Bitboard {
    let enemy = board.by_color(!us);
    if role == Role::Pawn {
        enemy | Bitboard::BACKRANKS
    } else {
        enemy
    }
}

/// True when `color` has a piece besides King and pawns: then a null move
/// is no zugzwang risk worth its gain.
pub(crate) fn has_pieces(board: &Board, color: Color) -> bool {
    (board.by_color(color) - board.by_role(Role::Pawn) - board.by_role(Role::King)).any()
}

/// `side`'s material minus the opponent's by the middlegame values.
pub(crate) fn material_balance(board: &Board, side: Color, roles: &RoleTable) -> i32 {
    let mut total = 0;
    for role in Role::ALL {
        let value = roles[role.index()].value.mg;
        total += value
            * (board.by_piece(Piece::new(side, role)).count() as i32
                - board.by_piece(Piece::new(!side, role)).count() as i32);
    }
    total
}

/// Captures and promotions of a FIDE move, valued by [`SEE_VALUES`].
pub(crate) fn noisy_move(m: &Move) -> Option<Noisy> {
    let victim = m.capture().map_or(0, see_value);
    let promotion = m
        .promotion()
        .map_or(0, |role| see_value(role) - SEE_VALUES[0]);
    (m.is_capture() || m.promotion().is_some()).then(|| Noisy {
        gain: victim + promotion,
        mover: see_value(m.role()),
    })
}

#[inline]
pub(crate) fn see_value(role: Role) -> i32 {
    SEE_VALUES.get(role.index()).copied().unwrap_or(0)
}

/// The endgame corrections, from White's side: a lone King is driven to
/// the edge; without pawns, a lead of less than a rook rarely wins and is
/// scaled down.
pub(crate) fn endgame(board: &Board, white: i32, roles: &RoleTable) -> i32 {
    let strong = if white > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let strong_pawns = board.by_piece(Piece::new(strong, Role::Pawn));
    let lone = !board.by_color(weak).more_than_one();
    if strong_pawns.any() && !lone {
        // Neither correction applies: most positions stop here.
        return white;
    }
    let pieces = |color: Color| -> i32 {
        Role::ALL
            .iter()
            .filter(|r| !matches!(r, Role::Pawn | Role::King))
            .map(|r| {
                roles[r.index()].value.mg * board.by_piece(Piece::new(color, *r)).count() as i32
            })
            .sum()
    };
    let (strong_pieces, weak_pieces) = (pieces(strong), pieces(weak));
    let mut score = white;
    if lone && strong_pieces >= roles[Role::Rook.index()].value.mg {
        if let (Some(k), Some(l)) = (board.king_of(strong), board.king_of(weak)) {
            let bonus = fide::mop_up(k, l);
            score += if strong == Color::White {
                bonus
            } else {
                -bonus
            };
        }
    }
    if strong_pawns.is_empty()
        && strong_pieces - weak_pieces <= roles[Role::Bishop.index()].value.mg + 20
    {
        score /= 4;
    }
    score
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
pub(crate) mod tests {
    use super::*;
    use heterodox_env::Position;

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

    /// The position with colours swapped and the board turned over.
    pub(crate) fn mirrored(setup: &heterodox_env::Setup) -> heterodox_env::Setup {
        let mut board = Board::empty();
        for (sq, piece) in setup.board.pieces() {
            board.set_piece_at(sq.flip_vertical(), Piece::new(!piece.color, piece.role));
        }
        heterodox_env::Setup {
            board,
            turn: !setup.turn,
            castling_rights: setup.castling_rights.flip_vertical(),
            ep_square: setup.ep_square.map(Square::flip_vertical),
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        }
    }

    #[test]
    fn the_evaluation_does_not_care_which_colour_is_which() {
        let mut rng = heterodox_env::rng::SplitMix64::new(11);
        let mut actions = Vec::new();
        for _ in 0..20 {
            let mut pos = Chess::new();
            for _ in 0..60 {
                pos.legal_actions(&mut actions);
                if actions.is_empty() {
                    break;
                }
                pos.play_unchecked(&actions[rng.below(actions.len())]);
                let flipped = Chess::from_setup(mirrored(&pos.to_setup())).unwrap();
                assert_eq!(
                    ChessKnowledge::evaluate(&pos),
                    ChessKnowledge::evaluate(&flipped),
                    "{}",
                    pos.fen()
                );
            }
        }
    }

    #[test]
    fn the_start_position_is_balanced_but_for_the_tempo() {
        let pos = Chess::new();
        assert_eq!(ChessKnowledge::evaluate(&pos), TEMPO);
        let mut black = pos.clone();
        black.play(&black.parse_action("e2e4").unwrap()).unwrap();
        let after = ChessKnowledge::evaluate(&black);
        assert!(after < 0, "White's centre pawn is worth something: {after}");
    }
}
