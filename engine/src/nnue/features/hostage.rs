//! Hostage's feature set, `hostage-psq-reserves`: the board, and what each
//! side holds in its prison and airfield, the men a drop or an exchange
//! brings back.

use heterodox_env::hostage::RESERVE_ROLES;
use heterodox_env::{Color, Hostage};

use super::{board_features, side, thermometer, FeatureList, FeatureSet, Featured, Features};

/// Units of a count a reserve feature codes (more men of a role are rare).
const RESERVE_UNITS: usize = 8;

pub(crate) struct HostageFeatures;

/// The feature set Hostage is read with.
impl Featured for Hostage {
    type Features = HostageFeatures;
}

impl Features for HostageFeatures {
    type Pos = Hostage;

    /// Piece-square inputs, then each prison and airfield as counts per
    /// role (pawn to queen), thermometer coded up to 8:
    /// `768 + ((reserve * 2 + side) * 5 + role) * 8 + unit`, reserve 0 the
    /// prisons (by captor), 1 the airfields (by owner).
    const SET: Option<FeatureSet> = Some(FeatureSet {
        name: "hostage-psq-reserves",
        version: 1,
        inputs: 768 + 2 * 2 * 5 * RESERVE_UNITS,
    });

    fn features(pos: &Hostage, perspective: Color, _observer: Color, out: &mut FeatureList) {
        board_features(pos.board(), 6, perspective, out);
        for color in [Color::White, Color::Black] {
            let side = side(color, perspective);
            for (reserve, held) in [pos.prison(color), pos.airfield(color)]
                .into_iter()
                .enumerate()
            {
                for role in RESERVE_ROLES {
                    let base = 768 + ((reserve * 2 + side) * 5 + role.index()) * RESERVE_UNITS;
                    thermometer(out, base, usize::from(held.count(role)), RESERVE_UNITS);
                }
            }
        }
    }
}
