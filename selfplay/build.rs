//! Embeds the catalogue of shipped agents (agents/agents.toml) and every
//! file it lists, so that a binary or wheel moved away from the checkout
//! plays the shipped agents (the `Zoo`, src/agent/zoo.rs). Each file's
//! SHA-256 is checked here against the catalogue: a stale checksum fails
//! the build, naming the command that rewrites it, instead of shipping a
//! file the catalogue does not describe.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let agents = manifest_dir.join("../agents");
    let manifest = agents.join("agents.toml");
    println!("cargo:rerun-if-changed={}", manifest.display());
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut files: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut stale = Vec::new();
    for agent in table
        .get("agent")
        .and_then(|a| a.as_array())
        .expect("agents.toml lists its agents as [[agent]]")
    {
        let card = agent
            .get("card")
            .and_then(|c| c.as_str())
            .expect("every agent has a card");
        files.insert(card.to_owned(), agents.join(card));
        let sums = agent
            .get("sha256")
            .and_then(|s| s.as_table())
            .expect("every agent has an [agent.sha256] table");
        for (file, sum) in sums {
            let path = agents.join(file);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("agents.toml lists {}: {e}", path.display()));
            let actual = hex(&Sha256::digest(&bytes));
            if sum.as_str() != Some(actual.as_str()) {
                stale.push(file.clone());
            }
            files.insert(file.clone(), path);
        }
    }
    if !stale.is_empty() {
        panic!(
            "agents/agents.toml: stale checksum of {} (python3 agents/catalogue.py rewrites them)",
            stale.join(", ")
        );
    }
    let mut code = String::new();
    writeln!(
        code,
        "/// agents/agents.toml as built.\npub(crate) const MANIFEST: &str = include_str!({:?});",
        path_text(&manifest)
    )
    .unwrap();
    writeln!(
        code,
        "/// Every file the catalogue lists, by its path under agents/.\n\
         pub(crate) static FILES: &[(&str, &[u8])] = &["
    )
    .unwrap();
    for (name, path) in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path_text(path)
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("zoo_embedded.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}

fn path_text(path: &Path) -> String {
    path.canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_str()
        .expect("a UTF-8 checkout path")
        .to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
