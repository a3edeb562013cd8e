//! Training positions for a net, from teacher shards
//! ([`crate::tools::teach`]): every labelled quiet step of every game replayed
//! (not in check, the move played not noisy: the value-only teacher plays
//! its best move, so these are the positions whose score a static
//! evaluation can know), with both perspectives' features, the engine's
//! value and the game's result, each from the side to act's point of view. The trainer
//! (`heterodox nnue train`, training/) and Python (`heterodox.nnue_data`)
//! read the same arrays, so a notebook trains the same net.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use heterodox_data::replay::replay;
use heterodox_data::shard::{list_shards, read_shard};
use heterodox_env::{GameVariant, Variant, VariantVisitor};

use super::features::{FeatureList, FeatureSet};
use super::network::{rules_string, NnueError};

/// Positions as flat arrays: position `i`'s side-to-act features are
/// `features[offsets[2i]..offsets[2i + 1]]`, its opponent's
/// `features[offsets[2i + 1]..offsets[2i + 2]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct NnueData {
    pub variant: Variant,
    /// The rule settings, as a net file names them.
    pub rules: String,
    pub feature_set: FeatureSet,
    pub encoding_version: u32,
    pub features: Vec<u16>,
    pub offsets: Vec<u64>,
    /// The engine's root value, `tanh(cp / 400)`, for the side to act.
    pub values: Vec<f32>,
    /// The game's result for the side to act: 1, 0 (draw) or -1.
    pub results: Vec<f32>,
    /// The game each position comes from (for a held-out split by game).
    pub games: Vec<u32>,
    /// The tuned classical evaluation of each position, centipawns for the
    /// side to act: the base a net trained on top of it adds to
    /// ([`super::network::Base::Classical`]).
    pub classical: Vec<f32>,
    /// Labelled positions left out: in check, or with a noisy best move
    /// (a capture, a promotion, a poisoning, a drop that wins material).
    pub skipped: u64,
}

impl NnueData {
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Position `i`'s features: the side to act's, then the opponent's.
    pub fn position(&self, i: usize) -> (&[u16], &[u16]) {
        let at = |k: usize| self.offsets[k] as usize;
        (
            &self.features[at(2 * i)..at(2 * i + 1)],
            &self.features[at(2 * i + 1)..at(2 * i + 2)],
        )
    }
}

/// Reads every shard of a teacher directory (at most `max_positions`
/// positions, in shard order), replaying each game through the rules.
pub fn read_teach_data(dir: &Path, max_positions: Option<usize>) -> Result<NnueData, NnueError> {
    let file_error = |path: &Path, message: String| NnueError::File {
        path: path.to_owned(),
        message,
    };
    let paths = list_shards(dir).map_err(|e| file_error(dir, e.to_string()))?;
    let first = paths
        .first()
        .ok_or_else(|| file_error(dir, "no teacher shards (*.hdxshard)".to_owned()))?;
    let header = read_shard(first)
        .map_err(|e| file_error(first, e.to_string()))?
        .header;
    let variant = header
        .variant()
        .map_err(|e| file_error(first, e.to_string()))?;
    variant.visit(ReadData {
        paths,
        header,
        max_positions: max_positions.unwrap_or(usize::MAX),
    })
}

struct ReadData {
    paths: Vec<PathBuf>,
    header: heterodox_data::shard::ShardHeader,
    max_positions: usize,
}

/// One shard's positions, before they are joined.
#[derive(Default)]
struct Part {
    features: Vec<u16>,
    lengths: Vec<u32>,
    values: Vec<f32>,
    results: Vec<f32>,
    games: Vec<u32>,
    classical: Vec<f32>,
    skipped: u64,
}

impl VariantVisitor for ReadData {
    type Output = Result<NnueData, NnueError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let file_error = |path: &Path, message: String| NnueError::File {
            path: path.to_owned(),
            message,
        };
        let first = &self.paths[0];
        let rules = self
            .header
            .rules::<P>()
            .map_err(|e| file_error(first, e.to_string()))?;
        let feature_set = crate::nnue::features::set_of::<P>()
            .ok_or(NnueError::NoFeatureSet(P::VARIANT.name()))?;
        let parts: Vec<Result<Part, NnueError>> =
            self.paths
                .par_iter()
                .map(|path| {
                    let shard = read_shard(path).map_err(|e| file_error(path, e.to_string()))?;
                    if shard.header.options != self.header.options
                        || shard.header.variant != self.header.variant
                    {
                        return Err(file_error(
                            path,
                            format!(
                                "holds {} games, the directory's first shard {}",
                                shard.header.summary(),
                                self.header.summary()
                            ),
                        ));
                    }
                    let mut part = Part::default();
                    let mut list = FeatureList::default();
                    for (g, record) in shard.games.iter().enumerate() {
                        replay::<P>(record, &rules, g, |step| {
                            if record.steps[step.step].policy.is_empty() {
                                return;
                            }
                            let pos = step.game.position();
                            // The search reads the evaluation at quiet nodes
                            // only (quiescence resolves the rest): a position
                            // in check or whose best move is noisy teaches the
                            // net the value of a tactic it will never be asked.
                            if crate::eval::in_check(pos)
                                || crate::eval::noisy(pos, &step.action).is_some()
                            {
                                part.skipped += 1;
                                return;
                            }
                            let us = pos.turn();
                            for perspective in [us, !us] {
                                list.clear();
                                crate::nnue::features::active(pos, perspective, us, &mut list);
                                part.features.extend_from_slice(list.as_slice());
                                part.lengths.push(list.len() as u32);
                            }
                            part.values.push(record.steps[step.step].root_value);
                            part.results.push(record.result.value_for(us));
                            part.games.push(g as u32);
                            part.classical
                                .push(crate::eval::evaluate(pos, crate::eval::EvalWeights::Tuned)
                                    as f32);
                        })
                        .map_err(|e| file_error(path, e.to_string()))?;
                    }
                    Ok(part)
                })
                .collect();
        let mut data = NnueData {
            variant: P::VARIANT,
            rules: rules_string::<P>(&rules),
            feature_set,
            encoding_version: P::ENCODING_VERSION,
            features: Vec::new(),
            offsets: vec![0],
            values: Vec::new(),
            results: Vec::new(),
            games: Vec::new(),
            classical: Vec::new(),
            skipped: 0,
        };
        let mut game_base = 0u32;
        for part in parts {
            let part = part?;
            data.skipped += part.skipped;
            let mut at = 0usize;
            for (i, pair) in part.lengths.chunks_exact(2).enumerate() {
                if data.len() >= self.max_positions {
                    return Ok(data);
                }
                let n = (pair[0] + pair[1]) as usize;
                data.features.extend_from_slice(&part.features[at..at + n]);
                at += n;
                let end = data.features.len() as u64;
                data.offsets.push(end - u64::from(pair[1]));
                data.offsets.push(end);
                data.values.push(part.values[i]);
                data.results.push(part.results[i]);
                data.games.push(game_base + part.games[i]);
                data.classical.push(part.classical[i]);
            }
            game_base += part.games.last().map_or(0, |g| g + 1);
        }
        Ok(data)
    }
}
