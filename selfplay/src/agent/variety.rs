//! Seeded variety for the alpha-beta engine (`ab@...`, option
//! `/vary=PLIES:CP`): the engine plays one game for one position, since a
//! depth or node budget searches the same way every time; with the option,
//! on each of the game's first `PLIES` plies its move is drawn uniformly,
//! from the caller's seed for that game and ply, among the root moves whose
//! score lies at most `CP` centipawns below the best one's. Off by default,
//! so every game played without it replays exactly.
//!
//! The plies are the game's ([`Game::plies`], both sides' moves, counted
//! from the game's start position, a duel's random opening included): an
//! agent varies those of them that it plays. The scores are the engine's
//! root scores at the depth the move's own search completed
//! ([`Engine::score_root_moves_within`]: exact for the moves within the
//! margin, a bound below it for the others, so no move outside the margin
//! is ever drawn; a move a few centipawns from the margin's edge may fall
//! either side of it, since a null window now and then scores it a little
//! apart from a full one; under hidden information every move's score,
//! averaged over the determinizations). A best move that mates or is mated is
//! played as the engine found it: a mate is never traded for a slower one.
//! The one function both players use: [`varied_move`] (the front ends'
//! `AgentPlayer` and the duels'
//! `EngineChooser`).

use std::fmt;
use std::str::FromStr;

use heterodox_engine::{Engine, EngineError, RootScore, Score};
use heterodox_env::rng::{mix64, SplitMix64};
use heterodox_env::{Game, GameVariant};

/// The most plies `/vary=PLIES:CP` may vary.
pub const MAX_VARY_PLIES: u32 = 1000;
/// The widest margin `/vary=PLIES:CP` takes, in centipawns.
pub const MAX_VARY_CP: u32 = 1000;

/// Mixed into the caller's seed, so that the draw is not another seeded
/// choice of the same ply (a greedy or random player's).
const VARY_SALT: u64 = 0x7661_7279_5eed_0001;

/// `/vary=PLIES:CP`: on the game's plies below `plies`, a move drawn among
/// those at most `margin_cp` centipawns below the best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variety {
    /// The game's first plies that vary (1 to [`MAX_VARY_PLIES`]).
    pub plies: u32,
    /// Centipawns below the best score a drawn move may lie (0 to
    /// [`MAX_VARY_CP`]; 0 draws among the moves tied with the best).
    pub margin_cp: u32,
}

/// Why `/vary=...` does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VaryError {
    /// Not of the form `vary=PLIES:CP`.
    #[error("the engine's variety is /vary=PLIES:CP (e.g. /vary=4:30), not '/{0}'")]
    Form(String),
    #[error("the plies of /vary=PLIES:CP must be a number from 1 to {MAX_VARY_PLIES}, not '{0}'")]
    Plies(String),
    #[error("the margin of /vary=PLIES:CP must be centipawns from 0 to {MAX_VARY_CP}, not '{0}'")]
    Margin(String),
}

impl Variety {
    /// Whether a move at the game's ply `plies` (0 for the first) varies.
    pub fn applies(&self, plies: u32) -> bool {
        plies < self.plies
    }
}

impl FromStr for Variety {
    type Err = VaryError;

    /// Reads `vary=PLIES:CP` (the option without its '/').
    fn from_str(text: &str) -> Result<Variety, VaryError> {
        let form = || VaryError::Form(text.to_owned());
        let (plies, margin) = text
            .strip_prefix("vary=")
            .and_then(|values| values.split_once(':'))
            .ok_or_else(form)?;
        let number = |digits: &str| {
            digits
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| digits.parse::<u32>().ok())
                .flatten()
        };
        let plies = number(plies)
            .filter(|n| (1..=MAX_VARY_PLIES).contains(n))
            .ok_or_else(|| VaryError::Plies(plies.to_owned()))?;
        let margin_cp = number(margin)
            .filter(|n| *n <= MAX_VARY_CP)
            .ok_or_else(|| VaryError::Margin(margin.to_owned()))?;
        Ok(Variety { plies, margin_cp })
    }
}

impl fmt::Display for Variety {
    /// `vary=PLIES:CP`, what [`Variety::from_str`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vary={}:{}", self.plies, self.margin_cp)
    }
}

