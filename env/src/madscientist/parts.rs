//! Parts, the multisets of parts a piece is built from, and the hands
//! parts wait in.
//!
//! A piece is at most two of each of four parts (M2), so its whole identity
//! fits in one byte: four 2-bit counts. The byte is the board's per-square
//! payload and the piece's Zobrist index.

use std::fmt;

/// One of the four part types (M2). The discriminant is the part's index
/// in [`Parts`] and [`Hand`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Part {
    /// One step orthogonally; two Wazirs ride like a rook.
    Wazir = 0,
    /// One step diagonally; two Ferzes ride like a bishop.
    Ferz = 1,
    /// Narrow knight's move forward (+-1, +2), wide one back (+-2, -1).
    Crab = 2,
    /// Wide knight's move forward (+-2, +1), narrow one back (+-1, -2).
    Barc = 3,
}

impl Part {
    pub const ALL: [Part; 4] = [Part::Wazir, Part::Ferz, Part::Crab, Part::Barc];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W`, `F`, `C` or `B`.
    pub const fn char(self) -> char {
        match self {
            Part::Wazir => 'W',
            Part::Ferz => 'F',
            Part::Crab => 'C',
            Part::Barc => 'B',
        }
    }

    /// Reads `W`, `F`, `C` or `B` (upper case only: case means colour in
    /// position strings).
    pub const fn from_char(c: char) -> Option<Part> {
        match c {
            'W' => Some(Part::Wazir),
            'F' => Some(Part::Ferz),
            'C' => Some(Part::Crab),
            'B' => Some(Part::Barc),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Part::Wazir => "Wazir",
            Part::Ferz => "Ferz",
            Part::Crab => "Crab",
            Part::Barc => "Barc",
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// The most parts of one type a piece may hold (M2, M5).
pub const MAX_OF_A_TYPE: u8 = 2;

/// A piece's parts: four 2-bit counts (W in bits 0-1, F 2-3, C 4-5, B 6-7).
/// Every constructor keeps each count at 0, 1 or 2.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Parts(u8);

impl Parts {
    pub const EMPTY: Parts = Parts(0);
    /// Rook: two Wazirs.
    pub const ROOK: Parts = Parts(0b0000_0010);
    /// Bishop: two Ferzes.
    pub const BISHOP: Parts = Parts(0b0000_1000);
    /// Knight: a Crab and a Barc.
    pub const KNIGHT: Parts = Parts(0b0101_0000);
    /// Queen: two Wazirs and two Ferzes.
    pub const QUEEN: Parts = Parts(0b0000_1010);

    /// A one-part piece (what animation creates).
    #[inline]
    pub const fn single(part: Part) -> Parts {
        Parts(1 << (2 * part.index()))
    }

    /// Parts from counts `[W, F, C, B]`; `None` when a count exceeds two.
    pub const fn from_counts(counts: [u8; 4]) -> Option<Parts> {
        let mut bits = 0u8;
        let mut i = 0;
        while i < 4 {
            if counts[i] > MAX_OF_A_TYPE {
                return None;
            }
            bits |= counts[i] << (2 * i);
            i += 1;
        }
        Some(Parts(bits))
    }

    /// The raw byte (a table index; 0 is no parts).
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn count(self, part: Part) -> u8 {
        (self.0 >> (2 * part.index())) & 3
    }

    /// Number of parts in all.
    pub const fn total(self) -> u8 {
        self.count(Part::Wazir)
            + self.count(Part::Ferz)
            + self.count(Part::Crab)
            + self.count(Part::Barc)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when one more `part` still respects the two-of-a-type limit.
    #[inline]
    pub const fn can_add(self, part: Part) -> bool {
        self.count(part) < MAX_OF_A_TYPE
    }

    /// Adds one part; the caller has checked [`Parts::can_add`].
    #[inline]
    pub fn add(&mut self, part: Part) {
        debug_assert!(self.can_add(part));
        self.0 += 1 << (2 * part.index());
    }

    /// Removes one part; the caller has checked that it is there.
    #[inline]
    pub fn remove(&mut self, part: Part) {
        debug_assert!(self.count(part) > 0);
        self.0 -= 1 << (2 * part.index());
    }

    /// The FIDE letter of the four start pieces (`Q`, `R`, `B`, `N`), which
    /// position strings and notation use as shorthands.
    pub const fn fide_letter(self) -> Option<char> {
        match self {
            Parts::QUEEN => Some('Q'),
            Parts::ROOK => Some('R'),
            Parts::BISHOP => Some('B'),
            Parts::KNIGHT => Some('N'),
            _ => None,
        }
    }

    /// The parts a FIDE letter (either case) stands for.
    pub const fn from_fide_letter(c: char) -> Option<Parts> {
        match c.to_ascii_uppercase() {
            'Q' => Some(Parts::QUEEN),
            'R' => Some(Parts::ROOK),
            'B' => Some(Parts::BISHOP),
            'N' => Some(Parts::KNIGHT),
            _ => None,
        }
    }

    /// The designator used in notation: the FIDE letter when there is
    /// one, otherwise the bracketed part letters (`[WWC]`).
    pub fn designator(self) -> String {
        match self.fide_letter() {
            Some(c) => c.to_string(),
            None => format!("[{self}]"),
        }
    }
}

/// Writes each part's letter as many times as `count` says, in canonical
/// order W, F, C, B: how both a piece's parts and a hand are written.
fn write_part_letters(f: &mut fmt::Formatter<'_>, count: impl Fn(Part) -> u8) -> fmt::Result {
    for part in Part::ALL {
        for _ in 0..count(part) {
            write!(f, "{}", part.char())?;
        }
    }
    Ok(())
}

impl fmt::Display for Parts {
    /// The part letters in canonical order W, F, C, B (`WWFC`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_part_letters(f, |part| self.count(part))
    }
}

impl fmt::Debug for Parts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Parts({self})")
    }
}

/// The most parts a hand keeps once its owner's turn is complete (M4).
pub const HAND_LIMIT: u8 = 8;

/// The most parts a hand can hold in the middle of a turn: eight kept plus
/// the eight of the largest piece captured.
pub const HAND_MAX_DURING_TURN: u8 = 16;

/// Parts in one player's hand, counted by type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Hand([u8; 4]);

impl Hand {
    pub const EMPTY: Hand = Hand([0; 4]);

    pub const fn from_counts(counts: [u8; 4]) -> Hand {
        Hand(counts)
    }

    #[inline]
    pub const fn count(self, part: Part) -> u8 {
        self.0[part.index()]
    }

    #[inline]
    pub const fn total(self) -> u8 {
        self.0[0] + self.0[1] + self.0[2] + self.0[3]
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.total() == 0
    }

    #[inline]
    pub fn add(&mut self, part: Part) {
        self.0[part.index()] += 1;
    }

    /// Puts every part of a captured piece in the hand (M3).
    #[inline]
    pub fn add_all(&mut self, parts: Parts) {
        for part in Part::ALL {
            self.0[part.index()] += parts.count(part);
        }
    }

    #[inline]
    pub fn remove(&mut self, part: Part) {
        debug_assert!(self.0[part.index()] > 0);
        self.0[part.index()] -= 1;
    }

    /// Over the limit: the owner must discard before the turn ends (M4).
    #[inline]
    pub const fn is_over_limit(self) -> bool {
        self.total() > HAND_LIMIT
    }
}

impl fmt::Display for Hand {
    /// Part letters in canonical order, upper case (`WWFB`); empty string
    /// for an empty hand.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_part_letters(f, |part| self.count(part))
    }
}
