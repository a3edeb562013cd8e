//! [`SearchGroup`]: the loop every multi-game driver shares. N searches,
//! each with its own leaf batch; a round gathers the leaves of every
//! search that takes part (in parallel, rayon), merges them into one
//! batch, hands it to an evaluator and splits the priors and values back.
//! Self-play workers (one group), duels (one group per side), Python's
//! `Search` (one group) and the trainer's evaluation games (duels) drive
//! their searches through it, so the network always sees the leaves of
//! every game at once.
//!
//! The caller keeps its games beside the group (search `k` is game `k`'s)
//! and decides per round which searches take part: a self-play game in
//! progress, a duel game whose mover is this side, an unfinished game in
//! Python. It starts, reads and advances the searches in the round's own
//! parallel pass, zipped with its games ([`SearchGroup::gather_with`]: the
//! self-play workers), or between rounds ([`SearchGroup::searches_mut`]).
//!
//! **Empty rounds.** A search whose every descent of a round ends in a
//! finished game adds no leaf and finishes ([`Search::gather`]); a round
//! in which some searches add nothing is normal (they are simply not
//! applied), and a round in which none adds anything has finished every
//! search that took part: [`SearchGroup::gather`] returns 0 only then.
//! The empty round needs no evaluation; applying it (empty slices) is
//! accepted, so a caller's loop needs no special case.

use std::ops::Range;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::GameVariant;
use rayon::prelude::*;

use crate::batch::LeafBatch;
use crate::config::SearchConfig;
use crate::evaluator::{evaluate_into, Evaluator};
use crate::search::{Search, SearchError};

/// N searches evaluated together. See the module docs.
pub struct SearchGroup<P: GameVariant> {
    searches: Vec<Search<P>>,
    /// Search `k`'s leaves of the current round.
    batches: Vec<LeafBatch<P>>,
    /// Every search's leaves of the round, back to back.
    merged: LeafBatch<P>,
    /// Search `k`'s leaves are `merged` leaves `starts[k].0..starts[k + 1].0`
    /// and its priors `starts[k].1..starts[k + 1].1`.
    starts: Vec<(usize, usize)>,
    /// Reused evaluation buffers.
    priors: Vec<f32>,
    values: Vec<f32>,
    observations: bool,
    /// A round was gathered and not yet applied.
    gathered: bool,
}

impl<P: GameVariant> SearchGroup<P> {
    /// `count` searches with `config`, for positions encoded as `spec`
    /// says; leaves carry observations until
    /// [`SearchGroup::set_observations`] turns them off.
    pub fn new(
        config: &SearchConfig,
        spec: &EncodingSpec,
        count: usize,
    ) -> Result<SearchGroup<P>, SearchError> {
        // The settings are checked even for a group of none.
        let first = Search::new(config.clone(), spec)?;
        let mut searches = Vec::with_capacity(count);
        searches.extend((count > 0).then_some(first));
        for _ in 1..count {
            searches.push(Search::new(config.clone(), spec)?);
        }
        Ok(SearchGroup {
            searches,
            batches: (0..count).map(|_| LeafBatch::new(spec)).collect(),
            merged: LeafBatch::new(spec),
            starts: Vec::with_capacity(count + 1),
            priors: Vec::new(),
            values: Vec::new(),
            observations: true,
            gathered: false,
        })
    }

    pub fn len(&self) -> usize {
        self.searches.len()
    }

    pub fn is_empty(&self) -> bool {
        self.searches.is_empty()
    }

    pub fn search(&self, k: usize) -> &Search<P> {
        &self.searches[k]
    }

    pub fn search_mut(&mut self, k: usize) -> &mut Search<P> {
        &mut self.searches[k]
    }

    /// Every search, for a caller's pass over its games (start, result,
    /// advance). Not while a round awaits its evaluations: a search
    /// restarted then would be handed another's leaves' results.
    pub fn searches_mut(&mut self) -> &mut [Search<P>] {
        &mut self.searches
    }

    /// Whether leaves carry observations: an evaluator that does not read
    /// them ([`Evaluator::needs_observations`]) spares the encoding. Takes
    /// effect between rounds: a round whose leaves await their
    /// evaluations keeps them as gathered.
    pub fn set_observations(&mut self, on: bool) {
        if on != self.observations && !self.awaiting() {
            self.observations = on;
            self.merged.set_observations(on);
            for batch in &mut self.batches {
                batch.set_observations(on);
            }
        }
    }

    /// Whether a gathered round's leaves await [`SearchGroup::apply`] (an
    /// empty round awaits nothing).
    pub fn awaiting(&self) -> bool {
        self.gathered && !self.merged.is_empty()
    }

    /// Whether a round was gathered and not yet applied, the empty round
    /// included: what [`SearchGroup::apply`] accepts.
    pub fn round_open(&self) -> bool {
        self.gathered
    }

