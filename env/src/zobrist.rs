//! Zobrist keys for position identity (threefold repetition).
//!
//! Keys come from a fixed hash of (domain, index), so every variant can key
//! its own state (countdowns, prisons, hands, control, budgets) without a
//! shared table growing per variant: pick a domain constant below, unique in
//! this file, and hash the state's index with [`key`].

use crate::{Color, Role, Square};

/// Domain of the keys of pieces on squares.
pub const DOMAIN_PIECE: u64 = 1;
/// Domain of the side-to-move key.
pub const DOMAIN_TURN: u64 = 2;
/// Domain of castling rights, indexed by the rook's square.
pub const DOMAIN_CASTLING: u64 = 3;
/// Domain of the en passant file.
pub const DOMAIN_EN_PASSANT: u64 = 4;
/// First domain free for variants (Poison uses this + 0, Hostage + 1, ...).
pub const DOMAIN_VARIANT_BASE: u64 = 16;

/// SplitMix64 finaliser: a fast bijective mixer with good avalanche (the
/// crate's one mixer, [`crate::rng::mix64`]).
pub use crate::rng::mix64 as mix;

/// The key of item `index` in `domain`.
#[inline]
pub const fn key(domain: u64, index: u64) -> u64 {
    mix((domain << 40) ^ index ^ 0x9e37_79b9_7f4a_7c15)
}

const PIECE_KEYS: [u64; 2 * Role::COUNT * 64] = {
    let mut keys = [0; 2 * Role::COUNT * 64];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = key(DOMAIN_PIECE, i as u64);
        i += 1;
    }
    keys
};

/// The key of a piece of `color` and `role` on `sq` (a table lookup).
#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[(color.index() * Role::COUNT + role.index()) * 64 + sq.index()]
}

/// Present when Black is to move.
pub const BLACK_TO_MOVE: u64 = key(DOMAIN_TURN, 1);

#[inline]
pub fn castling(rook: Square) -> u64 {
    key(DOMAIN_CASTLING, rook.index() as u64)
}

#[inline]
pub fn en_passant(file: crate::File) -> u64 {
    key(DOMAIN_EN_PASSANT, file.index() as u64)
}

/// The XOR of [`piece`] over every man on `board`. Walks the piece
/// bitboards rather than [`crate::Board::pieces`]: no colour and role lookup
/// per square, which dominated the from-scratch keys computed after every
/// step for repetition.
#[inline]
pub fn board_pieces(board: &crate::Board) -> u64 {
    let mut key = 0;
    for color in Color::ALL {
        let ours = board.by_color(color);
        for role in Role::ALL {
            for sq in board.by_role(role) & ours {
                key ^= piece(color, role, sq);
            }
        }
    }
    key
}
