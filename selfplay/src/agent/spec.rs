//! Agent strings: one short string for every kind of player the arena,
//! the claims, `heterodox play`, the protocols, the web server and the
//! Python package's `heterodox.agent` pit against each other. The grammar
//! lives here, below libtorch, so that every front end reads the same
//! strings; loading a network (`net:`, `zoo:`) is the caller's part.
//!
//! ```text
//! random                         a uniformly random legal move
//! greedy                         the move that leaves the most material (one
//!                                ply, the engine's values), random among equals
//! ab@8                           the alpha-beta engine (heterodox-engine), 8
//!                                iterations deep, evaluating with its rule
//!                                set's shipped net (agents/*/nnue.safetensors)
//!                                or, where none is shipped, the classical
//!                                evaluation
//! ab@100ms                       ... searching 100 ms a move
//! ab@50000n                      ... searching 50,000 nodes a move
//! ab@50000n/classical            ... evaluating with the tuned hand-written
//!                                evaluation (what every `ab@` result before
//!                                the learned evaluations played; also /tuned)
//! ab@50000n/hand                 ... with the numbers set by hand before
//!                                tuning
//! ab@100ms/naive                 ... under hidden information (Traitor), the
//!                                plain determinized search: no threat guard
//!                                and no shipped selection strategy
//!                                (heterodox_engine::hidden); after the
//!                                evaluation, before /vary
//! ab@50000n/vary=4:30            ... on the game's first 4 plies, a move
//!                                drawn from the game's and the ply's seed
//!                                among those at most 30 cp below the best
//!                                (after the evaluation, if any, and last:
//!                                `ab@8/classical/vary=4:30`; super::variety)
//! uniform@400                    the search, 400 simulations, guided by the
//!                                rules alone (uniform priors, value 0)
//! rollout@200                    the search guided by one random playout per leaf
//! net:runs/h1/last@200           the search guided by a checkpoint's network
//! net:runs/h1/last@200/puct      ... with a PUCT root (default: gumbel)
//! net:runs/h1/last@200/nolosses  ... without the root's check for losses
//!                                in one (docs/training.md, "Losses in
//!                                one"): the search of networks from
//!                                351092a to eab7c72, which replays them
//! net:runs/h1/last@200/nowins    ... without either probe (docs/training.md,
//!                                "Wins in one"): the search every network
//!                                had before 351092a, which replays its games
//! zoo:hostage@64                 the search guided by a network shipped with
//!                                the project (agents/hostage/, its card
//!                                states its strength)
//! zoo:hostage@64/quiescence      ... each leaf's value half the network's,
//!                                half the engine's quiescence search
//!                                (`quiescence_weight` 0.5; any search)
//! zoo:hostage@64/quiescence=0.25 ... a quarter the quiescence's (0.01 to 1)
//! rollout@64/beliefs             ... under hidden information, the roots
//!                                drawn from a posterior over the opponent's
//!                                secret (`SearchConfig::beliefs`; last of
//!                                a search's options)
//! ```
//!
//! The simulation count defaults to [`DEFAULT_SIMULATIONS`]; the engine
//! needs its budget said. A path may hold `@` and `/`: the budget is what
//! follows the last `@`, unless that is no number and holds a `/` (then it
//! is part of the path). A depth or node budget plays the same games for
//! the same seed; a time budget depends on the machine.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use heterodox_engine::{Evaluation, Limits, MAX_DEPTH};

use super::variety::Variety;
use super::zoo::{Zoo, ZooError};
use crate::{RootPolicy, SearchConfig};

/// Simulations per move when a spec names none.
pub const DEFAULT_SIMULATIONS: u32 = 64;

/// The most milliseconds a move of `ab@MSms` may take (an hour).
pub const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The most nodes a move of `ab@Nn` may search.
pub const MAX_NODES: u64 = 1 << 40;
/// An agent a front end offers by name, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentChoice {
    /// The agent string (it parses as an [`AgentSpec`]).
    pub spec: &'static str,
    pub about: &'static str,
}

/// The agents a front end (`heterodox serve`) lists for every variant:
/// the kinds the grammar knows that need no file, at budgets that answer
/// within a second on one core. A network is named by its string,
/// `net:DIR@N`; new kinds of agents join the grammar and this list.
pub fn menu() -> Vec<AgentChoice> {
    vec![
        AgentChoice {
            spec: DEFAULT_AGENT,
            about: "the alpha-beta engine, 0.3 s a move",
        },
        AgentChoice {
            spec: "ab@1000ms",
            about: "the alpha-beta engine, 1 s a move",
        },
        AgentChoice {
            spec: "ab@100ms",
            about: "the alpha-beta engine, 0.1 s a move",
        },
        AgentChoice {
            spec: "greedy",
            about: "the move that leaves the most material, one ply",
        },
        AgentChoice {
            spec: "rollout@64",
            about: "search guided by random playouts, 64 simulations",
        },
        AgentChoice {
            spec: "rollout@256",
            about: "search guided by random playouts, 256 simulations",
        },
        AgentChoice {
            spec: "uniform@200",
            about: "search guided by the rules alone, 200 simulations",
        },
        AgentChoice {
            spec: "random",
            about: "a uniformly random legal move",
        },
    ]
}

