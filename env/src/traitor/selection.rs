//! Secret choices (T1, T2): what a player may select before play, the
//! enumeration of every valid selection (the legal `Select` actions and the
//! sampler's candidates), and a small seeded generator for random draws.

use std::fmt;

use arrayvec::ArrayVec;

use super::rules::{value, BUDGET};
use crate::rng::SplitMix64;
use crate::{Bitboard, Board, Color, Rank, Role, Square};

/// A piece's identity: the square it started on (T1). Kept in a per-square
/// array that moves with the piece, so captures, promotions and colour
/// changes never lose it.
pub type PieceId = Square;

/// The roles that may be traitors, in the order counts are kept.
pub const TRAITOR_ROLES: [Role; 5] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
];

/// How many pieces of each type (Simplified commitment): index by
/// [`Role::index`] for pawn, knight, bishop, rook, queen.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoleCounts(pub [u8; 5]);

impl RoleCounts {
    #[inline]
    pub fn get(self, role: Role) -> u8 {
        self.0.get(role.index()).copied().unwrap_or(0)
    }

    pub fn total_value(self) -> u32 {
        TRAITOR_ROLES
            .iter()
            .map(|r| u32::from(self.get(*r)) * u32::from(value(*r)))
            .sum()
    }

    pub fn is_empty(self) -> bool {
        self.0.iter().all(|c| *c == 0)
    }

    /// Letters from the most to the least valuable: `QRBNPPP`.
    pub fn letters(self) -> String {
        let mut out = String::new();
        for role in TRAITOR_ROLES.iter().rev() {
            for _ in 0..self.get(*role) {
                out.push(role.upper_char());
            }
        }
        out
    }

    /// Reads role letters in any order (`NBPPP`, `pppbn`); `None` on a
    /// letter that is not P, N, B, R or Q.
    pub fn from_letters(text: &str) -> Option<RoleCounts> {
        let mut counts = RoleCounts::default();
        for c in text.chars() {
            let role = Role::from_char(c).filter(|r| TRAITOR_ROLES.contains(r))?;
            let slot = &mut counts.0[role.index()];
            *slot = slot.checked_add(1)?;
        }
        Some(counts)
    }
}

/// One player's secret choice, as made by a `Select` action.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    /// Standard: the ids (starting squares) of the chosen enemy pieces.
    Pieces(Bitboard),
    /// Simplified: types and counts.
    Types(RoleCounts),
}

impl Selection {
    /// The long form after `S-`: ids `c1,g2,h1` or letters `NBPPP`.
    pub fn long(self) -> String {
        match self {
            Selection::Pieces(ids) => ids.map(|sq| sq.to_string()).collect::<Vec<_>>().join(","),
            Selection::Types(counts) => counts.letters(),
        }
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.long())
    }
}

/// A player's secret in the full state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Secret {
    /// The selection phase has not reached this player yet.
    Unchosen,
    /// What remains of the selection: announced pieces are taken out.
    Remaining(Selection),
    /// Impromptu: there is nothing to keep secret.
    Nothing,
}

/// The role a piece with this id had in the start position, and its colour.
pub fn start_piece(id: PieceId) -> Option<(Color, Role)> {
    let back = Role::FIDE_BACK_RANK[id.file().index()];
    match id.rank() {
        Rank::FIRST => Some((Color::White, back)),
        Rank::SECOND => Some((Color::White, Role::Pawn)),
        Rank::SEVENTH => Some((Color::Black, Role::Pawn)),
        Rank::EIGHTH => Some((Color::Black, back)),
        _ => None,
    }
}

/// The selection cost of a piece in Standard commitment: the value of the
/// type it started as (a pawn chosen as a pawn costs 1 even once promoted).
pub fn start_value(id: PieceId) -> u8 {
    start_piece(id).map_or(0, |(_, role)| value(role))
}

