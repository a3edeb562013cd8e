//! The shipped networks a client may choose (`zoo:NAME@SIMS`), read once
//! when the server starts: each network in `agents/` (`zoo_dir`) whose
//! stored spec this server's games can feed, with the rule settings it
//! plays and a line from its card. A network reads one rule set's tensors
//! only, so `/api/info` lists each with its variant and every rule
//! setting, and the page offers it for exactly those rules. A network is
//! matched as `zoo_network_for` matches one: its stored spec must equal
//! the encoding of a game of its rules (variant, settings, encoding
//! version, history 1, the history the server's games are encoded with).

use std::collections::BTreeMap;
use std::path::Path;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_training::arena::agent::{shipped_networks, zoo_dir, DEFAULT_SIMULATIONS};
use serde_json::{json, Value};

/// A shipped network a client may name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZooAgent {
    /// `zoo:NAME@SIMS`.
    pub spec: String,
    /// What it is: `shipped network, 64 simulations: TITLE (SCORE against ab@1)`.
    pub about: String,
    pub variant: Variant,
    /// The rule settings it plays, every key explicit (as `/api/info`
    /// gives each variant's defaults).
    pub options: BTreeMap<String, String>,
}

impl ZooAgent {
    pub fn to_json(&self) -> Value {
        json!({
            "spec": self.spec,
            "about": self.about,
            "variant": self.variant.name(),
            "options": self.options,
        })
    }
}

/// The networks in [`zoo_dir`] the server can play, by name, at
/// `DEFAULT_SIMULATIONS` or `max_simulations` when that is lower (the
/// listed agents are within the caps). A directory without a readable
/// spec (agents/archive/) is skipped.
pub fn shipped(max_simulations: u32) -> Vec<ZooAgent> {
    let dir = zoo_dir();
    let simulations = DEFAULT_SIMULATIONS.min(max_simulations);
    shipped_networks()
        .into_iter()
        .filter_map(|(name, stored)| {
            let variant: Variant = stored.variant.parse().ok()?;
            let options = variant.visit(Plays(&stored))?;
            Some(ZooAgent {
                spec: format!("zoo:{name}@{simulations}"),
                about: about(&dir.join(&name), simulations),
                variant,
                options,
            })
        })
        .collect()
}

/// The rule settings a stored spec plays, every key explicit; `None` when
/// a game of those rules is encoded otherwise (another encoding version or
/// history): the server could not feed the network.
struct Plays<'a>(&'a EncodingSpec);

impl VariantVisitor for Plays<'_> {
    type Output = Option<BTreeMap<String, String>>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let mut options = RuleOptions::new();
        for (key, value) in &self.0.options {
            options.set(key, value);
        }
        let rules = P::parse_rules(&options).ok()?;
        let start = P::start(&rules, 0).ok()?;
        EncodingSpec::of(&start, 1).check(self.0).ok()?;
        Some(
            P::rule_options(&rules)
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        )
    }
}

/// The card's title (after `# NAME:`) and its score against `ab@1`, the
/// one-ply engine every card measures: `shipped network, 64 simulations:
/// Hostage Chess, one hour on a CPU (29.5% against ab@1)`.
fn about(dir: &Path, simulations: u32) -> String {
    let mut about = format!("shipped network, {simulations} simulations");
    let Ok(card) = std::fs::read_to_string(dir.join("README.md")) else {
        return about;
    };
    let title = card
        .lines()
        .next()
        .and_then(|line| line.split_once(": "))
        .map(|(_, title)| title.replace('`', ""));
    if let Some(title) = title {
        about.push_str(": ");
        about.push_str(title.trim());
    }
    let score = card.lines().find_map(|line| {
        let rest = line.strip_prefix("\"ab@1\" = \"")?;
        rest.split_whitespace().next().map(str::to_owned)
    });
    if let Some(score) = score {
        about.push_str(&format!(" ({score} against ab@1)"));
    }
    about
}