/// The agent a front end plays when none is named: the strongest per
/// second of thinking (docs/engine.md).
pub const DEFAULT_AGENT: &str = "ab@300ms";

/// What guides an agent's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentKind {
    Random,
    Greedy,
    /// The alpha-beta engine with this budget a move and this
    /// evaluation.
    Engine(EngineBudget, Evaluation),
    Uniform,
    Rollout,
    /// A checkpoint directory (a network checkpoint, e.g. `RUN/last`).
    Net(PathBuf),
    /// A network shipped with the project, by name (the catalogue,
    /// [`Zoo`](super::zoo::Zoo)).
    Zoo(String),
}

impl AgentKind {
    /// The checkpoint directory of a network agent (for `zoo:NAME`, where
    /// the catalogue keeps it on disk: [`Zoo::network_dir`]); `None` for
    /// the others.
    pub fn network_dir(&self) -> Result<Option<PathBuf>, ZooError> {
        match self {
            AgentKind::Net(path) => Ok(Some(path.clone())),
            AgentKind::Zoo(name) => Zoo::current()?.network_dir(name).map(Some),
            _ => Ok(None),
        }
    }
}

/// What the alpha-beta engine may spend on a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineBudget {
    /// Iterations to complete.
    Depth(u32),
    /// Milliseconds.
    MoveTime(u64),
    Nodes(u64),
}

impl EngineBudget {
    /// The engine's limits for one move.
    pub fn limits(self) -> Limits {
        match self {
            EngineBudget::Depth(depth) => Limits::depth(depth),
            EngineBudget::MoveTime(ms) => Limits::movetime(Duration::from_millis(ms)),
            EngineBudget::Nodes(nodes) => Limits::nodes(nodes),
        }
    }

    /// Reads `8`, `100ms` or `50000n`.
    fn parse(text: &str) -> Option<EngineBudget> {
        let number =
            |digits: &str, max: u64| digits.parse::<u64>().ok().filter(|n| (1..=max).contains(n));
        if let Some(ms) = text.strip_suffix("ms") {
            number(ms, MAX_MOVETIME_MS).map(EngineBudget::MoveTime)
        } else if let Some(nodes) = text.strip_suffix('n') {
            number(nodes, MAX_NODES).map(EngineBudget::Nodes)
        } else {
            number(text, u64::from(MAX_DEPTH)).map(|d| EngineBudget::Depth(d as u32))
        }
    }
}

impl fmt::Display for EngineBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineBudget::Depth(depth) => write!(f, "{depth}"),
            EngineBudget::MoveTime(ms) => write!(f, "{ms}ms"),
            EngineBudget::Nodes(nodes) => write!(f, "{nodes}n"),
        }
    }
}

/// The rules probes a network's search makes (`/nolosses`, `/nowins`):
/// each was added to the search of every network agent when it made them
/// stronger, and each option gives back the search before it, so that
/// earlier figures replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probes {
    /// Neither (`/nowins`): before 351092a.
    None,
    /// Wins in one only (`/nolosses`): `immediate_wins`.
    Wins,
    /// Wins in one, and at the root the actions that let the opponent win
    /// in one avoided (`avoid_losses_in_one`): the default.
    WinsAndLosses,
}

impl Probes {
    /// The option that asks for these probes, after a network's budget.
    fn option(self) -> &'static str {
        match self {
            Probes::None => "/nowins",
            Probes::Wins => "/nolosses",
            Probes::WinsAndLosses => "",
        }
    }
}

/// A parsed agent string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub kind: AgentKind,
    /// Simulations per move (searching agents).
    pub simulations: u32,
    pub root_policy: RootPolicy,
    /// The rules probes of a network's search (`/nolosses`, `/nowins`
    /// turn them off). The yardsticks never probe.
    pub probes: Probes,
    /// The share of each leaf's value the engine's quiescence search
    /// gives, in hundredths (`/quiescence`: 50; 0: none, the default):
    /// [`SearchConfig::quiescence_weight`].
    pub quiescence: u8,
    /// The engine's seeded variety (`/vary=PLIES:CP`, [`Variety`]);
    /// `None` (the default, and for every other kind): the engine's own
    /// move every ply.
    pub vary: Option<Variety>,
    /// The engine's plain determinized search under hidden information
    /// (`/naive`: [`heterodox_engine::EngineConfig::threat_guard`] and
    /// `selection_strategy` off).
    pub naive: bool,
    /// A tree search's roots drawn from a posterior over the opponent's
    /// secret under hidden information (`/beliefs`, last:
    /// [`SearchConfig::beliefs`]); the engine keeps its own beliefs.
    pub beliefs: bool,
}

