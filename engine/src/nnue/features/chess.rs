//! Chess's feature set, `chess-psq`: the board's pieces by side, role and
//! square, nothing else (the FIDE fields the rules keep beside the board,
//! castling and en passant, are left to the search).

use heterodox_env::{Chess, Color};

use super::{board_features, FeatureList, FeatureSet, Featured, Features};

pub(crate) struct ChessFeatures;

/// The feature set Chess is read with.
impl Featured for Chess {
    type Features = ChessFeatures;
}

impl Features for ChessFeatures {
    type Pos = Chess;

    /// Piece-square inputs, 6 roles a side ([`board_features`]).
    const SET: Option<FeatureSet> = Some(FeatureSet {
        name: "chess-psq",
        version: 1,
        inputs: 2 * 6 * 64,
    });

    fn features(pos: &Chess, perspective: Color, _observer: Color, out: &mut FeatureList) {
        board_features(pos.board(), 6, perspective, out);
    }
}
