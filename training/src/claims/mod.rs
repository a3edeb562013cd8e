//! Strategy claims as measured hypotheses. Each claim in [`CLAIMS`] has an
//! operational definition, a metric, a statistical test and a refutation
//! criterion (docs/claims.md); [`run_claim`] plays its games, computes its
//! statistics and writes a report directory ([`report`]).
//!
//! - `hostage-favours-the-attacker` ([`attacker`]): Pritchard's remark,
//!   measured three ways against FIDE chess with the same agent recipe;
//! - `poison-two-harpies-draw` ([`harpies`]): Lambert's "two Harpies and a
//!   King against a lone King is pretty ridiculous";
//! - `first-move-advantage` ([`first_move`]): White's score in every
//!   variant and every Traitor mode and commitment;
//! - `piece-values` ([`piece_values`]): every kind of man's value in every
//!   variant, fitted from games, with chess as the check.
//!
//! The agents are [`AgentSpec`]s, one for every variant or one per
//! variant (`hostage=net:runs/h1/last@64`): a network belongs to one
//! variant, and a claim that compares variants wants the same recipe in
//! each. Every report also measures each agent against random play: a claim
//! judged by agents that do not clearly beat random play gets no verdict.

mod attacker;
mod first_move;
mod games;
mod harpies;
pub mod journal;
mod piece_values;
mod report;
pub mod stats;

use std::fmt::Write as _;
use std::path::Path;

use heterodox_env::{RuleOptions, Variant};
use heterodox_models::tch::Device;
use heterodox_selfplay::SearchConfig;
use serde::Serialize;

use crate::arena::agent::AgentSpec;
use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;
use journal::Journal;
pub use report::PlotOutcome;

/// A registered claim.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    pub name: &'static str,
    pub title: &'static str,
    /// The hypothesis in plain words, with its source.
    pub hypothesis: &'static str,
    /// Games per variant or rule set when `--games` is not given.
    pub default_games: u32,
    /// Games per variant or rule set with `--quick` (notebooks, CI: at
    /// most about two minutes on 2 cores with the default agent).
    pub quick_games: u32,
    /// Paired games against each calibration opponent when
    /// `--calibration-games` is not given: fewer where a claim plays many
    /// variants or rule sets, so that its default run keeps within half an
    /// hour on 2 cores (docs/claims.md).
    pub default_calibration_games: u32,
    /// The rule sets it plays, against which the agents given are checked
    /// before any game ([`AgentChoice::check_plays`]).
    pub plays: Plays,
}

/// Which rule sets a claim plays.
#[derive(Clone, Copy, Debug)]
pub enum Plays {
    /// The default rules of these variants, in the order played.
    DefaultRules(&'static [Variant]),
    /// Every rule set of every variant ([`Variant::rule_sets`]).
    EveryRuleSet,
}

impl Claim {
    /// The rule sets this claim plays, each as (variant, its settings
    /// written out by [`heterodox_env::GameVariant::rule_options`]), the
    /// form [`AgentChoice::for_rules`] is asked with.
    pub fn rule_sets(&self) -> Result<Vec<(Variant, RuleOptions)>, TrainError> {
        let given: Vec<(Variant, RuleOptions)> = match self.plays {
            Plays::DefaultRules(variants) => variants
                .iter()
                .map(|&variant| (variant, RuleOptions::new()))
                .collect(),
            Plays::EveryRuleSet => first_move::rule_sets()
                .into_iter()
                .map(|(variant, options, _)| (variant, options))
                .collect(),
        };
        given
            .into_iter()
            .map(|(variant, options)| Ok((variant, variant.visit(WrittenOut(&options))?)))
            .collect()
    }
}

/// A variant's rule settings written out in full, as a game under them
/// writes them.
struct WrittenOut<'a>(&'a RuleOptions);

impl heterodox_env::VariantVisitor for WrittenOut<'_> {
    type Output = Result<RuleOptions, TrainError>;

    fn visit<P: heterodox_env::GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(self.0).map_err(|e| TrainError::Rules(e.to_string()))?;
        Ok(P::rule_options(&rules))
    }
}

/// Every claim `heterodox claim` knows.
pub const CLAIMS: [Claim; 4] = [
    attacker::CLAIM,
    harpies::CLAIM,
    first_move::CLAIM,
    piece_values::CLAIM,
];

/// The claim called `name`, or an error listing the names.
pub fn find(name: &str) -> Result<&'static Claim, TrainError> {
    CLAIMS
        .iter()
        .find(|c| c.name == name)
        .ok_or_else(|| TrainError::Config {
            path: None,
            message: format!(
                "unknown claim '{name}' (claims: {})",
                CLAIMS.map(|c| c.name).join(", ")
            ),
        })
}

