//! The learning environment's view of the Traitor Chess family: a fixed
//! action space (board moves, announcements, secret selections) and an
//! observation tensor that never holds the opponent's secret (T10).
//!
//! # Action space
//!
//! Flat indices from the acting player's (`turn()`'s) point of view: for
//! Black every square is flipped vertically (a1 <-> a8), so "up" is always
//! the actor's forward. `rel(sq)` below is that flipped square index.
//!
//! ```text
//!  index                        section        meaning
//!  0 ........... 4671           board moves    plane * 64 + rel(from), 73 planes:
//!                                                0..56  queen-like: direction * 7 + (distance - 1),
//!                                                       directions N NE E SE S SW W NW
//!                                                56..64 knight: (1,2) (2,1) (2,-1) (1,-2)
//!                                                       (-1,-2) (-2,-1) (-2,1) (-1,2)  (file, rank)
//!                                                64..73 underpromotion: (file delta + 1) * 3
//!                                                       + [N, B, R]
//!  4672 ........ 4735           announcements  4672 + rel(id): the piece's identity
//!                                              (its starting square), from the announcer's side
//!  4736 ........ 4736 + S - 1   selections     4736 + rank of the secret choice (below)
//! ```
//!
//! Castling is the King's two-square move; en passant and queen
//! promotions use the queen-like planes. A pawn always moves in the
//! direction of its colour, which may be the actor's backward (a traitor
//! or defected pawn): the planes are by geometry, and a from-square holds
//! one pawn, so the underpromotion planes stay unambiguous.
//!
//! The selection section depends on the `commitment` setting:
//!
//! * **Standard** (S = 2204): every nonempty set of the opponent's
//!   non-royal start pieces whose start values add up to at most 9. A set
//!   is a 16-bit mask, bit `k` for the relative square `48 + k` (a7 .. h7,
//!   a8 .. h8 from the chooser's side; the King's bit is never set), and
//!   its rank is its position among the valid masks in increasing order:
//!   `{a7}` is 0, `{b7}` 1, `{a7, b7}` 2, ...
//! * **Simplified** (S = 49): every nonempty multiset of types (pawns,
//!   knights, bishops, rooks, queens) of value at most 9, in the order of
//!   nested loops over queens, rooks, bishops, knights, pawns (pawns
//!   fastest): `P` is 0, `PP` 1, ... Caps by the pieces on the board are
//!   left to the mask, so the section is the same for every board.
//! * **Impromptu** (S = 0): there is nothing to select.
//!
//! # Observation
//!
//! `[C, 8, 8]` from the observer's side (flipped for Black). The layout
//! depends on the mode (status planes) and the commitment (own-secret
//! planes); [`Encoding::channel_names`] lists it. In order:
//!
//! | planes | content |
//! | --- | --- |
//! | 12 | pieces by colour: own colour P N B R Q K, opponent colour P N B R Q K |
//! | 2 | controller: pieces the observer may move, pieces the opponent may move |
//! | 1-2 | status: `traitor`, `defected` (colour differs from the start colour), `double_agent` (+ `defected` in Defector-Double Agent), `mercenary` |
//! | 2 | pieces whose identity the observer / the opponent announced |
//! | 1 | the piece announced this turn (a move must follow) |
//! | 0/1/5 | own secret: Standard, own remaining chosen pieces; Simplified, remaining counts per type P N B R Q / 8 (constant); Impromptu, none |
//! | 2 | public budgets left / 9: own, opponent (constant) |
//! | 3 | step: selection, start of turn, after an announcement (constant 0/1) |
//! | 1 | en passant square |
//! | 4 | castling: own king side, own queen side, opponent king side, opponent queen side (constant) |
//! | 0/1 | shared modes: last move's from and to (the weak ko) |
//! | 0/1 | no-undo rule in force: the piece that may not be made to defect back |
//! | 1 | no-progress: halfmove clock / 100 (constant) |
//! | 2 | observer is to act; observer is Black (constant) |
//!
//! Hidden information: `encode` reads the state through `Observed`, which
//! holds the observer's own secret and nothing of the opponent's, so the
//! opponent's choices cannot reach the tensor; [`TraitorView::encode`]
//! writes the same tensor from a view.

