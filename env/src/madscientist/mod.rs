//! Mad Scientist Chess (rules: docs/rules/madscientist.md; rulings M1-M6).
//!
//! Kings are Mad Scientists: royal, never in check, captured to win. Every
//! other piece but the pawn is a multiset of parts (Wazir, Ferz, Crab,
//! Barc; at most two of a type; two make a rider). Captured pieces go to
//! the capturer's hand as parts; a Scientist may, instead of moving,
//! animate a part as a new piece, attach one to a neighbour, or take one
//! off a neighbour. Hands hold eight parts once a turn is over; the excess
//! is discarded by extra steps of the same player.
//!
//! Modules: [`parts`] (parts, pieces' part sets, hands), [`board`] (the
//! board of part-pieces), `movement` (attack sets), [`actions`] (the action
//! type), `movegen`, `fen` (the position string), `notation`, [`encoding`]
//! (the learning environment's action space and observation).

pub mod actions;
pub mod board;
pub mod encoding;
mod fen;
mod movegen;
mod movement;
mod notation;
pub mod parts;

pub use actions::{MadAction, MoveKind, PieceMove, Promotion};
pub use board::{MadBoard, MadPiece, PieceKind};
pub use movement::{composite_attacks, knight_half_vectors, vector_part};
pub use parts::{Hand, Part, Parts, HAND_LIMIT, HAND_MAX_DURING_TURN};

use movegen::{CountVisitor, ListVisitor};

use crate::attacks;
use crate::fide::{castling, endings};
use crate::zobrist;
use crate::{
    Bitboard, Color, FenError, MoveError, Outcome, Position, PositionError, Rank, Square,
    Termination,
};

/// The registered name.
pub const NAME: &str = "madscientist";

/// The plain fields of a position, not yet checked. [`MadScientist::from_setup`]
/// validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadSetup {
    pub board: MadBoard,
    pub turn: Color,
    /// Corner squares of rooks that may still castle.
    pub castling_rights: Bitboard,
    pub ep_square: Option<Square>,
    /// Hands, indexed by colour.
    pub hands: [Hand; 2],
    /// Turns since the last capture, pawn move or Scientist power (M6).
    pub halfmoves: u32,
    pub fullmoves: u32,
}

