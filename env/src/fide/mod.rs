//! The FIDE machinery that chess and the variants share: the state fields
//! beside the board (side to move, castling rights, en passant square, the
//! move clocks), castling, en passant, direct legal move generation given
//! a variant's attack rule (`movegen`), the FIDE endings, SAN matching and
//! the checks a setup of a FIDE-like board must pass.
//! `chess` is one user among the others; nothing here knows a variant.

pub mod castling;
pub mod en_passant;
pub mod endings;
pub mod legality;
pub mod move_groups;
pub mod movegen;
pub mod san;
pub(crate) mod state;
mod validation;

pub use castling::validate_castling_rights;
pub use en_passant::validate_ep_square;
pub(crate) use state::FideState;
pub use validation::{
    validate_back_ranks, validate_fide_material, validate_fide_setup, validate_fullmoves,
    validate_pawn_count, validate_roles, SetupRules,
};