use super::rules::{Commitment, Mode, TraitorRules, BUDGET};
use super::selection::{start_piece, PieceId, Secret, Selection, TRAITOR_ROLES};
use super::{control, Step, Traitor, TraitorAction, TraitorView};
use crate::encoding::fide_planes::{
    castling_sides, encode_fide_pieces, flag, no_progress, write_en_passant_plane,
};
use crate::encoding::{
    board_moves, relative_move_squares, relative_square, write_bitboard_plane,
    write_constant_plane, Encoding, SQUARES,
};
use crate::{Bitboard, Board, Color, Move, Role, Square};

/// Board-move planes: 56 queen-like, 8 knight, 9 underpromotion (the
/// AlphaZero layout of [`board_moves`]).
pub const MOVE_PLANES: usize = board_moves::MOVE_PLANES;
/// First index of the announcement section.
pub const ANNOUNCE_OFFSET: usize = MOVE_PLANES * SQUARES;
/// First index of the selection section.
pub const SELECT_OFFSET: usize = ANNOUNCE_OFFSET + SQUARES;
/// Standard selections: nonempty sets of the 15 non-royal opponent start
/// pieces costing at most 9 (the perft file's 2204).
pub const STANDARD_SELECTIONS: usize = standard_count();
/// Simplified selections: nonempty type multisets of value at most 9.
pub const SIMPLIFIED_SELECTIONS: usize = SIMPLIFIED.1;

/// Index (0..4672) of a board move by `player`: `plane * 64 + rel(from)`,
/// the chess layout (queen-like and knight planes from
/// [`board_moves`], then `64 + 3 * direction + [N, B, R]` for
/// underpromotions). An underpromotion toward the actor's own back rank (a
/// traitor or defected pawn moving in its colour's direction) takes the
/// plane of the mirrored forward one: a from-square holds one pawn, which
/// moves one way only, so the two never meet.
#[inline]
pub(crate) fn board_move_index(m: &Move, player: Color) -> usize {
    let (from, to) = relative_move_squares(m, player);
    let plane = match m.promotion() {
        Some(piece @ (Role::Knight | Role::Bishop | Role::Rook)) => {
            // Relative rank 1 to rank 0 mirrors onto rank 1 to rank 2.
            let forward_to = if to < from { to + 16 } else { to };
            let direction = board_moves::promotion_direction(from, forward_to).unwrap_or(1);
            let kind = match piece {
                Role::Knight => 0,
                Role::Bishop => 1,
                _ => 2,
            };
            Some(board_moves::UNDERPROMOTION_PLANES + 3 * direction + kind)
        }
        _ => board_moves::board_move_plane(from, to),
    };
    debug_assert!(plane.is_some(), "no plane for {m} by {player}");
    plane.unwrap_or(0) * SQUARES + from
}

// ---------------------------------------------------------------------------
// Selection ranks.

/// Start values of the opponent's pieces by bit `k` = relative square
/// `48 + k` (a7..h7 pawns, then a8..h8 R N B Q K B N R); the King (bit 12)
/// can never be chosen.
const STANDARD_COSTS: [u8; 16] = [1, 1, 1, 1, 1, 1, 1, 1, 5, 3, 3, 9, NO_COST, 3, 3, 5];
const NO_COST: u8 = u8::MAX;
const KING_BIT: usize = 12;

/// `SUBSETS[k][b]`: subsets (empty included) of bits `0..k` costing at
/// most `b`. The rank of a mask counts, bit by bit from the top, the
/// smaller masks that agree above a set bit and clear it.
const SUBSETS: [[u32; BUDGET as usize + 1]; 17] = subsets_table();

