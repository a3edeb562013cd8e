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
//! Modules, every variant's file set (docs/architecture.md) first: this
//! file (the position, `impl Position`), `action` (the action type),
//! `setup` ([`MadSetup`], the position string, validation), `movegen`,
//! `notation`, [`encoding`] (the learning environment's action space and
//! observation), `diagram`, `variant` (registry entry); then Mad
//! Scientist's own: [`parts`] (parts, pieces' part sets, hands), [`board`]
//! (the board of part-pieces), `movement` (attack sets).

mod action;
pub mod board;
mod diagram;
pub mod encoding;
mod gesture;
mod movegen;
mod movement;
mod notation;
pub mod parts;
mod setup;
mod variant;

pub use action::{MadAction, MoveKind, PieceMove, Promotion};
pub use board::{MadBoard, MadPiece, PieceKind};
pub use movement::{composite_attacks, knight_half_vectors, vector_part};
pub use parts::{Hand, Part, Parts, HAND_LIMIT, HAND_MAX_DURING_TURN};
pub use setup::MadSetup;

use movegen::{CountVisitor, ListVisitor};

use crate::attacks;
use crate::fide::state::{fide_accessors, fide_position_members};
use crate::fide::{en_passant, endings, FideState};
use crate::zobrist;
use crate::{Bitboard, Color, Outcome, Position, Rank, Square, Termination};

/// A legal Mad Scientist Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MadScientist {
    /// The board of part-pieces and the FIDE fields beside it (castling
    /// rights are corner squares of unmodified rooks).
    fide: FideState<MadBoard>,
    hands: [Hand; 2],
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

    // The board's `Debug` is a diagram (what `AnyGame::render` prints).
    fide_accessors!(MadBoard);

    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// True while the side to move must discard before its turn ends (M4).
    #[inline]
    pub fn is_discarding(&self) -> bool {
        self.hands[self.fide.turn.index()].is_over_limit()
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
        let us = self.fide.turn;
        if let MadAction::Discard { part } = *action {
            self.hands[us.index()].remove(part);
        } else {
            self.fide.begin_ply();
            match *action {
                MadAction::Move(m) => self.play_move(m),
                MadAction::Animate { part, to } => {
                    self.hands[us.index()].remove(part);
                    self.fide.board.set(
                        to,
                        MadPiece::new(us, PieceKind::Composite(Parts::single(part))),
                    );
                    self.fide.halfmoves = 0;
                }
                MadAction::Attach { part, target } => {
                    self.hands[us.index()].remove(part);
                    let mut parts = self.fide.board.parts_at(target);
                    parts.add(part);
                    self.fide.board.set_parts(target, parts);
                    // A modified rook no longer castles (M1).
                    self.fide.castling_rights.remove(target);
                    self.fide.halfmoves = 0;
                }
                MadAction::Remove { part, from } => {
                    let mut parts = self.fide.board.parts_at(from);
                    parts.remove(part);
                    self.fide.board.set_parts(from, parts);
                    self.hands[us.index()].add(part);
                    self.fide.castling_rights.remove(from);
                    self.fide.halfmoves = 0;
                }
                MadAction::Discard { .. } => unreachable!("handled above"),
            }
        }
        if !self.hands[us.index()].is_over_limit() {
            // Zeroing actions reset the counter themselves above.
            self.fide.end_turn(false);
        }
    }

    fn play_move(&mut self, m: PieceMove) {
        let us = self.fide.turn;
        let PieceMove { from, to, kind } = m;
        match kind {
            MoveKind::Castle => {
                let king_side = to.file() > from.file();
                let (rook_from, rook_to) = if king_side {
                    (Square::H1.relative_to(us), Square::F1.relative_to(us))
                } else {
                    (Square::A1.relative_to(us), Square::D1.relative_to(us))
                };
                self.fide.board.relocate(from, to);
                self.fide.board.relocate(rook_from, rook_to);
                self.fide.clear_castling(us);
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.fide.board.clear(captured);
                self.hands[us.index()].add(Part::Ferz);
                self.fide.board.relocate(from, to);
                self.fide.halfmoves = 0;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(victim) = self.fide.board.clear(to) {
                    let hand = &mut self.hands[us.index()];
                    match victim.kind {
                        PieceKind::Pawn => hand.add(vector_part(us, from, to)),
                        PieceKind::Composite(parts) => hand.add_all(parts),
                        PieceKind::Scientist => self.fide.clear_castling(!us),
                    }
                    self.fide.castling_rights.remove(to);
                    self.fide.halfmoves = 0;
                }
                let pawn = self.fide.board.pawns().contains(from);
                let scientist = self.fide.board.scientists().contains(from);
                self.fide.board.relocate(from, to);
                if pawn {
                    self.fide.halfmoves = 0;
                    if let MoveKind::Promotion(promotion) = kind {
                        self.fide.board.set(
                            to,
                            MadPiece::new(us, PieceKind::Composite(promotion.parts())),
                        );
                    } else if let Some(skipped) = en_passant::skipped_square(from, to) {
                        // Kept only when an enemy pawn can take: the square
                        // then matters for repetition.
                        let takers = self.fide.board.pawns() & self.fide.board.by_color(!us);
                        self.fide.ep_square = en_passant::capturable(us, skipped, takers);
                    }
                }
                if scientist {
                    self.fide.clear_castling(us);
                }
                self.fide.castling_rights.remove(from);
            }
        }
    }

    /// The Zobrist key of everything that identifies the position: part
    /// sets, pawns and Scientists by colour and square, both hands, side to
    /// move (which with the hands says whether discards are pending),
    /// castling rights and a usable en passant square.
    pub fn zobrist(&self) -> u64 {
        let mut key = 0;
        for (sq, piece) in self.fide.board.pieces() {
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
        key ^ self.fide.zobrist_fields(|ep| {
            let capturers = attacks::pawn_attacks(!self.fide.turn, ep)
                & self.fide.board.pawns()
                & self.fide.board.by_color(self.fide.turn);
            capturers.any()
        })
    }
}

impl Position for MadScientist {
    type Action = MadAction;

    fide_position_members!(visit_actions, parse_action_text, standard_notation);

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
            .find(|&color| self.fide.board.scientist_of(color).is_none())
            .map(|color| Outcome::Decisive {
                winner: !color,
                termination: Termination::ScientistCaptured,
            })
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        if let Some(draw) = endings::fifty_moves(self.fide.halfmoves) {
            return Some(draw);
        }
        if !has_legal_action {
            return Some(Outcome::Draw {
                termination: Termination::NoLegalAction,
            });
        }
        None
    }

    /// Only what can never be undone: pawn moves, captures of pawns (pawns
    /// are never created) and lost castling rights. Captures of composite
    /// pieces and Scientist powers reset the 50-move counter (M6) but are
    /// not irreversible here: parts can come back to the same squares.
    fn is_irreversible(&self, action: &MadAction) -> bool {
        let rights = self.fide.castling_rights;
        match *action {
            MadAction::Move(m) => {
                self.fide.board.pawns().contains(m.from)
                    || self.fide.board.pawns().contains(m.to)
                    || m.kind == MoveKind::Castle
                    || rights.contains(m.from)
                    || rights.contains(m.to)
                    || (self.fide.board.scientists().contains(m.from)
                        && (rights & Bitboard::relative_rank(self.fide.turn, Rank::FIRST)).any())
            }
            MadAction::Attach { target, .. } => rights.contains(target),
            MadAction::Remove { from, .. } => rights.contains(from),
            MadAction::Animate { .. } | MadAction::Discard { .. } => false,
        }
    }
}
