//! Mad Scientist Chess as generic code sees it: its registry entry (no
//! rule settings, the standard start, its position strings, the diagram)
//! and perfect information.

use super::MadScientist;

crate::variant::variant_without_options!(MadScientist, MadScientist, max_plies = 600);