const fn subsets_table() -> [[u32; BUDGET as usize + 1]; 17] {
    let mut table = [[0u32; BUDGET as usize + 1]; 17];
    let mut b = 0;
    while b <= BUDGET as usize {
        table[0][b] = 1;
        b += 1;
    }
    let mut k = 1;
    while k <= 16 {
        let cost = STANDARD_COSTS[k - 1] as usize;
        let mut b = 0;
        while b <= BUDGET as usize {
            table[k][b] = table[k - 1][b];
            if cost <= b {
                table[k][b] += table[k - 1][b - cost];
            }
            b += 1;
        }
        k += 1;
    }
    table
}

const fn standard_count() -> usize {
    // Every valid mask but the empty one.
    SUBSETS[16][BUDGET as usize] as usize - 1
}

/// The rank of a Standard selection among [`STANDARD_SELECTIONS`].
/// Ids outside the opponent's start squares never occur in a legal
/// selection; they are ignored rather than trusted.
///
/// Bitwise rather than square by square: the opening selection step has
/// about 2,200 legal selections, each indexed for the action mask, so this
/// ran hot in the environment's step.
fn standard_rank(ids: Bitboard, chooser: Color) -> usize {
    // Relative squares: Black's view flips ranks, i.e. swaps the bytes.
    let relative = match chooser {
        Color::White => ids.0,
        Color::Black => ids.0.swap_bytes(),
    };
    // Relative squares 48.. (the opponent's start ranks), king excluded.
    let mask = ((relative >> 48) as u32) & !(1 << KING_BIT);
    let mut below = 0u32;
    let mut spent = 0usize;
    let mut rest = mask;
    while rest != 0 {
        // Highest set bit first, as the rank's enumeration order requires.
        let k = 31 - rest.leading_zeros() as usize;
        rest &= !(1 << k);
        if spent > BUDGET as usize {
            // Spending only grows: nothing further is counted.
            break;
        }
        below += SUBSETS[k][BUDGET as usize - spent];
        spent += STANDARD_COSTS[k] as usize;
    }
    // `below` counts the empty mask, which is no selection.
    (below as usize)
        .saturating_sub(1)
        .min(STANDARD_SELECTIONS - 1)
}

/// Most of each type a Simplified selection of value 9 can hold:
/// pawns 9, knights 3, bishops 3, rooks 1, queens 1.
const SIMPLIFIED_MAX: [usize; 5] = [9, 3, 3, 1, 1];
/// Table index of counts `(p, n, b, r, q)`: mixed radix, pawns fastest.
const fn simplified_key(c: [usize; 5]) -> usize {
    c[0] + 10 * (c[1] + 4 * (c[2] + 4 * (c[3] + 2 * c[4])))
}
const SIMPLIFIED_KEYS: usize = 10 * 4 * 4 * 2 * 2;
/// Rank per key (`u16::MAX` where the counts are no selection) and the
/// number of selections.
const SIMPLIFIED: ([u16; SIMPLIFIED_KEYS], usize) = simplified_table();

const fn simplified_table() -> ([u16; SIMPLIFIED_KEYS], usize) {
    let mut table = [u16::MAX; SIMPLIFIED_KEYS];
    let mut next = 0usize;
    let mut q = 0;
    while q <= SIMPLIFIED_MAX[4] {
        let mut r = 0;
        while r <= SIMPLIFIED_MAX[3] {
            let mut b = 0;
            while b <= SIMPLIFIED_MAX[2] {
                let mut n = 0;
                while n <= SIMPLIFIED_MAX[1] {
                    let mut p = 0;
                    while p <= SIMPLIFIED_MAX[0] {
                        let value = p + 3 * n + 3 * b + 5 * r + 9 * q;
                        if value > 0 && value <= BUDGET as usize {
                            table[simplified_key([p, n, b, r, q])] = next as u16;
                            next += 1;
                        }
                        p += 1;
                    }
                    n += 1;
                }
                b += 1;
            }
            r += 1;
        }
        q += 1;
    }
    (table, next)
}

/// The rank of a Simplified selection among [`SIMPLIFIED_SELECTIONS`].
fn simplified_rank(counts: [u8; 5]) -> usize {
    let mut c = [0usize; 5];
    for (slot, (count, max)) in c.iter_mut().zip(counts.iter().zip(SIMPLIFIED_MAX)) {
        *slot = usize::from(*count).min(max);
    }
    let rank = SIMPLIFIED.0[simplified_key(c)];
    usize::from(rank).min(SIMPLIFIED_SELECTIONS - 1)
}

