//! MultiPV: the best `n` root actions, each with its own exact score and
//! principal variation, found the way Stockfish finds them. Every
//! iteration searches the root `n` times: line `k` searches only the
//! actions not already chosen as lines `0..k` (the tail of the root list),
//! inside an aspiration window around line `k`'s score of the previous
//! iteration, so the best of them gets an exact score and becomes line `k`.
//! One line is exactly the single-line search, node for node: the same
//! root search over the same list with the same window.

use std::cmp::Reverse;

use heterodox_env::GameVariant;

use super::root::RootMove;
use super::Searcher;

impl<P: GameVariant> Searcher<'_, P> {
    /// One iteration at `depth` for `previous.len()` lines (the caller
    /// caps them at the root's action count): the best line's score, or
    /// `None` when the search was stopped before every line completed.
    /// `previous[k]` is line `k`'s score in the previous iteration, the
    /// centre of its aspiration window, and is updated. `moves` come back
    /// with the lines first, best first, then the other actions.
    pub(crate) fn iterate_lines(
        &mut self,
        root: &P,
        moves: &mut [RootMove<P::Action>],
        depth: i32,
        previous: &mut [Option<i32>],
        exact: bool,
    ) -> Option<i32> {
        let lines = previous.len().min(moves.len());
        for line in 0..lines {
            self.root_line = line;
            let value = self.iterate(root, &mut moves[line..], depth, previous[line], exact);
            self.root_line = 0;
            previous[line] = Some(value?);
            // A later line may come out better than an earlier one (the
            // search is not perfectly stable across windows): it moves up.
            // Stable, so equal scores keep the order they were found in.
            moves[..=line].sort_by_key(|m| Reverse(m.score));
        }
        Some(moves[0].score)
    }
}

#[cfg(test)]
mod tests {
    use heterodox_env::traitor::{Commitment, Mode, TraitorRules};
    use heterodox_env::{Chess, Game, GameVariant, Position, Traitor};

    use crate::{Engine, EngineConfig, EngineError, LimitError, Limits, Score};

    fn engine<P: GameVariant>() -> Engine<P> {
        Engine::new(EngineConfig::default()).unwrap()
    }

    /// A fresh engine reporting `lines` lines.
    fn lines<P: GameVariant>(lines: usize) -> Engine<P> {
        let mut engine = engine::<P>();
        engine.set_multipv(lines).unwrap();
        engine
    }

    /// White wins the queen, protected by a pawn, with the knight
    /// (`Nxd5 exd5`: a queen for a knight) or the rook (`Rxd5 exd5`: a
    /// queen for a rook); after any other move the queen escapes.
    const TWO_CAPTURES: &str = "6k1/5pp1/4p2p/3q4/8/2N4P/5PP1/3R2K1 w - - 0 1";

    fn notation<P: GameVariant>(game: &Game<P>, actions: &[P::Action]) -> Vec<String> {
        actions
            .iter()
            .map(|a| game.position().notation(a))
            .collect()
    }

    #[test]
    fn two_lines_are_the_two_captures_best_first() {
        let game = Game::new(Chess::from_fen(TWO_CAPTURES).unwrap());
        let mut infos = Vec::new();
        let report = lines::<Chess>(3)
            .search(&game, &Limits::depth(5), |info| infos.push(info.clone()))
            .unwrap();
        let lines = &report.lines;
        let firsts: Vec<_> = lines.iter().map(|l| l.action).collect();
        assert_eq!(notation(&game, &firsts[..2]), ["Nxd5", "Rxd5"], "{lines:?}");
        let cp = |k: usize| match lines[k].score {
            Score::Cp(cp) => cp,
            other => panic!("line {k}: {other:?}"),
        };
        // A rook's worth up, then a knight's, then about level.
        assert!(
            cp(0) > 400 && cp(1) > 200 && cp(1) < cp(0) - 100,
            "{lines:?}"
        );
        assert!(cp(2) < 100, "{lines:?}");
        // The two captures' scores are their exact scores at that depth.
        let exact = engine::<Chess>().score_root_moves(&game, 5).unwrap();
        assert_eq!(
            lines[..2]
                .iter()
                .map(|l| (l.action, l.score))
                .collect::<Vec<_>>(),
            exact[..2]
                .iter()
                .map(|l| (l.action, l.score))
                .collect::<Vec<_>>()
        );
        for line in lines {
            assert_eq!(line.pv[0], line.action);
            assert_eq!(line.score, Score::from_internal(line.value));
            assert!(game.position().is_legal(&line.action));
        }
        // The report is the first line.
        assert_eq!(report.best, lines[0].action);
        assert_eq!((report.score, &report.pv), (lines[0].score, &lines[0].pv));
        // Every completed iteration reports three lines, the first its own
        // score and principal variation.
        assert_eq!(infos.len(), 5);
        for (k, info) in infos.iter().enumerate() {
            assert_eq!(info.depth, k as u32 + 1);
            assert_eq!(info.lines.len(), 3);
            assert_eq!(
                (info.score, &info.pv),
                (info.lines[0].score, &info.lines[0].pv)
            );
            let mut distinct: Vec<_> = info.lines.iter().map(|l| l.action).collect();
            distinct.dedup();
            assert_eq!(distinct.len(), 3);
        }
        assert_eq!(infos[4].lines, report.lines);
    }

