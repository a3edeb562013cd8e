//! [`Engine`]: a transposition table, the search state and a
//! configuration, reused from move to move of a game.

use std::sync::Arc;
use std::time::Duration;

use heterodox_env::rng::derive_seed;
use heterodox_env::{Game, GameVariant};

use crate::hidden::beliefs::{BeliefReport, Beliefs, BELIEF_DEPTH};
use crate::hidden::selection::{self, RootStrategy};
use crate::hidden::threats::ThreatCounts;
use crate::nnue::{Accumulators, Network, NnueError};
use crate::search::config::EngineConfig;
use crate::search::driver::{self, Info, Reading, RootScore, SearchReport};
use crate::search::error::EngineError;
use crate::search::limits::{validate_multipv, Limits};
use crate::search::score::{Score, INFINITE, MAX_PLY, RESULT_SCALE_CP};
use crate::search::tt::TranspositionTable;
use crate::search::{static_evaluation, SearchState};

/// An alpha-beta engine for the variant `P`. `Send`, so arenas can keep
/// one per game slot on a thread pool.
pub struct Engine<P: GameVariant> {
    config: EngineConfig,
    tt: TranspositionTable,
    main: SearchState<P::Action>,
    helpers: Vec<SearchState<P::Action>>,
    /// Principal variations a search reports ([`Engine::set_multipv`]).
    multipv: usize,
    /// Where it covers a position, the engine draws from it instead of
    /// searching ([`Engine::set_root_strategy`]).
    root_strategy: Option<Arc<dyn RootStrategy<P>>>,
    /// The posterior over the opponent's secret through the current game.
    beliefs: Beliefs<P>,
}

impl<P: GameVariant> std::fmt::Debug for Engine<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("variant", &P::VARIANT)
            .field("config", &self.config)
            .field("multipv", &self.multipv)
            .field(
                "network",
                &self.network().map(|net| net.header.producer.clone()),
            )
            .finish()
    }
}

impl<P: GameVariant> Engine<P> {
    /// Allocates the table and the search buffers once.
    pub fn new(config: EngineConfig) -> Result<Engine<P>, EngineError> {
        config.validate()?;
        let tt = TranspositionTable::new(config.hash_mib)?;
        Ok(Engine {
            config,
            tt,
            main: SearchState::new(),
            helpers: (1..config.threads).map(|_| SearchState::new()).collect(),
            multipv: 1,
            root_strategy: None,
            beliefs: Beliefs::default(),
        })
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Gives the engine a transposition table of `mib` MiB (a UCI `Hash`
    /// setting), empty. A size out of range or an allocation that fails is
    /// refused and the old table kept, with what it knows; asking for the
    /// size the table has already keeps it as it is.
    pub fn set_hash_mib(&mut self, mib: u64) -> Result<(), EngineError> {
        if mib == self.config.hash_mib {
            return Ok(());
        }
        self.tt = TranspositionTable::new(mib)?;
        self.config.hash_mib = mib;
        Ok(())
    }

    /// Evaluates with the learned evaluation `net` from the next search on
    /// (`None`: the classical evaluation of [`EngineConfig::weights`]).
    /// A net for another variant or feature set is refused (its rule set
    /// is checked where it is read: [`Network::load_for`]).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) -> Result<(), NnueError> {
        if let Some(net) = &net {
            check_network::<P>(net)?;
        }
        let accumulators = |net: &Arc<Network>| Accumulators::new(Arc::clone(net), MAX_PLY + 1);
        self.main.nnue = net.as_ref().map(accumulators);
        for helper in &mut self.helpers {
            helper.nnue = net.as_ref().map(accumulators);
        }
        Ok(())
    }

    /// The static evaluation of `pos` in centipawns for its player to act
    /// (no search): the net's when the engine has one, else the classical
    /// evaluation's. Reads only `pos`; under hidden information a
    /// hidden-information feature set reads what its player to act may
    /// know.
    pub fn evaluate(&mut self, pos: &P) -> i32 {
        if let Some(nnue) = &mut self.main.nnue {
            // No parent frame: the net reads the position from scratch.
            nnue.clear();
        }
        let nnue = self.main.nnue.as_mut();
        static_evaluation(nnue, pos, pos.turn(), 0, self.config.weights)
    }

    /// What the threat guard did over this engine's searches (hidden
    /// information: [`crate::hidden::threats`]).
    pub fn threat_counts(&self) -> ThreatCounts {
        self.main.threats
    }

    /// The learned evaluation's net, when the engine has one.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.main.nnue.as_ref().map(Accumulators::network)
    }