/// The quiescence share `/quiescence` asks for, in hundredths.
pub const DEFAULT_QUIESCENCE: u8 = 50;

/// Why an agent string does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad agent '{text}': {reason} (agents: random, greedy, ab@DEPTH, ab@MSms, ab@NODESn optionally /classical or /hand, /naive, then /vary=PLIES:CP, uniform@SIMS, rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS; searches optionally /puct or /gumbel, networks also /nolosses or /nowins, searches then /quiescence or /quiescence=W, last /beliefs)")]
pub struct AgentSpecError {
    pub text: String,
    pub reason: String,
}

impl AgentSpec {
    /// Whether the agent is a tree search guided by an evaluator (the
    /// others choose their moves themselves).
    pub fn is_search(&self) -> bool {
        matches!(
            self.kind,
            AgentKind::Uniform | AgentKind::Rollout | AgentKind::Net(_) | AgentKind::Zoo(_)
        )
    }

    /// The search settings of a searching agent (`None` for random play),
    /// from `base` with the agent's budget and root. A budget below
    /// `base`'s determinizations (hidden-information search) gets one
    /// determinization per simulation, so every budget the parser accepts
    /// plays.
    ///
    /// A network's search scores wins in one ply as wins
    /// (`immediate_wins`, unless `/nowins`) and avoids losses in one at
    /// the root (`avoid_losses_in_one`, unless `/nolosses` or `/nowins`);
    /// `uniform` and `rollout` search without either: they are the fixed
    /// yardsticks every table since the first arena measured against, so
    /// they keep playing as they did then.
    pub fn search_config(&self, base: &SearchConfig) -> Option<SearchConfig> {
        let yardstick = matches!(self.kind, AgentKind::Uniform | AgentKind::Rollout);
        self.is_search().then(|| SearchConfig {
            simulations: self.simulations,
            root_policy: self.root_policy,
            determinizations: base.determinizations.min(self.simulations),
            immediate_wins: self.probes != Probes::None && !yardstick,
            avoid_losses_in_one: self.probes == Probes::WinsAndLosses && !yardstick,
            quiescence_weight: f32::from(self.quiescence) / 100.0,
            beliefs: self.beliefs,
            ..base.clone()
        })
    }
}

impl FromStr for AgentSpec {
    type Err = AgentSpecError;

    fn from_str(text: &str) -> Result<AgentSpec, AgentSpecError> {
        // `/beliefs`, last of a tree search's options (a network path
        // without a budget takes no options: its `/beliefs` is the path's).
        let options_follow = !text.starts_with("net:") || text.contains('@');
        match text.strip_suffix("/beliefs").filter(|_| options_follow) {
            Some(rest) => {
                let mut spec = parse_spec(rest).map_err(|e| AgentSpecError {
                    text: text.to_owned(),
                    reason: e.reason,
                })?;
                if !spec.is_search() {
                    return Err(AgentSpecError {
                        text: text.to_owned(),
                        reason: "/beliefs is for searches (uniform, rollout, net:, zoo:): the engine keeps its beliefs unless /naive".to_owned(),
                    });
                }
                spec.beliefs = true;
                Ok(spec)
            }
            None => parse_spec(text),
        }
    }
}

