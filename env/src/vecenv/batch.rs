//! [`BatchEnv`]: the object-safe face of [`VecEnv`] for code that picks the
//! variant at run time (Python, the CLI), and [`make_batch_env`], which
//! builds one through the one dispatch point, [`Variant::visit`].

use super::{EnvConfig, GameEnd, MakeEnvError, SplitMix64, StepError, VecEnv};
use crate::encoding::EncodingSpec;
use crate::{FenError, GameVariant, RuleOptions, Variant, VariantVisitor};

/// A [`VecEnv`] of any variant. Buffers are env-major and contiguous (see
/// the [`super`] module docs for the semantics). They are allocated once,
/// at construction, and never reallocated: the slices returned here keep
/// their addresses for the life of the env, which is what lets the Python
/// binding hand them out as zero-copy views (`copy=False`).
pub trait BatchEnv: Send {
    fn variant(&self) -> Variant;
    /// The encoding contract of the observations and actions.
    fn spec(&self) -> &EncodingSpec;
    fn num_envs(&self) -> usize;
    fn num_actions(&self) -> usize;
    /// `[T * C + 2, 8, 8]`.
    fn observation_shape(&self) -> [usize; 3];
    fn channel_names(&self) -> Vec<String>;
    /// The ply cap in force (steps).
    fn max_plies(&self) -> u32;
    fn reset(&mut self, seed: Option<u64>);
    /// Validates every action first; on error nothing changes.
    fn step(&mut self, actions: &[i64]) -> Result<(), StepError>;
    /// A random legal action per env (-1 for a finished env).
    fn random_legal_actions(&self, rng: &mut SplitMix64, out: &mut [i64]);
    fn observations(&self) -> &[f32];
    fn action_masks(&self) -> &[bool];
    fn rewards(&self) -> &[f32];
    fn terminated(&self) -> &[bool];
    fn truncated(&self) -> &[bool];
    fn current_players(&self) -> &[u8];
    /// Legal actions of env `env` in long notation, generator order
    /// (`None` for an env out of range).
    fn legal_moves(&self, env: usize) -> Option<Vec<String>>;
    /// The indices of [`BatchEnv::legal_moves`], same order.
    fn legal_indices(&self, env: usize) -> Option<&[u32]>;
    fn fen(&self, env: usize) -> Option<String>;
    /// Steps played in the running game of env `env`.
    fn plies(&self, env: usize) -> Option<u32>;
    /// How env `env`'s most recent game ended.
    fn last_end(&self, env: usize) -> Option<GameEnd>;
    /// The final position of env `env`'s most recent finished game.
    fn last_fen(&self, env: usize) -> Option<String>;
    /// Every later game of env `i` starts from `fens[i]` (read under the
    /// env's rules), or from the seeded start again for an empty list; see
    /// [`VecEnv::set_starts`]. `Ok(false)` for a length other than 0 or
    /// `num_envs`; nothing changes on error.
    fn set_start_fens(&mut self, fens: &[&str]) -> Result<bool, FenError>;
    /// See [`VecEnv::reset_envs`].
    fn reset_envs(&mut self, envs: &[bool]);
    /// See [`VecEnv::final_observation`].
    fn final_observation(&self, env: usize) -> Option<&[f32]>;
    /// See [`VecEnv::env_record`], with the start as a position string.
    fn env_record(&self, env: usize) -> Option<(String, u64, Vec<u32>)>;
    /// See [`VecEnv::restore_env`], with the start as a position string.
    fn restore_env(
        &mut self,
        env: usize,
        start: &str,
        resets: u64,
        played: &[u32],
    ) -> Result<bool, FenError>;
}

/// Trait methods that are [`VecEnv`]'s inherent methods of the same name
/// and signature, called through.
macro_rules! call_through {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?;)*) => {
        $(
            fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
                VecEnv::$name(self $(, $arg)*)
            }
        )*
    };
}

