//! The catalogue of shipped agents: one [`Zoo`] that every consumer asks
//! which agent plays a rule set (the engine's default evaluation,
//! `zoo:NAME@SIMS`, `heterodox serve`'s list, Python), read from
//! agents/agents.toml.
//!
//! The catalogue and every file it lists are embedded in the binary at
//! build time (build.rs, which also checks each file's SHA-256), so a
//! binary or wheel moved away from the checkout plays the shipped agents
//! at full strength rather than falling back to the classical evaluation
//! without a word. `$HETERODOX_ZOO` names another directory holding a
//! catalogue of the same form: its files are read from disk and checked
//! against its checksums when first read.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use heterodox_engine::nnue::{feature_set, FloatNetwork, Network};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{GameVariant, RuleOptions};
use serde::Deserialize;
use sha2::{Digest, Sha256};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/zoo_embedded.rs"));
}

/// The catalogue's file name, in agents/ and in a `$HETERODOX_ZOO` directory.
pub const MANIFEST_FILE: &str = "agents.toml";

/// A catalogue that cannot be read, or a file that is not what it lists.
#[derive(Debug, thiserror::Error)]
pub enum ZooError {
    #[error("{path}: {message}")]
    Manifest { path: String, message: String },
    #[error("the catalogue {catalogue} lists no file {file}")]
    Unlisted { catalogue: String, file: String },
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("{path}: its SHA-256 is {actual}, the catalogue says {listed}")]
    Checksum {
        path: String,
        actual: String,
        listed: String,
    },
    #[error("{path}: {message}")]
    Network { path: String, message: String },
}

/// One shipped agent: a rule set's AlphaZero network and engine net.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZooAgent {
    /// The plain name (`zoo:NAME@SIMS`).
    pub name: String,
    /// The variant it plays.
    pub variant: String,
    /// The rule settings it plays, `key=value` joined by `,` in key order
    /// (as a net file names them); empty for the default rules.
    pub rules: String,
    /// Its card (how it was made, how strong it is), under the catalogue's
    /// directory.
    pub card: String,
    /// Its AlphaZero checkpoint directory, where it has one.
    pub network: Option<String>,
    /// The engine's learned evaluation for these rules, where shipped.
    pub nnue: Option<String>,
    /// Each listed file's SHA-256 (the card is not summed).
    pub sha256: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    agent: Vec<ZooAgent>,
}

/// Where a catalogue's files come from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Source {
    /// Built into this binary (agents/ of the checkout it was built from).
    Embedded,
    /// A directory on disk (`$HETERODOX_ZOO`, or a test's).
    Dir(PathBuf),
}

/// A catalogue of shipped agents ([module docs](self)).
#[derive(Debug)]
pub struct Zoo {
    source: Source,
    agents: Vec<ZooAgent>,
    /// Engine nets read so far, by file: each is read once per process.
    nets: Mutex<HashMap<String, Arc<Network>>>,
}

