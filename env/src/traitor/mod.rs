//! The Traitor Chess family (rulings T1-T11): five modes (traitor,
//! defector, double agent, defector-double agent, mercenary) times three
//! commitments (standard, simplified, impromptu), with hidden choices.
//!
//! State (docs/architecture.md): the shared [`Board`] holds each piece's
//! **colour**; a separate `announced` [`Bitboard`] holds the pieces with a
//! status (traitor, double agent, mercenary); `ids` gives each piece its
//! identity, the square it started on, moved with the piece. The full state
//! holds both players' secrets; [`TraitorView`] holds what one player may know.
//!
//! A turn is an optional `Announce` then a `Move`, two actions by the same
//! player (T3); a game with secrets opens with one `Select` action per
//! player (White, then Black).
//!
//! Modules, every variant's file set (docs/architecture.md) first: this
//! file (the position, `impl Position`), `action` ([`TraitorAction`]),
//! `setup` ([`TraitorSetup`] and the position string), `movegen`,
//! `notation`, [`encoding`] (the learning environment's action space and
//! the observation, which reads only what the observer may know),
//! `diagram`, `variant` (registry entry); then the family's own: `rules`
//! (modes, commitments, options), `control` (colour and control),
//! `selection` (secret choices), `play` (applying actions), `validation`
//! (setups into positions) and `view` (what one player may know, the
//! sampler).

mod action;
mod control;
mod diagram;
pub mod encoding;
mod gesture;
mod movegen;
mod notation;
mod play;
mod rules;
mod selection;
mod setup;
mod validation;
mod variant;
mod view;

pub use action::TraitorAction;
pub use notation::{play_turn, TurnSteps};
pub use rules::{
    value, AnnounceCheck, Commitment, Mode, SelectionSetting, TraitorRules, BUDGET, OPTION_KEYS,
};
pub use selection::{
    start_piece, PieceId, RoleCounts, Secret, SeededRng, Selection, TRAITOR_ROLES,
};
pub use setup::TraitorSetup;
pub use view::{TraitorSampler, TraitorView};

use crate::fide::state::{fide_accessors, fide_position_members};
use crate::fide::{castling, endings, FideState};
use crate::zobrist;
use crate::{Bitboard, Board, Color, FenError, Outcome, Position, Square};

/// Marks an empty square in the identity array.
pub(crate) const NO_ID: u8 = 0xff;

/// Where the player to act is in the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// The selection phase: the player to act chooses its secret.
    Select,
    /// The start of a turn: announce, or move.
    Open,
    /// This piece (by id) was announced this turn; a move must follow (T3).
    Announced(PieceId),
}

/// A legal position of the Traitor Chess family, with its rule settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Traitor {
    rules: TraitorRules,
    /// The board (colours, not control) and the FIDE fields beside it.
    fide: FideState,
    ids: [u8; 64],
    announced: Bitboard,
    step: Step,
    /// Pawns standing on their starting square although they have moved
    /// (T11). Only a pawn that changed colour twice gets back there; every
    /// other pawn has moved exactly when its id differs from its square,
    /// so this set is all the move history the double step needs.
    returned_pawns: Bitboard,
    /// Public budgets left (T1), by colour.
    budgets: [u8; 2],
    /// Ids each player has announced so far (public).
    used: [Bitboard; 2],
    secrets: [Secret; 2],
    /// The last move's (from, to), kept in the modes with a weak ko.
    last_move: Option<(Square, Square)>,
    /// The piece the opponent made defect last turn (T5 no-undo rule).
    undo_forbidden: Option<PieceId>,
}

impl Traitor {
    /// The start position under `rules`: a selection phase, random
    /// selections drawn from the seed, or straight to play (Impromptu).
    /// `SelectionSetting::Fixed` needs a position string: use
    /// [`Traitor::from_fen`].
    pub fn new(rules: TraitorRules) -> Result<Traitor, FenError> {
        let mut position = Traitor::from_fen(&TraitorSetup::start_fen(rules.commitment), rules)?;
        if !rules.commitment.has_secrets() {
            return Ok(position);
        }
        match rules.selection {
            SelectionSetting::Phase => {}
            SelectionSetting::Fixed => return Err(FenError::VariantField {
                field: "selection",
                text: "fixed".to_owned(),
                reason:
                    "selection=fixed takes both players' choices from a position string; give one"
                        .to_owned(),
            }),
            SelectionSetting::Random { seed } => {
                let mut rng = SeededRng::new(seed);
                for _ in 0..2 {
                    let mut choices = Vec::new();
                    position.legal_actions(&mut choices);
                    let action = choices[rng.below(choices.len())];
                    position.play_unchecked(&action);
                }
            }
        }
        Ok(position)
    }

