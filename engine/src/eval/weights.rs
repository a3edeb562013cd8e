//! Which numbers an evaluation runs with, and those numbers as a flat
//! vector for the Texel tuner (`crate::tools::tune`).
//!
//! Each variant keeps two sets of its evaluation's numbers: the ones set by
//! hand from the rules' reasoning (`HAND`, the tuner's starting point and
//! what every result measured before tuning was played with) and the ones
//! the tuner found (`TUNED`, the default). A variant not yet tuned has one
//! set under both names. Keeping both makes the gain of tuning measurable
//! in one arena (`ab@N` against `ab@N/hand`) and the older measurements
//! reproducible. The choice is a per-engine setting read at every
//! evaluation: one predictable branch, and each set is a constant the
//! compiler folds.
//!
//! Only the evaluation's numbers move. Move ordering, static exchange,
//! quiescence's gains and the greedy player's material keep the hand
//! values: they are yardsticks, and a baseline that moved with every
//! tuning run would not be one.

use std::fmt;
use std::str::FromStr;

use heterodox_env::Role;
use serde::{Deserialize, Serialize};

use super::fide::{s, RoleInfo, RoleTable, Shape, Taper};

/// Which of a variant's two sets of evaluation numbers an engine uses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalWeights {
    /// The tuner's numbers (docs/engine.md, "Tuning").
    #[default]
    Tuned,
    /// The numbers set by hand, before tuning.
    Hand,
}

impl EvalWeights {
    /// `hand` or `tuned`, as chosen.
    #[inline(always)]
    pub(crate) fn pick<'w, W>(self, hand: &'w W, tuned: &'w W) -> &'w W {
        match self {
            EvalWeights::Tuned => tuned,
            EvalWeights::Hand => hand,
        }
    }
}

impl fmt::Display for EvalWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalWeights::Tuned => "tuned",
            EvalWeights::Hand => "hand",
        })
    }
}

/// A name that is neither `tuned` nor `hand`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation weights '{0}' (tuned or hand)")]
pub struct UnknownWeights(pub String);

impl FromStr for EvalWeights {
    type Err = UnknownWeights;

    fn from_str(text: &str) -> Result<EvalWeights, UnknownWeights> {
        match text {
            "tuned" => Ok(EvalWeights::Tuned),
            "hand" => Ok(EvalWeights::Hand),
            _ => Err(UnknownWeights(text.to_owned())),
        }
    }
}

/// Which evaluation an engine agent plays with: the learned one (the
/// shipped net of its rule set, where one exists; the tuned classical
/// evaluation elsewhere) or a classical one by its numbers. Agent strings
/// spell it after the budget: `ab@8` learned, `ab@8/classical` (also
/// `/tuned`) the tuned classical, `ab@8/hand` the hand-set numbers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    #[default]
    Learned,
    Classical(EvalWeights),
}

impl Evaluation {
    /// The classical numbers the engine is configured with (the tuned
    /// ones for a learned evaluation, which uses them where no net
    /// exists).
    pub fn weights(self) -> EvalWeights {
        match self {
            Evaluation::Learned => EvalWeights::Tuned,
            Evaluation::Classical(weights) => weights,
        }
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Evaluation::Learned => "learned",
            Evaluation::Classical(EvalWeights::Tuned) => "classical",
            Evaluation::Classical(EvalWeights::Hand) => "hand",
        })
    }
}

/// A name that is no evaluation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown evaluation '{0}' (learned, classical or hand)")]
pub struct UnknownEvaluation(pub String);

impl FromStr for Evaluation {
    type Err = UnknownEvaluation;

    fn from_str(text: &str) -> Result<Evaluation, UnknownEvaluation> {
        match text {
            "learned" => Ok(Evaluation::Learned),
            "classical" | "tuned" => Ok(Evaluation::Classical(EvalWeights::Tuned)),
            "hand" => Ok(Evaluation::Classical(EvalWeights::Hand)),
            _ => Err(UnknownEvaluation(text.to_owned())),
        }
    }
}

/// A set of evaluation numbers seen as a vector of integers: what the
/// tuner moves. `with_vector` keeps everything the vector does not name
/// (shapes, phase weights) from `self`.
pub(crate) trait ParameterVector: Copy + Send + Sync + 'static {
    /// One name per entry, e.g. `value.knight.mg`.
    fn names(&self) -> Vec<String>;
    fn to_vector(&self) -> Vec<i32>;
    /// `self` with the entries of `vector` (as long as `names`).
    fn with_vector(&self, vector: &[i32]) -> Self;
}

/// What the tuner asks of a variant: the numbers its evaluation reads
/// ([`super::Knowledge::evaluate`] takes them as an argument), as set by
/// hand and as tuned. The search picks one of the two
/// ([`EvalWeights::pick`]); the tuner starts from the hand-set ones and
/// evaluates with numbers of its own.
pub(crate) trait Tuning {
    /// The evaluation's numbers the tuner may move; `()` for a variant
    /// whose evaluation is not tuned.
    type Weights: ParameterVector;
    /// The numbers set by hand: the tuner's starting point.
    const HAND: Self::Weights;
    /// The numbers the tuner found (docs/engine.md, "Tuning").
    const TUNED: Self::Weights;
}

/// A variant whose evaluation is not tuned: nothing to move.
impl ParameterVector for () {
    fn names(&self) -> Vec<String> {
        Vec::new()
    }

    fn to_vector(&self) -> Vec<i32> {
        Vec::new()
    }

    fn with_vector(&self, _vector: &[i32]) {}
}

