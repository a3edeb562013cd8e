//! FIDE chess as generic code sees it: its registry entry (no rule
//! settings, the standard start, FEN position strings, the diagram) and
//! perfect information.

use super::Chess;

crate::variant::variant_without_options!(Chess, Chess, max_plies = 512);