/// Candidate pieces for a Standard selection by `chooser`: ids of the
/// opponent's non-royal pieces on the board, by id order, with their cost.
pub fn standard_candidates(
    board: &Board,
    ids: &[u8; 64],
    chooser: Color,
) -> ArrayVec<(PieceId, u8), 16> {
    let mut candidates: ArrayVec<(PieceId, u8), 16> = ArrayVec::new();
    let mut found = Bitboard::EMPTY;
    for sq in board.by_color(!chooser) - board.by_role(Role::King) {
        if let Some(id) = Square::new(u32::from(ids[sq.index()])) {
            found.add(id);
        }
    }
    for id in found {
        if candidates.len() < 16 {
            candidates.push((id, start_value(id)));
        }
    }
    candidates
}

/// Upper bound per type for a Simplified selection: the opponent's pieces of
/// that type on the board when choosing (8 pawns, 2 knights, ... at the start).
pub fn simplified_caps(board: &Board, chooser: Color) -> RoleCounts {
    let mut caps = RoleCounts::default();
    for role in TRAITOR_ROLES {
        caps.0[role.index()] = (board.by_role(role) & board.by_color(!chooser)).count() as u8;
    }
    caps
}

/// Calls `visit` with every nonempty subset of `candidates` whose cost is
/// within `budget`, each subset once.
pub fn visit_piece_sets(
    candidates: &[(PieceId, u8)],
    budget: u8,
    visit: &mut impl FnMut(Bitboard),
) {
    fn walk(
        rest: &[(PieceId, u8)],
        budget: u8,
        chosen: Bitboard,
        visit: &mut impl FnMut(Bitboard),
    ) {
        let Some(((id, cost), tail)) = rest.split_first() else {
            if chosen.any() {
                visit(chosen);
            }
            return;
        };
        walk(tail, budget, chosen, visit);
        if *cost <= budget {
            walk(tail, budget - cost, chosen.with(*id), visit);
        }
    }
    walk(candidates, budget, Bitboard::EMPTY, visit);
}

/// Calls `visit` with every nonempty count vector within `caps` whose value
/// is within `budget`.
pub fn visit_type_counts(caps: RoleCounts, budget: u8, visit: &mut impl FnMut(RoleCounts)) {
    fn walk(
        index: usize,
        caps: RoleCounts,
        budget: u8,
        counts: RoleCounts,
        visit: &mut impl FnMut(RoleCounts),
    ) {
        if index == TRAITOR_ROLES.len() {
            if !counts.is_empty() {
                visit(counts);
            }
            return;
        }
        let role = TRAITOR_ROLES[index];
        let cost = value(role);
        let mut next = counts;
        for n in 0..=caps.get(role) {
            if u32::from(n) * u32::from(cost) > u32::from(budget) {
                break;
            }
            next.0[role.index()] = n;
            walk(index + 1, caps, budget - n * cost, next, visit);
        }
    }
    walk(0, caps, budget, RoleCounts::default(), visit);
}

/// Every valid selection of `chooser` with the full budget, in a fixed order.
pub fn visit_selections(
    board: &Board,
    ids: &[u8; 64],
    chooser: Color,
    standard: bool,
    visit: &mut impl FnMut(Selection),
) {
    if standard {
        let candidates = standard_candidates(board, ids, chooser);
        visit_piece_sets(&candidates, BUDGET, &mut |set| {
            visit(Selection::Pieces(set))
        });
    } else {
        let caps = simplified_caps(board, chooser);
        visit_type_counts(caps, BUDGET, &mut |counts| visit(Selection::Types(counts)));
    }
}

/// The crate's generator ([`SplitMix64`]) with Traitor's draw: random
/// selections and the view sampler need reproducible draws, pinned by
/// tests, so `below` here is [`SplitMix64::below_wide`].
#[derive(Clone, Debug)]
pub struct SeededRng(SplitMix64);

impl SeededRng {
    pub fn new(seed: u64) -> SeededRng {
        SeededRng(SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), by multiply-high (bias below 2^-32 for
    /// the small `n` used here).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below_wide(n)
    }
}