/// The root moves a draw picks among: those whose value is at most
/// `margin_cp` below the best value of `scores`, in the order given;
/// empty when the best is a mate (either side's) or there is no move.
pub fn candidates<A>(scores: &[RootScore<A>], margin_cp: u32) -> Vec<&RootScore<A>> {
    let Some(best) = scores.iter().max_by_key(|s| s.value) else {
        return Vec::new();
    };
    if matches!(best.score, Score::Mate(_)) {
        return Vec::new();
    }
    let floor = best.value.saturating_sub(margin_cp as i32);
    scores.iter().filter(|s| s.value >= floor).collect()
}

/// One of [`candidates`], drawn uniformly from `seed`; `None` where there
/// is none (a mate).
pub fn draw<A>(scores: &[RootScore<A>], margin_cp: u32, seed: u64) -> Option<&RootScore<A>> {
    let candidates = candidates(scores, margin_cp);
    if candidates.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(mix64(seed ^ VARY_SALT));
    Some(candidates[rng.below(candidates.len())])
}

/// The varied move of an engine in `game`, whose own search completed
/// `depth` iterations: `None` when `variety` does not apply at the game's
/// ply, or the best move mates or is mated (the engine's move stands),
/// else the move drawn from `seed` (the caller's seed for the game and the
/// ply) among the root moves at most the margin below the best, scored at
/// `depth` (at least 1) by `engine`, with its score and line. Costs a root
/// scoring at that depth on the varied plies only.
pub fn varied_move<P: GameVariant>(
    engine: &mut Engine<P>,
    game: &Game<P>,
    depth: u32,
    variety: Variety,
    seed: u64,
) -> Result<Option<RootScore<P::Action>>, EngineError> {
    if !variety.applies(game.plies()) {
        return Ok(None);
    }
    let depth = depth.max(1);
    let scores = if P::PERFECT_INFORMATION {
        // A move more than the margin below gets an upper bound at most
        // the margin and one below the best: it never qualifies.
        engine.score_root_moves_within(game, depth, variety.margin_cp as i32 + 1)?
    } else {
        // Averages of bounds are no bounds: every move scored exactly.
        engine.score_root_moves(game, depth)?
    };
    Ok(draw(&scores, variety.margin_cp, seed).cloned())
}

#[cfg(test)]
mod tests {
    use heterodox_env::{Chess, Position};

    use super::*;
    use heterodox_engine::EvalWeights;

    fn score(action: u32, value: i32) -> RootScore<u32> {
        RootScore {
            action,
            score: Score::Cp(value),
            value,
            pv: vec![action],
        }
    }

    #[test]
    fn options_read_and_write_back() {
        let v: Variety = "vary=4:30".parse().unwrap();
        assert_eq!(
            v,
            Variety {
                plies: 4,
                margin_cp: 30
            }
        );
        assert_eq!(v.to_string(), "vary=4:30");
        assert_eq!(
            "vary=1000:0".parse::<Variety>().unwrap().to_string(),
            "vary=1000:0"
        );
        assert!(v.applies(0) && v.applies(3) && !v.applies(4));
        let error = |text: &str| text.parse::<Variety>().unwrap_err();
        assert_eq!(error("vary"), VaryError::Form("vary".to_owned()));
        assert_eq!(error("vary=4"), VaryError::Form("vary=4".to_owned()));
        assert_eq!(error("vary:4:30"), VaryError::Form("vary:4:30".to_owned()));
        assert_eq!(error("vary=0:30"), VaryError::Plies("0".to_owned()));
        assert_eq!(error("vary=1001:30"), VaryError::Plies("1001".to_owned()));
        assert_eq!(error("vary=+4:30"), VaryError::Plies("+4".to_owned()));
        assert_eq!(error("vary=4:-1"), VaryError::Margin("-1".to_owned()));
        assert_eq!(error("vary=4:1001"), VaryError::Margin("1001".to_owned()));
        assert_eq!(error("vary=4:30:2"), VaryError::Margin("30:2".to_owned()));
        assert_eq!(
            error("vary=4:x").to_string(),
            "the margin of /vary=PLIES:CP must be centipawns from 0 to 1000, not 'x'"
        );
    }