/// Size of the selection section under `commitment`.
pub const fn selection_count(commitment: Commitment) -> usize {
    match commitment {
        Commitment::Standard => STANDARD_SELECTIONS,
        Commitment::Simplified => SIMPLIFIED_SELECTIONS,
        Commitment::Impromptu => 0,
    }
}

/// Index of `action` taken by `player` under `commitment` (see the module
/// docs); the whole action space is [`num_actions_for`].
pub fn action_index_for(action: &TraitorAction, player: Color, commitment: Commitment) -> usize {
    match *action {
        TraitorAction::Move(m) => board_move_index(&m, player),
        TraitorAction::Announce(id) => ANNOUNCE_OFFSET + relative_square(id, player),
        TraitorAction::Select(selection) => {
            let rank = match (selection, commitment) {
                (Selection::Pieces(ids), Commitment::Standard) => standard_rank(ids, player),
                (Selection::Types(counts), Commitment::Simplified) => simplified_rank(counts.0),
                // No other selection is ever legal; keep the index in range.
                _ => 0,
            };
            SELECT_OFFSET + rank.min(selection_count(commitment).saturating_sub(1))
        }
    }
}

/// The size of the action space under `commitment`.
pub const fn num_actions_for(commitment: Commitment) -> usize {
    SELECT_OFFSET + selection_count(commitment)
}

// ---------------------------------------------------------------------------
// Observation.

/// Everything the observer may know, borrowed from a full state or a view:
/// the opponent's secret is not a field, so it cannot be read.
struct Observed<'a> {
    rules: TraitorRules,
    observer: Color,
    board: &'a Board,
    ids: &'a [u8; 64],
    announced: Bitboard,
    turn: Color,
    step: Step,
    castling_rights: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    budgets: [u8; 2],
    used: [Bitboard; 2],
    own_secret: Secret,
    last_move: Option<(Square, Square)>,
    undo_forbidden: Option<PieceId>,
}

/// Channel offsets of one mode x commitment.
#[derive(Copy, Clone, Debug)]
struct Layout {
    /// Status planes (`status_names`).
    status: usize,
    /// Own-secret planes (0, 1 or 5).
    secret: usize,
    /// The weak-ko plane exists (shared modes).
    ko: bool,
    /// The no-undo plane exists.
    undo: bool,
}

const PIECE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

impl Layout {
    fn of(rules: &TraitorRules) -> Layout {
        Layout {
            status: status_names(rules.mode).len(),
            secret: match rules.commitment {
                Commitment::Standard => 1,
                Commitment::Simplified => 5,
                Commitment::Impromptu => 0,
            },
            ko: rules.mode.shared(),
            undo: rules.forbids_immediate_undo(),
        }
    }

    fn channels(self) -> usize {
        12 + 2
            + self.status
            + 2
            + 1
            + self.secret
            + 2
            + 3
            + 1
            + 4
            + usize::from(self.ko)
            + usize::from(self.undo)
            + 1
            + 2
    }
}

fn status_names(mode: Mode) -> &'static [&'static str] {
    match mode {
        Mode::Traitor => &["traitor"],
        Mode::Defector => &["defected"],
        Mode::DoubleAgent => &["double_agent"],
        Mode::DefectorDoubleAgent => &["double_agent", "defected"],
        Mode::Mercenary => &["mercenary"],
    }
}

