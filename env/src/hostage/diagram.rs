//! What a diagram of a Hostage position shows: the board, each side's
//! prison (the enemy men it holds) and airfield (its own men to drop)
//! beside its home ranks, by name, and the side to move.

use crate::render::{to_move, Diagram, Reserve as ReserveArea, ReserveMen};
use crate::Color;

use super::reserve::{Reserve, RESERVE_ROLES};
use super::Hostage;

/// A reserve's men by name with their counts, most valuable first
/// (`1 black queen, 2 black pawns`), so a reader needs no FEN letters;
/// `empty` when there are none.
fn reserve_names(reserve: &Reserve, men: Color) -> String {
    let named: Vec<String> = RESERVE_ROLES
        .into_iter()
        .rev()
        .filter(|&role| reserve.count(role) > 0)
        .map(|role| {
            let count = reserve.count(role);
            let plural = if count == 1 { "" } else { "s" };
            format!("{count} {} {}{plural}", men.name(), role.name())
        })
        .collect();
    if named.is_empty() {
        "empty".to_owned()
    } else {
        named.join(", ")
    }
}

/// A reserve's men, most valuable first, as clickable men of the SVG.
fn reserve_men(reserve: &Reserve, men: Color) -> Vec<ReserveMen> {
    RESERVE_ROLES
        .into_iter()
        .rev()
        .filter(|&role| reserve.count(role) > 0)
        .map(|role| ReserveMen {
            letter: role.upper_char(),
            color: men,
            count: reserve.count(role),
        })
        .collect()
}

/// Prisons and airfields beside the home ranks (Black's by ranks 8 and 7,
/// White's by ranks 2 and 1), as reserves whose men a page can click.
pub(super) fn diagram(position: &Hostage) -> Diagram {
    let mut diagram = Diagram::of_board(position.board());
    for color in Color::ALL {
        let (prison_rank, airfield_rank) = color.fold((1, 0), (6, 7));
        for (area, rank, reserve, men) in [
            ("prison", prison_rank, position.prison(color), !color),
            ("airfield", airfield_rank, position.airfield(color), color),
        ] {
            diagram.reserves.push(ReserveArea {
                owner: color,
                area,
                rank,
                label: format!("{} {area}: {}", color.name(), reserve_names(reserve, men)),
                men: reserve_men(reserve, men),
            });
        }
    }
    diagram.below.push(to_move(position.turn()));
    diagram
}
