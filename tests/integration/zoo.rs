//! The shipped agents, as the catalogue (agents/agents.toml) lists them:
//! each network loads against today's encoding of its variant and plays
//! legal games as `zoo:NAME`, each engine net plays its rule set, and each
//! card states how it was made and how strong it is. The archived ones
//! (agents/archive/NAME/, not in the catalogue) do the same as
//! `net:agents/archive/NAME`. When an encoding changes, this test names
//! the agent to retrain. The one place the shipped files are tested: other
//! tests play the fixture catalogue, tests/fixtures/zoo/.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use heterodox_engine::nnue::{features, Accumulators, FeatureList, FloatNetwork, Network};
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::agent::Zoo;
use support::{heterodox, read_json, scratch, text};

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agents")
}

/// The shipped networks: the catalogue's, in its order, then the
/// directories of agents/archive/, each with its agent string without the
/// simulations (`zoo:NAME`, `net:agents/archive/NAME`: cargo runs the test
/// in the repository root).
fn shipped() -> Vec<(String, PathBuf, String)> {
    let zoo = Zoo::embedded();
    let mut all: Vec<(String, PathBuf, String)> = zoo
        .agents()
        .iter()
        .filter_map(|agent| {
            let dir = agents_dir().join(agent.network.as_ref()?);
            Some((agent.name.clone(), dir, format!("zoo:{}", agent.name)))
        })
        .collect();
    let mut archived: Vec<(String, PathBuf)> = std::fs::read_dir(agents_dir().join("archive"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("model.safetensors").is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    archived.sort();
    all.extend(
        archived
            .into_iter()
            .map(|(name, p)| (name.clone(), p, format!("net:agents/archive/{name}"))),
    );
    all
}

/// The catalogue lists every network directory of agents/ (nothing is
/// shipped that it does not name) and every engine net beside them.
#[test]
fn the_catalogue_lists_every_shipped_file() {
    let zoo = Zoo::embedded();
    let mut listed: Vec<String> = zoo
        .agents()
        .iter()
        .flat_map(|a| a.sha256.keys().cloned())
        .collect();
    listed.sort();
    let mut on_disk = Vec::new();
    for entry in std::fs::read_dir(agents_dir()).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        for file in [
            "config.json",
            "model.safetensors",
            "spec.json",
            "nnue.safetensors",
        ] {
            if name != "archive" && dir.join(file).is_file() {
                on_disk.push(format!("{name}/{file}"));
            }
        }
    }
    on_disk.sort();
    assert_eq!(listed, on_disk);
}

/// Every engine net the catalogue lists plays its rule set from a binary
/// moved away from the checkout (the nets are built in): `analyse` at
/// depth 3 gives another line than the classical evaluation, and the same
/// line as the binary in place.
#[test]
fn every_shipped_engine_net_plays_from_a_moved_binary() {
    let moved = scratch("zoo-moved-binary");
    std::fs::create_dir_all(&moved).unwrap();
    let binary = moved.join("heterodox");
    std::fs::copy(env!("CARGO_BIN_EXE_heterodox"), &binary).unwrap();
    let zoo = Zoo::embedded();
    let mut played = 0;
    for agent in zoo.agents().iter().filter(|a| a.nnue.is_some()) {
        let mut args = vec![
            "analyse".to_owned(),
            "--variant".to_owned(),
            agent.variant.clone(),
        ];
        for pair in agent.rules.split(',').filter(|p| !p.is_empty()) {
            args.extend(["--option".to_owned(), pair.to_owned()]);
        }
        args.extend(["--depth".to_owned(), "3".to_owned()]);
        let run = |program: &Path, extra: &[&str]| {
            let output = std::process::Command::new(program)
                .args(&args)
                .args(extra)
                .current_dir(&moved)
                .env_remove("HETERODOX_ZOO")
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "{}: {}",
                agent.name,
                text(&output.stderr)
            );
            text(&output.stdout)
                .lines()
                .map(support::without_timing)
                .collect::<Vec<_>>()
        };
        let learned = run(&binary, &[]);
        assert_eq!(
            learned,
            run(Path::new(env!("CARGO_BIN_EXE_heterodox")), &[])
        );
        let classical = run(&binary, &["--evaluation", "classical"]);
        assert_ne!(
            learned, classical,
            "{}: the net changes the search",
            agent.name
        );
        assert!(
            learned.last().unwrap().starts_with("bestmove "),
            "{learned:?}"
        );
        played += 1;
    }
    assert!(played > 0, "the catalogue lists engine nets");
    let _ = std::fs::remove_dir_all(&moved);
}

