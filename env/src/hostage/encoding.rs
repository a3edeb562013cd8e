//! The fixed action space and the observation tensor of Hostage Chess (see
//! docs/encoding.md, section "Hostage Chess").
//!
//! Action index, squares from the mover's point of view (flipped for
//! Black):
//!
//! ```text
//! index range    count  what                              index
//!    0..4096      4096  queen-like and knight moves,      plane * 64 + from
//!                       castling as the king's two-square
//!                       step (planes 0..64, no promotion)
//! 4096..4864       768  promotions: 12 planes,            (64 + 4 * dir + piece) * 64 + from
//!                       piece N 0, B 1, R 2, Q 3 (the piece released from
//!                       the opponent's prison, H6; N, B, R numbered as in
//!                       chess's underpromotions), dir 0 capture towards
//!                       the a-file, 1 straight, 2 capture towards the h-file
//! 4864..5184       320  drops: type P, N, B, R, Q         4864 + type * 64 + to
//! 5184..6208      1024  exchanges: 16 (given, rescued)    5184 + pair * 64 + to
//!                       pairs of EXCHANGE_PAIRS
//!                                               total 6208
//! ```
//!
//! The exchange pairs are the combinations the value order P < N = B < R < Q
//! allows (given worth at least the rescued man, H2), given-major:
//!
//! ```text
//! given \ rescued    P    N    B    R    Q
//!   P                0    -    -    -    -
//!   N                1    2    3    -    -
//!   B                4    5    6    -    -
//!   R                7    8    9   10    -
//!   Q               11   12   13   14   15
//! ```
//!
//! 1 + 3 + 3 + 4 + 5 = 16 pairs; [`EXCHANGE_PAIRS`] is the table.
//!
//! Observation planes (42), from the observer's point of view. Planes
//! 0..20 are exactly chess's ([`FIDE_CHANNEL_NAMES`]); Hostage's own
//! planes follow:
//!
//! ```text
//!  0..6   own_<role>: pawn knight bishop rook queen king
//!  6..12  their_<role>, same order
//! 12..16  own_kingside_castling, own_queenside_castling,
//!         their_kingside_castling, their_queenside_castling (constant 0/1)
//! 16      en_passant              1 on the en passant target square
//! 17      no_progress             halfmoves / 100, at most 1 (constant)
//! 18      side_to_move            constant 1 when White is to act, 0 when Black
//! 19      ones                    constant 1
//! 20, 21  own_king_unmoved, their_king_unmoved (constant 0/1: a rook dropped
//!         on its corner may castle only beside an unmoved king, H5)
//! 22..27  own_prison_<role>       opponent men the observer holds, count / full set
//! 27..32  own_airfield_<role>     the observer's men ready to drop
//! 32..37  their_prison_<role>     the observer's men the opponent holds
//! 37..42  their_airfield_<role>   the opponent's men ready to drop
//! ```
//!
//! Reserve roles are pawn, knight, bishop, rook, queen; the full set is 8,
//! 2, 2, 2, 1, so every count plane is a constant in `0..=1`. Why
//! normalised counts rather than thermometer planes: docs/encoding.md.

use crate::encoding::board_moves::{
    board_move_plane, promotion_direction, BOARD_MOVE_PLANES, PROMOTION_DIRECTIONS,
};
use crate::encoding::fide_planes::{
    encode_fide_pieces, encode_fide_state, flag, FIDE_CHANNEL_NAMES, FIDE_STATE_PLANES,
};
use crate::encoding::{
    relative_move_squares, relative_square, write_constant_plane, Encoding, SQUARES,
};
use crate::{Color, Role, Square};

use super::reserve::reserve_index;
use super::{Hostage, HostageAction, Reserve, FULL_SET, RESERVE_ROLES};

/// The (given, rescued) pairs an exchange may name, in index order: every
/// pair with the given man worth at least the rescued one (H2).
pub const EXCHANGE_PAIRS: [(Role, Role); 16] = [
    (Role::Pawn, Role::Pawn),
    (Role::Knight, Role::Pawn),
    (Role::Knight, Role::Knight),
    (Role::Knight, Role::Bishop),
    (Role::Bishop, Role::Pawn),
    (Role::Bishop, Role::Knight),
    (Role::Bishop, Role::Bishop),
    (Role::Rook, Role::Pawn),
    (Role::Rook, Role::Knight),
    (Role::Rook, Role::Bishop),
    (Role::Rook, Role::Rook),
    (Role::Queen, Role::Pawn),
    (Role::Queen, Role::Knight),
    (Role::Queen, Role::Bishop),
    (Role::Queen, Role::Rook),
    (Role::Queen, Role::Queen),
];

/// `EXCHANGE_PAIR_INDEX[given][rescued]` (reserve indices P, N, B, R, Q):
/// the pair's position in [`EXCHANGE_PAIRS`], `None` for pairs the value
/// order forbids.
const EXCHANGE_PAIR_INDEX: [[Option<usize>; 5]; 5] = {
    let mut table = [[None; 5]; 5];
    let mut i = 0;
    while i < EXCHANGE_PAIRS.len() {
        let (given, rescued) = EXCHANGE_PAIRS[i];
        table[reserve_slot(given)][reserve_slot(rescued)] = Some(i);
        i += 1;
    }
    table
};

/// [`reserve_index`] for the const table (only reserve roles are passed).
const fn reserve_slot(role: Role) -> usize {
    match reserve_index(role) {
        Some(i) => i,
        None => panic!("kings are never exchanged"),
    }
}

