//! What one player may know (T10): the board, every announcement, the
//! public budgets and its own secret, never the opponent's. The view is
//! built from the full state by dropping the opponent's secret, so nothing
//! derived from it can leak; encoders and search read the view only.
//!
//! The view's tensor is the variant's one observation ([`TraitorView::encode`],
//! in encoding.rs). The sampler ([`TraitorSampler`]) draws full states
//! consistent with a view: the opponent's remaining secret uniformly among
//! those the public history allows, enumerated once per view.

use super::rules::{value, Commitment, TraitorRules};
use super::selection::{
    start_piece, visit_piece_sets, visit_type_counts, PieceId, RoleCounts, Secret, Selection,
};
use super::setup::TraitorSetup;
use super::{secret_key, Traitor};
use crate::hidden::{HiddenInformation, StateSampler};
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
}

impl HiddenInformation for Traitor {
    const PERFECT_INFORMATION: bool = false;
    type View = TraitorView;
    type Sampler = TraitorSampler;

    fn view(&self, observer: Color) -> TraitorView {
        TraitorView::of(self, observer)
    }

    /// Everything public, the observer's own secret, and the opponent's
    /// secret only when it is not a secret (not yet chosen, or nothing to
    /// choose).
    fn information_set_key(&self, observer: Color) -> u64 {
        let opponent = !observer;
        let mut key = self.public_key() ^ secret_key(observer, self.secrets[observer.index()]);
        if !hides(self.secrets[opponent.index()]) {
            key ^= secret_key(opponent, self.secrets[opponent.index()]);
        }
        key
    }

    fn sampler(view: &TraitorView) -> TraitorSampler {
        TraitorSampler::new(view)
    }

    fn view_string(view: &TraitorView) -> String {
        view.fen()
    }

    fn secret_text(&self, owner: Color) -> String {
        match self.secrets[owner.index()] {
            // Everything announced: nothing left, written `-`.
            Secret::Remaining(selection) => match selection.long() {
                text if text.is_empty() => "-".to_owned(),
                text => text,
            },
            Secret::Unchosen | Secret::Nothing => String::new(),
        }
    }
}

/// Full states consistent with a [`TraitorView`]: the view's fields with
/// each secret the opponent may hold ([`TraitorView::possible_opponent_secrets`],
/// enumerated once). Drawing clones a validated template and sets the
/// secret: no allocation, no re-validation.
#[derive(Clone, Debug)]
pub struct TraitorSampler {
    template: Traitor,
    opponent: Color,
    secrets: Vec<Secret>,
}

impl TraitorSampler {
    pub fn new(view: &TraitorView) -> TraitorSampler {
        let secrets = view.possible_opponent_secrets();
        let opponent = !view.observer();
        let mut setup = view.setup().clone();
        setup.secrets[opponent.index()] = Some(secrets[0]);
        let template = Traitor::from_setup(setup, *view.rules())
            .expect("a view's consistent completion is legal");
        TraitorSampler {
            template,
            opponent,
            secrets,
        }
    }

    /// The opponent's possible secrets, in the order of
    /// [`StateSampler::state`].
    pub fn secrets(&self) -> &[Secret] {
        &self.secrets
    }
}

impl StateSampler<Traitor> for TraitorSampler {
    fn len(&self) -> usize {
        self.secrets.len()
    }

    fn state(&self, index: usize) -> Traitor {
        let mut state = self.template.clone();
        state.secrets[self.opponent.index()] = self.secrets[index];
        state
    }

    /// One turn announces at most one piece, and whether a piece may be
    /// announced depends only on whether the secret holds it (Standard: its
    /// id; Simplified: its type): the first secret holding each id or type
    /// that some secret holds. At most 15 states of Standard's 2204.
    fn covering(&self) -> Vec<usize> {
        let mut ids = Bitboard::EMPTY;
        let mut roles = [false; 5];
        let mut out = Vec::new();
        for (index, secret) in self.secrets.iter().enumerate() {
            let new = match secret {
                Secret::Remaining(Selection::Pieces(set)) => {
                    let new = (*set & !ids).any();
                    ids |= *set;
                    new
                }
                Secret::Remaining(Selection::Types(counts)) => {
                    let mut new = false;
                    for (k, held) in roles.iter_mut().enumerate() {
                        if counts.0[k] > 0 && !*held {
                            *held = true;
                            new = true;
                        }
                    }
                    new
                }
                Secret::Unchosen | Secret::Nothing => false,
            };
            if new {
                out.push(index);
            }
        }
        if out.is_empty() {
            // Nothing can be announced: any one state stands for all.
            out.push(0);
        }
        out
    }
}
