//! Typed errors. Each says what is wrong in words a user can act on.

use crate::{Color, Role, Square};

/// Why a setup is not a legal position (see [`crate::Chess::from_setup`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("{0} has no king")]
    MissingKing(Color),
    #[error("{0} has more than one king")]
    TooManyKings(Color),
    #[error("pawn on the back rank at {0}")]
    PawnOnBackRank(Square),
    #[error("{0} has {1} pieces (at most 16)")]
    TooManyPieces(Color, usize),
    #[error("{0} has {1} pawns (at most 8)")]
    TooManyPawns(Color, usize),
    #[error("{role} on {square} does not exist in {variant}")]
    UnsupportedRole {
        role: Role,
        square: Square,
        variant: &'static str,
    },
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(Color),
    #[error("impossible check: {0} is attacked by more than two pieces")]
    TooManyCheckers(Color),
    #[error("castling right on {rook} needs an unmoved {color} king on its home square and a {color} rook on {rook}")]
    BadCastlingRight { color: Color, rook: Square },
    #[error("en passant square {0} is impossible: it needs the double-stepped pawn in front of it and both squares behind it empty")]
    BadEnPassant(Square),
    #[error("fullmove number must be at least 1")]
    ZeroFullmoves,
    /// Poison Chess: a countdown must be 1 to 5 and sit under a piece.
    #[error("poison counter {counter} on {square} is impossible: counters run from 1 to 5 and mark a piece")]
    BadPoison { square: Square, counter: u8 },
    /// Hostage Chess: men never leave the game and a promotion only swaps a
    /// pawn for a piece from prison, so no side ever has more men of a role,
    /// across board, prisons and airfields, than its full set (8 P, 2 N,
    /// 2 B, 2 R, 1 Q). Fewer is a composed position (a study, a curriculum
    /// start) and is accepted.
    #[error("{color} has {found} {role}s on the board, in prisons and in airfields; a side owns at most {limit} (men never leave the game and a promotion only swaps a pawn for a piece from prison)")]
    TooManyMen {
        color: Color,
        role: Role,
        found: usize,
        limit: usize,
    },
    /// Hostage Chess: a king marked as never moved must stand on e1/e8.
    #[error(
        "the {0} king is marked as never moved (castling field) but is not on its home square"
    )]
    UnmovedKingNotHome(Color),
    /// Mad Scientist Chess: a hand keeps at most eight parts once its
    /// owner's turn is complete (M4); mid-turn (discards pending) at most
    /// sixteen.
    #[error("{color} holds {count} parts in hand, more than {limit}")]
    HandTooLarge {
        color: Color,
        count: usize,
        limit: usize,
    },
}

/// Why a FEN string could not be read. Names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("FEN has {found} fields, expected {expected}")]
    FieldCount {
        found: usize,
        expected: &'static str,
    },
    #[error("invalid board field '{field}': {reason}")]
    Board { field: String, reason: String },
    #[error("invalid turn field '{0}': expected 'w' or 'b'")]
    Turn(String),
    #[error("invalid castling field '{0}': expected '-' or each of K, Q, k, q at most once, in that order")]
    Castling(String),
    #[error("invalid en passant field '{0}': expected '-' or a square on rank 3 or 6")]
    EnPassant(String),
    #[error("invalid halfmove clock '{0}': expected a whole number from 0 to 9999")]
    HalfmoveClock(String),
    #[error("invalid fullmove number '{0}': expected a whole number from 1 to 99999")]
    FullmoveNumber(String),
    /// A field that only some variant has (poison counters, prisons, ...).
    #[error("invalid {field} field '{text}': {reason}")]
    VariantField {
        field: &'static str,
        text: String,
        reason: String,
    },
    #[error("illegal position: {0}")]
    Position(#[from] PositionError),
}

/// Why a move could not be read or played. The position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("cannot read move '{text}': {reason}")]
    Syntax { text: String, reason: &'static str },
    #[error("illegal move '{text}' in position {fen}")]
    Illegal { text: String, fen: String },
    #[error("ambiguous move '{text}' in position {fen}: it matches {count} legal moves")]
    Ambiguous {
        text: String,
        fen: String,
        count: usize,
    },
    #[error("the game is over: {0}; no move can be played")]
    GameOver(String),
    /// Poison Chess: an item of the bracket suffix is not true of the
    /// action (P13); `item` is the first false one as written, `expected`
    /// the suffix the writer gives the action.
    #[error("the suffix of '{text}' disagrees with the position: {item} is not true of this action, which writes {expected}")]
    SuffixMismatch {
        text: String,
        item: String,
        expected: String,
    },
}

impl MoveError {
    /// The error as a player may read it: a position it names (`Illegal`,
    /// `Ambiguous`) replaced by `view`, that player's view string. The
    /// full position string holds the opponent's secret under hidden
    /// information (Traitor), so a front end never shows it as it is.
    pub fn seen_as(self, view: String) -> MoveError {
        match self {
            MoveError::Illegal { text, .. } => MoveError::Illegal { text, fen: view },
            MoveError::Ambiguous { text, count, .. } => MoveError::Ambiguous {
                text,
                fen: view,
                count,
            },
            other => other,
        }
    }
}
