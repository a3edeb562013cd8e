//! Traitor's feature set, `traitor-control-own-secret`: only what the
//! player searching may know (the public board, control and budgets, and
//! its own secret), so a net trained on it cannot read the opponent's
//! secret out of a determinization.

use heterodox_env::traitor::{self as rules, Secret, Selection};
use heterodox_env::{Color, Traitor};

use super::{
    board_features, side, square, thermometer, FeatureList, FeatureSet, Featured, Features,
};

/// Where the budget features start.
const TRAITOR_BUDGETS: usize = 1104;

pub(crate) struct TraitorFeatures;

/// The feature set Traitor is read with.
impl Featured for Traitor {
    type Features = TraitorFeatures;
}

impl Features for TraitorFeatures {
    type Pos = Traitor;

    /// What the searcher may know, nothing more: the pieces by board
    /// colour, role and square (768); the pieces each side may move now,
    /// by side and square (control, from the colours and the public
    /// announcements: `768 + side * 64 + sq`); the searcher's own secret
    /// (Standard: the squares of the enemy pieces it can still turn,
    /// `896 + side * 64 + sq`; Simplified: its remaining counts per role,
    /// thermometer coded to 8, `1024 + (side * 5 + role) * 8 + unit`); the
    /// public budgets (`1104 + side * 9 + unit`). The opponent's secret is
    /// never read, even in a determinization that holds one
    /// (`engine/tests/integration/nnue.rs`).
    const SET: Option<FeatureSet> = Some(FeatureSet {
        name: "traitor-control-own-secret",
        version: 1,
        inputs: TRAITOR_BUDGETS + 2 * rules::BUDGET as usize,
    });

    fn features(pos: &Traitor, perspective: Color, observer: Color, out: &mut FeatureList) {
        board_features(pos.board(), 6, perspective, out);
        for color in [Color::White, Color::Black] {
            let side = side(color, perspective);
            for sq in pos.movable(color) {
                out.push(768 + side * 64 + square(sq, perspective));
            }
            let budget = usize::from(pos.budget(color));
            thermometer(
                out,
                TRAITOR_BUDGETS + side * 9,
                budget,
                rules::BUDGET as usize,
            );
        }
        let side = side(observer, perspective);
        match pos.secret(observer) {
            Secret::Remaining(Selection::Pieces(ids)) => {
                for id in ids {
                    if let Some(sq) = pos.square_of(id) {
                        out.push(896 + side * 64 + square(sq, perspective));
                    }
                }
            }
            Secret::Remaining(Selection::Types(counts)) => {
                for role in rules::TRAITOR_ROLES {
                    let base = 1024 + (side * 5 + role.index()) * 8;
                    thermometer(out, base, usize::from(counts.get(role)), 8);
                }
            }
            Secret::Unchosen | Secret::Nothing => {}
        }
    }
}
