//! Hostage Chess (John Leslie, 1997): captured men wait in the capturer's
//! prison and come back through hostage exchanges and airfield drops.
//!
//! The rules as implemented, ruling by ruling, are in docs/rules/hostage.md.
//! State beside the shared [`Board`]: a prison and an airfield per side as
//! counts by role ([`Reserve`]), castling rights as a bitboard of rook
//! squares (so a rook dropped on its home corner simply adds its square,
//! H5), and which kings have never moved (the condition for H5).
//! [`encoding`] holds the fixed action space and the observation tensor.

mod action;
pub mod encoding;
mod fen;
mod movegen;
mod notation;
mod reserve;

pub use action::HostageAction;
pub use fen::HostageSetup;
pub use movegen::{ActionVisitor, CountVisitor, ListVisitor};
pub use reserve::{exchange_value, Reserve, FULL_SET, PROMOTION_ROLES, RESERVE_ROLES};

use crate::attacks;
use crate::chess::{validate_castling_rights, validate_ep_square};
use crate::zobrist;
use crate::{
    Bitboard, Board, CastlingSide, Color, FenError, Move, MoveError, Outcome, Piece, Position,
    PositionError, Rank, Role, Square, Termination,
};

/// Zobrist domain of prison and airfield counts.
const DOMAIN_RESERVES: u64 = zobrist::DOMAIN_VARIANT_BASE + 1;
/// `zobrist::key(DOMAIN_RESERVES, index)` for every (reserve slot, role,
/// count) index, precomputed: the key is recomputed after every step for
/// repetition, and mixing twenty counts each time showed in profiles.
const RESERVE_KEYS: [u64; 4 * 5 * 16] = {
    let mut keys = [0; 4 * 5 * 16];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = zobrist::key(DOMAIN_RESERVES, i as u64);
        i += 1;
    }
    keys
};
/// Zobrist domain of the kings that have never moved.
const DOMAIN_UNMOVED_KING: u64 = zobrist::DOMAIN_VARIANT_BASE + 2;

/// A legal Hostage Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hostage {
    board: Board,
    turn: Color,
    /// Squares of the rooks that may castle (dropped rooks included, H5).
    castling_rights: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    /// `prisons[c]`: the enemy men that `c` has captured.
    prisons: [Reserve; 2],
    /// `airfields[c]`: men of colour `c` handed over by the opponent in
    /// exchanges, ready for `c` to drop.
    airfields: [Reserve; 2],
    /// Home squares (e1, e8) of kings that have never moved: a rook
    /// dropped on its corner may castle only with such a king (H5).
    unmoved_kings: Bitboard,
}

impl Default for Hostage {
    fn default() -> Hostage {
        Hostage::new()
    }
}

impl Hostage {
    /// The starting position: the FIDE setup, empty prisons and airfields.
    pub fn new() -> Hostage {
        Hostage::from_setup(HostageSetup::standard()).expect("the standard position is legal")
    }

