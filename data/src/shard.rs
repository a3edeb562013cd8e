//! Shards: files of compact game records, as self-play writes them and the
//! training loader reads them.
//!
//! A shard holds what is needed to rebuild every training position (action
//! indices, the search's policy over the legal actions, root values, the
//! result, the start seed) and never a float tensor: observations are
//! recomputed by replaying the rules ([`crate::loader`]), so one shard
//! serves any history length and is some hundred times smaller.
//!
//! # Layout (format version 2, little-endian throughout)
//!
//! ```text
//! offset  size  field
//!      0     8  magic "HDXSHARD"
//!      8     4  format version (u32) = 2
//!     12     8  total file length in bytes, checksum included (u64)
//!     20     4  header length H (u32, at most 1 MiB)
//!     24     H  header: JSON ShardHeader (variant, rule options, encoding
//!               version, producer, crate version), UTF-8
//!             4  number of games G (u32)
//!             1  index width W: 2 (u16) when every action index fits, else 4 (u32)
//!   G times:  8  seed (u64)
//!             1  result: 0 = 1-0, 1 = 0-1, 2 = draw, 3 = truncated
//!             2  termination length (u16), then that many UTF-8 bytes
//!             1  start flag: 0 = seeded start, 1 = a position string follows
//!            (4  position string length (u32), then that many UTF-8 bytes)
//!             4  number of steps S (u32)
//!   S times:  W  action index
//!             4  root value (f32 bits, exact)
//!             2  number of policy entries E (u16)
//!   E times:  W  action index
//!             2  probability, quantized: q = round(p * 65535), read back as
//!               q / 65535 (error at most 1/131070 + f32 rounding)
//!            (4  when E > 0: the policy surprise (f32 bits, exact), nats)
//!      end-8  8  checksum: FNV-1a 64 of every byte before it (u64)
//! ```
//!
//! Version 1 is version 2 without the surprise; it is still read, each
//! step's surprise then 0 (a sample that surprise weighting leaves at its
//! uniform weight).
//!
//! Reading checks, in order: the magic, the format version, the declared
//! length against the file's (truncation), the checksum (any corrupted
//! byte), then parses with every count bounded by the bytes left before
//! anything is allocated. Each failure is its own [`ShardErrorKind`].
//!
//! Writing is atomic ([`crate::atomic::write_file`]): the bytes go to a
//! temporary file in the same directory (a name starting with `.` and
//! holding `.tmp-`, never ending in `.hdxshard`), which is synced, renamed
//! over the target and the directory synced. A writer killed midway leaves only the temporary file, which
//! [`list_shards`] skips and [`read_shard`] refuses.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use heterodox_env::encoding::{EncodingMismatch, EncodingSpec};
use heterodox_env::{GameVariant, OptionError, RuleOptions, UnknownVariant, Variant};

use crate::record::{GameRecord, GameResult, StepRecord};

/// The first eight bytes of every shard.
pub const MAGIC: [u8; 8] = *b"HDXSHARD";
/// The layout version this code writes; it reads this one and every
/// earlier one.
pub const FORMAT_VERSION: u32 = 2;
/// The file extension of shards (without the dot).
pub const EXTENSION: &str = "hdxshard";
/// The longest header accepted (JSON bytes).
pub const MAX_HEADER_LEN: u64 = 1 << 20;

/// Magic, format version, total length.
const PRELUDE_LEN: usize = 20;
const CHECKSUM_LEN: usize = 8;
/// The smallest well-formed file: prelude, header length, game count,
/// index width, checksum (an empty header would not parse, but the
/// checksum is found first).
const MIN_LEN: usize = PRELUDE_LEN + 4 + 4 + 1 + CHECKSUM_LEN;
/// Fixed bytes of a game: seed, result, termination length, start flag,
/// step count.
const GAME_MIN: u64 = 8 + 1 + 2 + 1 + 4;

/// What a shard says about its games: enough to rebuild the rules and to
/// refuse data made under another encoding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardHeader {
    /// The registered variant name.
    pub variant: String,
    /// The rule settings, every key explicit ([`GameVariant::rule_options`]).
    pub options: BTreeMap<String, String>,
    /// The variant's [`heterodox_env::encoding::Encoding::ENCODING_VERSION`]
    /// when the games were recorded: action indices mean what that version
    /// says.
    pub encoding_version: u32,
    /// Free-form: who made the games and how (search settings, network).
    pub producer: String,
    /// The version of this crate that wrote the shard.
    pub crate_version: String,
}

