//! Hostage Chess as generic code sees it: its registry entry (no rule
//! settings, the standard start, position strings in its FEN dialect, the
//! diagram) and perfect information.

use super::Hostage;

crate::variant::variant_without_options!(Hostage, Hostage, max_plies = 600);