/// The agent of each rule set: one for all, with per-variant overrides.
/// A variant may be given several: each network plays the rule sets it
/// was trained on, so that the networks shipped for single Traitor rule
/// sets can play those in a claim over all of them ([`AgentChoice::for_rules`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentChoice {
    pub default: AgentSpec,
    /// In the order given.
    pub per_variant: Vec<(Variant, AgentSpec)>,
}

/// The agent of a claim when none is given: the alpha-beta engine
/// searching 20,000 nodes a move (10 to 25 ms on the project's CPU, the
/// same strength whatever the machine's load). It beats `greedy` and
/// `rollout@64` in every variant (docs/findings.md), where `rollout@64`,
/// the default before the engine, beat random play 80-90% of the time and
/// left the claims without verdicts. Pass `ab@200000n` for the second
/// budget, or trained networks (`--agent hostage=zoo:hostage@64`).
pub const DEFAULT_AGENT: &str = "ab@20000n";

impl AgentChoice {
    /// Reads `SPEC` (every variant) and `VARIANT=SPEC` (one variant)
    /// arguments; none gives [`DEFAULT_AGENT`]. A later `VARIANT=SPEC`
    /// comes before an earlier one of the same variant wherever it can
    /// play the rules ([`AgentChoice::for_rules`]).
    pub fn parse(arguments: &[String]) -> Result<AgentChoice, TrainError> {
        let bad = |message: String| TrainError::Config {
            path: None,
            message,
        };
        let mut choice = AgentChoice {
            default: DEFAULT_AGENT.parse().expect("the default agent parses"),
            per_variant: Vec::new(),
        };
        for argument in arguments {
            let per_variant = argument
                .split_once('=')
                .filter(|(name, _)| !name.contains(':') && !name.contains('@'));
            match per_variant {
                Some((name, spec)) => {
                    let variant: Variant = name.parse().map_err(|e| bad(format!("{e}")))?;
                    let spec = spec.parse().map_err(|e| bad(format!("{e}")))?;
                    choice
                        .per_variant
                        .retain(|(v, s)| *v != variant || *s != spec);
                    choice.per_variant.push((variant, spec));
                }
                None => choice.default = argument.parse().map_err(|e| bad(format!("{e}")))?,
            }
        }
        Ok(choice)
    }

    /// The agent of `variant` under the rules whose settings are `options`
    /// (as [`heterodox_env::GameVariant::rule_options`] writes them): the last agent given
    /// for the variant that can play them, where a network can play the
    /// rules of its stored spec and any other agent every rule set. When
    /// none of the variant's agents can, the last of them, which
    /// [`AgentChoice::check_plays`] refuses before any game; a variant given none
    /// has the agent for every variant. So `--agent traitor=ab@20000n
    /// --agent traitor=zoo:traitor-mercenary@64` has the network play
    /// Impromptu Mercenary and the engine the other Traitor rule sets.
    pub fn for_rules(&self, variant: Variant, options: &RuleOptions) -> &AgentSpec {
        let mut given = self.per_variant.iter().rev().filter(|(v, _)| *v == variant);
        let Some((_, last)) = given.clone().next() else {
            return &self.default;
        };
        given
            .find(|(_, spec)| plays_rules(spec, variant, options))
            .map_or(last, |(_, spec)| spec)
    }

    /// Refuses, before any game, a choice that a claim playing `claim`'s
    /// rule sets could only refuse hours later or silently ignore: an
    /// agent given for a variant the claim does not play, a rule set whose
    /// agent ([`AgentChoice::for_rules`]) is a network trained for other
    /// rules, and an agent given for a variant that plays none of its rule
    /// sets (a network trained for rules the claim does not play, or an
    /// agent that a later one of its variant replaces everywhere).
    pub fn check_plays(&self, claim: &Claim) -> Result<(), TrainError> {
        let bad = |message: String| {
            Err(TrainError::Config {
                path: None,
                message,
            })
        };
        let rule_sets = claim.rule_sets()?;
        for (variant, options) in &rule_sets {
            let agent = self.for_rules(*variant, options);
            if !plays_rules(agent, *variant, options) {
                return bad(format!(
                    "agent {agent} cannot play {}, which the claim {} plays: it was trained for {}",
                    rules_text(*variant, options),
                    claim.name,
                    trained_for(agent)
                ));
            }
        }
        let variants: Vec<Variant> = rule_sets.iter().map(|(v, _)| *v).collect();
        for (variant, spec) in &self.per_variant {
            let played = rule_sets.iter().any(|(v, options)| {
                v == variant && std::ptr::eq(self.for_rules(*v, options), spec)
            });
            if !variants.contains(variant) {
                let mut names: Vec<&str> = variants.iter().map(|v| v.name()).collect();
                names.dedup();
                return bad(format!(
                    "agent {variant}={spec}: the claim {} plays no {variant} games (it plays {})",
                    claim.name,
                    names.join(", ")
                ));
            }
            if !played {
                return bad(format!(
                    "agent {variant}={spec} would play none of the claim's {variant} rule sets: {}",
                    if !rule_sets
                        .iter()
                        .any(|(v, options)| v == variant && plays_rules(spec, *v, options))
                    {
                        format!(
                            "it was trained for {}, which {} does not play",
                            trained_for(spec),
                            claim.name
                        )
                    } else {
                        "an agent given after it for the same variant plays them all".to_owned()
                    }
                ));
            }
        }
        Ok(())
    }
}