    /// One round: every search for which `takes_part(k)` holds and that is
    /// not done gathers its leaves (in parallel), and they are merged in
    /// search order ([`SearchGroup::batch`]). Returns the number of leaves;
    /// 0 only when every search that took part is done (see the module
    /// docs). Refused while the last round's leaves await their
    /// evaluations.
    pub fn gather(
        &mut self,
        takes_part: impl Fn(usize) -> bool + Sync,
    ) -> Result<usize, SearchError> {
        // Zero-sized games: no allocation.
        let mut none = vec![(); self.searches.len()];
        let (leaves, _) = self.gather_with(&mut none, |k, _, _| (takes_part(k), ()))?;
        Ok(leaves)
    }

    /// One round in one parallel pass over the searches zipped with the
    /// caller's `games` (one each): `prepare(k, game, search)` first does
    /// the caller's work for that game (plays the move a finished search
    /// chose, starts the next search) and returns whether the search takes
    /// part in this round and what the caller wants back; those that take
    /// part and are not done then gather, and the leaves are merged as by
    /// [`SearchGroup::gather`]. Returns the number of leaves and the
    /// answers, in search order.
    pub fn gather_with<G: Send, R: Send>(
        &mut self,
        games: &mut [G],
        prepare: impl Fn(usize, &mut G, &mut Search<P>) -> (bool, R) + Sync,
    ) -> Result<(usize, Vec<R>), SearchError> {
        if self.awaiting() {
            return Err(SearchError::Unapplied {
                leaves: self.merged.len(),
            });
        }
        assert_eq!(games.len(), self.searches.len(), "one game per search");
        let answers = self
            .searches
            .par_iter_mut()
            .zip(self.batches.par_iter_mut())
            .zip(games.par_iter_mut())
            .enumerate()
            .map(|(k, ((search, batch), game))| {
                batch.clear();
                let (takes_part, answer) = prepare(k, game, search);
                if takes_part && !search.is_done() {
                    search.gather(batch);
                }
                answer
            })
            .collect();
        self.merged.clear();
        self.starts.clear();
        for batch in &self.batches {
            self.starts
                .push((self.merged.len(), self.merged.total_legal()));
            self.merged.extend_from(batch);
        }
        self.starts
            .push((self.merged.len(), self.merged.total_legal()));
        self.gathered = true;
        Ok((self.merged.len(), answers))
    }

    /// The leaves of the last round, every search's back to back.
    pub fn batch(&self) -> &LeafBatch<P> {
        &self.merged
    }

    /// Where search `k`'s leaves of the last round sit in
    /// [`SearchGroup::batch`] (empty if it took no part or added none).
    pub fn leaves_of(&self, k: usize) -> Range<usize> {
        match (self.starts.get(k), self.starts.get(k + 1)) {
            (Some(&(start, _)), Some(&(end, _))) if self.gathered => start..end,
            _ => 0..0,
        }
    }

    /// Takes the evaluations of the last round's leaves (`priors` one per
    /// legal action of each leaf, back to back, `values` one per leaf, as
    /// [`Evaluator::evaluate`] fills them) and hands each search its own
    /// (in parallel). Evaluations of the wrong length are refused and
    /// change nothing, as is an apply without a gathered round; the empty
    /// round takes empty slices.
    pub fn apply(&mut self, priors: &[f32], values: &[f32]) -> Result<(), SearchError> {
        if !self.gathered {
            return Err(SearchError::NothingGathered);
        }
        if values.len() != self.merged.len() || priors.len() != self.merged.total_legal() {
            return Err(SearchError::EvaluationShape {
                leaves: self.merged.len(),
                priors: self.merged.total_legal(),
                found_values: values.len(),
                found_priors: priors.len(),
            });
        }
        let split: Result<(), SearchError> = self
            .searches
            .par_iter_mut()
            .zip(self.starts.par_windows(2))
            .try_for_each(|(search, window)| {
                let ((leaf, legal), (leaf_end, legal_end)) = (window[0], window[1]);
                if leaf == leaf_end {
                    // Took no part, or every descent ended in a finished
                    // game: nothing awaits.
                    return Ok(());
                }
                search.apply(&priors[legal..legal_end], &values[leaf..leaf_end])
            });
        self.gathered = false;
        split
    }

    /// Evaluates the last round's leaves with `evaluator` (an empty round
    /// is not sent) and applies them.
    pub fn evaluate<E: Evaluator<P> + ?Sized>(&mut self, evaluator: &E) {
        if !self.gathered {
            return;
        }
        let (mut priors, mut values) = (
            std::mem::take(&mut self.priors),
            std::mem::take(&mut self.values),
        );
        evaluate_into(evaluator, &self.merged, &mut priors, &mut values);
        self.apply(&priors, &values)
            .expect("the merged batch's evaluations split back by construction");
        (self.priors, self.values) = (priors, values);
    }

    /// Runs every search for which `takes_part(k)` holds to its end with
    /// `evaluator`, one merged batch per round.
    pub fn run<E: Evaluator<P> + ?Sized>(
        &mut self,
        evaluator: &E,
        takes_part: impl Fn(usize) -> bool + Sync,
    ) -> Result<(), SearchError> {
        self.set_observations(evaluator.needs_observations());
        while self.gather(&takes_part)? > 0 {
            self.evaluate(evaluator);
        }
        // The round that gathered nothing needs no evaluation.
        self.gathered = false;
        Ok(())
    }
}
