//! The Traitor secret selection as a game: each player chooses a secret
//! without seeing the other's, so a fixed choice can be read and punished.
//! A [`SelectionStrategy`] holds both sides' equilibrium mixes for one rule
//! set (built by [`crate::selections`], shipped in
//! engine/src/hidden/selections/); the engine draws its selection from it
//! ([`RootStrategy`], [`crate::Engine::set_root_strategy`]) instead of
//! searching thousands of selections to quiescence.

use std::fmt;
use std::sync::{Arc, OnceLock};

use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, GameVariant, Position};
use serde::{Deserialize, Serialize};

use crate::nnue::network::rules_string;

/// The file format's name, checked when a strategy is read.
pub const FORMAT: &str = "heterodox-selection-1";

/// A choice the engine makes from a precomputed mixed strategy instead of
/// searching: Traitor's secret selection.
pub trait RootStrategy<P: Position>: Send + Sync + fmt::Debug {
    /// The action drawn with `seed` for `position` and the expected score
    /// of the strategy for the player to act, when the strategy covers the
    /// position; reads only what that player may know.
    fn choose(&self, position: &P, seed: u64) -> Option<(P::Action, f64)>;
}

/// One selection of a mix, in the long form (`S-d8`, `S-NP`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weighted {
    pub selection: String,
    pub probability: f64,
}

/// Both sides' equilibrium selections for one rule set, with how they were
/// made: the files shipped in engine/src/hidden/selections/.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelectionStrategy {
    pub format: String,
    pub variant: String,
    /// The rule settings, `key=value` joined by `,` in key order.
    pub rules: String,
    /// The command that made it.
    pub command: String,
    /// The depth (steps) of each payoff entry's search.
    pub depth: u32,
    pub white: Vec<Weighted>,
    pub black: Vec<Weighted>,
    /// White's expected score (0 to 1) when both play the equilibrium.
    pub value: f64,
    /// What a best-responding selection gains against the mixes, in the
    /// matrix's own terms (the duality gap over every candidate).
    pub exploitability: f64,
    /// The candidate (undominated) selections of White and Black.
    pub candidates: [usize; 2],
    /// Payoff entries searched.
    pub entries: usize,
    /// Double-oracle iterations.
    pub iterations: u32,
}

/// Why a strategy file cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("not a selection strategy: {0}")]
pub struct FormatError(String);

/// The strategies shipped with the engine (engine/src/hidden/selections/,
/// made by `heterodox selection`; README.md there says how), by file name.
const SHIPPED: &[(&str, &str)] = &[
    (
        "traitor-traitor-standard.json",
        include_str!("selections/traitor-traitor-standard.json"),
    ),
    (
        "traitor-defector-standard.json",
        include_str!("selections/traitor-defector-standard.json"),
    ),
    (
        "traitor-double-agent-standard.json",
        include_str!("selections/traitor-double-agent-standard.json"),
    ),
    (
        "traitor-defector-double-agent-standard.json",
        include_str!("selections/traitor-defector-double-agent-standard.json"),
    ),
    (
        "traitor-traitor-simplified.json",
        include_str!("selections/traitor-traitor-simplified.json"),
    ),
    (
        "traitor-defector-simplified.json",
        include_str!("selections/traitor-defector-simplified.json"),
    ),
    (
        "traitor-double-agent-simplified.json",
        include_str!("selections/traitor-double-agent-simplified.json"),
    ),
    (
        "traitor-defector-double-agent-simplified.json",
        include_str!("selections/traitor-defector-double-agent-simplified.json"),
    ),
];

/// The strategy shipped for `P` under `rules`, read once per process;
/// `None` where none is shipped.
pub fn shipped<P: GameVariant>(rules: &P::Rules) -> Option<Arc<SelectionStrategy>> {
    static READ: OnceLock<Vec<Arc<SelectionStrategy>>> = OnceLock::new();
    let all = READ.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|(name, text)| {
                let strategy = SelectionStrategy::from_json(text)
                    .unwrap_or_else(|e| panic!("shipped selection strategy {name}: {e}"));
                Arc::new(strategy)
            })
            .collect()
    });
    let rules = rules_string::<P>(rules);
    all.iter()
        .find(|s| s.variant == P::VARIANT.name() && s.rules == rules)
        .cloned()
}

