//! Poison's feature set, `poison-psq-countdown`: the board with its nine
//! roles, and every poisoned man with the turns it has left.

use heterodox_env::{Color, PoisonChess, Role};

use super::{board_features, side, square, FeatureList, FeatureSet, Featured, Features};

/// The piece-square inputs: nine roles a side.
const POISON_PSQ: usize = 2 * Role::COUNT * 64;

pub(crate) struct PoisonFeatures;

/// The feature set PoisonChess is read with.
impl Featured for PoisonChess {
    type Features = PoisonFeatures;
}

impl Features for PoisonFeatures {
    type Pos = PoisonChess;

    /// Piece-square inputs for the nine roles (Harpy, Doctor and Guard
    /// beside the six), then each poisoned man by its side, countdown
    /// (1 to 5) and square: `1152 + (side * 5 + countdown - 1) * 64 + sq`.
    const SET: Option<FeatureSet> = Some(FeatureSet {
        name: "poison-psq-countdown",
        version: 1,
        inputs: POISON_PSQ + 2 * 5 * 64,
    });

    fn features(pos: &PoisonChess, perspective: Color, _observer: Color, out: &mut FeatureList) {
        board_features(pos.board(), Role::COUNT, perspective, out);
        for color in [Color::White, Color::Black] {
            for sq in pos.poisoned(color) {
                let counter = usize::from(pos.counter(sq).unwrap_or(1).clamp(1, 5));
                let kind = side(color, perspective) * 5 + counter - 1;
                out.push(POISON_PSQ + kind * 64 + square(sq, perspective));
            }
        }
    }
}
