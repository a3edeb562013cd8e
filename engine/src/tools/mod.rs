//! What is built on the engine rather than part of its search: the
//! teacher that labels self-play games for the networks ([`teach`]), the
//! Texel tuner of the classical evaluation's numbers ([`tune`]), the fixed
//! benchmark whose node count is the search's signature ([`bench`]), the
//! Traitor selection strategies the engine ships ([`selections`]), the fit
//! of the beliefs' move model on self-play ([`belief_fit`]), and the
//! adjudication of unfinished games by a search ([`adjudicate`]).
//! Nothing in the search or the evaluations imports from here.

pub(crate) mod adjudicate;
pub mod belief_fit;
pub mod bench;
pub mod selections;
pub mod teach;
pub mod tune;