    #[test]
    fn the_draw_is_among_the_moves_within_the_margin() {
        let scores = [
            score(1, 50),
            score(2, 40),
            score(3, 20),
            score(4, 19),
            score(5, -300),
        ];
        let actions = |margin| {
            candidates(&scores, margin)
                .iter()
                .map(|s| s.action)
                .collect::<Vec<_>>()
        };
        assert_eq!(actions(0), [1]);
        assert_eq!(actions(10), [1, 2]);
        assert_eq!(actions(30), [1, 2, 3]);
        assert_eq!(actions(31), [1, 2, 3, 4]);
        let drawn: Vec<u32> = (0..64)
            .map(|s| draw(&scores, 30, s).unwrap().action)
            .collect();
        assert!(drawn.iter().all(|a| [1, 2, 3].contains(a)), "{drawn:?}");
        for a in [1, 2, 3] {
            assert!(drawn.contains(&a), "{a} never drawn: {drawn:?}");
        }
        // A mate is never traded: no draw.
        let mate = [
            RootScore {
                action: 1,
                score: Score::Mate(2),
                value: 30_997,
                pv: vec![1],
            },
            RootScore {
                action: 2,
                score: Score::Mate(3),
                value: 30_995,
                pv: vec![2],
            },
        ];
        assert!(candidates(&mate, 30).is_empty());
        assert_eq!(draw(&mate, 30, 1), None);
        assert_eq!(draw::<u32>(&[], 30, 1), None);
    }

    /// White wins the queen with the knight (`Nxd5 exd5`) or the rook
    /// (`Rxd5 exd5`); after any other move the queen escapes.
    const TWO_CAPTURES: &str = "6k1/5pp1/4p2p/3q4/8/2N4P/5PP1/3R2K1 w - - 0 1";

    fn engine() -> Engine<Chess> {
        Engine::new(heterodox_engine::EngineConfig {
            seed: 0,
            weights: EvalWeights::Tuned,
            ..heterodox_engine::EngineConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn an_engine_draws_only_among_the_moves_within_the_margin() {
        let game = Game::new(Chess::from_fen(TWO_CAPTURES).unwrap());
        let notation = |a: &<Chess as Position>::Action| game.position().notation(a);
        let mut exact = engine().score_root_moves(&game, 4).unwrap();
        exact.sort_by_key(|s| std::cmp::Reverse(s.value));
        let values: Vec<(String, i32)> = exact[..3]
            .iter()
            .map(|s| (notation(&s.action), s.value))
            .collect();
        // The two captures, far above the rest, the knight's the better
        // by 223 cp.
        let expected = [("Nxd5", 548), ("Rxd5", 325), ("g4", -207)];
        assert_eq!(
            values,
            expected.map(|(n, v)| (n.to_owned(), v)),
            "{values:?}"
        );
        // Exactly the two within 300 cp of the best (or 500), one within
        // 200. (Not at the gap's edge, 223: a null window there may see
        // Rxd5 a little lower than the full window does.)
        let variety = Variety {
            plies: 1,
            margin_cp: 300,
        };
        let drawn = |seed: u64| {
            let mut engine = engine();
            let chosen = varied_move(&mut engine, &game, 4, variety, seed)
                .unwrap()
                .expect("the first ply varies");
            notation(&chosen.action)
        };
        let draws: Vec<String> = (0..32).map(drawn).collect();
        assert!(
            draws.iter().all(|m| m == "Nxd5" || m == "Rxd5"),
            "{draws:?}"
        );
        assert!(draws.iter().any(|m| m == "Nxd5") && draws.iter().any(|m| m == "Rxd5"));
        assert_eq!(draws[..6], ["Rxd5", "Rxd5", "Nxd5", "Nxd5", "Nxd5", "Nxd5"]);
        let wide = Variety {
            plies: 1,
            margin_cp: 500,
        };
        let wide_draws: Vec<String> = (0..32)
            .map(|seed| {
                let chosen = varied_move(&mut engine(), &game, 4, wide, seed)
                    .unwrap()
                    .unwrap();
                notation(&chosen.action)
            })
            .collect();
        assert_eq!(wide_draws, draws, "the same two moves, the same draws");
        // The same seed, the same move; other seeds, other moves.
        assert_eq!((0..32).map(drawn).collect::<Vec<_>>(), draws);
        // A margin below the gap leaves the best alone.
        let narrow = Variety {
            plies: 1,
            margin_cp: 200,
        };
        for seed in 0..8 {
            let chosen = varied_move(&mut engine(), &game, 4, narrow, seed)
                .unwrap()
                .unwrap();
            assert_eq!(notation(&chosen.action), "Nxd5");
        }
        // Past its plies the option does nothing.
        let mut later = game.clone();
        for m in ["Kh2", "Kh7"] {
            let action = later.position().parse_action(m).unwrap();
            later.play(&action).unwrap();
        }
        assert_eq!(
            varied_move(&mut engine(), &later, 4, variety, 0).unwrap(),
            None
        );
    }
}