/// `variant` under `options`, as an error message names it.
fn rules_text(variant: Variant, options: &RuleOptions) -> String {
    settings_text(variant.name(), options.iter())
}

/// `variant (key=value key=value ...)`, or the variant alone.
fn settings_text<'a>(variant: &str, options: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let options: Vec<String> = options.map(|(k, v)| format!("{k}={v}")).collect();
    if options.is_empty() {
        variant.to_owned()
    } else {
        format!("{variant} ({})", options.join(" "))
    }
}

/// The rules network agent `spec` was trained for, from its stored spec.
fn trained_for(spec: &AgentSpec) -> String {
    let stored = spec
        .kind
        .network_dir()
        .and_then(|dir| heterodox_models::read_spec(&dir).ok().flatten());
    match stored {
        Some(stored) => settings_text(
            &stored.variant,
            stored.options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        ),
        None => "other rules".to_owned(),
    }
}

/// Whether `spec` can play `variant` under `options`: a network whose
/// stored spec names other rules cannot; a network whose spec cannot be
/// read is taken to (loading it reports why it cannot).
fn plays_rules(spec: &AgentSpec, variant: Variant, options: &RuleOptions) -> bool {
    let Some(dir) = spec.kind.network_dir() else {
        return true;
    };
    match heterodox_models::read_spec(&dir) {
        Ok(Some(stored)) => {
            stored.variant == variant.name()
                && stored.options.len() == options.iter().count()
                && options
                    .iter()
                    .all(|(k, v)| stored.options.get(k).map(String::as_str) == Some(v))
        }
        Ok(None) | Err(_) => true,
    }
}

/// Settings of a claim run.
#[derive(Clone, Debug)]
pub struct ClaimSettings {
    pub agents: AgentChoice,
    /// Games per variant or rule set.
    pub games: u32,
    /// Paired games of each agent against each calibration opponent
    /// (random, greedy, rollout@64, the other family): its strength.
    pub calibration_games: u32,
    pub concurrent: u32,
    /// A longer game is cut and scored a draw.
    pub max_plies: u32,
    /// Random plies that open each game.
    pub opening_plies: u32,
    /// The ply (steps from the start, the opening included) at which
    /// position measures are read.
    pub ply: u32,
    pub seed: u64,
    /// The searching agents' settings besides budget and root.
    pub search: SearchConfig,
    pub device: Device,
    /// Continue the interrupted run whose journal is beside the report
    /// directory (`journal`), playing only the games it lacks.
    pub resume: bool,
    /// Where the games of this run are written as they finish; set by
    /// [`run_claim`].
    pub(crate) journal: Option<Journal>,
}

impl ClaimSettings {
    /// The defaults of `claim`.
    pub fn new(claim: &Claim, agents: AgentChoice) -> ClaimSettings {
        ClaimSettings {
            agents,
            games: claim.default_games,
            calibration_games: claim.default_calibration_games,
            concurrent: 32,
            max_plies: 200,
            opening_plies: 4,
            ply: 24,
            seed: 0,
            search: SearchConfig::default(),
            device: Device::Cpu,
            resume: false,
            journal: None,
        }
    }

    /// `--quick`: the claim's `quick_games` and [`QUICK_CALIBRATION_GAMES`],
    /// for a run of about two minutes (notebooks, CI) whose figures are
    /// an example, not evidence.
    pub fn quick(&mut self, claim: &Claim) {
        self.games = claim.quick_games;
        self.calibration_games = QUICK_CALIBRATION_GAMES;
    }

