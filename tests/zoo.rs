//! The shipped agents (agents/NAME/): each loads against today's encoding
//! of its variant and plays legal games as `zoo:NAME`, and its card states
//! how it was made and how strong it is. The archived ones
//! (agents/archive/NAME/) do the same as `net:agents/archive/NAME`. When an
//! encoding changes, this test names the agent to retrain.

mod support;

use std::path::{Path, PathBuf};

use support::{heterodox, read_json, scratch, text};

fn agents_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agents")
}

/// The shipped agents: directories of agents/ holding a network, then
/// those of agents/archive/, each with its agent string without the
/// simulations (`zoo:NAME`, `net:agents/archive/NAME`: cargo runs the test
/// in the repository root).
fn shipped() -> Vec<(String, PathBuf, String)> {
    let mut all = Vec::new();
    for (dir, prefix) in [
        (agents_dir(), "zoo:"),
        (agents_dir().join("archive"), "net:agents/archive/"),
    ] {
        let mut agents: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("model.safetensors").is_file())
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
            .collect();
        agents.sort();
        all.extend(
            agents
                .into_iter()
                .map(|(name, p)| (name.clone(), p, format!("{prefix}{name}"))),
        );
    }
    all
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