/// Whether a role table row has a tunable value (a role of the variant
/// other than the King) and tunable mobility weights (a role that counts
/// mobility: its offset is positive). Decided by the row's structure, not
/// its numbers, so a weight the tuner moves to 0 keeps its place.
fn tunable(info: &RoleInfo) -> (bool, bool) {
    let present = match info.shape {
        Shape::King => false,
        // `NO_ROLE` has the pawn's shape and no value.
        Shape::Pawn => info.value != Taper::ZERO,
        _ => true,
    };
    (present, present && info.mobility_zero > 0)
}

/// A role table's tunable entries: the value of every role of the variant
/// but the King (middlegame and endgame) and the mobility weights of every
/// role that counts mobility. Shapes, phase weights, the mobility offsets
/// and the king-attack weights stay.
impl ParameterVector for RoleTable {
    fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for role in Role::ALL {
            let (value, mobility) = tunable(&self[role.index()]);
            let name = format!("{role:?}").to_lowercase();
            for (tuned, term) in [(value, "value"), (mobility, "mobility")] {
                if tuned {
                    names.push(format!("{term}.{name}.mg"));
                    names.push(format!("{term}.{name}.eg"));
                }
            }
        }
        names
    }

    fn to_vector(&self) -> Vec<i32> {
        let mut vector = Vec::new();
        for role in Role::ALL {
            let info = &self[role.index()];
            let (value, mobility) = tunable(info);
            for (tuned, taper) in [(value, info.value), (mobility, info.mobility)] {
                if tuned {
                    vector.extend([taper.mg, taper.eg]);
                }
            }
        }
        vector
    }

    fn with_vector(&self, vector: &[i32]) -> RoleTable {
        let mut table = *self;
        let mut reader = VectorReader::new(vector);
        for role in Role::ALL {
            let info = &mut table[role.index()];
            let (value, mobility) = tunable(info);
            if value {
                info.value = reader.taper();
            }
            if mobility {
                info.mobility = reader.taper();
            }
        }
        table
    }
}

/// The names of the two halves of a [`Taper`]: `NAME.mg`, `NAME.eg`.
pub(crate) fn taper_names(name: &str) -> [String; 2] {
    [format!("{name}.mg"), format!("{name}.eg")]
}

/// Reads a vector back in the order it was pushed.
pub(crate) struct VectorReader<'v> {
    rest: &'v [i32],
}

impl<'v> VectorReader<'v> {
    pub fn new(vector: &'v [i32]) -> VectorReader<'v> {
        VectorReader { rest: vector }
    }

    /// The next `n` entries.
    pub fn take(&mut self, n: usize) -> &'v [i32] {
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        head
    }

    pub fn one(&mut self) -> i32 {
        self.take(1)[0]
    }

    pub fn taper(&mut self) -> Taper {
        let pair = self.take(2);
        s(pair[0], pair[1])
    }

    /// The next entries as a set of numbers of `like`'s kind (a variant's
    /// role table inside its own weights): as many as `like`'s vector has,
    /// with what no entry names kept from `like`.
    pub fn weights<W: ParameterVector>(&mut self, like: &W) -> W {
        let entries = like.to_vector().len();
        like.with_vector(self.take(entries))
    }
}

/// Checks that `weights` has `len` names and as many entries, and that
/// its vector, as is and with every entry moved by `shift`, comes back
/// unchanged through `with_vector`; returns the names and the vector for
/// the variant's own checks.
#[cfg(test)]
pub(crate) fn assert_round_trip<W: ParameterVector>(
    weights: &W,
    len: usize,
    shift: i32,
) -> (Vec<String>, Vec<i32>) {
    let names = weights.names();
    let vector = weights.to_vector();
    assert_eq!(names.len(), len);
    assert_eq!(vector.len(), len);
    let moved: Vec<i32> = vector.iter().map(|v| v + shift).collect();
    assert_eq!(weights.with_vector(&moved).to_vector(), moved);
    assert_eq!(weights.with_vector(&vector).to_vector(), vector);
    (names, vector)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::chess::ROLES;

    #[test]
    fn weights_parse_and_print() {
        assert_eq!("hand".parse::<EvalWeights>(), Ok(EvalWeights::Hand));
        assert_eq!("tuned".parse::<EvalWeights>(), Ok(EvalWeights::Tuned));
        assert_eq!(
            "best".parse::<EvalWeights>().unwrap_err().to_string(),
            "unknown evaluation weights 'best' (tuned or hand)"
        );
        assert_eq!(EvalWeights::default().to_string(), "tuned");
        assert_eq!(*EvalWeights::Hand.pick(&1, &2), 1);
        assert_eq!(*EvalWeights::Tuned.pick(&1, &2), 2);
    }

    #[test]
    fn a_role_table_round_trips_through_its_vector() {
        // Five valued roles and four with mobility, two numbers each.
        let (names, vector) = assert_round_trip(&ROLES, 18, 1);
        assert_eq!(
            &names[..4],
            [
                "value.pawn.mg",
                "value.pawn.eg",
                "value.knight.mg",
                "value.knight.eg"
            ]
        );
        assert_eq!(names[4], "mobility.knight.mg");
        let moved: Vec<i32> = vector.iter().map(|v| v + 1).collect();
        let table = ROLES.with_vector(&moved);
        assert_eq!(
            table[1].value,
            s(ROLES[1].value.mg + 1, ROLES[1].value.eg + 1)
        );
        assert_eq!(table[1].mobility_zero, ROLES[1].mobility_zero);
    }
}