impl Zoo {
    /// The catalogue this process plays: `$HETERODOX_ZOO`'s when set, else
    /// the one built in. Read once per directory.
    pub fn current() -> Result<&'static Zoo, ZooError> {
        match std::env::var_os("HETERODOX_ZOO") {
            Some(dir) => Zoo::at(Path::new(&dir)),
            None => Ok(Zoo::embedded()),
        }
    }

    /// The catalogue built into this binary.
    pub fn embedded() -> &'static Zoo {
        static EMBEDDED: OnceLock<Zoo> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            Zoo::parse(embedded::MANIFEST, Source::Embedded, "agents/agents.toml")
                .expect("build.rs parsed the embedded catalogue")
        })
    }

    /// The catalogue of `dir` (its `agents.toml`), read once per process.
    pub fn at(dir: &Path) -> Result<&'static Zoo, ZooError> {
        static OPENED: OnceLock<Mutex<HashMap<PathBuf, &'static Zoo>>> = OnceLock::new();
        let mut opened = OPENED
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(zoo) = opened.get(dir) {
            return Ok(zoo);
        }
        let zoo: &'static Zoo = Box::leak(Box::new(Zoo::open(dir)?));
        opened.insert(dir.to_owned(), zoo);
        Ok(zoo)
    }

    /// Reads the catalogue of `dir` (not cached: [`Zoo::at`] is).
    pub fn open(dir: &Path) -> Result<Zoo, ZooError> {
        let path = dir.join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| ZooError::Manifest {
            path: path.display().to_string(),
            message: format!(
                "{e} ($HETERODOX_ZOO names a directory of agents with a catalogue, {MANIFEST_FILE})"
            ),
        })?;
        Zoo::parse(
            &text,
            Source::Dir(dir.to_owned()),
            &path.display().to_string(),
        )
    }

    fn parse(text: &str, source: Source, path: &str) -> Result<Zoo, ZooError> {
        let manifest: Manifest = toml::from_str(text).map_err(|e| ZooError::Manifest {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        for agent in &manifest.agent {
            let unsummed = agent
                .network_files()
                .chain(agent.nnue.clone())
                .find(|file| !agent.sha256.contains_key(file));
            if let Some(file) = unsummed {
                return Err(ZooError::Manifest {
                    path: path.to_owned(),
                    message: format!("agent {}: no checksum for {file}", agent.name),
                });
            }
        }
        Ok(Zoo {
            source,
            agents: manifest.agent,
            nets: Mutex::new(HashMap::new()),
        })
    }

    /// Every agent, in the catalogue's order.
    pub fn agents(&self) -> &[ZooAgent] {
        &self.agents
    }

    /// The agent named `name`.
    pub fn agent(&self, name: &str) -> Option<&ZooAgent> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// Where the catalogue was read: `agents/agents.toml (built in)` or the
    /// directory's file, for messages.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Embedded => "agents/agents.toml (built in)".to_owned(),
            Source::Dir(dir) => dir.join(MANIFEST_FILE).display().to_string(),
        }
    }

    /// Where a listed file is, for messages and records: the directory's
    /// file for a `$HETERODOX_ZOO` catalogue, `agents/FILE` for the
    /// built-in one (whose bytes are in the binary).
    pub fn shown_path(&self, file: &str) -> PathBuf {
        match &self.source {
            Source::Embedded => Path::new("agents").join(file),
            Source::Dir(dir) => dir.join(file),
        }
    }

    /// The bytes of a listed file (`NAME/model.safetensors`, a card),
    /// checked against its checksum where the catalogue lists one.
    pub fn read(&self, file: &str) -> Result<Cow<'static, [u8]>, ZooError> {
        let listed = self.agents.iter().find_map(|a| {
            let summed = a.sha256.get(file).map(|sum| Some(sum.as_str()));
            summed.or_else(|| (a.card == file).then_some(None))
        });
        let Some(listed) = listed else {
            return Err(ZooError::Unlisted {
                catalogue: self.describe(),
                file: file.to_owned(),
            });
        };
        match &self.source {
            Source::Embedded => embedded::FILES
                .iter()
                .find(|(name, _)| *name == file)
                .map(|(_, bytes)| Cow::Borrowed(*bytes))
                .ok_or_else(|| ZooError::Unlisted {
                    catalogue: self.describe(),
                    file: file.to_owned(),
                }),
            Source::Dir(dir) => {
                let path = dir.join(file);
                let bytes = std::fs::read(&path).map_err(|e| ZooError::Read {
                    path: path.display().to_string(),
                    message: e.to_string(),
                })?;
                if let Some(listed) = listed {
                    let actual = sha256_hex(&bytes);
                    if actual != listed {
                        return Err(ZooError::Checksum {
                            path: path.display().to_string(),
                            actual,
                            listed: listed.to_owned(),
                        });
                    }
                }
                Ok(Cow::Owned(bytes))
            }
        }
    }

    /// An agent's card as text (empty where it cannot be read).
    pub fn card(&self, agent: &ZooAgent) -> String {
        self.read(&agent.card)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    }

    /// The agent whose AlphaZero network reads `encoding`'s tensors (the
    /// same variant, rule settings, encoding version and history), in the
    /// catalogue's order.
    pub fn network_for(&self, encoding: &EncodingSpec) -> Option<&ZooAgent> {
        self.agents
            .iter()
            .find(|agent| matches!(self.network_spec(agent), Ok(Some(stored)) if encoding.check(&stored).is_ok()))
    }

    /// The encoding spec an agent's network stored (`spec.json`).
    pub fn network_spec(&self, agent: &ZooAgent) -> Result<Option<EncodingSpec>, ZooError> {
        let Some(dir) = &agent.network else {
            return Ok(None);
        };
        let file = format!("{dir}/spec.json");
        let bytes = self.read(&file)?;
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ZooError::Network {
                path: file,
                message: e.to_string(),
            })
    }

    /// A directory on disk holding `name`'s AlphaZero checkpoint, for the
    /// loaders that read a directory ([`Zoo::on_disk`]).
    pub fn network_dir(&self, name: &str) -> Result<PathBuf, ZooError> {
        let agent = self.agent(name).ok_or_else(|| ZooError::Unlisted {
            catalogue: self.describe(),
            file: name.to_owned(),
        })?;
        let Some(dir) = &agent.network else {
            return Err(ZooError::Network {
                path: name.to_owned(),
                message: "this agent has no network".to_owned(),
            });
        };
        let files: Vec<String> = agent.network_files().collect();
        Ok(self.on_disk(&files)?.join(dir))
    }

    /// A directory under which the listed `files` lie on disk, intact, for
    /// readers that take a path (a checkpoint loader, the teacher's net):
    /// a `$HETERODOX_ZOO` catalogue's own directory (each file checked
    /// against its checksum); for the built-in catalogue, its files written
    /// once to a cache directory (`$XDG_CACHE_HOME/heterodox/zoo/`, named by
    /// their checksums), whether or not the checkout it was built from is
    /// still there, so a moved binary or an installed wheel behaves as one
    /// in the checkout.
    pub fn on_disk(&self, files: &[String]) -> Result<PathBuf, ZooError> {
        let sums: Vec<&String> = files
            .iter()
            .map(|file| {
                self.agents
                    .iter()
                    .find_map(|a| a.sha256.get(file))
                    .ok_or_else(|| ZooError::Unlisted {
                        catalogue: self.describe(),
                        file: file.clone(),
                    })
            })
            .collect::<Result<_, _>>()?;
        let intact = |root: &Path| {
            files.iter().zip(&sums).all(|(file, sum)| {
                std::fs::read(root.join(file)).is_ok_and(|bytes| sha256_hex(&bytes) == **sum)
            })
        };
        if let Source::Dir(dir) = &self.source {
            // A directory's own files are the only ones it has: read()
            // names the file that is missing or differs.
            for file in files {
                self.read(file)?;
            }
            return Ok(dir.clone());
        }
        let key = sha256_hex(
            sums.iter()
                .map(|s| s.as_str())
                .collect::<String>()
                .as_bytes(),
        );
        let cache = cache_dir().join(&key[..16]);
        if !intact(&cache) {
            for file in files {
                write_atomically(&cache.join(file), &self.read(file)?)?;
            }
        }
        Ok(cache)
    }

    /// The engine net shipped for `P` under the rule settings `rules`
    /// (`key=value` joined by `,`, as a net file names them), read and
    /// checked against its variant, rule set and feature set once per
    /// process; `None` where none is shipped for these rules. A listed net
    /// that cannot be read or was made for anything else is an error, never
    /// a silent fall back to the classical evaluation.
    pub fn nnue<P: GameVariant>(
        &self,
        rules: &str,
    ) -> Result<Option<(&ZooAgent, Arc<Network>)>, ZooError> {
        let Some((agent, file)) = self.agents.iter().find_map(|a| {
            let plays = a.variant == P::VARIANT.name() && a.rules == rules;
            Some((a, a.nnue.as_ref().filter(|_| plays)?))
        }) else {
            return Ok(None);
        };
        let mut nets = self.nets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(net) = nets.get(file) {
            return Ok(Some((agent, Arc::clone(net))));
        }
        let failed = |message: String| ZooError::Network {
            path: file.clone(),
            message,
        };
        let mut options = RuleOptions::new();
        for pair in rules.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| failed(format!("bad rule setting {pair:?}")))?;
            options.set(key, value);
        }
        let parsed = P::parse_rules(&options).map_err(|e| failed(e.to_string()))?;
        let bytes = self.read(file)?;
        let float = FloatNetwork::from_bytes(&bytes).map_err(|e| failed(e.to_string()))?;
        let net = Network::quantize(&float).map_err(|e| failed(e.to_string()))?;
        let features = feature_set::<P>()
            .ok_or_else(|| failed(format!("{} has no feature set", P::VARIANT.name())))?;
        net.header
            .check::<P>(&parsed, features)
            .map_err(|e| failed(e.to_string()))?;
        let net = Arc::new(net);
        nets.insert(file.clone(), Arc::clone(&net));
        Ok(Some((agent, net)))
    }
}