    /// Validates a setup: the FIDE checks (one king a side, no pawn on a
    /// back rank, castling rights backed by an unmoved king and rook, a
    /// possible en passant square, the side not to move not in check), and
    /// material: no side has more men of a role across board, prisons and
    /// airfields than a full set (8 P, 2 N, 2 B, 2 R, 1 Q), since no action
    /// creates a man. Fewer is fine: a composed position (a study, a puzzle,
    /// a curriculum start) keeps whatever it starts with, as every action
    /// conserves the count of each role and colour.
    pub fn from_setup(setup: HostageSetup) -> Result<Hostage, PositionError> {
        let HostageSetup {
            setup,
            prisons,
            airfields,
            unmoved_kings,
        } = setup;
        if setup.fullmoves == 0 {
            return Err(PositionError::ZeroFullmoves);
        }
        let board = setup.board;
        for (square, piece) in board.pieces() {
            if !Role::FIDE.contains(&piece.role) {
                return Err(PositionError::UnsupportedRole {
                    role: piece.role,
                    square,
                    variant: "hostage",
                });
            }
        }
        for color in Color::ALL {
            let kings = board.count(Piece::new(color, Role::King));
            if kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings(color));
            }
            for (i, role) in RESERVE_ROLES.into_iter().enumerate() {
                let found = board.count(Piece::new(color, role))
                    + usize::from(prisons[(!color).index()].count(role))
                    + usize::from(airfields[color.index()].count(role));
                let limit = usize::from(FULL_SET[i]);
                if found > limit {
                    return Err(PositionError::TooManyMen {
                        color,
                        role,
                        found,
                        limit,
                    });
                }
            }
        }
        if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        validate_castling_rights(&board, setup.castling_rights)?;
        let mut unmoved = unmoved_kings;
        for color in Color::ALL {
            let home = Square::E1.relative_to(color);
            if (setup.castling_rights & Bitboard::relative_rank(color, Rank::FIRST)).any() {
                unmoved.add(home);
            }
            let marked = unmoved & Bitboard::relative_rank(color, Rank::FIRST);
            if marked.any()
                && (marked != Bitboard::from_square(home)
                    || board.piece_at(home) != Some(Piece::new(color, Role::King)))
            {
                return Err(PositionError::UnmovedKingNotHome(color));
            }
        }
        if let Some(ep) = setup.ep_square {
            validate_ep_square(&board, setup.turn, ep)?;
        }
        let position = Hostage {
            board,
            turn: setup.turn,
            castling_rights: setup.castling_rights,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            prisons,
            airfields,
            unmoved_kings: unmoved,
        };
        let them = !position.turn;
        let their_king = position.board.king_of(them).expect("validated");
        if position
            .attackers_to(their_king, position.turn, position.board.occupied())
            .any()
        {
            return Err(PositionError::OppositeCheck(them));
        }
        if position.checkers().count() > 2 {
            return Err(PositionError::TooManyCheckers(position.turn));
        }
        Ok(position)
    }

    /// Reads a position in the Hostage FEN dialect (see [`HostageSetup`]).
    pub fn from_fen(text: &str) -> Result<Hostage, FenError> {
        Ok(Hostage::from_setup(HostageSetup::from_fen(text)?)?)
    }

    /// The plain fields of this position.
    pub fn to_setup(&self) -> HostageSetup {
        HostageSetup {
            setup: crate::Setup {
                board: self.board.clone(),
                turn: self.turn,
                castling_rights: self.castling_rights,
                ep_square: self.ep_square,
                halfmoves: self.halfmoves,
                fullmoves: self.fullmoves,
            },
            prisons: self.prisons,
            airfields: self.airfields,
            unmoved_kings: self.unmoved_kings,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The enemy men `color` has captured.
    #[inline]
    pub fn prison(&self, color: Color) -> &Reserve {
        &self.prisons[color.index()]
    }

    /// The men of `color` waiting to be dropped by `color`.
    #[inline]
    pub fn airfield(&self, color: Color) -> &Reserve {
        &self.airfields[color.index()]
    }

    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }

    /// Home squares of the kings that have never moved.
    #[inline]
    pub fn unmoved_kings(&self) -> Bitboard {
        self.unmoved_kings
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

    /// Men of both colours on the board, in prisons and in airfields. No
    /// action changes it (H7), so it is the count of the position the game
    /// started from: 32 from the standard start, fewer from a composed one.
    pub fn total_men(&self) -> u32 {
        self.board.occupied().count() as u32
            + self
                .prisons
                .iter()
                .chain(&self.airfields)
                .map(Reserve::total)
                .sum::<u32>()
    }

    #[inline]
    fn our_king(&self) -> Square {
        self.board
            .king_of(self.turn)
            .expect("validated position has a king")
    }

    /// True when `color` has something to promote to: one of its knights,
    /// bishops, rooks or queens in the opponent's prison (H6).
    #[inline]
    pub fn can_promote(&self, color: Color) -> bool {
        self.prisons[(!color).index()].has_promotion_piece()
    }

    /// Pawns of `color` on its seventh rank with nothing to promote to: they
    /// may not advance and attack nothing (H6).
    #[inline]
    pub fn blocked_pawns(&self, color: Color) -> Bitboard {
        if self.can_promote(color) {
            Bitboard::EMPTY
        } else {
            self.board.by_piece(Piece::new(color, Role::Pawn))
                & Bitboard::relative_rank(color, Rank::SEVENTH)
        }
    }

    /// Pieces of `attacker` attacking `sq` with `occupied` as blockers, by
    /// Hostage rules: FIDE attacks, except that blocked seventh-rank pawns
    /// attack nothing (H6).
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.board.attackers_to(sq, attacker, occupied) - self.blocked_pawns(attacker)
    }

    /// Enemy men giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.our_king(), !self.turn, self.board.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_action()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_action()
    }

    /// Plays a legal action. The fast path: no legality check.
    pub fn play_action_unchecked(&mut self, action: &HostageAction) {
        let us = self.turn;
        let them = !us;
        self.ep_square = None;
        self.halfmoves += 1;
        match *action {
            HostageAction::Move(m) => self.play_move(us, &m),
            HostageAction::Drop { role, to } => {
                self.airfields[us.index()].remove(role);
                self.drop_man(us, role, to);
            }
            HostageAction::Exchange { given, rescued, to } => {
                self.prisons[us.index()].remove(given);
                self.airfields[them.index()].add(given);
                self.prisons[them.index()].remove(rescued);
                self.drop_man(us, rescued, to);
            }
        }
        if action.is_zeroing() {
            self.halfmoves = 0;
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = them;
    }

    /// Puts a man on an empty square; a rook dropped on its own home corner
    /// beside an unmoved king may castle (H5).
    fn drop_man(&mut self, us: Color, role: Role, to: Square) {
        self.board.toggle_piece(Piece::new(us, role), to);
        if role == Role::Rook
            && (Bitboard::CORNERS & Bitboard::relative_rank(us, Rank::FIRST)).contains(to)
            && self.unmoved_kings.contains(Square::E1.relative_to(us))
        {
            self.castling_rights.add(to);
        }
    }

    fn play_move(&mut self, us: Color, m: &Move) {
        let them = !us;
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    self.board.toggle_piece(Piece::new(them, captured), to);
                    self.castling_rights.remove(to);
                    self.prisons[us.index()].add(captured);
                }
                self.board.move_piece(Piece::new(us, role), from, to);
                if let Some(released) = promotion {
                    // H6: the pawn is exchanged for a piece of ours held in
                    // the opponent's prison, and takes its place there.
                    self.board.toggle_piece(Piece::new(us, Role::Pawn), to);
                    self.board.toggle_piece(Piece::new(us, released), to);
                    self.prisons[them.index()].remove(released);
                    self.prisons[them.index()].add(Role::Pawn);
                }
                match role {
                    Role::King => self.king_moved(us),
                    Role::Pawn if from.rank().index().abs_diff(to.rank().index()) == 2 => {
                        let skipped = Square::from_index_masked(
                            (from.index() as u32 + to.index() as u32) / 2,
                        );
                        if (attacks::pawn_attacks(us, skipped)
                            & self.board.by_piece(Piece::new(them, Role::Pawn)))
                        .any()
                        {
                            self.ep_square = Some(skipped);
                        }
                    }
                    _ => {}
                }
                self.castling_rights.remove(from);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board
                    .toggle_piece(Piece::new(them, Role::Pawn), captured);
                self.board.move_piece(Piece::new(us, Role::Pawn), from, to);
                self.prisons[us.index()].add(Role::Pawn);
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                self.board.toggle_piece(Piece::new(us, Role::King), king);
                self.board.toggle_piece(Piece::new(us, Role::Rook), rook);
                self.board
                    .toggle_piece(Piece::new(us, Role::King), side.king_to(us));
                self.board
                    .toggle_piece(Piece::new(us, Role::Rook), side.rook_to(us));
                self.king_moved(us);
            }
        }
    }

    fn king_moved(&mut self, us: Color) {
        self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST);
        self.unmoved_kings &= !Bitboard::relative_rank(us, Rank::FIRST);
    }

    /// The Zobrist key: pieces, side to move, castling rights, a usable en
    /// passant square, both prisons and airfields, and the unmoved kings.
    pub fn zobrist(&self) -> u64 {
        let mut key = zobrist::board_pieces(&self.board);
        if self.turn == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        for rook in self.castling_rights {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            if self.has_legal_en_passant() {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        for (slot, reserve) in self.prisons.iter().chain(&self.airfields).enumerate() {
            for (i, count) in reserve.counts().into_iter().enumerate() {
                if count > 0 {
                    key ^= RESERVE_KEYS[(slot * 5 + i) * 16 + usize::from(count)];
                }
            }
        }
        for home in self.unmoved_kings {
            key ^= zobrist::key(DOMAIN_UNMOVED_KING, home.index() as u64);
        }
        key
    }
}

impl Position for Hostage {
    type Action = HostageAction;

    fn variant_name(&self) -> &'static str {
        "hostage"
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_actions(&self, out: &mut Vec<HostageAction>) {
        out.clear();
        self.visit_legal_actions(&mut ListVisitor(out));
    }

    fn count_legal_actions(&self) -> usize {
        let mut counter = CountVisitor(0);
        self.visit_legal_actions(&mut counter);
        counter.0
    }

    fn is_legal(&self, action: &HostageAction) -> bool {
        // Checked against the generator: the one source of truth.
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions.contains(action)
    }

    fn play_unchecked(&mut self, action: &HostageAction) {
        self.play_action_unchecked(action);
    }

    /// Checkmate, stalemate (a draw) and the 50-move rule; no
    /// insufficient-material draw, since men never leave the game (H7).
    fn has_legal_action(&self) -> bool {
        Hostage::has_legal_action(self)
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        if !has_legal_action {
            return Some(if self.is_check() {
                Outcome::Decisive {
                    winner: !self.turn,
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome::Draw {
                    termination: Termination::Stalemate,
                }
            });
        }
        if self.halfmoves >= 100 {
            return Some(Outcome::Draw {
                termination: Termination::FiftyMoves,
            });
        }
        None
    }

    fn repetition_key(&self) -> u64 {
        self.zobrist()
    }

    /// Captured men come back, moved pawns can be captured and dropped on
    /// their old squares, and a rook dropped on its corner regains its
    /// castling right, so almost nothing is irreversible: only the first
    /// move of a king (its unmoved status never returns).
    fn is_irreversible(&self, action: &HostageAction) -> bool {
        match action {
            HostageAction::Move(m) => {
                (m.role() == Role::King || m.is_castle())
                    && self
                        .unmoved_kings
                        .contains(Square::E1.relative_to(self.turn))
            }
            _ => false,
        }
    }

    fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    fn parse_action(&self, text: &str) -> Result<HostageAction, MoveError> {
        self.parse_action_text(text)
    }

    fn notation(&self, action: &HostageAction) -> String {
        self.standard_notation(action)
    }
}

crate::variant::variant_without_options!(
    Hostage,
    Hostage,
    max_plies = 600,
    diagram = crate::render::hostage
);