fn channel_names_for(rules: &TraitorRules) -> Vec<String> {
    let layout = Layout::of(rules);
    let mut names = Vec::with_capacity(layout.channels());
    for side in ["own", "opp"] {
        for piece in PIECE_NAMES {
            names.push(format!("{side}_colour_{piece}"));
        }
    }
    names.push("movable_by_own".to_owned());
    names.push("movable_by_opp".to_owned());
    names.extend(status_names(rules.mode).iter().map(|s| (*s).to_owned()));
    names.push("announced_by_own".to_owned());
    names.push("announced_by_opp".to_owned());
    names.push("announced_this_turn".to_owned());
    match rules.commitment {
        Commitment::Standard => names.push("own_secret_pieces".to_owned()),
        Commitment::Simplified => {
            for piece in &PIECE_NAMES[..5] {
                names.push(format!("own_secret_{piece}s"));
            }
        }
        Commitment::Impromptu => {}
    }
    names.push("own_budget".to_owned());
    names.push("opp_budget".to_owned());
    names.push("step_select".to_owned());
    names.push("step_open".to_owned());
    names.push("step_announced".to_owned());
    names.push("en_passant".to_owned());
    for side in ["own", "opp"] {
        names.push(format!("{side}_castle_king_side"));
        names.push(format!("{side}_castle_queen_side"));
    }
    if layout.ko {
        names.push("last_move".to_owned());
    }
    if layout.undo {
        names.push("undo_forbidden".to_owned());
    }
    names.push("no_progress".to_owned());
    names.push("observer_to_act".to_owned());
    names.push("observer_is_black".to_owned());
    names
}

impl Observed<'_> {
    fn square_of(&self, id: PieceId) -> Option<Square> {
        self.board
            .occupied()
            .into_iter()
            .find(|sq| self.ids[sq.index()] == id.index() as u8)
    }

    /// Pieces on the board whose identity is in `ids`.
    fn pieces_with_ids(&self, ids: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        if ids.is_empty() {
            return out;
        }
        for sq in self.board.occupied() {
            if Square::new(u32::from(self.ids[sq.index()])).is_some_and(|id| ids.contains(id)) {
                out.add(sq);
            }
        }
        out
    }

    /// Pieces whose colour is not the colour they started with.
    fn defected(&self) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for colour in Color::ALL {
            for sq in self.board.by_color(colour) {
                let start = Square::new(u32::from(self.ids[sq.index()])).and_then(start_piece);
                if start.is_some_and(|(c, _)| c != colour) {
                    out.add(sq);
                }
            }
        }
        out
    }

    fn encode(&self, out: &mut [f32]) {
        let layout = Layout::of(&self.rules);
        let needed = layout.channels() * SQUARES;
        assert!(
            out.len() >= needed,
            "traitor observation needs {needed} floats, got {}",
            out.len()
        );
        let me = self.observer;
        let them = !me;
        let board = self.board;
        let mode = self.rules.mode;
        encode_fide_pieces(board, me, out);
        let mut planes = out[12 * SQUARES..needed].chunks_exact_mut(SQUARES);
        let mut bits =
            |set: Bitboard| write_bitboard_plane(planes.next().expect("layout counted"), set, me);
        bits(control::movable(board, self.announced, mode, me));
        bits(control::movable(board, self.announced, mode, them));
        match mode {
            Mode::Defector => bits(self.defected()),
            Mode::DefectorDoubleAgent => {
                bits(self.announced);
                bits(self.defected());
            }
            Mode::Traitor | Mode::DoubleAgent | Mode::Mercenary => bits(self.announced),
        }
        bits(self.pieces_with_ids(self.used[me.index()]));
        bits(self.pieces_with_ids(self.used[them.index()]));
        let announced_now = match self.step {
            Step::Announced(id) => self
                .square_of(id)
                .map_or(Bitboard::EMPTY, Bitboard::from_square),
            _ => Bitboard::EMPTY,
        };
        bits(announced_now);
        let own_pieces = match self.own_secret {
            Secret::Remaining(Selection::Pieces(ids)) => ids,
            _ => Bitboard::EMPTY,
        };
        if self.rules.commitment == Commitment::Standard {
            bits(self.pieces_with_ids(own_pieces));
        }
        let mut constant =
            |value: f32| write_constant_plane(planes.next().expect("layout counted"), value);
        if self.rules.commitment == Commitment::Simplified {
            let counts = match self.own_secret {
                Secret::Remaining(Selection::Types(counts)) => counts,
                _ => Default::default(),
            };
            for role in TRAITOR_ROLES {
                constant(f32::from(counts.get(role)) / 8.0);
            }
        }
        constant(f32::from(self.budgets[me.index()]) / f32::from(BUDGET));
        constant(f32::from(self.budgets[them.index()]) / f32::from(BUDGET));
        constant(f32::from(u8::from(self.step == Step::Select)));
        constant(f32::from(u8::from(self.step == Step::Open)));
        constant(f32::from(u8::from(matches!(self.step, Step::Announced(_)))));
        write_en_passant_plane(planes.next().expect("layout counted"), self.ep_square, me);
        let mut constant =
            |value: f32| write_constant_plane(planes.next().expect("layout counted"), value);
        for colour in [me, them] {
            let (king_side, queen_side) = castling_sides(self.castling_rights, colour);
            constant(flag(king_side));
            constant(flag(queen_side));
        }
        let mut bits =
            |set: Bitboard| write_bitboard_plane(planes.next().expect("layout counted"), set, me);
        if layout.ko {
            bits(self.last_move.map_or(Bitboard::EMPTY, |(from, to)| {
                Bitboard::from_square(from).with(to)
            }));
        }
        if layout.undo {
            bits(
                self.undo_forbidden
                    .and_then(|id| self.square_of(id))
                    .map_or(Bitboard::EMPTY, Bitboard::from_square),
            );
        }
        let mut constant =
            |value: f32| write_constant_plane(planes.next().expect("layout counted"), value);
        constant(no_progress(self.halfmoves));
        constant(flag(self.turn == me));
        constant(flag(me == Color::Black));
        debug_assert!(planes.next().is_none(), "every channel written");
    }
}