    pub fn rules(&self) -> &TraitorRules {
        &self.rules
    }

    fide_accessors!(Board);

    /// The identity (starting square) of the piece on `sq`.
    #[inline]
    pub fn id_at(&self, sq: Square) -> Option<PieceId> {
        Square::new(u32::from(self.ids[sq.index()]))
    }

    /// The square of the piece with identity `id`, if it is on the board.
    pub fn square_of(&self, id: PieceId) -> Option<Square> {
        self.fide
            .board
            .occupied()
            .find(|sq| self.ids[sq.index()] == id.index() as u8)
    }

    /// Squares of announced pieces with a status (traitors, double agents,
    /// mercenaries); empty in Defector mode.
    #[inline]
    pub fn announced(&self) -> Bitboard {
        self.announced
    }

    /// Who may move the piece on `sq`: one player, or both (shared modes).
    pub fn controllers(&self, sq: Square) -> Controllers {
        Controllers {
            white: self.movable(Color::White).contains(sq),
            black: self.movable(Color::Black).contains(sq),
        }
    }

    /// Pieces `player` may move now.
    #[inline]
    pub fn movable(&self, player: Color) -> Bitboard {
        control::movable(&self.fide.board, self.announced, self.rules.mode, player)
    }

    #[inline]
    pub fn step(&self) -> Step {
        self.step
    }

    #[inline]
    pub fn budget(&self, player: Color) -> u8 {
        self.budgets[player.index()]
    }

    /// Ids `player` has announced so far.
    #[inline]
    pub fn used(&self, player: Color) -> Bitboard {
        self.used[player.index()]
    }

    /// The secret of `player` (what remains of its selection). Full state
    /// only: a player's view never holds the opponent's.
    #[inline]
    pub fn secret(&self, player: Color) -> Secret {
        self.secrets[player.index()]
    }

    /// Pawns back on their starting square after moving (T11: no double
    /// step); see [`Traitor::pawn_unmoved`].
    #[inline]
    pub fn returned_pawns(&self) -> Bitboard {
        self.returned_pawns
    }

    /// T11: the pawn on `sq` has never moved, so it may double-step from
    /// its colour's second rank. An unmoved pawn stands where it started
    /// (its id); a pawn that changed colour twice may stand there again
    /// after moving, and is kept in `returned_pawns`.
    #[inline]
    pub fn pawn_unmoved(&self, sq: Square) -> bool {
        usize::from(self.ids[sq.index()]) == sq.index() && !self.returned_pawns.contains(sq)
    }

    pub fn last_move(&self) -> Option<(Square, Square)> {
        self.last_move
    }

    pub fn undo_forbidden(&self) -> Option<PieceId> {
        self.undo_forbidden
    }

    /// Pieces giving check to the King of `colour`.
    pub fn checkers(&self, colour: Color) -> Bitboard {
        control::checkers(&self.fide.board, self.announced, self.rules.mode, colour)
    }

    pub fn is_check(&self) -> bool {
        self.checkers(self.fide.turn).any()
    }

    /// Kings alone, or with one minor piece in all, or with bishops all on
    /// squares of one colour: nobody can ever give mate, whoever controls
    /// what (the FIDE rule, on roles only).
    pub fn is_insufficient_material(&self) -> bool {
        endings::fide_insufficient_material(&self.fide.board)
    }

    /// The view of `observer`: everything but the opponent's secret (T10).
    pub fn view(&self, observer: Color) -> TraitorView {
        TraitorView::of(self, observer)
    }

    /// The Zobrist key of the whole state, secrets included.
    pub fn zobrist(&self) -> u64 {
        self.public_key()
            ^ secret_key(Color::White, self.secrets[0])
            ^ secret_key(Color::Black, self.secrets[1])
    }

