//! Heterodox rules core.
//!
//! Shared building blocks ([`Bitboard`], [`Square`], [`Board`], [`attacks`],
//! [`zobrist`], FEN and SAN pieces), the small [`Position`] trait every
//! variant implements, the [`Game`] record with repetition, generic
//! [`perft`], and the variants themselves ([`Chess`] first), each in its
//! folder and declared by its line in the registry below. See
//! docs/architecture.md for how a variant plugs in.

pub mod attacks;
mod bitboard;
mod board;
mod color;
pub mod encoding;
mod error;
pub mod fen;
pub mod fide;
mod game;
pub mod gesture;
pub mod hidden;
mod moves;
mod options;
mod outcome;
pub mod perft;
pub mod pgn;
mod position;
pub mod render;
pub mod repetition;
pub mod rng;
mod role;
pub mod san;
mod setup;
mod square;
pub mod variant;
pub mod vecenv;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use chess::{Chess, MoveList};
pub use color::Color;
pub use error::{FenError, MoveError, PositionError};
pub use game::Game;
pub use hidden::{HiddenInformation, StateSampler};
pub use hostage::{Hostage, HostageAction};
pub use madscientist::{MadAction, MadScientist};
pub use moves::{CastlingSide, Move};
pub use options::{OptionError, RuleOptions};
pub use outcome::{Outcome, Termination};
pub use poison::{PoisonAction, PoisonChess};
pub use position::Position;
pub use role::{Piece, Role};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};
pub use traitor::{Traitor, TraitorAction};
pub use variant::{
    new_position, AnyGame, GameVariant, NewGameError, NoViews, RuleSet, UnknownVariant,
    VariantVisitor,
};
pub use vecenv::{make_batch_env, BatchEnv, EnvConfig, StepError, VecEnv};

// The registry: one line per variant declares its module (its folder
// `src/<module>/`), its `Variant` arm, its registered name and its arm of
// `Variant::visit` (variant/mod.rs defines the macro). A variant joins
// here and nowhere else in the crate.
variant::registry! {
    /// FIDE chess, the reference.
    Chess => chess::Chess, "chess";
    /// Poison Chess.
    Poison => poison::PoisonChess, "poison";
    /// Hostage Chess.
    Hostage => hostage::Hostage, "hostage";
    /// Mad Scientist Chess.
    MadScientist => madscientist::MadScientist, "madscientist";
    /// The Traitor Chess family (modes and commitments are rule settings).
    Traitor => traitor::Traitor, "traitor";
    /// King of the Hill, a test-only variant (cargo feature `test-variant`):
    /// what adding a variant takes, checked by the conformance suite and
    /// the perft driver.
    #[cfg(feature = "test-variant")]
    KingOfTheHill => kingofthehill::KingOfTheHill, "kingofthehill";
}