impl Traitor {
    /// What `observer` may know of this state: its own secret, never the
    /// opponent's.
    fn observed(&self, observer: Color) -> Observed<'_> {
        Observed {
            rules: self.rules,
            observer,
            board: &self.fide.board,
            ids: &self.ids,
            announced: self.announced,
            turn: self.fide.turn,
            step: self.step,
            castling_rights: self.fide.castling_rights,
            ep_square: self.fide.ep_square,
            halfmoves: self.fide.halfmoves,
            budgets: self.budgets,
            used: self.used,
            own_secret: self.secrets[observer.index()],
            last_move: self.last_move,
            undo_forbidden: self.undo_forbidden,
        }
    }
}

impl TraitorView {
    /// The observation of this view's observer, identical to
    /// `Encoding::encode(position, observer, out)` on any full state this
    /// view comes from (`out` holds `num_channels() * 64` floats).
    pub fn encode(&self, out: &mut [f32]) {
        let setup = self.setup();
        let observer = self.observer();
        Observed {
            rules: *self.rules(),
            observer,
            board: &setup.setup.board,
            ids: &setup.ids,
            announced: setup.announced,
            turn: setup.setup.turn,
            step: setup.step,
            castling_rights: setup.setup.castling_rights,
            ep_square: setup.setup.ep_square,
            halfmoves: setup.setup.halfmoves,
            budgets: setup.budgets,
            used: setup.used,
            own_secret: self.own_secret(),
            last_move: setup.last_move,
            undo_forbidden: setup.undo_forbidden,
        }
        .encode(out);
    }

    /// Number of observation planes under this view's rules.
    pub fn num_channels(&self) -> usize {
        Layout::of(self.rules()).channels()
    }
}

impl Encoding for Traitor {
    const ENCODING_VERSION: u32 = 1;

    /// Board moves and announcements (by identity square); the selections
    /// after them are ranks, not squares.
    fn board_action_planes(&self) -> usize {
        SELECT_OFFSET / SQUARES
    }

    fn num_actions(&self) -> usize {
        num_actions_for(self.rules.commitment)
    }

    fn action_index(&self, action: &TraitorAction) -> usize {
        action_index_for(action, self.fide.turn, self.rules.commitment)
    }

    fn num_channels(&self) -> usize {
        Layout::of(&self.rules).channels()
    }

    fn channel_names(&self) -> Vec<String> {
        channel_names_for(&self.rules)
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        self.observed(observer).encode(out);
    }
}