impl SelectionStrategy {
    /// Reads a strategy file's text, refusing another format.
    pub fn from_json(text: &str) -> Result<SelectionStrategy, FormatError> {
        let strategy: SelectionStrategy =
            serde_json::from_str(text).map_err(|e| FormatError(e.to_string()))?;
        if strategy.format != FORMAT {
            return Err(FormatError(format!(
                "format '{}', expected '{FORMAT}'",
                strategy.format
            )));
        }
        Ok(strategy)
    }

    /// The side's mix.
    fn mix(&self, side: Color) -> &[Weighted] {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// The strategy covers a position where the player to act chooses its
/// secret: its turn's selection step. Only the public step, the player to
/// act and the legality of a selection (the public budget) are read.
impl<P: Position> RootStrategy<P> for SelectionStrategy {
    fn choose(&self, position: &P, seed: u64) -> Option<(P::Action, f64)> {
        let side = position.turn();
        let mix = self.mix(side);
        let first = mix.first()?;
        let probe = position.parse_action(&first.selection).ok()?;
        if !position.is_legal(&probe) {
            return None;
        }
        let total: f64 = mix.iter().map(|w| w.probability).sum();
        let mut draw = SplitMix64::new(seed).next_unit() * total;
        let mut chosen = &mix[mix.len() - 1];
        for weighted in mix {
            if draw < weighted.probability {
                chosen = weighted;
                break;
            }
            draw -= weighted.probability;
        }
        let action = position.parse_action(&chosen.selection).ok()?;
        let expected = match side {
            Color::White => self.value,
            Color::Black => 1.0 - self.value,
        };
        position.is_legal(&action).then_some((action, expected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
    use heterodox_env::{GameVariant, HiddenInformation, StateSampler};

    fn start(commitment: Commitment) -> Traitor {
        Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap()
    }

    fn two_way(white: &str, black: &str) -> SelectionStrategy {
        SelectionStrategy {
            format: FORMAT.into(),
            variant: "traitor".into(),
            rules: String::new(),
            command: String::new(),
            depth: 1,
            white: vec![
                Weighted {
                    selection: white.into(),
                    probability: 0.25,
                },
                Weighted {
                    selection: "S-a7".into(),
                    probability: 0.75,
                },
            ],
            black: vec![
                Weighted {
                    selection: black.into(),
                    probability: 0.5,
                },
                Weighted {
                    selection: "S-g1".into(),
                    probability: 0.5,
                },
            ],
            value: 0.75,
            exploitability: 0.0,
            candidates: [2, 1],
            entries: 0,
            iterations: 0,
        }
    }

    #[test]
    fn a_selection_is_drawn_from_the_mix_by_the_seed_and_only_at_a_selection_step() {
        let strategy = two_way("S-d8", "S-d1");
        let pos = start(Commitment::Standard);
        let draw = |seed| {
            let (action, expected) =
                RootStrategy::<Traitor>::choose(&strategy, &pos, seed).unwrap();
            (action.to_string(), expected)
        };
        assert_eq!(draw(7), draw(7));
        let queens = (0..1000).filter(|&seed| draw(seed).0 == "S-d8").count();
        assert_eq!(queens, 251);
        assert_eq!(draw(0).1, 0.75);
        // Black's draw is the same whatever White holds, and its expected
        // score is Black's.
        let mut black = Vec::new();
        for white in ["S-d8", "S-a7", "S-c8,g8"] {
            let mut after = pos.clone();
            after.play(&after.parse_action(white).unwrap()).unwrap();
            for seed in 0..6 {
                let (action, expected) =
                    RootStrategy::<Traitor>::choose(&strategy, &after, seed).unwrap();
                black.push((action.to_string(), expected));
            }
        }
        let draws: Vec<&str> = black.iter().map(|(a, _)| a.as_str()).collect();
        assert_eq!(draws[..6], ["S-g1", "S-g1", "S-g1", "S-d1", "S-d1", "S-d1"]);
        assert_eq!(draws[..6], draws[6..12]);
        assert_eq!(draws[..6], draws[12..]);
        assert!(black.iter().all(|(_, expected)| *expected == 0.25));
        // Not a selection step, or another commitment's selections: none.
        let mut play = pos.clone();
        for step in ["S-d8", "S-d1"] {
            play.play(&play.parse_action(step).unwrap()).unwrap();
        }
        assert!(RootStrategy::<Traitor>::choose(&strategy, &play, 3).is_none());
        let simplified = start(Commitment::Simplified);
        assert!(RootStrategy::<Traitor>::choose(&strategy, &simplified, 3).is_none());
    }

    #[test]
    fn black_s_draw_reads_no_secret() {
        // Every state consistent with Black's view at its selection gives
        // the same draw.
        let strategy = two_way("S-d8", "S-d1");
        let mut pos = start(Commitment::Standard);
        pos.play(&pos.parse_action("S-c8,g8").unwrap()).unwrap();
        let sampler = Traitor::sampler(&pos.view(Color::Black));
        assert_eq!(sampler.len(), 2204);
        for seed in 0..4 {
            let (expected, _) = RootStrategy::<Traitor>::choose(&strategy, &pos, seed).unwrap();
            for k in (0..sampler.len()).step_by(101) {
                let (action, _) =
                    RootStrategy::<Traitor>::choose(&strategy, &sampler.state(k), seed).unwrap();
                assert_eq!(action, expected);
            }
        }
    }

    #[test]
    fn every_shipped_strategy_plays_legal_selections_of_its_rules() {
        assert_eq!(SHIPPED.len(), 8);
        for (name, text) in SHIPPED {
            let strategy = SelectionStrategy::from_json(text).unwrap();
            let mut options = heterodox_env::RuleOptions::new();
            for pair in strategy.rules.split(',') {
                let (key, value) = pair.split_once('=').unwrap();
                options.set(key, value);
            }
            let rules = Traitor::parse_rules(&options).unwrap();
            assert_eq!(
                name.trim_end_matches(".json"),
                format!("traitor-{}-{}", rules.mode.name(), rules.commitment.name())
            );
            assert_eq!(shipped::<Traitor>(&rules).as_deref(), Some(&strategy));
            let start = Traitor::new(rules).unwrap();
            let mut after = start.clone();
            after
                .play(&after.parse_action(&strategy.white[0].selection).unwrap())
                .unwrap();
            for (pos, mix) in [(&start, &strategy.white), (&after, &strategy.black)] {
                let total: f64 = mix.iter().map(|w| w.probability).sum();
                assert!((total - 1.0).abs() < 1e-9, "{name}");
                for weighted in mix {
                    let action = pos.parse_action(&weighted.selection).unwrap();
                    assert!(pos.is_legal(&action), "{name}: {}", weighted.selection);
                }
            }
            // Solved to the end, or stopped at --iterations with what a
            // best response would gain.
            assert!(strategy.exploitability.abs() < 0.05, "{name}");
            assert_eq!(strategy.depth, 3, "{name}");
        }
        // Impromptu has no selection phase, and no strategy; Mercenary's
        // lost games (docs/hidden.md) and is not shipped.
        for (mode, commitment) in [
            (Mode::Traitor, Commitment::Impromptu),
            (Mode::Mercenary, Commitment::Standard),
            (Mode::Mercenary, Commitment::Simplified),
        ] {
            assert!(shipped::<Traitor>(&TraitorRules::new(mode, commitment)).is_none());
        }
    }
}