impl MadSetup {
    pub fn standard() -> MadSetup {
        MadSetup {
            board: MadBoard::standard(),
            turn: Color::White,
            castling_rights: Bitboard::CORNERS,
            ep_square: None,
            hands: [Hand::EMPTY; 2],
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

/// A legal Mad Scientist Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MadScientist {
    board: MadBoard,
    turn: Color,
    castling_rights: Bitboard,
    ep_square: Option<Square>,
    hands: [Hand; 2],
    halfmoves: u32,
    fullmoves: u32,
}

impl Default for MadScientist {
    fn default() -> MadScientist {
        MadScientist::new()
    }
}

/// Zobrist domain of this variant's keys (pieces by part set, hands).
const ZOBRIST_DOMAIN: u64 = zobrist::DOMAIN_VARIANT_BASE + 3;
/// Piece kinds beyond the 256 part-set bytes.
const KIND_PAWN: u64 = 256;
const KIND_SCIENTIST: u64 = 257;
/// Offset of hand keys inside the domain.
const HAND_KEYS: u64 = 1 << 20;

impl MadScientist {
    /// The start position.
    pub fn new() -> MadScientist {
        MadScientist::from_setup(MadSetup::standard()).expect("the start position is legal")
    }

    /// Validates a setup: at most one Scientist a side, and the side not to
    /// move still has one (the side to move may have lost it: the game is
    /// then over); at most eight pawns a side, none on a back rank; castling
    /// rights backed by a Scientist on e1/e8 and a two-Wazir piece on the
    /// corner; a possible en passant square; the hand of the side not to
    /// move at most eight parts (its turn is complete), that of the side to
    /// move at most sixteen (it may be discarding).
    pub fn from_setup(setup: MadSetup) -> Result<MadScientist, PositionError> {
        let MadSetup {
            board,
            turn,
            castling_rights,
            ep_square,
            hands,
            halfmoves,
            fullmoves,
        } = setup;
        if fullmoves == 0 {
            return Err(PositionError::ZeroFullmoves);
        }
        for color in Color::ALL {
            let scientists = (board.scientists() & board.by_color(color)).count();
            if scientists > 1 {
                return Err(PositionError::TooManyKings(color));
            }
            let pawns = (board.pawns() & board.by_color(color)).count();
            if pawns > 8 {
                return Err(PositionError::TooManyPawns(color, pawns));
            }
        }
        if board.scientist_of(!turn).is_none() {
            return Err(PositionError::MissingKing(!turn));
        }
        if let Some(sq) = (board.pawns() & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        for rook in castling_rights {
            let color = castling::rank_color(rook);
            let home = Square::E1.relative_to(color);
            let scientist_home = board.scientist_of(color) == Some(home);
            let rook_there = board.piece_at(rook)
                == Some(MadPiece::new(color, PieceKind::Composite(Parts::ROOK)));
            if !scientist_home || !rook_there || !Bitboard::CORNERS.contains(rook) {
                return Err(PositionError::BadCastlingRight { color, rook });
            }
        }
        if let Some(ep) = ep_square {
            let pawn_of = |sq: Option<Square>, color: Color| {
                sq.and_then(|s| board.piece_at(s)) == Some(MadPiece::new(color, PieceKind::Pawn))
            };
            let in_front = ep.offset(0, turn.fold(-1, 1));
            let origin = ep.offset(0, turn.fold(1, -1));
            if ep.relative_rank(turn) != Rank::SIXTH
                || board.occupied().contains(ep)
                || origin.is_none_or(|o| board.occupied().contains(o))
                || !pawn_of(in_front, !turn)
            {
                return Err(PositionError::BadEnPassant(ep));
            }
        }
        for color in Color::ALL {
            let limit = if color == turn {
                HAND_MAX_DURING_TURN
            } else {
                HAND_LIMIT
            };
            let count = hands[color.index()].total();
            if count > limit {
                return Err(PositionError::HandTooLarge {
                    color,
                    count: count as usize,
                    limit: limit as usize,
                });
            }
        }
        Ok(MadScientist {
            board,
            turn,
            castling_rights,
            ep_square,
            hands,
            halfmoves,
            fullmoves,
        })
    }

    /// Reads a position string (see docs/rules/madscientist.md) and
    /// validates it.
    pub fn from_fen(text: &str) -> Result<MadScientist, FenError> {
        Ok(MadScientist::from_setup(MadSetup::from_fen(text)?)?)
    }

    pub fn to_setup(&self) -> MadSetup {
        MadSetup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            hands: self.hands,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The board. Its `Debug` is a diagram (what `AnyGame::render` prints).
    #[inline]
    pub fn board(&self) -> &MadBoard {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// True while the side to move must discard before its turn ends (M4).
    #[inline]
    pub fn is_discarding(&self) -> bool {
        self.hands[self.turn.index()].is_over_limit()
    }

    /// Every legal action, in generator order.
    pub fn legal_actions_vec(&self) -> Vec<MadAction> {
        let mut actions = Vec::new();
        self.visit_actions(&mut ListVisitor(&mut actions));
        actions
    }

    /// Plays a legal action (no check). Discards change only the hand; the
    /// other actions clear the en passant square, run the 50-move counter
    /// (reset by captures, pawn moves and Scientist powers, M6) and update
    /// castling rights. The turn passes once the mover's hand holds at most
    /// eight parts (M4).
    pub fn play_action_unchecked(&mut self, action: &MadAction) {
        let us = self.turn;
        if let MadAction::Discard { part } = *action {
            self.hands[us.index()].remove(part);
        } else {
            self.ep_square = None;
            self.halfmoves += 1;
            match *action {
                MadAction::Move(m) => self.play_move(m),
                MadAction::Animate { part, to } => {
                    self.hands[us.index()].remove(part);
                    self.board.set(
                        to,
                        MadPiece::new(us, PieceKind::Composite(Parts::single(part))),
                    );
                    self.halfmoves = 0;
                }
                MadAction::Attach { part, target } => {
                    self.hands[us.index()].remove(part);
                    let mut parts = self.board.parts_at(target);
                    parts.add(part);
                    self.board.set_parts(target, parts);
                    // A modified rook no longer castles (M1).
                    self.castling_rights.remove(target);
                    self.halfmoves = 0;
                }
                MadAction::Remove { part, from } => {
                    let mut parts = self.board.parts_at(from);
                    parts.remove(part);
                    self.board.set_parts(from, parts);
                    self.hands[us.index()].add(part);
                    self.castling_rights.remove(from);
                    self.halfmoves = 0;
                }
                MadAction::Discard { .. } => unreachable!("handled above"),
            }
        }
        if !self.hands[us.index()].is_over_limit() {
            if us == Color::Black {
                self.fullmoves += 1;
            }
            self.turn = !us;
        }
    }

    fn play_move(&mut self, m: PieceMove) {
        let us = self.turn;
        let PieceMove { from, to, kind } = m;
        match kind {
            MoveKind::Castle => {
                let king_side = to.file() > from.file();
                let (rook_from, rook_to) = if king_side {
                    (Square::H1.relative_to(us), Square::F1.relative_to(us))
                } else {
                    (Square::A1.relative_to(us), Square::D1.relative_to(us))
                };
                self.board.relocate(from, to);
                self.board.relocate(rook_from, rook_to);
                self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST);
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board.clear(captured);
                self.hands[us.index()].add(Part::Ferz);
                self.board.relocate(from, to);
                self.halfmoves = 0;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(victim) = self.board.clear(to) {
                    let hand = &mut self.hands[us.index()];
                    match victim.kind {
                        PieceKind::Pawn => hand.add(vector_part(us, from, to)),
                        PieceKind::Composite(parts) => hand.add_all(parts),
                        PieceKind::Scientist => {
                            self.castling_rights &= !Bitboard::relative_rank(!us, Rank::FIRST);
                        }
                    }
                    self.castling_rights.remove(to);
                    self.halfmoves = 0;
                }
                let pawn = self.board.pawns().contains(from);
                let scientist = self.board.scientists().contains(from);
                self.board.relocate(from, to);
                if pawn {
                    self.halfmoves = 0;
                    if let MoveKind::Promotion(promotion) = kind {
                        self.board.set(
                            to,
                            MadPiece::new(us, PieceKind::Composite(promotion.parts())),
                        );
                    } else if from.rank().index().abs_diff(to.rank().index()) == 2 {
                        let skipped = Square::from_index_masked(
                            (from.index() as u32 + to.index() as u32) / 2,
                        );
                        // Kept only when an enemy pawn can take: the square
                        // then matters for repetition.
                        if (attacks::pawn_attacks(us, skipped)
                            & self.board.pawns()
                            & self.board.by_color(!us))
                        .any()
                        {
                            self.ep_square = Some(skipped);
                        }
                    }
                }
                if scientist {
                    self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST);
                }
                self.castling_rights.remove(from);
            }
        }
    }

    /// The Zobrist key of everything that identifies the position: part
    /// sets, pawns and Scientists by colour and square, both hands, side to
    /// move (which with the hands says whether discards are pending),
    /// castling rights and a usable en passant square.
    pub fn zobrist(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in self.board.pieces() {
            let kind = match piece.kind {
                PieceKind::Pawn => KIND_PAWN,
                PieceKind::Scientist => KIND_SCIENTIST,
                PieceKind::Composite(parts) => u64::from(parts.bits()),
            };
            let index = (piece.color.index() as u64 * 64 + sq.index() as u64) * 512 + kind;
            key ^= zobrist::key(ZOBRIST_DOMAIN, index);
        }
        for color in Color::ALL {
            for part in Part::ALL {
                let count = self.hands[color.index()].count(part);
                if count > 0 {
                    let index = HAND_KEYS
                        + (color.index() as u64 * 4 + part.index() as u64) * 32
                        + u64::from(count);
                    key ^= zobrist::key(ZOBRIST_DOMAIN, index);
                }
            }
        }
        if self.turn == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        for rook in self.castling_rights {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            let capturers = attacks::pawn_attacks(!self.turn, ep)
                & self.board.pawns()
                & self.board.by_color(self.turn);
            if capturers.any() {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        key
    }
}

impl Position for MadScientist {
    type Action = MadAction;

    fn variant_name(&self) -> &'static str {
        NAME
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_actions(&self, out: &mut Vec<MadAction>) {
        out.clear();
        self.visit_actions(&mut ListVisitor(out));
    }

    fn count_legal_actions(&self) -> usize {
        let mut counter = CountVisitor(0);
        self.visit_actions(&mut counter);
        counter.0
    }

    fn is_legal(&self, action: &MadAction) -> bool {
        // Checked against the generator: the one source of truth.
        self.legal_actions_vec().contains(action)
    }

    fn play_unchecked(&mut self, action: &MadAction) {
        self.play_action_unchecked(action);
    }

    /// A captured Scientist loses (M1); then the 50-move rule (M6); then a
    /// side with no legal action draws (M1). There is no insufficient
    /// material: a Scientist can always walk into capture, so no position
    /// with both Scientists is dead.
    fn outcome_before_generation(&self) -> Option<Outcome> {
        Color::ALL
            .into_iter()
            .find(|&color| self.board.scientist_of(color).is_none())
            .map(|color| Outcome::Decisive {
                winner: !color,
                termination: Termination::ScientistCaptured,
            })
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        if let Some(draw) = endings::fifty_moves(self.halfmoves) {
            return Some(draw);
        }
        if !has_legal_action {
            return Some(Outcome::Draw {
                termination: Termination::NoLegalAction,
            });
        }
        None
    }

    fn repetition_key(&self) -> u64 {
        self.zobrist()
    }

    /// Only what can never be undone: pawn moves, captures of pawns (pawns
    /// are never created) and lost castling rights. Captures of composite
    /// pieces and Scientist powers reset the 50-move counter (M6) but are
    /// not irreversible here: parts can come back to the same squares.
    fn is_irreversible(&self, action: &MadAction) -> bool {
        let rights = self.castling_rights;
        match *action {
            MadAction::Move(m) => {
                self.board.pawns().contains(m.from)
                    || self.board.pawns().contains(m.to)
                    || m.kind == MoveKind::Castle
                    || rights.contains(m.from)
                    || rights.contains(m.to)
                    || (self.board.scientists().contains(m.from)
                        && (rights & Bitboard::relative_rank(self.turn, Rank::FIRST)).any())
            }
            MadAction::Attach { target, .. } => rights.contains(target),
            MadAction::Remove { from, .. } => rights.contains(from),
            MadAction::Animate { .. } | MadAction::Discard { .. } => false,
        }
    }

    fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    fn parse_action(&self, text: &str) -> Result<MadAction, MoveError> {
        self.parse_action_text(text)
    }

    fn notation(&self, action: &MadAction) -> String {
        self.standard_notation(action)
    }
}

crate::variant::variant_without_options!(
    MadScientist,
    MadScientist,
    max_plies = 600,
    diagram = crate::render::madscientist
);