    /// Bounds checked before anything is played.
    fn check(&self) -> Result<(), TrainError> {
        let bad = |field: &str, value: u32, range: &str| {
            Err(TrainError::Config {
                path: None,
                message: format!("{field} = {value} is out of range ({range})"),
            })
        };
        if !(2..=1_000_000).contains(&self.games) {
            return bad("games", self.games, "2 to 1000000");
        }
        if !(2..=100_000).contains(&self.calibration_games) {
            return bad("calibration games", self.calibration_games, "2 to 100000");
        }
        if !(1..=4096).contains(&self.concurrent) {
            return bad("concurrent", self.concurrent, "1 to 4096");
        }
        if !(1..=10_000).contains(&self.max_plies) {
            return bad("max plies", self.max_plies, "1 to 10000");
        }
        if self.opening_plies > 100 {
            return bad("opening plies", self.opening_plies, "0 to 100");
        }
        if self.ply == 0 || self.ply >= self.max_plies {
            return bad("ply", self.ply, "1 to max plies - 1");
        }
        Ok(())
    }
}

/// Paired games against random play per agent with `--quick`.
pub const QUICK_CALIBRATION_GAMES: u32 = 4;

/// What a claim concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Supported,
    Refuted,
    Inconclusive,
    /// The agents do not clearly beat random play: the games say nothing
    /// about the game's strategy.
    AgentsTooWeak,
}

impl Verdict {
    pub fn words(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Refuted => "refuted",
            Verdict::Inconclusive => "inconclusive",
            Verdict::AgentsTooWeak => "no verdict: the agents are too weak",
        }
    }
}

/// An agent's scores against the fixed opponents
/// (`games::CALIBRATION_OPPONENTS`), each with its 95% interval.
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    pub vs_random: ScoreEstimate,
    pub vs_greedy: ScoreEstimate,
    pub vs_rollout: ScoreEstimate,
    /// Against the other family (`games::other_family`), where it has one.
    pub vs_other_family: Option<FamilyScore>,
}

/// A score against a named agent of the other family: the engine for a
/// network, a shipped network for the engine.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyScore {
    /// The opponent's agent string (`ab@1`, `zoo:hostage@64`).
    pub agent: String,
    pub score: ScoreEstimate,
}

/// An agent's measured strength in one rule set.
#[derive(Clone, Debug, Serialize)]
pub struct AgentStrength {
    pub variant: String,
    pub rules: String,
    pub agent: String,
    pub vs_random: ScoreEstimate,
    pub vs_greedy: ScoreEstimate,
    /// Against `rollout@64`.
    pub vs_rollout: ScoreEstimate,
    /// Against the other family; `None` where it has none for these rules
    /// (no network ships for them) or the agent is of neither family.
    pub vs_other_family: Option<FamilyScore>,
}

/// An agent whose score against random play has a lower 95% bound below
/// this is too weak for a verdict.
pub const STRONG_ENOUGH: f64 = 0.6;

impl AgentStrength {
    pub fn new(
        variant: &str,
        rules: &str,
        agent: &AgentSpec,
        scores: Calibration,
    ) -> AgentStrength {
        AgentStrength {
            variant: variant.to_owned(),
            rules: rules.to_owned(),
            agent: agent.to_string(),
            vs_random: scores.vs_random,
            vs_greedy: scores.vs_greedy,
            vs_rollout: scores.vs_rollout,
            vs_other_family: scores.vs_other_family,
        }
    }

    /// Whether the agent clearly beats random play (the bar for a
    /// verdict; the other opponents' scores say how far beyond it).
    pub fn strong_enough(&self) -> bool {
        self.vs_random.score_low >= STRONG_ENOUGH
    }
}

/// What a claim's games and statistics gave, before the report is written.
pub(crate) struct Findings {
    pub verdict: Verdict,
    /// One paragraph: the verdict's reason in plain words.
    pub conclusion: String,
    /// Markdown: the measures with their effect sizes, CIs and p-values.
    pub body: String,
    pub strengths: Vec<AgentStrength>,
    pub games: usize,
    /// claim.json's "results".
    pub results: serde_json::Value,
    /// claim.json's "plots": what python/heterodox/plot.py draws.
    pub plots: serde_json::Value,
    pub csv: String,
    pub pgn: String,
}

/// What `run_claim` reports back.
#[derive(Clone, Debug)]
pub struct ClaimOutcome {
    pub verdict: Verdict,
    pub conclusion: String,
    pub plots: PlotOutcome,
    /// What went wrong without spoiling the report (a journal that
    /// stopped recording, or was not removed).
    pub warnings: Vec<String>,
}