impl<P: GameVariant> BatchEnv for VecEnv<P> {
    call_through! {
        fn variant(&self) -> Variant;
        fn spec(&self) -> &EncodingSpec;
        fn num_envs(&self) -> usize;
        fn num_actions(&self) -> usize;
        fn observation_shape(&self) -> [usize; 3];
        fn max_plies(&self) -> u32;
        fn random_legal_actions(&self, rng: &mut SplitMix64, out: &mut [i64]);
        fn observations(&self) -> &[f32];
        fn action_masks(&self) -> &[bool];
        fn rewards(&self) -> &[f32];
        fn terminated(&self) -> &[bool];
        fn truncated(&self) -> &[bool];
        fn current_players(&self) -> &[u8];
        fn last_end(&self, env: usize) -> Option<GameEnd>;
        fn final_observation(&self, env: usize) -> Option<&[f32]>;
    }
    fn channel_names(&self) -> Vec<String> {
        VecEnv::channel_names(self).to_vec()
    }
    fn reset(&mut self, seed: Option<u64>) {
        VecEnv::reset(self, seed)
    }
    fn step(&mut self, actions: &[i64]) -> Result<(), StepError> {
        VecEnv::step(self, actions)
    }
    fn legal_moves(&self, env: usize) -> Option<Vec<String>> {
        let (actions, _) = self.legal_actions(env)?;
        Some(actions.iter().map(ToString::to_string).collect())
    }
    fn legal_indices(&self, env: usize) -> Option<&[u32]> {
        Some(self.legal_actions(env)?.1)
    }
    fn fen(&self, env: usize) -> Option<String> {
        Some(self.game(env)?.position().fen())
    }
    fn plies(&self, env: usize) -> Option<u32> {
        Some(self.game(env)?.plies())
    }
    fn last_fen(&self, env: usize) -> Option<String> {
        Some(self.last_game(env)?.position().fen())
    }
    fn set_start_fens(&mut self, fens: &[&str]) -> Result<bool, FenError> {
        let starts = fens
            .iter()
            .map(|fen| self.read_position(fen))
            .collect::<Result<Vec<P>, FenError>>()?;
        Ok(self.set_starts(starts))
    }
    fn reset_envs(&mut self, envs: &[bool]) {
        VecEnv::reset_envs(self, envs)
    }
    fn env_record(&self, env: usize) -> Option<(String, u64, Vec<u32>)> {
        let (start, resets, played) = VecEnv::env_record(self, env)?;
        Some((start.fen(), resets, played.to_vec()))
    }
    fn restore_env(
        &mut self,
        env: usize,
        start: &str,
        resets: u64,
        played: &[u32],
    ) -> Result<bool, FenError> {
        let start = self.read_position(start)?;
        Ok(VecEnv::restore_env(self, env, start, resets, played))
    }
}

impl<P: GameVariant> VecEnv<P> {
    /// Reads a position string under the rules this batch plays.
    fn read_position(&self, text: &str) -> Result<P, FenError> {
        let rules = self.game(0).expect("at least one env").position().rules();
        P::from_position_string(text, &rules)
    }
}

/// Builds the batch of a variant chosen at run time.
struct MakeBatch<'a> {
    options: &'a RuleOptions,
    config: EnvConfig,
}

impl VariantVisitor for MakeBatch<'_> {
    type Output = Result<Box<dyn BatchEnv>, MakeEnvError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let rules = P::parse_rules(self.options)?;
        Ok(Box::new(VecEnv::<P>::with_rules(self.config, rules)?))
    }
}

/// A batched environment of `variant` with rule `options` (checked first:
/// an unknown key or value is an error listing the valid ones).
pub fn make_batch_env(
    variant: Variant,
    options: &RuleOptions,
    config: EnvConfig,
) -> Result<Box<dyn BatchEnv>, MakeEnvError> {
    variant.visit(MakeBatch { options, config })
}