#[test]
fn every_shipped_agent_loads_and_plays_legal_games() {
    let agents = shipped();
    assert!(!agents.is_empty(), "agents/ ships at least one network");
    for (name, dir, agent) in agents {
        let card_dir = dir
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .display()
            .to_string();
        let spec = read_json(&dir.join("spec.json"));
        let variant = spec["variant"].as_str().unwrap().to_owned();
        let mut args: Vec<String> = ["arena", "--variant", &variant, "--device", "cpu", "--quiet"]
            .map(str::to_owned)
            .to_vec();
        for (key, value) in spec["options"].as_object().unwrap() {
            args.push("--option".to_owned());
            args.push(format!("{key}={}", value.as_str().unwrap()));
        }
        let out = scratch(&format!("zoo-{name}"));
        args.extend(
            [
                "--agents",
                &format!("{agent}@8,random"),
                "--games",
                "2",
                "--max-plies",
                "60",
                "--out",
                out.to_str().unwrap(),
            ]
            .map(|s| s.to_owned()),
        );
        let output = heterodox(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(
            output.status.success(),
            "{card_dir} does not play today (retrain it with the command in {card_dir}/README.md): {}",
            text(&output.stderr)
        );
        let results = read_json(&out.join("results.json"));
        assert_eq!(results["pairings"][0]["score"]["games"], 2, "{results}");
        assert_eq!(results["pairings"][0]["agent"], format!("{agent}@8"));
        // The card: the command that made it, the encoding it was made
        // for, and its measured strength.
        let card = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let version = spec["version"].as_u64().unwrap();
        for needed in [
            "heterodox train".to_owned(),
            format!("encoding version {version}"),
            "greedy".to_owned(),
            "random".to_owned(),
            "rollout@64".to_owned(),
        ] {
            assert!(
                card.contains(&needed),
                "{card_dir}/README.md names {needed}"
            );
        }
        let weights = std::fs::metadata(dir.join("model.safetensors"))
            .unwrap()
            .len();
        assert!(
            weights <= 2 << 20,
            "{card_dir} is {weights} bytes (at most 2 MB)"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// Every engine net the catalogue lists: along seeded random games of its
/// rule set, positions no net was trained on, the quantized output the
/// search plays stays within 6 cp of the float net's (Hostage's: 3.6 cp at
/// worst over the 300 positions).
#[test]
fn every_shipped_engine_nets_quantized_output_stays_near_the_float_one() {
    let zoo = Zoo::embedded();
    let mut checked = 0;
    for agent in zoo.agents() {
        let Some(file) = &agent.nnue else { continue };
        let float = FloatNetwork::from_bytes(&zoo.read(file).unwrap()).unwrap();
        let variant: Variant = float.header.variant.parse().unwrap();
        let worst = variant.visit(QuantizationError { float });
        assert!(worst <= 6.0, "{file}: {worst} cp");
        checked += 1;
    }
    assert!(checked > 0, "the catalogue lists engine nets");
}

/// The largest difference between the quantized and the float output
/// along 300 positions of seeded random games.
struct QuantizationError {
    float: FloatNetwork,
}

impl VariantVisitor for QuantizationError {
    type Output = f32;

    fn visit<P: GameVariant>(self) -> f32 {
        let options = RuleOptions::parse(&self.float.header.rules).unwrap();
        let rules = P::parse_rules(&options).unwrap();
        let net = Arc::new(Network::quantize(&self.float).unwrap());
        let mut acc = Accumulators::new(Arc::clone(&net), 8);
        let (mut rng, mut actions, mut worst, mut positions) =
            (SplitMix64::new(5), Vec::new(), 0f32, 0);
        for game in 0..50u64 {
            let mut pos = P::start(&rules, game).unwrap();
            while positions < 300 && pos.outcome().is_none() {
                let observer = pos.turn();
                let cp = acc.evaluate(&pos, observer, positions % 8);
                let mut lists = [FeatureList::default(), FeatureList::default()];
                for perspective in [Color::White, Color::Black] {
                    features(&pos, perspective, observer, &mut lists[perspective.index()]);
                }
                let [us, them] = match observer {
                    Color::White => [&lists[0], &lists[1]],
                    Color::Black => [&lists[1], &lists[0]],
                };
                let reference = self.float.evaluate(us.as_slice(), them.as_slice());
                worst = worst.max((cp as f32 - reference).abs());
                positions += 1;
                actions.clear();
                pos.legal_actions(&mut actions);
                let action = actions[rng.below(actions.len())];
                pos.play_unchecked(&action);
            }
        }
        eprintln!(
            "{}: worst {worst} cp over {positions} positions",
            P::VARIANT.name()
        );
        worst
    }
}
