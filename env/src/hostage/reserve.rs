//! Prisons and airfields: men off the board, counted by role.
//!
//! Hostage Chess never removes a man from the game (H7): a captured man
//! waits in the capturer's prison, a man given in an exchange waits in the
//! opponent's airfield. Kings never leave the board, so a reserve counts
//! only pawns, knights, bishops, rooks and queens.

use std::fmt;

use crate::Role;

/// The roles a reserve can hold, in the order of the counts (P, N, B, R, Q).
pub const RESERVE_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// The roles a pawn may be exchanged for on promotion, best first (the
/// order move lists use, as in FIDE chess).
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// How many men of each reserve role one side owns in a full set: the
/// most that board + prisons + airfields may hold. No action changes these
/// counts (H7, and a promotion swaps a pawn for an existing piece, so even
/// the counts per role are conserved), so they stay at the full set from
/// the standard start and below it from a composed position.
pub const FULL_SET: [u8; 5] = [8, 2, 2, 2, 1];

/// The exchange value of a role (H2: P < N = B < R < Q). `None` for roles
/// that never leave the board.
pub const fn exchange_value(role: Role) -> Option<u8> {
    match role {
        Role::Pawn => Some(1),
        Role::Knight | Role::Bishop => Some(2),
        Role::Rook => Some(3),
        Role::Queen => Some(4),
        _ => None,
    }
}

/// Index of a role in a reserve's counts, `None` for the King and the
/// roles of other variants.
#[inline]
pub const fn reserve_index(role: Role) -> Option<usize> {
    match role {
        Role::Pawn => Some(0),
        Role::Knight => Some(1),
        Role::Bishop => Some(2),
        Role::Rook => Some(3),
        Role::Queen => Some(4),
        _ => None,
    }
}

/// Men of one colour held off the board (a prison holds the opponent's
/// men, an airfield its owner's), as counts by role.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reserve {
    counts: [u8; 5],
}

impl Reserve {
    pub const EMPTY: Reserve = Reserve { counts: [0; 5] };

    /// Counts in the order P, N, B, R, Q.
    pub const fn from_counts(counts: [u8; 5]) -> Reserve {
        Reserve { counts }
    }

    pub const fn counts(&self) -> [u8; 5] {
        self.counts
    }

    /// How many men of `role` are held (0 for the King).
    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        reserve_index(role).map_or(0, |i| self.counts[i])
    }

    #[inline]
    pub fn contains(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// Men held, all roles together.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|c| u32::from(*c)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.counts == [0; 5]
    }

    /// True when a knight, bishop, rook or queen is held: the pieces a pawn
    /// can promote to (H6).
    #[inline]
    pub fn has_promotion_piece(&self) -> bool {
        self.counts[1] | self.counts[2] | self.counts[3] | self.counts[4] != 0
    }

    /// Adds one man. The King is never held; adding it is a caller bug.
    #[inline]
    pub fn add(&mut self, role: Role) {
        let i = reserve_index(role).expect("kings never leave the board");
        self.counts[i] += 1;
    }

    /// Takes one man out; the caller knows one is held.
    #[inline]
    pub fn remove(&mut self, role: Role) {
        let i = reserve_index(role).expect("kings never leave the board");
        self.counts[i] -= 1;
    }

    /// The roles held at least once, P first.
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        RESERVE_ROLES.into_iter().filter(|r| self.contains(*r))
    }
}

impl fmt::Display for Reserve {
    /// Uppercase letters, most valuable first (`QRRNPP`), `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for role in RESERVE_ROLES.into_iter().rev() {
            for _ in 0..self.count(role) {
                write!(f, "{}", role.upper_char())?;
            }
        }
        Ok(())
    }
}
