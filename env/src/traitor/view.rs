//! What one player may know (T10): the board, every announcement, the
//! public budgets and its own secret, never the opponent's. The view is
//! built from the full state by dropping the opponent's secret, so nothing
//! derived from it can leak; encoders and search read the view only.
//!
//! The sampler draws full states consistent with a view: the opponent's
//! remaining secret uniformly among those the public history allows.

use super::fen::TraitorSetup;
use super::rules::{value, Commitment, TraitorRules, BUDGET};
use super::selection::{
    start_piece, visit_piece_sets, visit_type_counts, PieceId, RoleCounts, Secret, SeededRng,
    Selection, TRAITOR_ROLES,
};
use super::{Step, Traitor};
use crate::{Bitboard, Color, FenError, Role, Square};

/// One player's information about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraitorView {
    rules: TraitorRules,
    observer: Color,
    /// The full state's fields with the opponent's secret `None` whenever
    /// it is a real secret (not `Unchosen`, not Impromptu's `Nothing`).
    setup: TraitorSetup,
}

/// 8x8 planes of the observation; see [`TraitorView::observation`].
pub const OBSERVATION_PLANES: usize = 19;
/// Scalars after the planes.
pub const OBSERVATION_SCALARS: usize = 14;
pub const OBSERVATION_LEN: usize = OBSERVATION_PLANES * 64 + OBSERVATION_SCALARS;

fn hides(secret: Secret) -> bool {
    matches!(secret, Secret::Remaining(_))
}

impl TraitorView {
    pub(crate) fn of(position: &Traitor, observer: Color) -> TraitorView {
        let mut setup = position.to_setup();
        let opponent = (!observer).index();
        if setup.secrets[opponent].is_some_and(hides) {
            setup.secrets[opponent] = None;
        }
        TraitorView {
            rules: *position.rules(),
            observer,
            setup,
        }
    }

    /// Reads a view string (the position string with `?` for the
    /// opponent's secret) and checks it could come from a legal state.
    pub fn from_fen(
        text: &str,
        rules: TraitorRules,
        observer: Color,
    ) -> Result<TraitorView, FenError> {
        let setup = TraitorSetup::parse(text, rules.commitment)?;
        let mut check = setup.clone();
        if check.secrets[observer.index()].is_none() {
            return Err(FenError::VariantField {
                field: "secrets",
                text: text.to_owned(),
                reason: format!("a view of {observer} holds {observer}'s own secret; only the opponent's may be '?'"),
            });
        }
        let opponent = (!observer).index();
        if check.secrets[opponent].is_none() {
            // Any valid secret will do to check the rest: the empty one.
            check.secrets[opponent] = Some(Secret::Remaining(match rules.commitment {
                Commitment::Simplified => Selection::Types(RoleCounts::default()),
                _ => Selection::Pieces(Bitboard::EMPTY),
            }));
        }
        Traitor::from_setup(check, rules)?;
        Ok(TraitorView {
            rules,
            observer,
            setup,
        })
    }

    pub fn observer(&self) -> Color {
        self.observer
    }

    pub fn rules(&self) -> &TraitorRules {
        &self.rules
    }

    /// The view's fields; the opponent's secret is `None` when hidden.
    pub fn setup(&self) -> &TraitorSetup {
        &self.setup
    }

    pub fn own_secret(&self) -> Secret {
        self.setup.secrets[self.observer.index()].expect("own secret is always known")
    }

    /// The view string: the position string with `?` for the hidden secret.
    pub fn fen(&self) -> String {
        self.setup.to_fen()
    }

