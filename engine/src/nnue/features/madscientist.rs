//! Mad Scientist's feature set, `madscientist-parts`: every piece as the
//! parts it is built from, and each hand's parts.

use heterodox_env::madscientist::{Part, PieceKind};
use heterodox_env::{Color, MadScientist};

use super::{side, square, thermometer, FeatureList, FeatureSet, Featured, Features};

/// Piece kinds a side: pawn, Scientist, and four part types at one or two.
const MAD_KINDS: usize = 10;
/// The board's inputs.
const MAD_BOARD: usize = 2 * MAD_KINDS * 64;
/// Units of a part count a hand feature codes.
const HAND_UNITS: usize = 8;

pub(crate) struct MadFeatures;

/// The feature set MadScientist is read with.
impl Featured for MadScientist {
    type Features = MadFeatures;
}

impl Features for MadFeatures {
    type Pos = MadScientist;

    /// Every piece by its side, kind and square: pawn (kind 0), Scientist
    /// (1), and for a composite one feature per part type it carries, by
    /// type and count (`2 + type * 2 + count - 1`), so a piece is the sum
    /// of its parts as the rules build it; then each hand as counts per
    /// part type, thermometer coded up to 8:
    /// `1280 + (side * 4 + type) * 8 + unit`.
    const SET: Option<FeatureSet> = Some(FeatureSet {
        name: "madscientist-parts",
        version: 1,
        inputs: MAD_BOARD + 2 * 4 * HAND_UNITS,
    });

    fn features(pos: &MadScientist, perspective: Color, _observer: Color, out: &mut FeatureList) {
        for (sq, piece) in pos.board().pieces() {
            let base = side(piece.color, perspective) * MAD_KINDS;
            let at = square(sq, perspective);
            match piece.kind {
                PieceKind::Pawn => out.push(base * 64 + at),
                PieceKind::Scientist => out.push((base + 1) * 64 + at),
                PieceKind::Composite(parts) => {
                    for part in Part::ALL {
                        let count = usize::from(parts.count(part));
                        if count > 0 {
                            let kind = base + 2 + part.index() * 2 + count.min(2) - 1;
                            out.push(kind * 64 + at);
                        }
                    }
                }
            }
        }
        for color in [Color::White, Color::Black] {
            let hand = pos.hand(color);
            for part in Part::ALL {
                let base = MAD_BOARD + (side(color, perspective) * 4 + part.index()) * HAND_UNITS;
                thermometer(out, base, usize::from(hand.count(part)), HAND_UNITS);
            }
        }
    }
}