/// Plays and judges claim `name` and writes its report into `out`;
/// `command` is the command line that reproduces it; `progress` receives
/// a line of what is being played.
pub fn run_claim(
    name: &str,
    settings: &ClaimSettings,
    out: &Path,
    command: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<ClaimOutcome, TrainError> {
    let claim = find(name)?;
    settings.check()?;
    // Refused now, not after hours of games.
    settings.agents.check_plays(claim)?;
    report::check_out(out)?;
    let journal = Journal::open(
        out,
        &journal_settings(claim, settings)?,
        command,
        settings.resume,
    )?;
    let settings = &ClaimSettings {
        journal: Some(journal.clone()),
        ..settings.clone()
    };
    let findings = match claim.name {
        "hostage-favours-the-attacker" => attacker::run(settings, progress),
        "poison-two-harpies-draw" => harpies::run(settings, progress),
        "first-move-advantage" => first_move::run(settings, progress),
        "piece-values" => piece_values::run(settings, progress),
        _ => unreachable!("every registered claim has a runner"),
    };
    let findings = findings.map_err(|e| kept_for_resume(&journal, e))?;
    let json = serde_json::json!({
        "claim": claim.name,
        "title": claim.title,
        "hypothesis": claim.hypothesis,
        "verdict": findings.verdict,
        "conclusion": findings.conclusion,
        "command": command,
        "seed": settings.seed,
        "games": findings.games,
        "max_plies": settings.max_plies,
        "opening_plies": settings.opening_plies,
        "agents": findings.strengths,
        "results": findings.results,
        "plots": findings.plots,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let mut files = report::ReportFiles::default();
    files.add(
        "claim.json",
        serde_json::to_string_pretty(&json).expect("claim.json serializes") + "\n",
    );
    files.add("games.csv", findings.csv.clone());
    files.add("games.pgn", findings.pgn.clone());
    let plots = report::write_report(out, files, |plots| {
        summary(claim, settings, &findings, command, plots)
    })
    .map_err(|e| kept_for_resume(&journal, e))?;
    let mut warnings: Vec<String> = journal.failure().into_iter().collect();
    // The report is out: a journal left behind is only untidy.
    if let Err(e) = journal.remove_files() {
        warnings.push(format!(
            "the journal {} was not removed ({e}); remove it before the next run here",
            journal.dir().display()
        ));
    }
    Ok(ClaimOutcome {
        verdict: findings.verdict,
        conclusion: findings.conclusion,
        plots,
        warnings,
    })
}

/// `error`, which ended a run: when games were written, it says they are
/// kept for `--resume`; when none was (an agent that does not load), the
/// journal is removed, since it holds nothing to resume.
fn kept_for_resume(journal: &Journal, error: TrainError) -> TrainError {
    match journal.games() {
        Ok(games) if games > 0 && journal.failure().is_none() => TrainError::Interrupted {
            source: Box::new(error),
            journal: journal.dir().to_owned(),
            games,
        },
        Ok(0) => {
            let _ = journal.remove_files();
            error
        }
        _ => error,
    }
}

/// What a resumed run must share with the run it continues: every
/// setting of the report but the batch size and the device (which only
/// change a network's last bits), and each network agent's weights, named
/// by a checksum, since `RUN/last` moves on as a run trains. A network
/// agent without weights is refused here, before any game: a claim can
/// reach a variant's agent after hours of another's games.
fn journal_settings(
    claim: &Claim,
    settings: &ClaimSettings,
) -> Result<serde_json::Value, TrainError> {
    let mut per_variant: Vec<(String, String)> = settings
        .agents
        .per_variant
        .iter()
        .map(|(variant, spec)| (variant.name().to_owned(), spec.to_string()))
        .collect();
    // By variant, keeping the order within one (it decides which of two
    // agents that can play the same rules plays them).
    per_variant.sort_by(|a, b| a.0.cmp(&b.0));
    let mut networks: Vec<(String, String)> = Vec::new();
    let agents = std::iter::once(&settings.agents.default)
        .chain(settings.agents.per_variant.iter().map(|(_, spec)| spec));
    for spec in agents {
        let Some(dir) = spec.kind.network_dir() else {
            continue;
        };
        let weights = dir.join("model.safetensors");
        let bytes = std::fs::read(&weights).map_err(|e| TrainError::Checkpoint {
            path: dir.clone(),
            message: format!("agent {spec}: its weights cannot be read ({e})"),
        })?;
        let checksum = heterodox_selfplay::shard::checksum(&bytes);
        networks.push((spec.to_string(), format!("fnv1a64 {checksum:016x}")));
    }
    Ok(serde_json::json!({
        "claim": claim.name,
        "agent": settings.agents.default.to_string(),
        "agents_per_variant": per_variant,
        "network_weights": networks,
        "games": settings.games,
        "calibration_games": settings.calibration_games,
        "max_plies": settings.max_plies,
        "opening_plies": settings.opening_plies,
        "ply": settings.ply,
        "seed": settings.seed,
        "search": settings.search,
    }))
}

/// summary.md.
fn summary(
    claim: &Claim,
    settings: &ClaimSettings,
    findings: &Findings,
    command: &str,
    plots: &PlotOutcome,
) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "# Claim `{}`: {}\n", claim.name, claim.title);
    let _ = writeln!(text, "**Hypothesis.** {}\n", claim.hypothesis);
    let _ = writeln!(
        text,
        "**Verdict: {}.** {}\n",
        findings.verdict.words(),
        findings.conclusion
    );
    let _ = writeln!(text, "## Agents and their strength\n");
    let _ = writeln!(
        text,
        "Each agent plays itself; its strength is its score against random play, \
         `greedy` (one ply of material), `rollout@64` and the other family: a \
         network against the engine at its teacher's depth (`ab@1`), the engine \
         against the network shipped for the rules, where one ships ({} paired \
         games each, 95% Wilson intervals). An agent whose lower bound against \
         random play is below {:.0}% is too weak for a verdict.\n",
        settings.calibration_games,
        100.0 * STRONG_ENOUGH
    );
    let _ = writeln!(
        text,
        "| variant | rules | agent | vs random | vs greedy | vs rollout@64 | vs the other family |"
    );
    let _ = writeln!(text, "| --- | --- | --- | --- | --- | --- | --- |");
    for s in &findings.strengths {
        let other = match &s.vs_other_family {
            Some(family) => format!("`{}`: {}", family.agent, score_text(&family.score)),
            None => "none for these rules".to_owned(),
        };
        let _ = writeln!(
            text,
            "| {} | {} | `{}` | {} | {} | {} | {} |",
            s.variant,
            s.rules,
            s.agent,
            score_text(&s.vs_random),
            score_text(&s.vs_greedy),
            score_text(&s.vs_rollout),
            other
        );
    }
    let _ = writeln!(
        text,
        "\n## Measures\n\n{} games in all; games cut at {} plies count as draws; \
         {} random opening plies; seed {}.\n",
        findings.games, settings.max_plies, settings.opening_plies, settings.seed
    );
    text.push_str(&findings.body);
    let _ = writeln!(text, "\n## Plots\n");
    match plots {
        Ok(files) => {
            for file in files {
                let _ = writeln!(text, "![{file}](plots/{file})\n");
            }
        }
        Err(reason) => {
            let _ = writeln!(
                text,
                "Not drawn ({reason}). With matplotlib installed: \
                 `python -m heterodox.plot REPORT_DIR`.\n"
            );
        }
    }
    let _ = writeln!(
        text,
        "## Files\n\n`games.pgn` (every game), `games.csv` (the measures, one row per game or position), \
         `claim.json` (every number above).\n\n## Reproduce\n\n```sh\n{command}\n```"
    );
    text
}

/// A score with its interval and the games behind it: `97.5% [91.3, 99.3]
/// (80 games)`.
pub(crate) fn score_text(score: &ScoreEstimate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}] ({} games)",
        100.0 * score.score,
        100.0 * score.score_low,
        100.0 * score.score_high,
        score.games
    )
}