/// An agent string without `/beliefs`.
fn parse_spec(text: &str) -> Result<AgentSpec, AgentSpecError> {
    let bad = |reason: &str| AgentSpecError {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let (head, budget) = match text.rsplit_once('@') {
        // `net:runs/h1@v2/last`: an `@` inside a checkpoint path, not
        // a budget (what follows it is no number and holds a `/`).
        Some((_, budget))
            if text.starts_with("net:")
                && budget.contains('/')
                && budget
                    .split('/')
                    .next()
                    .is_some_and(|n| n.parse::<u32>().is_err()) =>
        {
            (text, None)
        }
        Some((head, budget)) => (head, Some(budget)),
        None => (text, None),
    };
    if head == "ab" {
        let budget = budget
            .ok_or_else(|| bad("the engine needs a budget: ab@DEPTH, ab@MSms or ab@NODESn"))?;
        let mut options: Vec<&str> = budget.split('/').collect();
        let budget = options.remove(0);
        // `/vary=PLIES:CP` last, after the evaluation if any.
        let vary = match options.last() {
            Some(last) if last.starts_with("vary") => {
                let vary = last.parse::<Variety>().map_err(|e| bad(&e.to_string()))?;
                options.pop();
                Some(vary)
            }
            _ => None,
        };
        if options.iter().any(|option| option.starts_with("vary")) {
            return Err(bad("the engine's /vary=PLIES:CP comes last, once"));
        }
        let naive = options.last() == Some(&"naive");
        if naive {
            options.pop();
        }
        if options.contains(&"naive") {
            return Err(bad(
                "the engine's /naive comes once, after the evaluation and before /vary",
            ));
        }
        let evaluation = match options[..] {
            [] => Evaluation::Learned,
            [evaluation] => match evaluation.parse() {
                Ok(Evaluation::Learned) | Err(_) => {
                    return Err(bad(
                        "the engine's evaluation after '/' must be classical (or tuned) or hand",
                    ))
                }
                Ok(evaluation) => evaluation,
            },
            _ => {
                return Err(bad(
                    "the engine takes one evaluation (/classical, /tuned or /hand), then /vary=PLIES:CP",
                ))
            }
        };
        let budget = EngineBudget::parse(budget).ok_or_else(|| {
            bad("the engine's budget after '@' must be a depth from 1 to 64, MSms (1 to 3600000 ms) or NODESn (1 to 2^40 nodes)")
        })?;
        return Ok(AgentSpec {
            kind: AgentKind::Engine(budget, evaluation),
            simulations: DEFAULT_SIMULATIONS,
            root_policy: RootPolicy::Gumbel,
            probes: Probes::WinsAndLosses,
            quiescence: 0,
            vary,
            naive,
            beliefs: false,
        });
    }
    if !text.starts_with("net:")
        && text
            .rsplit('/')
            .next()
            .is_some_and(|last| last.starts_with("vary"))
        && text.contains('/')
    {
        return Err(bad("/vary=PLIES:CP is an option of the engine (ab@...)"));
    }
    let (mut simulations, mut root_policy) = (DEFAULT_SIMULATIONS, RootPolicy::Gumbel);
    let mut probes = Probes::WinsAndLosses;
    let mut quiescence = 0;
    let mut head = head;
    if let Some(budget) = budget {
        let (count, policy) = match budget.split_once('/') {
            Some((count, policy)) => (count, Some(policy)),
            None => (budget, None),
        };
        simulations = count
            .parse::<u32>()
            .ok()
            .filter(|&n| (1..=crate::config::MAX_SIMULATIONS).contains(&n))
            .ok_or_else(|| bad("the simulations after '@' must be a number from 1 to 1048576"))?;
        if let Some(options) = policy {
            (root_policy, probes, quiescence) =
                search_options(options).ok_or_else(|| bad(OPTIONS))?;
        }
    } else if let Some((kind, options)) =
        text.split_once('/').filter(|(k, _)| !k.starts_with("net:"))
    {
        // `uniform/puct`, `zoo:hostage/nowins`: options without a budget.
        head = kind;
        (root_policy, probes, quiescence) = search_options(options).ok_or_else(|| bad(OPTIONS))?;
    }
    let kind = match head {
        "random" if budget.is_some() => return Err(bad("random play has no simulations")),
        "random" => AgentKind::Random,
        "greedy" if budget.is_some() => return Err(bad("the greedy player has no budget")),
        "greedy" => AgentKind::Greedy,
        "uniform" => AgentKind::Uniform,
        "rollout" => AgentKind::Rollout,
        _ => match (head.strip_prefix("net:"), head.strip_prefix("zoo:")) {
            (Some(""), _) => return Err(bad("net: needs a checkpoint directory")),
            (Some(path), _) => AgentKind::Net(PathBuf::from(path)),
            (_, Some(name)) if is_zoo_name(name) => AgentKind::Zoo(name.to_owned()),
            (_, Some(_)) => {
                return Err(bad(
                    "zoo: needs the name of a shipped agent (letters, digits, '-' and '_'; see agents/)",
                ))
            }
            _ => return Err(bad("unknown kind of agent")),
        },
    };
    if probes != Probes::WinsAndLosses && !matches!(kind, AgentKind::Net(_) | AgentKind::Zoo(_)) {
        return Err(bad(
            "/nolosses and /nowins are for networks (net:, zoo:): the other searches never probe",
        ));
    }
    if quiescence > 0
        && !matches!(
            kind,
            AgentKind::Uniform | AgentKind::Rollout | AgentKind::Net(_) | AgentKind::Zoo(_)
        )
    {
        return Err(bad(
            "/quiescence is for searches (uniform, rollout, net:, zoo:)",
        ));
    }
    Ok(AgentSpec {
        kind,
        simulations,
        root_policy,
        probes,
        quiescence,
        vary: None,
        naive: false,
        beliefs: false,
    })
}

/// Why a search's options do not parse.
const OPTIONS: &str =
    "what follows the simulations must be /puct or /gumbel, then /nolosses or /nowins, then /quiescence or /quiescence=W (W from 0.01 to 1, in hundredths)";

/// A search's options after its budget (`puct`, `gumbel/nowins`,
/// `nolosses/quiescence`, ..., without the first '/'): the root policy
/// (Gumbel when absent), the probes (both unless `nolosses` or `nowins`)
/// and the quiescence share in hundredths (0 unless `quiescence`, last);
/// `None` when they do not parse.
fn search_options(text: &str) -> Option<(RootPolicy, Probes, u8)> {
    let (text, quiescence) = match text.rsplit_once('/').unwrap_or(("", text)) {
        (rest, last) if last.starts_with("quiescence") => {
            (rest, quiescence_share(&last["quiescence".len()..])?)
        }
        _ => (text, 0),
    };
    if text.is_empty() && quiescence > 0 {
        return Some((RootPolicy::Gumbel, Probes::WinsAndLosses, quiescence));
    }
    let (policy, probes) = policy_and_probes(text)?;
    Some((policy, probes, quiescence))
}

/// `""` (the default share) or `=W`, W in hundredths from 0.01 to 1.
fn quiescence_share(text: &str) -> Option<u8> {
    if text.is_empty() {
        return Some(DEFAULT_QUIESCENCE);
    }
    let weight: f64 = text.strip_prefix('=')?.parse().ok()?;
    let hundredths = (weight * 100.0).round();
    ((weight * 100.0 - hundredths).abs() < 1e-6 && (1.0..=100.0).contains(&hundredths))
        .then_some(hundredths as u8)
}

/// The root policy and probes of [`search_options`].
fn policy_and_probes(text: &str) -> Option<(RootPolicy, Probes)> {
    let (policy, probes) = [("nowins", Probes::None), ("nolosses", Probes::Wins)]
        .into_iter()
        .find_map(|(option, probes)| {
            let rest = text.strip_suffix(option)?;
            let policy = if rest.is_empty() {
                rest
            } else {
                rest.strip_suffix('/')?
            };
            Some((policy, probes))
        })
        .unwrap_or((text, Probes::WinsAndLosses));
    let policy = match policy {
        "" if probes != Probes::WinsAndLosses => RootPolicy::Gumbel,
        "gumbel" => RootPolicy::Gumbel,
        "puct" => RootPolicy::Puct,
        _ => return None,
    };
    Some((policy, probes))
}

/// A shipped agent's name: a plain directory name, never a path.
pub fn is_zoo_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let network = matches!(self.kind, AgentKind::Net(_) | AgentKind::Zoo(_));
        let probes = if network { self.probes.option() } else { "" };
        let quiescence = match self.quiescence {
            0 => String::new(),
            DEFAULT_QUIESCENCE => "/quiescence".to_owned(),
            share => format!("/quiescence={}", f64::from(share) / 100.0),
        };
        let policy = match self.root_policy {
            RootPolicy::Gumbel => format!("{probes}{quiescence}"),
            RootPolicy::Puct => format!("/puct{probes}{quiescence}"),
        };
        match &self.kind {
            AgentKind::Random => write!(f, "random"),
            AgentKind::Greedy => write!(f, "greedy"),
            AgentKind::Engine(budget, evaluation) => {
                write!(f, "ab@{budget}")?;
                if *evaluation != Evaluation::Learned {
                    write!(f, "/{evaluation}")?;
                }
                if self.naive {
                    write!(f, "/naive")?;
                }
                match self.vary {
                    Some(vary) => write!(f, "/{vary}"),
                    None => Ok(()),
                }
            }
            AgentKind::Uniform => write!(f, "uniform@{}{policy}", self.simulations),
            AgentKind::Rollout => write!(f, "rollout@{}{policy}", self.simulations),
            AgentKind::Net(path) => {
                write!(f, "net:{}@{}{policy}", path.display(), self.simulations)
            }
            AgentKind::Zoo(name) => write!(f, "zoo:{name}@{}{policy}", self.simulations),
        }?;
        if self.beliefs {
            write!(f, "/beliefs")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_engine::EvalWeights;

    fn parse(text: &str) -> AgentSpec {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn agent_strings() {
        assert_eq!(parse("random").kind, AgentKind::Random);
        let u = parse("uniform@400");
        assert_eq!(
            (u.kind, u.simulations, u.root_policy),
            (AgentKind::Uniform, 400, RootPolicy::Gumbel)
        );
        let r = parse("rollout");
        assert_eq!(
            (r.kind, r.simulations),
            (AgentKind::Rollout, DEFAULT_SIMULATIONS)
        );
        let n = parse("net:runs/h1@v2/last@200/puct");
        assert_eq!(n.kind, AgentKind::Net(PathBuf::from("runs/h1@v2/last")));
        assert_eq!((n.simulations, n.root_policy), (200, RootPolicy::Puct));
        assert_eq!(
            parse("net:runs/h1/last").kind,
            AgentKind::Net(PathBuf::from("runs/h1/last"))
        );
        assert_eq!(parse("uniform/puct").root_policy, RootPolicy::Puct);
        let z = parse("zoo:hostage@64");
        assert_eq!(z.kind, AgentKind::Zoo("hostage".to_owned()));
        assert_eq!(z.to_string(), "zoo:hostage@64");
        let dir = z.kind.network_dir().unwrap().unwrap();
        assert!(dir.ends_with("hostage"), "{}", dir.display());
        assert!(dir.join("model.safetensors").is_file());
        assert!(matches!(
            AgentKind::Zoo("nobody".to_owned()).network_dir(),
            Err(ZooError::Unlisted { .. })
        ));
        for bad in ["zoo:", "zoo:../runs/x@64", "zoo:a.b"] {
            let error = bad.parse::<AgentSpec>().unwrap_err();
            assert!(
                error.reason.starts_with("zoo: needs the name"),
                "{bad}: {error}"
            );
        }
        // An `@` in a path with no budget after it.
        let n = parse("net:runs/h1@v2/last");
        assert_eq!(n.kind, AgentKind::Net(PathBuf::from("runs/h1@v2/last")));
        assert_eq!(n.simulations, DEFAULT_SIMULATIONS);
        for text in [
            "random",
            "uniform@400",
            "rollout@8/puct",
            "net:runs/x@16",
            "zoo:hostage@64/nowins",
            "net:runs/x@16/puct/nowins",
            "zoo:hostage@64/nolosses",
            "net:runs/x@16/puct/nolosses",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
        // `/nolosses`: the search of networks from 351092a to eab7c72.
        let wins = parse("zoo:madscientist@64/nolosses");
        assert_eq!(
            (wins.simulations, wins.root_policy, wins.probes),
            (64, RootPolicy::Gumbel, Probes::Wins)
        );
        let unbudgeted = parse("zoo:madscientist/puct/nolosses");
        assert_eq!(
            (unbudgeted.root_policy, unbudgeted.probes),
            (RootPolicy::Puct, Probes::Wins)
        );
        // `/nowins`: the search every network had before the probe.
        let plain = parse("zoo:hostage@64/nowins");
        assert_eq!(
            (plain.simulations, plain.root_policy, plain.probes),
            (64, RootPolicy::Gumbel, Probes::None)
        );
        let puct = parse("net:runs/h1@v2/last@200/puct/nowins");
        assert_eq!(puct.kind, AgentKind::Net(PathBuf::from("runs/h1@v2/last")));
        assert_eq!(
            (puct.root_policy, puct.probes),
            (RootPolicy::Puct, Probes::None)
        );
        assert_eq!(parse("zoo:hostage@64").probes, Probes::WinsAndLosses);
        let unbudgeted = parse("zoo:hostage/puct/nowins");
        assert_eq!(
            (
                unbudgeted.simulations,
                unbudgeted.root_policy,
                unbudgeted.probes
            ),
            (DEFAULT_SIMULATIONS, RootPolicy::Puct, Probes::None)
        );
        // Only a network's string says `/nowins`, however it was built.
        let uniform = AgentSpec {
            probes: Probes::None,
            ..parse("uniform@8")
        };
        assert_eq!(uniform.to_string(), "uniform@8");
    }

    #[test]
    fn engine_and_greedy_strings() {
        assert_eq!(parse("greedy").kind, AgentKind::Greedy);
        assert_eq!(
            parse("ab@8").kind,
            AgentKind::Engine(EngineBudget::Depth(8), Evaluation::Learned)
        );
        assert_eq!(
            parse("ab@100ms").kind,
            AgentKind::Engine(EngineBudget::MoveTime(100), Evaluation::Learned)
        );
        assert_eq!(
            parse("ab@50000n/hand").kind,
            AgentKind::Engine(
                EngineBudget::Nodes(50_000),
                Evaluation::Classical(EvalWeights::Hand)
            )
        );
        assert_eq!(
            parse("ab@8/classical").kind,
            AgentKind::Engine(
                EngineBudget::Depth(8),
                Evaluation::Classical(EvalWeights::Tuned)
            )
        );
        assert_eq!(parse("ab@7/tuned").to_string(), "ab@7/classical");
        for bad in ["ab@7/best", "ab@7/learned"] {
            let error = bad.parse::<AgentSpec>().unwrap_err();
            assert_eq!(
                error.reason,
                "the engine's evaluation after '/' must be classical (or tuned) or hand"
            );
        }
        assert!("ab@/hand".parse::<AgentSpec>().is_err());
        for text in [
            "greedy",
            "ab@1",
            "ab@64",
            "ab@100ms",
            "ab@50000n",
            "ab@8/hand",
            "ab@8/classical",
        ] {
            let agent = parse(text);
            assert_eq!(agent.to_string(), text);
            assert!(!agent.is_search(), "{text}");
            assert_eq!(agent.search_config(&SearchConfig::default()), None);
        }
        let limits = EngineBudget::MoveTime(250).limits();
        assert_eq!(limits.movetime, Some(Duration::from_millis(250)));
        assert_eq!((limits.depth, limits.nodes), (None, None));
        assert_eq!(EngineBudget::Depth(7).limits().depth, Some(7));
        assert_eq!(EngineBudget::Nodes(9).limits().nodes, Some(9));
    }

    #[test]
    fn the_engine_s_variety_reads_and_writes_back() {
        let v = parse("ab@20000n/vary=4:30");
        assert_eq!(
            (v.kind, v.vary),
            (
                AgentKind::Engine(EngineBudget::Nodes(20_000), Evaluation::Learned),
                Some(Variety {
                    plies: 4,
                    margin_cp: 30
                })
            )
        );
        let c = parse("ab@8/classical/vary=1:0");
        assert_eq!(
            (c.kind, c.vary),
            (
                AgentKind::Engine(
                    EngineBudget::Depth(8),
                    Evaluation::Classical(EvalWeights::Tuned)
                ),
                Some(Variety {
                    plies: 1,
                    margin_cp: 0
                })
            )
        );
        for text in [
            "ab@20000n/vary=4:30",
            "ab@8/classical/vary=1:0",
            "ab@100ms/hand/vary=1000:1000",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
        assert_eq!(
            parse("ab@7/tuned/vary=2:50").to_string(),
            "ab@7/classical/vary=2:50"
        );
        // Off by default, for the engine and every other kind.
        for text in ["ab@8", "ab@8/hand", "greedy", "uniform@8", "zoo:hostage@64"] {
            assert_eq!(parse(text).vary, None, "{text}");
            assert!(!parse(text).naive, "{text}");
        }
        // The naive hidden-information search: after the evaluation,
        // before the variety, once.
        for text in ["ab@100ms/naive", "ab@8/classical/naive/vary=2:5"] {
            assert!(parse(text).naive, "{text}");
            assert_eq!(parse(text).to_string(), text);
        }
        let reason = |text: &str| text.parse::<AgentSpec>().unwrap_err().reason;
        for text in ["ab@8/naive/naive", "ab@8/naive/classical"] {
            assert_eq!(
                reason(text),
                "the engine's /naive comes once, after the evaluation and before /vary",
                "{text}"
            );
        }
        let reason = |text: &str| text.parse::<AgentSpec>().unwrap_err().reason;
        assert_eq!(
            reason("ab@8/vary"),
            "the engine's variety is /vary=PLIES:CP (e.g. /vary=4:30), not '/vary'"
        );
        assert_eq!(
            reason("ab@8/vary=4"),
            "the engine's variety is /vary=PLIES:CP (e.g. /vary=4:30), not '/vary=4'"
        );
        assert_eq!(
            reason("ab@8/vary=0:30"),
            "the plies of /vary=PLIES:CP must be a number from 1 to 1000, not '0'"
        );
        assert_eq!(
            reason("ab@8/classical/vary=x:30"),
            "the plies of /vary=PLIES:CP must be a number from 1 to 1000, not 'x'"
        );
        assert_eq!(
            reason("ab@8/vary=4:1001"),
            "the margin of /vary=PLIES:CP must be centipawns from 0 to 1000, not '1001'"
        );
        assert_eq!(
            reason("ab@8/vary=4:30/classical"),
            "the engine's /vary=PLIES:CP comes last, once"
        );
        assert_eq!(
            reason("ab@8/vary=4:30/vary=4:30"),
            "the engine's /vary=PLIES:CP comes last, once"
        );
        assert_eq!(
            reason("ab@8/classical/hand"),
            "the engine takes one evaluation (/classical, /tuned or /hand), then /vary=PLIES:CP"
        );
        for text in [
            "greedy/vary=4:30",
            "uniform@8/vary=4:30",
            "zoo:hostage@64/vary=4:30",
        ] {
            assert_eq!(
                reason(text),
                "/vary=PLIES:CP is an option of the engine (ab@...)",
                "{text}"
            );
        }
        let e = "ab@8/vary=0:1"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("ab@NODESn optionally /classical or /hand, /naive, then /vary=PLIES:CP"),
            "{e}"
        );
    }

    #[test]
    fn every_accepted_budget_gives_a_valid_search() {
        let base = SearchConfig::default();
        assert_eq!(base.determinizations, 4);
        for text in ["uniform@1", "rollout@3/puct", "uniform@4", "net:x@2"] {
            let config = parse(text).search_config(&base).unwrap();
            assert_eq!(config.validate(), Ok(()), "{text}");
            assert_eq!(config.determinizations, config.simulations.min(4), "{text}");
        }
        assert_eq!(parse("random").search_config(&base), None);
        // The yardsticks search without the rules probes, networks with
        // those their string keeps, whatever the base says.
        let on = SearchConfig {
            immediate_wins: true,
            avoid_losses_in_one: true,
            ..SearchConfig::default()
        };
        assert!(!base.immediate_wins && !base.avoid_losses_in_one);
        for base in [&base, &on] {
            let probes = |text: &str| {
                let config = parse(text).search_config(base).unwrap();
                (config.immediate_wins, config.avoid_losses_in_one)
            };
            assert_eq!(probes("uniform@8"), (false, false));
            assert_eq!(probes("rollout@64/puct"), (false, false));
            assert_eq!(probes("net:x@64"), (true, true));
            assert_eq!(probes("zoo:hostage@64"), (true, true));
            assert_eq!(probes("zoo:hostage@64/nolosses"), (true, false));
            assert_eq!(probes("net:x@64/puct/nolosses"), (true, false));
            assert_eq!(probes("zoo:hostage@64/nowins"), (false, false));
            assert_eq!(probes("net:x@64/puct/nowins"), (false, false));
        }
    }

    #[test]
    fn quiescence_at_the_leaves_is_an_option_of_every_search() {
        let base = SearchConfig::default();
        assert_eq!(base.quiescence_weight, 0.0);
        let weight = |text: &str| parse(text).search_config(&base).unwrap().quiescence_weight;
        assert_eq!(weight("zoo:hostage@64"), 0.0);
        assert_eq!(weight("zoo:hostage@64/quiescence"), 0.5);
        assert_eq!(weight("net:x@64/puct/nowins/quiescence=0.25"), 0.25);
        assert_eq!(weight("uniform@200/quiescence=1"), 1.0);
        assert_eq!(weight("rollout/quiescence"), 0.5);
        let spec = parse("net:runs/a@b/last@32/nolosses/quiescence=0.3");
        assert_eq!(spec.kind, AgentKind::Net(PathBuf::from("runs/a@b/last")));
        assert_eq!(
            (spec.simulations, spec.probes, spec.quiescence),
            (32, Probes::Wins, 30)
        );
        for text in [
            "zoo:hostage@64/quiescence",
            "zoo:hostage@64/puct/quiescence=0.25",
            "net:x@8/nowins/quiescence=1",
            "uniform@200/quiescence=0.05",
        ] {
            assert_eq!(parse(text).to_string(), text);
        }
        assert_eq!(
            parse("zoo:hostage@64/quiescence=0.5").to_string(),
            "zoo:hostage@64/quiescence"
        );
        let reason = |text: &str| text.parse::<AgentSpec>().unwrap_err().reason;
        for text in [
            "zoo:hostage@64/quiescence=0",
            "zoo:hostage@64/quiescence=1.5",
            "zoo:hostage@64/quiescence=0.125",
            "zoo:hostage@64/quiescence=x",
            "zoo:hostage@64/quiescence/puct",
            "zoo:hostage@64/quiescencex",
        ] {
            assert_eq!(reason(text), OPTIONS, "{text}");
        }
        assert_eq!(
            reason("random/quiescence"),
            "/quiescence is for searches (uniform, rollout, net:, zoo:)"
        );
    }

    #[test]
    fn the_menu_lists_agents_that_parse_default_first() {
        let menu = menu();
        assert_eq!(menu[0].spec, DEFAULT_AGENT);
        for choice in &menu {
            assert_eq!(parse(choice.spec).to_string(), choice.spec);
        }
    }

    #[test]
    fn bad_agent_strings_say_why() {
        let reason = |text: &str| text.parse::<AgentSpec>().unwrap_err().reason;
        assert_eq!(reason("alphabeta"), "unknown kind of agent");
        assert_eq!(
            reason("uniform@0"),
            "the simulations after '@' must be a number from 1 to 1048576"
        );
        assert_eq!(
            reason("uniform@many"),
            "the simulations after '@' must be a number from 1 to 1048576"
        );
        let after = OPTIONS;
        for text in [
            "uniform@8/mcts",
            "zoo:hostage@64/nowins/puct",
            "zoo:hostage@64/nolosses/nowins",
            "zoo:hostage@64/puctnolosses",
            "net:x@8/wins",
        ] {
            assert_eq!(reason(text), after, "{text}");
        }
        for text in [
            "rollout@64/nowins",
            "uniform@8/puct/nowins",
            "uniform/nowins",
            "rollout@64/nolosses",
        ] {
            assert!(
                reason(text).starts_with("/nolosses and /nowins are for networks"),
                "{text}"
            );
        }
        assert_eq!(reason("random@10"), "random play has no simulations");
        assert_eq!(reason("greedy@3"), "the greedy player has no budget");
        assert_eq!(
            reason("ab"),
            "the engine needs a budget: ab@DEPTH, ab@MSms or ab@NODESn"
        );
        let budget = "the engine's budget after '@' must be a depth from 1 to 64, MSms (1 to 3600000 ms) or NODESn (1 to 2^40 nodes)";
        for text in [
            "ab@0",
            "ab@65",
            "ab@0ms",
            "ab@0n",
            "ab@fast",
            "ab@3600001ms",
            "ab@-1",
        ] {
            assert_eq!(reason(text), budget, "{text}");
        }
        assert_eq!(reason("net:"), "net: needs a checkpoint directory");
        let e = "x".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(
            e.starts_with("bad agent 'x': unknown kind of agent (agents: random"),
            "{e}"
        );
    }
}
