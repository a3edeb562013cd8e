//! Which agent plays each rule set of a claim: one for every variant, or
//! per variant (`hostage=net:runs/h1/last@64`), a network only the rules
//! it was trained on; checked against the rule sets before any game.

use heterodox_env::{RuleOptions, Variant};

use super::catalogue::Claim;
use crate::arena::agent::AgentSpec;
use crate::error::TrainError;

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
pub(crate) fn rules_text(variant: Variant, options: &RuleOptions) -> String {
    settings_text(variant.name(), options.iter())
}

/// `variant (key=value key=value ...)`, or the variant alone.
pub(crate) fn settings_text<'a>(
    variant: &str,
    options: impl Iterator<Item = (&'a str, &'a str)>,
) -> String {
    let options: Vec<String> = options.map(|(k, v)| format!("{k}={v}")).collect();
    if options.is_empty() {
        variant.to_owned()
    } else {
        format!("{variant} ({})", options.join(" "))
    }
}

/// The rules network agent `spec` was trained for, from its stored spec.
pub(crate) fn trained_for(spec: &AgentSpec) -> String {
    let stored = spec
        .kind
        .network_dir()
        .ok()
        .flatten()
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
pub(crate) fn plays_rules(spec: &AgentSpec, variant: Variant, options: &RuleOptions) -> bool {
    let Ok(Some(dir)) = spec.kind.network_dir() else {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::find;

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
        let (mercenary, defector) = (shipped("traitor-mercenary"), shipped("traitor-defector"));
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
            shipped("traitor-defector"),
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
}