/// `0.0312` as `p = 0.031`, small ones as `p < 0.001`.
pub(crate) fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_owned()
    } else {
        format!("p = {p:.3}")
    }
}

/// A percentage with its interval: `61.5% [52.3, 70.0]`.
pub(crate) fn percent(m: &stats::Mean) -> String {
    if m.n == 0 {
        return "n/a (no games)".to_owned();
    }
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * m.mean,
        100.0 * m.low,
        100.0 * m.high
    )
}

/// A difference of proportions in percentage points.
pub(crate) fn points(d: &stats::Difference) -> String {
    if d.estimate.is_nan() {
        return "n/a".to_owned();
    }
    format!(
        "{:+.1} points [{:+.1}, {:+.1}], {}",
        100.0 * d.estimate,
        100.0 * d.low,
        100.0 * d.high,
        p_text(d.p_value)
    )
}

/// How a difference with a predicted sign bears on a claim at the 5%
/// level: +1 supports, -1 contradicts, 0 neither.
pub(crate) fn direction(estimate: f64, p_value: f64, predicted_positive: bool) -> i32 {
    if p_value.is_nan() || p_value >= 0.05 || estimate == 0.0 || estimate.is_nan() {
        0
    } else if (estimate > 0.0) == predicted_positive {
        1
    } else {
        -1
    }
}

