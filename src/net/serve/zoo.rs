//! The shipped networks a client may choose (`zoo:NAME@SIMS`), read once
//! when the server starts: each network of the catalogue ([`Zoo`]) whose
//! stored spec this server's games can feed, with the rule settings it
//! plays and a line from its card. A network reads one rule set's tensors
//! only, so `/api/info` lists each with its variant and every rule
//! setting, and the page offers it for exactly those rules. A network is
//! matched as `zoo_network_for` matches one: its stored spec must equal
//! the encoding of a game of its rules (variant, settings, encoding
//! version, history 1, the history the server's games are encoded with).

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::agent::Zoo;
use heterodox_training::arena::agent::{AgentSpec, DEFAULT_SIMULATIONS};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A shipped network a client may name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZooAgent {
    /// `zoo:NAME@SIMS`, followed by the search options its card's scores
    /// were measured with (`agent = "zoo:hostage@64/quiescence"`): the
    /// network is offered as it plays at the strength its label states.
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

/// The catalogue's networks the server can play, in its order, at
/// `DEFAULT_SIMULATIONS` or `max_simulations` when that is lower (the
/// listed agents are within the caps), with their cards' search options.
/// An agent without a network, or whose spec cannot be read, is skipped;
/// so is every agent when the catalogue cannot be read.
pub fn shipped(max_simulations: u32) -> Vec<ZooAgent> {
    let Ok(zoo) = Zoo::current() else {
        return Vec::new();
    };
    let simulations = DEFAULT_SIMULATIONS.min(max_simulations);
    zoo.agents()
        .iter()
        .filter_map(|agent| {
            let stored = zoo.network_spec(agent).ok()??;
            let name = &agent.name;
            let variant: Variant = stored.variant.parse().ok()?;
            let options = variant.visit(Plays(&stored))?;
            let card = zoo.card(agent);
            Some(ZooAgent {
                spec: format!("zoo:{name}@{simulations}{}", search_options(&card, name)),
                about: about(&card, simulations),
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

/// The search options after the simulations of the card's `agent =
/// "zoo:NAME@SIMS..."` line (`/quiescence`); none when the card has no such
/// line, or when what follows is not a valid agent string.
fn search_options(card: &str, name: &str) -> String {
    let prefix = format!("agent = \"zoo:{name}@");
    card.lines()
        .find_map(|line| line.strip_prefix(&prefix)?.strip_suffix('"'))
        .and_then(|rest| {
            let options = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            let spec = format!("zoo:{name}@{DEFAULT_SIMULATIONS}{options}");
            spec.parse::<AgentSpec>().ok().map(|_| options.to_owned())
        })
        .unwrap_or_default()
}

/// The card's title (after `# NAME:`) and its score against `ab@1`, the
/// one-ply engine every card measures: `shipped network, 64 simulations:
/// Hostage Chess, one hour on a CPU with the quiescence at the leaves
/// (58.8% against ab@1)`. An empty card
/// (none could be read) gives the first part only.
fn about(card: &str, simulations: u32) -> String {
    let mut about = format!("shipped network, {simulations} simulations");
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

#[cfg(test)]
mod tests {
    use super::{about, search_options};

    const CARD: &str = "# hostage: Hostage Chess, one hour on a CPU\n\n```toml\nagent = \"zoo:hostage@64/quiescence\"\n\n[scores]\n\"ab@1\" = \"57.0% [50.1, 63.7]\"\n```\n";

    #[test]
    fn a_card_names_the_search_options_its_scores_were_measured_with() {
        assert_eq!(search_options(CARD, "hostage"), "/quiescence");
        assert_eq!(
            about(CARD, 64),
            "shipped network, 64 simulations: Hostage Chess, one hour on a CPU (57.0% against ab@1)"
        );
        // Another network's line, options that do not parse and no line
        // at all leave the plain zoo:NAME@SIMS.
        assert_eq!(search_options(CARD, "chess"), "");
        let bad = CARD.replace("/quiescence", "/quiescence=7");
        assert_eq!(search_options(&bad, "hostage"), "");
        assert_eq!(search_options("# chess: FIDE chess\n", "chess"), "");
        assert_eq!(about("", 16), "shipped network, 16 simulations");
    }
}