/// The pieces a promotion may release, in plane order (knight, bishop and
/// rook numbered as in chess's underpromotion planes).
pub const PROMOTION_PIECES: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// First promotion plane.
pub const PROMOTION_PLANE: usize = BOARD_MOVE_PLANES;
/// Planes of board moves and promotions: 64 + 3 directions x 4 pieces.
pub const MOVE_PLANES: usize = PROMOTION_PLANE + PROMOTION_DIRECTIONS * PROMOTION_PIECES.len();
/// First drop index.
pub const DROP_OFFSET: usize = MOVE_PLANES * SQUARES;
/// First exchange index.
pub const EXCHANGE_OFFSET: usize = DROP_OFFSET + RESERVE_ROLES.len() * SQUARES;
/// Size of the action space.
pub const NUM_ACTIONS: usize = EXCHANGE_OFFSET + EXCHANGE_PAIRS.len() * SQUARES;

/// Chess's planes: pieces 0..12, then the FIDE state planes (castling,
/// en passant, no progress, side to move, ones) 12..20.
const FIDE_STATE: usize = 12;
/// Own, then their king never moved.
const UNMOVED_KING: usize = FIDE_STATE + FIDE_STATE_PLANES;
/// Own prison, own airfield, their prison, their airfield; five planes
/// each.
const RESERVES: usize = UNMOVED_KING + 2;
/// Observation planes.
pub const NUM_CHANNELS: usize = RESERVES + 4 * RESERVE_ROLES.len();

impl Hostage {
    /// The index of `action` played by `mover` (see the module docs), or
    /// `None` when no position could make it legal (a move off every line,
    /// a drop or exchange of a King, an exchange the value order forbids).
    pub fn index_for(mover: Color, action: &HostageAction) -> Option<usize> {
        match *action {
            HostageAction::Move(m) => {
                let (from, to) = relative_move_squares(&m, mover);
                let plane = match m.promotion() {
                    Some(role) => {
                        let piece = PROMOTION_PIECES.iter().position(|r| *r == role)?;
                        PROMOTION_PLANE
                            + promotion_direction(from, to)? * PROMOTION_PIECES.len()
                            + piece
                    }
                    None => board_move_plane(from, to)?,
                };
                Some(plane * SQUARES + from)
            }
            HostageAction::Drop { role, to } => {
                Some(DROP_OFFSET + reserve_index(role)? * SQUARES + relative_square(to, mover))
            }
            HostageAction::Exchange { given, rescued, to } => {
                let pair = EXCHANGE_PAIR_INDEX[reserve_index(given)?][reserve_index(rescued)?]?;
                Some(EXCHANGE_OFFSET + pair * SQUARES + relative_square(to, mover))
            }
        }
    }
}

/// Writes the five count planes of a reserve, each count divided by the
/// full set's (so 0..=1).
fn write_reserve_planes(out: &mut [f32], reserve: &Reserve) {
    for (i, count) in reserve.counts().into_iter().enumerate() {
        write_constant_plane(
            &mut out[i * SQUARES..(i + 1) * SQUARES],
            f32::from(count) / f32::from(FULL_SET[i]),
        );
    }
}

impl Encoding for Hostage {
    const ENCODING_VERSION: u32 = 1;

    fn board_action_planes(&self) -> usize {
        NUM_ACTIONS / SQUARES
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// See the module docs. An action no position could make legal gets
    /// `num_actions()`, an index no legal action has, instead of a panic.
    #[inline]
    fn action_index(&self, action: &HostageAction) -> usize {
        Hostage::index_for(self.fide.turn, action).unwrap_or(NUM_ACTIONS)
    }

    fn num_channels(&self) -> usize {
        NUM_CHANNELS
    }

    fn channel_names(&self) -> Vec<String> {
        // Chess's planes first (pieces and the FIDE state planes).
        let mut names: Vec<String> = FIDE_CHANNEL_NAMES.map(String::from).into();
        names.push("own_king_unmoved".to_owned());
        names.push("their_king_unmoved".to_owned());
        for reserve in [
            "own_prison",
            "own_airfield",
            "their_prison",
            "their_airfield",
        ] {
            for role in RESERVE_ROLES {
                names.push(format!("{reserve}_{}", role.name()));
            }
        }
        names
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        let out = &mut out[..NUM_CHANNELS * SQUARES];
        let plane = |c: usize| c * SQUARES..(c + 1) * SQUARES;
        encode_fide_pieces(&self.fide.board, observer, out);
        // Rights are rook squares, dropped rooks included (H5).
        encode_fide_state(&self.fide, observer, &mut out[FIDE_STATE * SQUARES..]);
        for (i, side) in [observer, !observer].into_iter().enumerate() {
            let unmoved = self.unmoved_kings.contains(Square::E1.relative_to(side));
            write_constant_plane(&mut out[plane(UNMOVED_KING + i)], flag(unmoved));
        }
        let reserves = [
            &self.prisons[observer.index()],
            &self.airfields[observer.index()],
            &self.prisons[(!observer).index()],
            &self.airfields[(!observer).index()],
        ];
        for (i, reserve) in reserves.into_iter().enumerate() {
            let first = (RESERVES + i * RESERVE_ROLES.len()) * SQUARES;
            write_reserve_planes(
                &mut out[first..first + RESERVE_ROLES.len() * SQUARES],
                reserve,
            );
        }
    }
}