/// A shard in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    pub header: ShardHeader,
    pub games: Vec<GameRecord>,
}

/// A shard header that does not fit what the reader expects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    #[error("shard header: {0}")]
    UnknownVariant(#[from] UnknownVariant),
    #[error("shard header: {0}")]
    Mismatch(#[from] EncodingMismatch),
    #[error("shard header: {0}")]
    Options(#[from] OptionError),
}

/// Why a shard could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum ShardErrorKind {
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
    #[error("not a shard file name: {0}")]
    BadName(String),
    #[error("not a shard: the file starts with {found:?}, not \"HDXSHARD\"")]
    BadMagic { found: Vec<u8> },
    #[error(
        "unsupported shard format version {found} (this build reads versions 1 to {supported})"
    )]
    UnsupportedVersion { found: u32, supported: u32 },
    /// `expected` is the declared length, or the smallest possible shard
    /// when the file is too short to declare one.
    #[error("truncated: {actual} bytes, expected {expected}")]
    Truncated { expected: u64, actual: u64 },
    #[error(
        "{actual} bytes where the shard declares {expected}: trailing data or a corrupted length"
    )]
    TrailingBytes { expected: u64, actual: u64 },
    #[error("checksum mismatch (stored {stored:#018x}, computed {computed:#018x}): the file is corrupted")]
    ChecksumMismatch { stored: u64, computed: u64 },
    #[error("bad header JSON: {0}")]
    BadHeaderJson(String),
    #[error("{field} {value} is beyond its bound {limit}")]
    Absurd {
        field: &'static str,
        value: u64,
        limit: u64,
    },
    #[error("bad {field}: {reason}")]
    BadField { field: &'static str, reason: String },
    #[error("game {game}{}: {reason}", step.map_or(String::new(), |s| format!(", step {s}")))]
    InvalidRecord {
        game: usize,
        step: Option<usize>,
        reason: String,
    },
    #[error(transparent)]
    Header(#[from] HeaderError),
}

/// A shard error with the file it concerns.
#[derive(Debug, thiserror::Error)]
#[error("shard {}: {kind}", path.display())]
pub struct ShardError {
    pub path: PathBuf,
    pub kind: ShardErrorKind,
}

impl ShardError {
    fn new(path: &Path, kind: impl Into<ShardErrorKind>) -> ShardError {
        ShardError {
            path: path.to_owned(),
            kind: kind.into(),
        }
    }
}

impl ShardHeader {
    /// The header of games of `P` under `rules`, written by this build.
    pub fn new<P: GameVariant>(rules: &P::Rules, producer: impl Into<String>) -> ShardHeader {
        ShardHeader {
            variant: P::VARIANT.name().to_owned(),
            options: P::rule_options(rules)
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
            encoding_version: P::ENCODING_VERSION,
            producer: producer.into(),
            crate_version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }

    /// `variant (options) vN`, as in [`EncodingSpec::summary`].
    pub fn summary(&self) -> String {
        heterodox_env::encoding::variant_summary(
            &self.variant,
            &self.options,
            self.encoding_version,
        )
    }

    /// The registered variant the shard is of.
    pub fn variant(&self) -> Result<Variant, HeaderError> {
        Ok(self.variant.parse()?)
    }

    /// The rule settings, when the shard holds games of `P` recorded under
    /// this build's encoding version of `P`.
    pub fn rules<P: GameVariant>(&self) -> Result<P::Rules, HeaderError> {
        let (variant, version) = (P::VARIANT.name(), P::ENCODING_VERSION);
        if let Some(reason) = self.identity_difference(variant, version) {
            return Err(self.mismatch(format!("{variant} v{version}"), reason));
        }
        let mut options = RuleOptions::new();
        for (key, value) in &self.options {
            options.set(key, value);
        }
        Ok(P::parse_rules(&options)?)
    }

    /// Ok when the shard's games are of `expected`'s variant, rule
    /// settings and encoding version (any history length: records carry
    /// none); otherwise the mismatch, naming both.
    pub fn check(&self, expected: &EncodingSpec) -> Result<(), HeaderError> {
        let reason = self
            .identity_difference(&expected.variant, expected.version)
            .or_else(|| {
                (self.options != expected.options).then(|| "rule settings differ".to_owned())
            });
        match reason {
            Some(reason) => Err(self.mismatch(expected.summary(), reason)),
            None => Ok(()),
        }
    }

    /// The first difference between the shard's variant and encoding
    /// version and the ones a reader expects, as a mismatch's reason
    /// (expected first); `None` when both agree.
    fn identity_difference(&self, variant: &str, version: u32) -> Option<String> {
        if self.variant != variant {
            Some(format!("variant {variant} vs {}", self.variant))
        } else if self.encoding_version != version {
            Some(format!(
                "encoding version {version} vs {}",
                self.encoding_version
            ))
        } else {
            None
        }
    }

    /// The reader expected `expected` (a summary) and found this shard.
    fn mismatch(&self, expected: String, reason: String) -> HeaderError {
        EncodingMismatch {
            expected,
            found: self.summary(),
            reason,
        }
        .into()
    }
}

/// FNV-1a, 64 bits: detects every single-byte change (each step is a
/// bijection of the running hash), needs no table and no dependency.
pub fn checksum(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

/// A probability in `[0, 1]` as `round(p * 65535)`.
#[inline]
pub fn quantize_probability(p: f32) -> u16 {
    (p.clamp(0.0, 1.0) * 65535.0).round() as u16
}

/// The probability a quantized value stands for, `q / 65535`.
#[inline]
pub fn dequantize_probability(q: u16) -> f32 {
    f32::from(q) / 65535.0
}

fn result_code(result: GameResult) -> u8 {
    match result {
        GameResult::WhiteWins => 0,
        GameResult::BlackWins => 1,
        GameResult::Draw => 2,
        GameResult::Truncated => 3,
    }
}

/// The bytes of a shard. Refuses records it could not store faithfully
/// (policy probabilities outside `[0, 1]` or not finite, a non-finite root
/// value, more than 65,535 policy entries, a termination over 65,535
/// bytes) with [`ShardErrorKind::InvalidRecord`].
pub fn encode_shard(header: &ShardHeader, games: &[GameRecord]) -> Result<Vec<u8>, ShardErrorKind> {
    let invalid = |game: usize, step: Option<usize>, reason: String| {
        ShardErrorKind::InvalidRecord { game, step, reason }
    };
    let header_json = serde_json::to_vec(header).expect("a header serializes");
    if header_json.len() as u64 > MAX_HEADER_LEN {
        return Err(ShardErrorKind::Absurd {
            field: "header length",
            value: header_json.len() as u64,
            limit: MAX_HEADER_LEN,
        });
    }
    let game_count = u32::try_from(games.len()).map_err(|_| ShardErrorKind::Absurd {
        field: "game count",
        value: games.len() as u64,
        limit: u64::from(u32::MAX),
    })?;
    let mut max_index = 0u32;
    for (g, game) in games.iter().enumerate() {
        if game.termination.len() > usize::from(u16::MAX) {
            return Err(invalid(
                g,
                None,
                "termination longer than 65535 bytes".into(),
            ));
        }
        if u32::try_from(game.steps.len()).is_err() {
            return Err(invalid(g, None, "more than 2^32 - 1 steps".into()));
        }
        if let Some(start) = &game.start {
            if u32::try_from(start.len()).is_err() {
                return Err(invalid(g, None, "start position string too long".into()));
            }
        }
        for (s, step) in game.steps.iter().enumerate() {
            if !step.root_value.is_finite() {
                let reason = format!("root value {} is not finite", step.root_value);
                return Err(invalid(g, Some(s), reason));
            }
            if !(step.surprise.is_finite() && step.surprise >= 0.0) {
                let reason = format!("surprise {} is not a finite number >= 0", step.surprise);
                return Err(invalid(g, Some(s), reason));
            }
            if step.policy.len() > usize::from(u16::MAX) {
                let reason = format!("{} policy entries (at most 65535)", step.policy.len());
                return Err(invalid(g, Some(s), reason));
            }
            max_index = max_index.max(step.action);
            for &(index, p) in &step.policy {
                if !(0.0..=1.0).contains(&p) {
                    let reason = format!("policy probability {p} is outside [0, 1]");
                    return Err(invalid(g, Some(s), reason));
                }
                max_index = max_index.max(index);
            }
        }
    }
    let wide = max_index > u32::from(u16::MAX);
    let mut out = Vec::with_capacity(64 + header_json.len() + 16 * games.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // total length, set below
    out.extend_from_slice(&(header_json.len() as u32).to_le_bytes());
    out.extend_from_slice(&header_json);
    out.extend_from_slice(&game_count.to_le_bytes());
    out.push(if wide { 4 } else { 2 });
    let put_index = |out: &mut Vec<u8>, index: u32| {
        if wide {
            out.extend_from_slice(&index.to_le_bytes());
        } else {
            out.extend_from_slice(&(index as u16).to_le_bytes());
        }
    };
    for game in games {
        out.extend_from_slice(&game.seed.to_le_bytes());
        out.push(result_code(game.result));
        out.extend_from_slice(&(game.termination.len() as u16).to_le_bytes());
        out.extend_from_slice(game.termination.as_bytes());
        match &game.start {
            None => out.push(0),
            Some(start) => {
                out.push(1);
                out.extend_from_slice(&(start.len() as u32).to_le_bytes());
                out.extend_from_slice(start.as_bytes());
            }
        }
        out.extend_from_slice(&(game.steps.len() as u32).to_le_bytes());
        for step in &game.steps {
            put_index(&mut out, step.action);
            out.extend_from_slice(&step.root_value.to_le_bytes());
            out.extend_from_slice(&(step.policy.len() as u16).to_le_bytes());
            for &(index, p) in &step.policy {
                put_index(&mut out, index);
                out.extend_from_slice(&quantize_probability(p).to_le_bytes());
            }
            if !step.policy.is_empty() {
                out.extend_from_slice(&step.surprise.to_le_bytes());
            }
        }
    }
    let total = (out.len() + CHECKSUM_LEN) as u64;
    out[12..20].copy_from_slice(&total.to_le_bytes());
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// Reads fields from the checked body, bounding every count by the bytes
/// left before anything is allocated.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn remaining(&self) -> u64 {
        (self.bytes.len() - self.at) as u64
    }

    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], ShardErrorKind> {
        if n as u64 > self.remaining() {
            return Err(ShardErrorKind::Absurd {
                field,
                value: n as u64,
                limit: self.remaining(),
            });
        }
        let slice = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], ShardErrorKind> {
        Ok(self.take(N, field)?.try_into().expect("N bytes"))
    }

    fn u8(&mut self, field: &'static str) -> Result<u8, ShardErrorKind> {
        Ok(self.array::<1>(field)?[0])
    }

    fn u16(&mut self, field: &'static str) -> Result<u16, ShardErrorKind> {
        Ok(u16::from_le_bytes(self.array(field)?))
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, ShardErrorKind> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    fn u64(&mut self, field: &'static str) -> Result<u64, ShardErrorKind> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }

    /// A count of items at least `item_size` bytes each: refused when the
    /// bytes left cannot hold them.
    fn count(
        &self,
        value: u64,
        item_size: u64,
        field: &'static str,
    ) -> Result<usize, ShardErrorKind> {
        let limit = self.remaining() / item_size;
        if value > limit {
            return Err(ShardErrorKind::Absurd {
                field,
                value,
                limit,
            });
        }
        Ok(value as usize)
    }

    /// `len` bytes of UTF-8 text: `len_field` names the length in errors,
    /// `field` the text.
    fn text(
        &mut self,
        len: usize,
        len_field: &'static str,
        field: &'static str,
    ) -> Result<String, ShardErrorKind> {
        let bytes = self.take(len, len_field)?;
        String::from_utf8(bytes.to_vec()).map_err(|e| ShardErrorKind::BadField {
            field,
            reason: format!("not UTF-8 ({e})"),
        })
    }
}

/// Checks the first bytes of a file of `actual` bytes (`head`: the first
/// [`PRELUDE_LEN`] of them, or all when fewer): magic, format version,
/// declared length. Lets [`read_shard`] refuse a wrong or cut file before
/// reading all of it.
fn check_prelude(head: &[u8], actual: u64) -> Result<(), ShardErrorKind> {
    let magic = &head[..head.len().min(MAGIC.len())];
    if magic != &MAGIC[..magic.len()] {
        return Err(ShardErrorKind::BadMagic {
            found: magic.to_vec(),
        });
    }
    let too_short = ShardErrorKind::Truncated {
        expected: MIN_LEN as u64,
        actual,
    };
    if head.len() < 12 {
        return Err(too_short);
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if version == 0 || version > FORMAT_VERSION {
        return Err(ShardErrorKind::UnsupportedVersion {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if head.len() < PRELUDE_LEN {
        return Err(too_short);
    }
    let expected = u64::from_le_bytes(head[12..20].try_into().expect("8 bytes"));
    if expected > actual {
        return Err(ShardErrorKind::Truncated { expected, actual });
    }
    if expected < actual {
        return Err(ShardErrorKind::TrailingBytes { expected, actual });
    }
    if actual < MIN_LEN as u64 {
        return Err(too_short);
    }
    Ok(())
}

/// Reads a shard from its bytes (see the module docs for the checks).
pub fn decode_shard(bytes: &[u8]) -> Result<Shard, ShardErrorKind> {
    check_prelude(&bytes[..bytes.len().min(PRELUDE_LEN)], bytes.len() as u64)?;
    let (body, stored) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
    let stored = u64::from_le_bytes(stored.try_into().expect("8 bytes"));
    let computed = checksum(body);
    if stored != computed {
        return Err(ShardErrorKind::ChecksumMismatch { stored, computed });
    }
    let version = u32::from_le_bytes(body[8..12].try_into().expect("4 bytes"));
    let mut cursor = Cursor {
        bytes: body,
        at: PRELUDE_LEN,
    };
    let header_len = u64::from(cursor.u32("header length")?);
    if header_len > MAX_HEADER_LEN {
        return Err(ShardErrorKind::Absurd {
            field: "header length",
            value: header_len,
            limit: MAX_HEADER_LEN,
        });
    }
    let header_bytes = cursor.take(header_len as usize, "header length")?;
    let header: ShardHeader = serde_json::from_slice(header_bytes)
        .map_err(|e| ShardErrorKind::BadHeaderJson(e.to_string()))?;
    let game_count = u64::from(cursor.u32("game count")?);
    let width = cursor.u8("index width")?;
    if width != 2 && width != 4 {
        return Err(ShardErrorKind::BadField {
            field: "index width",
            reason: format!("{width} (expected 2 or 4)"),
        });
    }
    let width = usize::from(width);
    let read_index = |cursor: &mut Cursor<'_>, field| -> Result<u32, ShardErrorKind> {
        Ok(if width == 4 {
            cursor.u32(field)?
        } else {
            u32::from(cursor.u16(field)?)
        })
    };
    let game_count = cursor.count(game_count, GAME_MIN, "game count")?;
    let mut games = Vec::with_capacity(game_count);
    for _ in 0..game_count {
        let seed = cursor.u64("seed")?;
        let result = match cursor.u8("result")? {
            0 => GameResult::WhiteWins,
            1 => GameResult::BlackWins,
            2 => GameResult::Draw,
            3 => GameResult::Truncated,
            code => {
                return Err(ShardErrorKind::BadField {
                    field: "result",
                    reason: format!("code {code} (expected 0 to 3)"),
                })
            }
        };
        let len = usize::from(cursor.u16("termination length")?);
        let termination = cursor.text(len, "termination length", "termination")?;
        let start = match cursor.u8("start flag")? {
            0 => None,
            1 => {
                let len = cursor.u32("start length")? as usize;
                Some(cursor.text(len, "start length", "start position")?)
            }
            flag => {
                return Err(ShardErrorKind::BadField {
                    field: "start flag",
                    reason: format!("{flag} (expected 0 or 1)"),
                })
            }
        };
        let step_count = u64::from(cursor.u32("step count")?);
        let step_count = cursor.count(step_count, (width + 4 + 2) as u64, "step count")?;
        let mut steps = Vec::with_capacity(step_count);
        for _ in 0..step_count {
            let action = read_index(&mut cursor, "action index")?;
            let root_value = f32::from_le_bytes(cursor.array("root value")?);
            let entries = u64::from(cursor.u16("policy length")?);
            let entries = cursor.count(entries, (width + 2) as u64, "policy length")?;
            let mut policy = Vec::with_capacity(entries);
            for _ in 0..entries {
                let index = read_index(&mut cursor, "policy index")?;
                let p = dequantize_probability(cursor.u16("policy probability")?);
                policy.push((index, p));
            }
            let surprise = if version >= 2 && !policy.is_empty() {
                let surprise = f32::from_le_bytes(cursor.array("surprise")?);
                if !(surprise.is_finite() && surprise >= 0.0) {
                    return Err(ShardErrorKind::BadField {
                        field: "surprise",
                        reason: format!("{surprise} (expected a finite number >= 0)"),
                    });
                }
                surprise
            } else {
                0.0
            };
            steps.push(StepRecord {
                action,
                root_value,
                policy,
                surprise,
            });
        }
        games.push(GameRecord {
            seed,
            start,
            steps,
            result,
            termination,
        });
    }
    if cursor.remaining() > 0 {
        return Err(ShardErrorKind::BadField {
            field: "game data",
            reason: format!("{} unread bytes before the checksum", cursor.remaining()),
        });
    }
    Ok(Shard { header, games })
}

/// True for the names of temporary files a writer makes (and leaves
/// behind when killed): `.<target name>.tmp-<pid>-<n>`.
pub fn is_temp_name(name: &str) -> bool {
    crate::atomic::is_leftover(name)
}

fn has_shard_name(path: &Path) -> Result<(), String> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| "no UTF-8 file name".to_owned())?;
    if is_temp_name(name) {
        return Err(format!("{name} is a writer's temporary file"));
    }
    if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
        return Err(format!("{name} does not end in .{EXTENSION}"));
    }
    Ok(())
}

/// Writes `games` as a shard at `path` (which must end in `.hdxshard`),
/// atomically: readers see the old file or the complete new one, never a
/// part. Invalid records are refused before any file is made.
pub fn write_shard(
    path: &Path,
    header: &ShardHeader,
    games: &[GameRecord],
) -> Result<(), ShardError> {
    has_shard_name(path).map_err(|e| ShardError::new(path, ShardErrorKind::BadName(e)))?;
    let bytes = encode_shard(header, games).map_err(|e| ShardError::new(path, e))?;
    crate::atomic::write_file(path, &bytes).map_err(|e| ShardError::new(path, io::Error::from(e)))
}

/// Reads and checks the shard at `path`. A writer's temporary file is
/// refused by name.
pub fn read_shard(path: &Path) -> Result<Shard, ShardError> {
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        if is_temp_name(name) {
            let reason = format!("{name} is a writer's temporary file");
            return Err(ShardError::new(path, ShardErrorKind::BadName(reason)));
        }
    }
    let error = |kind: ShardErrorKind| ShardError::new(path, kind);
    let mut file = File::open(path).map_err(|e| error(e.into()))?;
    let actual = file.metadata().map_err(|e| error(e.into()))?.len();
    // The prelude first: a file that is no shard, or is cut, is refused
    // without reading it whole.
    let mut head = Vec::with_capacity(PRELUDE_LEN);
    (&mut file)
        .take(PRELUDE_LEN as u64)
        .read_to_end(&mut head)
        .map_err(|e| error(e.into()))?;
    check_prelude(&head, actual).map_err(error)?;
    let mut bytes = head;
    bytes.reserve_exact((actual as usize).saturating_sub(PRELUDE_LEN));
    file.read_to_end(&mut bytes).map_err(|e| error(e.into()))?;
    decode_shard(&bytes).map_err(error)
}

/// [`read_shard`], then the header checked against `expected` (variant,
/// rule settings, encoding version): a mismatch names both.
pub fn read_shard_for(path: &Path, expected: &EncodingSpec) -> Result<Shard, ShardError> {
    let shard = read_shard(path)?;
    shard
        .header
        .check(expected)
        .map_err(|e| ShardError::new(path, e))?;
    Ok(shard)
}

/// The shards in `dir` (files ending in `.hdxshard`, temporary files of
/// writers skipped), sorted by name.
pub fn list_shards(dir: &Path) -> Result<Vec<PathBuf>, ShardError> {
    let mut paths = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| ShardError::new(dir, e))? {
        let entry = entry.map_err(|e| ShardError::new(dir, e))?;
        let path = entry.path();
        if has_shard_name(&path).is_ok() && path.is_file() {
            paths.push(path);
        }
    }
    paths.sort();
    Ok(paths)
}