impl ZooAgent {
    /// The files of its AlphaZero checkpoint, under the catalogue's directory.
    pub fn network_files(&self) -> impl Iterator<Item = String> + '_ {
        self.network.iter().flat_map(|dir| {
            ["config.json", "model.safetensors", "spec.json"].map(|f| format!("{dir}/{f}"))
        })
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `$XDG_CACHE_HOME/heterodox/zoo`, or `~/.cache/heterodox/zoo`, or the
/// system's temporary directory's `heterodox-zoo`.
fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")));
    match base {
        Some(base) => base.join("heterodox").join("zoo"),
        None => std::env::temp_dir().join("heterodox-zoo"),
    }
}

/// Writes `bytes` to `path` through a sibling temporary file and a rename,
/// so a reader never sees half a file. The temporary name is unique to the
/// call (process and a counter), so threads writing the same file at once
/// (an arena's games loading one `zoo:` agent) each rename a whole copy.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ZooError> {
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let call = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let failed = |e: std::io::Error| ZooError::Read {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let parent = path.parent().expect("a file under the cache directory");
    std::fs::create_dir_all(parent).map_err(failed)?;
    let staging = parent.join(format!(
        ".{}.{}.{call}",
        path.file_name().unwrap().to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&staging, bytes).map_err(failed)?;
    std::fs::rename(&staging, path).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_catalogue_lists_every_file_it_embeds_with_its_checksum() {
        let zoo = Zoo::embedded();
        assert!(!zoo.agents().is_empty());
        for agent in zoo.agents() {
            for (file, sum) in &agent.sha256 {
                assert_eq!(&sha256_hex(&zoo.read(file).unwrap()), sum, "{file}");
            }
            assert!(!zoo.card(agent).is_empty(), "{}'s card", agent.name);
        }
        assert!(matches!(
            zoo.read("chess/elsewhere.bin"),
            Err(ZooError::Unlisted { .. })
        ));
    }

    #[test]
    fn threads_writing_the_same_cached_file_at_once_all_succeed() {
        let dir = std::env::temp_dir().join(format!("zoo-race-{}", std::process::id()));
        let file = dir.join("a/model.safetensors");
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| write_atomically(&file, b"the same bytes").unwrap());
            }
        });
        assert_eq!(std::fs::read(&file).unwrap(), b"the same bytes");
        assert_eq!(std::fs::read_dir(dir.join("a")).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_catalogue_checks_its_files_checksums() {
        let dir = std::env::temp_dir().join(format!("zoo-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("a")).unwrap();
        std::fs::write(dir.join("a/README.md"), "# a\n").unwrap();
        std::fs::write(dir.join("a/nnue.safetensors"), b"not a net").unwrap();
        let listed = sha256_hex(b"a net");
        std::fs::write(
            dir.join(MANIFEST_FILE),
            format!(
                "[[agent]]\nname = \"a\"\nvariant = \"chess\"\nrules = \"\"\ncard = \"a/README.md\"\n\
                 nnue = \"a/nnue.safetensors\"\n[agent.sha256]\n\"a/nnue.safetensors\" = \"{listed}\"\n"
            ),
        )
        .unwrap();
        let zoo = Zoo::open(&dir).unwrap();
        assert_eq!(zoo.agent("a").unwrap().variant, "chess");
        assert_eq!(&*zoo.read("a/README.md").unwrap(), b"# a\n");
        match zoo.read("a/nnue.safetensors") {
            Err(ZooError::Checksum {
                actual, listed: l, ..
            }) => {
                assert_eq!(actual, sha256_hex(b"not a net"));
                assert_eq!(l, listed);
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(dir.join(MANIFEST_FILE), "[[agent]]\nname = \"a\"\n").unwrap();
        let error = Zoo::open(&dir).unwrap_err().to_string();
        assert!(error.contains("missing field `variant`"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
