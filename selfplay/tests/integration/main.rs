//! heterodox-selfplay's integration tests in one binary, a module per subject
//! (one link and one build of the generic code they share, instead of
//! one per file).

mod beliefs;
mod duel;
mod group;
mod immediate_wins;
mod playout_cap;
mod quiescence_leaves;
mod search;
mod selfplay;
