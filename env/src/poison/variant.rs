//! Poison Chess as generic code sees it: its registry entry (no rule
//! settings, the text's start position, position strings in its FEN
//! dialect, the diagram) and perfect information.

use super::PoisonChess;

crate::variant::variant_without_options!(PoisonChess, Poison, max_plies = 512);