    #[test]
    fn one_line_is_the_plain_search_node_for_node() {
        let game = Game::new(Chess::from_fen(TWO_CAPTURES).unwrap());
        let plain = engine::<Chess>()
            .search(&game, &Limits::depth(7), |_| {})
            .unwrap();
        let one = lines::<Chess>(1)
            .search(&game, &Limits::depth(7), |_| {})
            .unwrap();
        let (mut plain, mut one) = (plain, one);
        plain.elapsed = Default::default();
        one.elapsed = Default::default();
        assert_eq!(plain, one);
        assert_eq!(plain.lines.len(), 1);
        assert_eq!(plain.lines[0].action, plain.best);
        // More lines cost more nodes; the best move stays.
        let two = lines::<Chess>(2)
            .search(&game, &Limits::depth(7), |_| {})
            .unwrap();
        assert_eq!(two.best, plain.best);
        assert!(two.nodes > plain.nodes);
    }

    #[test]
    fn lines_are_capped_at_the_legal_actions_and_sorted() {
        // Two legal moves: Ka7 and Kb7.
        let game = Game::new(Chess::from_fen("k7/8/3Q4/8/8/8/8/7K b - - 0 1").unwrap());
        let report = lines::<Chess>(256)
            .search(&game, &Limits::depth(4), |_| {})
            .unwrap();
        let mut actions = Vec::new();
        game.legal_actions(&mut actions);
        assert_eq!(report.lines.len(), actions.len());
        assert!(report.lines.windows(2).all(|w| w[0].value >= w[1].value));
        let mut found: Vec<_> = report.lines.iter().map(|l| l.action).collect();
        found.sort_by_key(|a| actions.iter().position(|b| b == a));
        assert_eq!(found, actions);
    }

    #[test]
    fn a_mate_in_every_line_ends_the_search_early() {
        // Both rook moves to the eighth rank mate.
        let game = Game::new(Chess::from_fen("6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1").unwrap());
        let report = lines::<Chess>(2)
            .search(&game, &Limits::depth(20), |_| {})
            .unwrap();
        assert_eq!(
            notation(&game, &[report.lines[0].action, report.lines[1].action]),
            ["Ra8#", "Rb8#"]
        );
        assert!(report.lines.iter().all(|l| l.score == Score::Mate(1)));
        assert_eq!(report.depth, 1);
    }

    #[test]
    fn hidden_information_reports_the_best_averages() {
        // Traitor is searched as a game of hidden information whatever its
        // settings; Defector mode has no mate at the start.
        let rules = TraitorRules::new(Mode::Defector, Commitment::Impromptu);
        let game = Game::new(Traitor::new(rules).unwrap());
        let one = engine::<Traitor>()
            .search(&game, &Limits::depth(3), |_| {})
            .unwrap();
        let seven = lines::<Traitor>(7)
            .search(&game, &Limits::depth(3), |_| {})
            .unwrap();
        assert_eq!(seven.lines.len(), 7);
        assert!(seven.lines.windows(2).all(|w| w[0].value >= w[1].value));
        assert_eq!(seven.lines[0].action, one.best);
    }

    #[test]
    fn a_number_of_lines_out_of_range_is_refused_and_the_setting_kept() {
        let mut engine = lines::<Chess>(3);
        for lines in [0, 257] {
            assert_eq!(
                engine.set_multipv(lines).unwrap_err(),
                EngineError::Limit(LimitError::MultiPv(lines))
            );
            assert_eq!(engine.multipv(), 3);
        }
    }

    #[test]
    fn the_table_is_resized_or_kept_whole() {
        let mut engine = engine::<Chess>();
        assert!(matches!(
            engine.set_hash_mib(0),
            Err(EngineError::Config(crate::ConfigError::HashSize(0)))
        ));
        assert_eq!(engine.config().hash_mib, 16);
        engine.set_hash_mib(2).unwrap();
        assert_eq!(engine.config().hash_mib, 2);
        let game = Game::new(Chess::new());
        let resized = engine.search(&game, &Limits::depth(6), |_| {}).unwrap();
        let fresh = Engine::<Chess>::new(EngineConfig {
            hash_mib: 2,
            ..EngineConfig::default()
        })
        .unwrap()
        .search(&game, &Limits::depth(6), |_| {})
        .unwrap();
        assert_eq!((resized.best, resized.nodes), (fresh.best, fresh.nodes));
    }
}