/// The verdict of measures that each support (+1), contradict (-1) or
/// neither (0): supported when at least `needed` support and none
/// contradicts, refuted when at least `needed` contradict and none
/// supports, inconclusive otherwise. (Weak agents are judged before.)
pub(crate) fn majority_verdict(directions: &[i32], needed: usize) -> Verdict {
    let supports = directions.iter().filter(|&&d| d > 0).count();
    let contradicts = directions.iter().filter(|&&d| d < 0).count();
    if supports >= needed && contradicts == 0 {
        Verdict::Supported
    } else if contradicts >= needed && supports == 0 {
        Verdict::Refuted
    } else {
        Verdict::Inconclusive
    }
}

/// A CSV field, quoted when it needs to be.
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_for_all_or_one_variant() {
        let choice = AgentChoice::parse(&[
            "rollout@8".to_owned(),
            "hostage=net:runs/h=1/last@64".to_owned(),
        ])
        .unwrap();
        let none = RuleOptions::new();
        assert_eq!(
            choice.for_rules(Variant::Chess, &none).to_string(),
            "rollout@8"
        );
        assert_eq!(
            choice.for_rules(Variant::Hostage, &none).to_string(),
            "net:runs/h=1/last@64"
        );
        // The last of two agents that play every rule set plays them.
        let choice =
            AgentChoice::parse(&["chess=ab@1".to_owned(), "chess=greedy".to_owned()]).unwrap();
        assert_eq!(
            choice.for_rules(Variant::Chess, &none).to_string(),
            "greedy"
        );
        assert_eq!(
            AgentChoice::parse(&[]).unwrap().default.to_string(),
            DEFAULT_AGENT
        );
        let e = AgentChoice::parse(&["hostge=random".to_owned()]).unwrap_err();
        assert!(e.to_string().contains("hostge"), "{e}");
        let e = AgentChoice::parse(&["uniform@x".to_owned()]).unwrap_err();
        assert!(e.to_string().contains("bad agent 'uniform@x'"), "{e}");
    }

    #[test]
    fn each_network_plays_the_rule_sets_it_was_trained_on() {
        use heterodox_env::{GameVariant, Traitor};
        let shipped =
            |name: &str| format!("net:{}/../agents/{name}@64", env!("CARGO_MANIFEST_DIR"));
        let (mercenary, defector) = (
            shipped("traitor-mercenary"),
            shipped("traitor-defector-1h-v2"),
        );
        // The settings as a rule set's game writes them.
        let rules = |text: &str| {
            Traitor::rule_options(
                &Traitor::parse_rules(&RuleOptions::parse(text).unwrap()).unwrap(),
            )
        };
        let choice = AgentChoice::parse(&[
            "traitor=ab@20000n".to_owned(),
            format!("traitor={mercenary}"),
            format!("traitor={defector}"),
        ])
        .unwrap();
        let agent = |choice: &AgentChoice, text: &str| {
            choice.for_rules(Variant::Traitor, &rules(text)).to_string()
        };
        assert_eq!(
            agent(&choice, "mode=mercenary commitment=impromptu"),
            mercenary
        );
        assert_eq!(
            agent(&choice, "mode=defector commitment=impromptu"),
            defector
        );
        assert_eq!(
            agent(&choice, "mode=defector commitment=standard"),
            "ab@20000n"
        );
        assert_eq!(
            agent(&choice, "mode=traitor commitment=impromptu"),
            "ab@20000n"
        );
        assert_eq!(
            choice
                .for_rules(Variant::Chess, &RuleOptions::new())
                .to_string(),
            DEFAULT_AGENT
        );
        // A network given alone for its variant is chosen for rules it
        // does not know, which `check_plays` refuses by name.
        let alone = AgentChoice::parse(&[format!("traitor={mercenary}")]).unwrap();
        assert_eq!(agent(&alone, "mode=traitor commitment=standard"), mercenary);
        // A later agent that plays every rule set plays them all.
        let engine_last =
            AgentChoice::parse(&[format!("traitor={mercenary}"), "traitor=ab@1".to_owned()])
                .unwrap();
        assert_eq!(
            agent(&engine_last, "mode=mercenary commitment=impromptu"),
            "ab@1"
        );
    }

    #[test]
    fn a_claims_agents_are_checked_against_the_rule_sets_it_plays() {
        let shipped =
            |name: &str| format!("net:{}/../agents/{name}@64", env!("CARGO_MANIFEST_DIR"));
        let (mercenary, defector, chess) = (
            shipped("traitor-mercenary"),
            shipped("traitor-defector-1h-v2"),
            shipped("chess"),
        );
        let check = |claim: &str, agents: &[String]| {
            AgentChoice::parse(agents)
                .unwrap()
                .check_plays(find(claim).unwrap())
                .map_err(|e| e.to_string())
        };
        let first_move = "first-move-advantage";
        let engine = "traitor=ab@20000n".to_owned();
        let (mercenary_arg, defector_arg) = (
            format!("traitor={mercenary}"),
            format!("traitor={defector}"),
        );
        // Each network on its rule set, the engine on the others.
        assert_eq!(
            check(
                first_move,
                &[engine.clone(), mercenary_arg.clone(), defector_arg.clone()]
            ),
            Ok(())
        );
        assert_eq!(check("piece-values", &[]), Ok(()));
        let trained = "traitor (announce_check=allowed commitment=impromptu mode=mercenary \
                       no_immediate_undo=on selection=phase)";
        // A network alone cannot play the other Traitor rule sets.
        assert_eq!(
            check(first_move, std::slice::from_ref(&mercenary_arg)),
            Err(format!(
                "config: agent {mercenary} cannot play traitor (announce_check=allowed \
                 commitment=standard mode=traitor no_immediate_undo=on selection=phase), which \
                 the claim first-move-advantage plays: it was trained for {trained}"
            ))
        );
        // The piece values are fitted in Traitor's default rules only.
        assert_eq!(
            check("piece-values", &[engine.clone(), mercenary_arg.clone()]),
            Err(format!(
                "config: agent traitor={mercenary} would play none of the claim's traitor rule \
                 sets: it was trained for {trained}, which piece-values does not play"
            ))
        );
        // An agent that a later one replaces everywhere.
        assert_eq!(
            check(first_move, &[mercenary_arg, engine]),
            Err(format!(
                "config: agent traitor={mercenary} would play none of the claim's traitor rule \
                 sets: an agent given after it for the same variant plays them all"
            ))
        );
        assert_eq!(
            check("hostage-favours-the-attacker", &["poison=ab@1".to_owned()]),
            Err(
                "config: agent poison=ab@1: the claim hostage-favours-the-attacker plays no \
                 poison games (it plays hostage, chess)"
                    .to_owned()
            )
        );
        // A network for every variant, in a claim that plays two.
        assert_eq!(
            check("hostage-favours-the-attacker", std::slice::from_ref(&chess)),
            Err(format!(
                "config: agent {chess} cannot play hostage, which the claim \
                 hostage-favours-the-attacker plays: it was trained for chess"
            ))
        );
        assert_eq!(
            check("hostage-favours-the-attacker", &[format!("chess={chess}")]),
            Ok(())
        );
    }

    #[test]
    fn unknown_claims_list_the_known_ones() {
        let e = find("hostage-favours-the-defender")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("claims: hostage-favours-the-attacker, poison-two-harpies-draw, first-move-advantage, piece-values"),
            "{e}"
        );
    }

    #[test]
    fn settings_are_bounded() {
        let mut s = ClaimSettings::new(&CLAIMS[0], AgentChoice::parse(&[]).unwrap());
        assert!(s.check().is_ok());
        s.ply = s.max_plies;
        assert!(s.check().unwrap_err().to_string().contains("ply = 200"));
        s.ply = 10;
        s.games = 0;
        assert!(s.check().unwrap_err().to_string().contains("games = 0"));
    }

    #[test]
    fn measures_combine_into_a_verdict() {
        // hostage-favours-the-attacker: two of three measures, none against.
        assert_eq!(majority_verdict(&[1, 1, 0], 2), Verdict::Supported);
        assert_eq!(majority_verdict(&[1, 1, 1], 2), Verdict::Supported);
        assert_eq!(majority_verdict(&[1, 1, -1], 2), Verdict::Inconclusive);
        assert_eq!(majority_verdict(&[1, 0, 0], 2), Verdict::Inconclusive);
        assert_eq!(majority_verdict(&[-1, 0, -1], 2), Verdict::Refuted);
        assert_eq!(majority_verdict(&[-1, 1, -1], 2), Verdict::Inconclusive);
        // first-move-advantage: more than half of 19 rule sets is 10.
        let mut sets = [0; 19];
        sets[..10].fill(1);
        assert_eq!(majority_verdict(&sets, 10), Verdict::Supported);
        sets[9] = 0;
        assert_eq!(majority_verdict(&sets, 10), Verdict::Inconclusive);
        sets[..10].fill(-1);
        assert_eq!(majority_verdict(&sets, 10), Verdict::Refuted);
    }

    #[test]
    fn directions_and_texts() {
        assert_eq!(direction(0.1, 0.01, true), 1);
        assert_eq!(direction(-0.1, 0.01, true), -1);
        assert_eq!(direction(0.1, 0.2, true), 0);
        assert_eq!(direction(0.1, f64::NAN, true), 0);
        assert_eq!(p_text(0.0004), "p < 0.001");
        assert_eq!(p_text(0.0312), "p = 0.031");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