    /// How many principal variations the next searches report (UCI's
    /// `MultiPV`): 1 to [`crate::MAX_MULTIPV`], fewer when the root has
    /// fewer actions; out of range is refused and the setting kept. Each
    /// line is the best root action once the better lines' actions are
    /// left out, with its own exact score and principal variation
    /// ([`Info::lines`], [`SearchReport::lines`]); each costs a root search
    /// per iteration, so `n` lines take about `n` times as long. One line
    /// (the default) is the plain search, node for node. The exact scores
    /// of [`Engine::score_root_moves`] do not depend on it.
    pub fn set_multipv(&mut self, lines: usize) -> Result<(), EngineError> {
        validate_multipv(lines)?;
        self.multipv = lines;
        Ok(())
    }

    /// The principal variations a search reports.
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Forgets everything learnt (table, history, killers): the next
    /// search behaves as a fresh engine's.
    pub fn new_game(&mut self) {
        self.beliefs.clear();
        self.tt.clear();
        self.main.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// Searches the game's position for its player to act within
    /// `limits`, calling `on_iteration` after each completed iteration
    /// with the best [`Engine::multipv`] lines. Under hidden information
    /// only that player's view is read.
    pub fn search(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
        on_iteration: impl FnMut(&Info<P::Action>),
    ) -> Result<SearchReport<P::Action>, EngineError> {
        let believe = self.config.beliefs && !P::PERFECT_INFORMATION && game.outcome().is_none();
        if believe {
            self.update_beliefs(game.position());
        }
        let report = match self.drawn_from_strategy(game)? {
            Some(report) => report,
            None => {
                let multipv = self.multipv;
                let posterior = believe
                    .then(|| self.beliefs.probabilities(game.position()))
                    .flatten();
                let mut parts = self.parts();
                parts.posterior = posterior.as_deref();
                driver::run(
                    parts,
                    game,
                    limits,
                    false,
                    INFINITE,
                    multipv,
                    Reading::View,
                    on_iteration,
                )?
                .0
            }
        };
        if believe {
            self.beliefs.played(report.best);
        }
        Ok(report)
    }

    /// Weighs the opponent's steps since this engine's player last acted
    /// into its posterior over the opponent's secret
    /// ([`crate::hidden::beliefs`]; [`Engine::search`] does it itself).
    /// For a game the engine did not play (an analysis), call it at each
    /// position where the player acts, and [`Engine::played`] with the
    /// step taken there.
    pub fn update_beliefs(&mut self, position: &P) {
        let mut beliefs = std::mem::take(&mut self.beliefs);
        beliefs.update(position, |state| self.score_steps(state));
        self.beliefs = beliefs;
    }

    /// Every legal step of a full state with its exact score for the
    /// state's player to act at [`BELIEF_DEPTH`], the whole state read:
    /// the beliefs' move model. None when the game is over.
    pub(crate) fn score_steps(&mut self, state: &P) -> Vec<(P::Action, i32)> {
        let game = Game::new(state.clone());
        let limits = Limits::depth(BELIEF_DEPTH);
        match driver::run(
            self.parts(),
            &game,
            &limits,
            true,
            INFINITE,
            1,
            Reading::Everything,
            |_| {},
        ) {
            Ok((_, scores)) => scores.into_iter().map(|s| (s.action, s.value)).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Tells the engine which step its player took at the position last
    /// given to [`Engine::update_beliefs`] (a search records its own
    /// choice; call this when another step was played).
    pub fn played(&mut self, action: P::Action) {
        self.beliefs.played(action);
    }

    /// The posterior's probabilities over the states consistent with the
    /// view of `position`'s player to act, in the order of that view's
    /// [`heterodox_env::StateSampler`]; `None` unless the position last
    /// searched or given to [`Engine::update_beliefs`] had that view. A
    /// tree search draws its roots from it (heterodox-selfplay).
    pub fn posterior(&self, position: &P) -> Option<Vec<f64>> {
        self.beliefs.probabilities(position)
    }

    /// The posterior over the opponent's secret at the position last
    /// searched or given to [`Engine::update_beliefs`]; `None` before any
    /// and with perfect information.
    pub fn beliefs(&self) -> Option<BeliefReport> {
        if P::PERFECT_INFORMATION {
            return None;
        }
        self.beliefs.report()
    }

    /// Chooses from a precomputed mixed strategy where it covers the
    /// position (Traitor's secret selection, [`crate::hidden::selection`])
    /// instead of searching. `None` (the default): the strategy shipped for
    /// the position's rules where there is one and
    /// [`EngineConfig::selection_strategy`] is on.
    pub fn set_root_strategy(&mut self, strategy: Option<Arc<dyn RootStrategy<P>>>) {
        self.root_strategy = strategy;
    }

    /// The root strategy's draw for the game's position, seeded by the
    /// engine's seed and the game's ply count, as a search report.
    fn drawn_from_strategy(
        &self,
        game: &Game<P>,
    ) -> Result<Option<SearchReport<P::Action>>, EngineError> {
        let shipped;
        let strategy: &dyn RootStrategy<P> = match &self.root_strategy {
            Some(strategy) => strategy.as_ref(),
            None if self.config.selection_strategy && !P::PERFECT_INFORMATION => {
                shipped = selection::shipped::<P>(&game.position().rules());
                match &shipped {
                    Some(strategy) => strategy.as_ref(),
                    None => return Ok(None),
                }
            }
            None => return Ok(None),
        };
        if let Some(outcome) = game.outcome() {
            return Err(EngineError::GameOver(outcome.to_string()));
        }
        let seed = derive_seed(self.config.seed, game.plies() as usize, 1);
        let Some((action, expected)) = strategy.choose(game.position(), seed) else {
            return Ok(None);
        };
        // The expected score as centipawns on the engine's result scale
        // (`Score::expected_result`'s inverse, short of a mate).
        let result = (2.0 * expected - 1.0).clamp(-0.999, 0.999);
        let value = (f64::from(RESULT_SCALE_CP) * result.atanh()).round() as i32;
        let score = Score::Cp(value);
        let line = RootScore {
            action,
            score,
            value,
            pv: vec![action],
        };
        Ok(Some(SearchReport {
            best: action,
            score,
            value,
            pv: vec![action],
            lines: vec![line],
            nodes: 0,
            depth: 1,
            seldepth: 0,
            elapsed: Duration::ZERO,
        }))
    }

    /// A search of the whole state, hidden parts included: the payoff of a
    /// position whose secrets are all given (the selection matrix), never
    /// a player's move.
    pub(crate) fn search_knowing_everything(
        &mut self,
        game: &Game<P>,
        limits: &Limits,
    ) -> Result<SearchReport<P::Action>, EngineError> {
        driver::run(
            self.parts(),
            game,
            limits,
            false,
            INFINITE,
            1,
            Reading::Everything,
            |_| {},
        )
        .map(|(report, _)| report)
    }

    /// Every legal action with its exact score at `depth` (each searched
    /// with the full window), best first: policy targets for a network,
    /// and "top moves" displays. Under hidden information, averaged over
    /// the determinizations.
    pub fn score_root_moves(
        &mut self,
        game: &Game<P>,
        depth: u32,
    ) -> Result<Vec<RootScore<P::Action>>, EngineError> {
        self.score_root_moves_within(game, depth, INFINITE)
    }

    /// [`Engine::score_root_moves`], exact only for the actions within
    /// `margin` centipawns of the best: the others get the bound of a
    /// null-window search at `margin` below it, a fraction of the cost of
    /// an exact score. For a softmax target at temperature `t` those
    /// weigh below `exp(-margin / t)` either way (alpha-beta's reductions
    /// make a search with another window disagree now and then, so this
    /// is close to the exact target, not equal: engine/tests/integration/teach.rs).
    pub fn score_root_moves_within(
        &mut self,
        game: &Game<P>,
        depth: u32,
        margin: i32,
    ) -> Result<Vec<RootScore<P::Action>>, EngineError> {
        let limits = Limits::depth(depth);
        driver::run(
            self.parts(),
            game,
            &limits,
            true,
            margin.max(1),
            1,
            Reading::View,
            |_| {},
        )
        .map(|(_, scores)| scores)
    }

    fn parts(&mut self) -> driver::Parts<'_, P> {
        driver::Parts {
            config: &self.config,
            tt: &mut self.tt,
            main: &mut self.main,
            helpers: &mut self.helpers,
            posterior: None,
        }
    }
}

/// Refuses a net made for another variant or feature set than `P`'s (its
/// rule set is checked where it is read: [`Network::load_for`]).
fn check_network<P: GameVariant>(net: &Network) -> Result<(), NnueError> {
    let features =
        crate::nnue::features::set_of::<P>().ok_or(NnueError::NoFeatureSet(P::VARIANT.name()))?;
    if net.header.variant != P::VARIANT.name() {
        return Err(NnueError::Mismatch {
            field: "variant",
            found: net.header.variant.clone(),
            expected: P::VARIANT.name().to_owned(),
        });
    }
    if net.header.feature_set != features.name || net.header.inputs != features.inputs {
        return Err(NnueError::Mismatch {
            field: "feature set",
            found: net.header.feature_set.clone(),
            expected: features.name.to_owned(),
        });
    }
    Ok(())
}

/// Compile-time check that an engine can move to another thread.
#[allow(dead_code)]
fn engine_is_send<P: GameVariant>(engine: Engine<P>) -> impl Send {
    engine
}