    /// The key of everything both players see.
    pub(crate) fn public_key(&self) -> u64 {
        let mut key = zobrist::board_pieces(&self.fide.board);
        for sq in self.fide.board.occupied() {
            let index = sq.index() * 64 + usize::from(self.ids[sq.index()]);
            key ^= match ID_KEYS.get(index) {
                Some(&id_key) => id_key,
                // Past the table (a NO_ID on a high square): the same
                // key, computed.
                None => zobrist::key(DOMAIN_ID, index as u64),
            };
        }
        for sq in self.announced {
            key ^= zobrist::key(DOMAIN_ANNOUNCED, sq.index() as u64);
        }
        // The en passant square is kept only when some pawn may take
        // (play.rs), so it always counts.
        key ^= self.fide.zobrist_fields(|_| true);
        key ^= zobrist::key(
            DOMAIN_STEP,
            match self.step {
                Step::Select => 64,
                Step::Open => 65,
                Step::Announced(id) => id.index() as u64,
            },
        );
        for colour in Color::ALL {
            let c = colour.index() as u64;
            key ^= zobrist::key(
                DOMAIN_BUDGET,
                c * 16 + u64::from(self.budgets[colour.index()]),
            );
            key ^= zobrist::mix(self.used[colour.index()].0 ^ zobrist::key(DOMAIN_USED, c));
        }
        if let Some((from, to)) = self.last_move {
            key ^= zobrist::key(DOMAIN_LAST_MOVE, (from.index() * 64 + to.index()) as u64);
        }
        if let Some(id) = self.undo_forbidden {
            key ^= zobrist::key(DOMAIN_UNDO, id.index() as u64);
        }
        if self.returned_pawns.any() {
            key ^= zobrist::mix(self.returned_pawns.0 ^ zobrist::key(DOMAIN_RETURNED, 0));
        }
        key
    }
}

/// Which players may move a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Controllers {
    pub white: bool,
    pub black: bool,
}

const DOMAIN_ID: u64 = zobrist::DOMAIN_VARIANT_BASE + 0x50;
/// `zobrist::key(DOMAIN_ID, square * 64 + id)` for ids on the board,
/// precomputed: the key is rebuilt after every step for repetition, and
/// mixing one value per man showed in profiles.
static ID_KEYS: [u64; 64 * 64] = {
    let mut keys = [0; 64 * 64];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = zobrist::key(DOMAIN_ID, i as u64);
        i += 1;
    }
    keys
};
const DOMAIN_ANNOUNCED: u64 = DOMAIN_ID + 1;
const DOMAIN_STEP: u64 = DOMAIN_ID + 2;
const DOMAIN_BUDGET: u64 = DOMAIN_ID + 3;
const DOMAIN_USED: u64 = DOMAIN_ID + 4;
const DOMAIN_LAST_MOVE: u64 = DOMAIN_ID + 5;
const DOMAIN_UNDO: u64 = DOMAIN_ID + 6;
const DOMAIN_SECRET: u64 = DOMAIN_ID + 7;
const DOMAIN_RETURNED: u64 = DOMAIN_ID + 8;

fn secret_key(player: Color, secret: Secret) -> u64 {
    let payload = match secret {
        Secret::Unchosen => 1,
        Secret::Nothing => 2,
        Secret::Remaining(Selection::Pieces(ids)) => zobrist::mix(ids.0 ^ 3),
        Secret::Remaining(Selection::Types(counts)) => zobrist::mix(
            counts
                .0
                .iter()
                .fold(4u64, |acc, c| acc * 16 + u64::from(*c)),
        ),
    };
    zobrist::key(DOMAIN_SECRET, player.index() as u64) ^ payload
}

impl Position for Traitor {
    type Action = TraitorAction;

    fide_position_members!(parse_step, step_notation);

    fn legal_actions(&self, out: &mut Vec<TraitorAction>) {
        out.clear();
        self.visit_legal_actions(&mut |action| out.push(action));
    }

    /// Counts without building moves (popcounts of legal destinations):
    /// perft's last ply and the environment's action counts run here.
    fn count_legal_actions(&self) -> usize {
        self.count_legal()
    }

    fn is_legal(&self, action: &TraitorAction) -> bool {
        let mut found = false;
        self.visit_legal_actions(&mut |legal| found |= legal == *action);
        found
    }

    fn play_unchecked(&mut self, action: &TraitorAction) {
        match *action {
            TraitorAction::Select(selection) => self.play_select(selection),
            TraitorAction::Announce(id) => self.play_announce(id),
            TraitorAction::Move(m) => self.play_move(&m),
        }
    }

    fn has_legal_action(&self) -> bool {
        Traitor::has_legal_action(self)
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        if self.step != Step::Open {
            return None;
        }
        endings::fide_outcome_given(has_legal_action, &self.fide, || self.is_check())
    }

    fn is_irreversible(&self, action: &TraitorAction) -> bool {
        match action {
            // Selections and announcements change secrets, budgets and control for good.
            TraitorAction::Select(_) | TraitorAction::Announce(_) => true,
            TraitorAction::Move(m) => {
                m.is_zeroing() || castling::touches_castling(self.fide.castling_rights, m)
            }
        }
    }
}
