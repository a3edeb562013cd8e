//! The board as the person sees it: the variant's text diagram from their
//! own side (Black's from rank 1 up and file h on the left), and under
//! hidden information their own view in place of the secrets.

use heterodox_env::{Color, GameVariant};

/// The board as `human` may see it, from `human`'s side: the full diagram
/// in a game of perfect information; under hidden information the secrets
/// line is replaced by the human's own view.
pub fn board<P: GameVariant>(position: &P, human: Color) -> String {
    let mut diagram = position.diagram();
    let view = P::view_string(&position.view(human));
    if view != position.fen() {
        diagram.below.retain(|line| !line.starts_with("secrets:"));
        diagram.below.push(format!("your view: {view}"));
    }
    heterodox_env::render::text_from(&diagram, human)
}

#[cfg(test)]
mod tests {
    use heterodox_env::{Chess, Hostage};

    use super::*;

    /// The text board of `ranks` (rank 8 first) with `files` above and
    /// below, three characters a square.
    fn drawn(files: &str, ranks: &[(char, &str)]) -> String {
        let files: String = files.chars().map(|f| format!(" {f} ")).collect();
        let mut out = format!("  {}\n", files.trim_end());
        for (label, squares) in ranks {
            let row: String = squares.chars().map(|s| format!(" {s} ")).collect();
            out.push_str(&format!("{label} {row} {label}\n"));
        }
        out.push_str(&format!("  {}\nwhite to move\n", files.trim_end()));
        out
    }

    #[test]
    fn black_sees_the_board_from_its_side() {
        let position = Chess::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let empty = "........";
        let mut ranks = vec![('8', "....k...")];
        ranks.extend(('2'..='7').rev().map(|rank| (rank, empty)));
        ranks.push(('1', "R...K..R"));
        assert_eq!(board(&position, Color::White), drawn("abcdefgh", &ranks));
        let mut turned = vec![('1', "R..K...R")];
        turned.extend(('2'..='7').map(|rank| (rank, empty)));
        turned.push(('8', "...k...."));
        assert_eq!(board(&position, Color::Black), drawn("hgfedcba", &turned));
    }

    #[test]
    fn reserves_stay_beside_their_owner_s_home_ranks() {
        let position = Hostage::from_fen("4k3/8/8/8/8/8/8/4K3[q/R/-/-] w - - 0 1").unwrap();
        let white = board(&position, Color::White);
        let black = board(&position, Color::Black);
        let beside = |text: &str, rank: char| -> String {
            text.lines()
                .find(|line| line.starts_with(rank))
                .and_then(|line| line.split_once("   "))
                .map_or(String::new(), |(_, note)| note.to_owned())
        };
        for rank in '1'..='8' {
            assert_eq!(beside(&white, rank), beside(&black, rank), "rank {rank}");
        }
        let ranks: Vec<char> = black
            .lines()
            .skip(1)
            .take(8)
            .map(|l| l.chars().next().unwrap())
            .collect();
        assert_eq!(ranks, ['1', '2', '3', '4', '5', '6', '7', '8']);
    }
}