    /// The observation tensor (also the information-state tensor: the view
    /// is a complete summary of what the observer knows that matters for
    /// play, since announcements are permanent and kept in `used`).
    ///
    /// Planes (8x8 each, a1 = index 0, White's side at the bottom):
    /// 0-5 white-coloured P N B R Q K, 6-11 black-coloured P N B R Q K,
    /// 12 announced (traitor / double agent / mercenary), 13 pieces the
    /// observer may move, 14 pieces the opponent may move, 15 pieces in
    /// the observer's remaining Standard secret, 16 en passant square,
    /// 17 castling rooks, 18 last move (from and to; weak ko).
    /// Scalars: observer is White, observer to act, step select / open /
    /// announced, own budget / 9, opponent budget / 9, own Simplified
    /// counts (P N B R Q) / 8, halfmove clock / 100.
    pub fn observation(&self) -> Vec<f32> {
        let mut out = vec![0.0; OBSERVATION_LEN];
        let board = &self.setup.setup.board;
        let plane = |out: &mut Vec<f32>, index: usize, set: Bitboard| {
            for sq in set {
                out[index * 64 + sq.index()] = 1.0;
            }
        };
        for colour in Color::ALL {
            for (r, role) in [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ]
            .into_iter()
            .enumerate()
            {
                plane(
                    &mut out,
                    colour.index() * 6 + r,
                    board.by_role(role) & board.by_color(colour),
                );
            }
        }
        let mode = self.rules.mode;
        plane(&mut out, 12, self.setup.announced);
        plane(
            &mut out,
            13,
            super::control::movable(board, self.setup.announced, mode, self.observer),
        );
        plane(
            &mut out,
            14,
            super::control::movable(board, self.setup.announced, mode, !self.observer),
        );
        if let Secret::Remaining(Selection::Pieces(ids)) = self.own_secret() {
            let mine: Bitboard = board
                .occupied()
                .filter(|sq| {
                    Square::new(u32::from(self.setup.ids[sq.index()]))
                        .is_some_and(|id| ids.contains(id))
                })
                .collect();
            plane(&mut out, 15, mine);
        }
        if let Some(ep) = self.setup.setup.ep_square {
            plane(&mut out, 16, Bitboard::from_square(ep));
        }
        plane(&mut out, 17, self.setup.setup.castling_rights);
        if let Some((from, to)) = self.setup.last_move {
            plane(&mut out, 18, Bitboard::from_square(from).with(to));
        }
        let s = OBSERVATION_PLANES * 64;
        out[s] = f32::from(u8::from(self.observer == Color::White));
        out[s + 1] = f32::from(u8::from(self.setup.setup.turn == self.observer));
        let step_index = match self.setup.step {
            Step::Select => 0,
            Step::Open => 1,
            Step::Announced(_) => 2,
        };
        out[s + 2 + step_index] = 1.0;
        out[s + 5] = f32::from(self.setup.budgets[self.observer.index()]) / f32::from(BUDGET);
        out[s + 6] = f32::from(self.setup.budgets[(!self.observer).index()]) / f32::from(BUDGET);
        if let Secret::Remaining(Selection::Types(counts)) = self.own_secret() {
            for (i, role) in TRAITOR_ROLES.into_iter().enumerate() {
                out[s + 7 + i] = f32::from(counts.get(role)) / 8.0;
            }
        }
        out[s + 12] = self.setup.setup.halfmoves.min(100) as f32 / 100.0;
        out[s + 13] = f32::from(u8::from(self.setup.undo_forbidden.is_some()));
        out
    }

    /// Every secret the opponent may hold given the public history: what
    /// remains of a selection within the public budget left, excluding the
    /// pieces it already announced; nonempty while it has announced nothing.
    pub fn possible_opponent_secrets(&self) -> Vec<Secret> {
        let opponent = !self.observer;
        if let Some(public) = self.setup.secrets[opponent.index()] {
            return vec![public];
        }
        let budget = self.setup.budgets[opponent.index()];
        let used = self.setup.used[opponent.index()];
        let mut out = Vec::new();
        let allow_empty = used.any();
        if allow_empty {
            out.push(Secret::Remaining(match self.rules.commitment {
                Commitment::Simplified => Selection::Types(RoleCounts::default()),
                _ => Selection::Pieces(Bitboard::EMPTY),
            }));
        }
        match self.rules.commitment {
            Commitment::Standard => {
                // The opponent's traitors are the observer's start pieces.
                let candidates: Vec<(PieceId, u8)> = Square::all()
                    .filter_map(|id| {
                        let (colour, role) = start_piece(id)?;
                        (colour == self.observer && role != Role::King && !used.contains(id))
                            .then(|| (id, value(role)))
                    })
                    .collect();
                visit_piece_sets(&candidates, budget, &mut |set| {
                    out.push(Secret::Remaining(Selection::Pieces(set)));
                });
            }
            Commitment::Simplified => {
                // At most as many of a type as the observer started with,
                // less the announced ones (counted by the type they started as).
                let mut caps = RoleCounts([8, 2, 2, 2, 1]);
                for id in used {
                    if let Some((_, role)) = start_piece(id) {
                        let slot = &mut caps.0[role.index()];
                        *slot = slot.saturating_sub(1);
                    }
                }
                visit_type_counts(caps, budget, &mut |counts| {
                    out.push(Secret::Remaining(Selection::Types(counts)));
                });
            }
            Commitment::Impromptu => out = vec![Secret::Nothing],
        }
        out
    }

    /// A full state consistent with this view, the opponent's secret drawn
    /// uniformly from [`TraitorView::possible_opponent_secrets`] with `seed`.
    pub fn sample(&self, seed: u64) -> Traitor {
        let choices = self.possible_opponent_secrets();
        let secret = choices[SeededRng::new(seed).below(choices.len())];
        let mut setup = self.setup.clone();
        setup.secrets[(!self.observer).index()] = Some(secret);
        Traitor::from_setup(setup, self.rules).expect("a view's consistent completion is legal")
    }
}
