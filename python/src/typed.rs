//! Work on the typed game inside an [`AnyGame`]: the encoding (action
//! indices, observations) needs the variant's position type, which
//! `AnyGame` hides behind strings. [`with_game`] hands a [`TypedFn`] the
//! `Game<P>` through the one dispatch point, [`Variant::visit`], so each
//! operation below is written once for every variant.

use heterodox_env::encoding::{encode_stacked, stacked_channel_names, stacked_len};
use heterodox_env::{AnyGame, Color, Game, GameVariant, MoveError, VariantVisitor};

/// An operation on a typed game.
pub(crate) trait TypedFn {
    type Output;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Self::Output;
}

struct Dispatch<'a, F> {
    game: &'a AnyGame,
    f: F,
}

impl<F: TypedFn> VariantVisitor for Dispatch<'_, F> {
    type Output = F::Output;

    fn visit<P: GameVariant>(self) -> F::Output {
        // `AnyGame::variant` is the variant of the game inside, so the
        // downcast always succeeds.
        let game = self
            .game
            .downcast_ref::<P>()
            .expect("AnyGame holds a game of its own variant");
        self.f.call(game)
    }
}

/// Runs `f` on the typed game inside `game`.
pub(crate) fn with_game<F: TypedFn>(game: &AnyGame, f: F) -> F::Output {
    game.variant().visit(Dispatch { game, f })
}

/// The legal actions of a game (none once it is over, repetition
/// included), in generator order.
fn legal_actions<P: GameVariant>(game: &Game<P>) -> Vec<P::Action> {
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    actions
}

/// The size of the action space.
pub(crate) struct NumActions;

impl TypedFn for NumActions {
    type Output = usize;
    fn call<P: GameVariant>(self, game: &Game<P>) -> usize {
        game.position().num_actions()
    }
}

/// The plane names of an observation stacking `history` positions.
pub(crate) struct ChannelNames(pub usize);

impl TypedFn for ChannelNames {
    type Output = Vec<String>;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Vec<String> {
        stacked_channel_names(&game.position().channel_names(), self.0)
    }
}

/// The action indices of the legal actions, in generator order.
pub(crate) struct LegalIndices;

impl TypedFn for LegalIndices {
    type Output = Vec<u32>;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Vec<u32> {
        legal_actions(game)
            .iter()
            .map(|action| game.position().action_index(action) as u32)
            .collect()
    }
}

/// The action index of one legal action given as text.
pub(crate) struct IndexOf<'a>(pub &'a str);

impl TypedFn for IndexOf<'_> {
    type Output = Result<usize, MoveError>;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Result<usize, MoveError> {
        if let Some(outcome) = game.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let position = game.position();
        let action = position.parse_action(self.0)?;
        if !position.is_legal(&action) {
            return Err(MoveError::Illegal {
                text: self.0.to_owned(),
                fen: position.fen(),
            });
        }
        Ok(position.action_index(&action))
    }
}

/// The legal action with an action index, in long notation; `None` when no
/// legal action has it.
pub(crate) struct ActionOf(pub usize);

impl TypedFn for ActionOf {
    type Output = Option<String>;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Option<String> {
        legal_actions(game)
            .into_iter()
            .find(|action| game.position().action_index(action) == self.0)
            .map(|action| action.to_string())
    }
}

/// The observation of the current position as the batched environment
/// writes it: `history` stacked positions (the current one, then the
/// earlier positions of the game, most recent first) and the repetition
/// planes, seen by `observer`. The earlier positions come from replaying
/// the game's record (`start` and the actions `played`, in long notation).
pub(crate) struct Observe<'a> {
    pub observer: Color,
    pub history: usize,
    pub start: &'a AnyGame,
    pub played: Vec<&'a str>,
}

impl TypedFn for Observe<'_> {
    type Output = Vec<f32>;
    fn call<P: GameVariant>(self, game: &Game<P>) -> Vec<f32> {
        let mut earlier: Vec<P> = Vec::new();
        if self.history > 1 {
            let mut replay = self
                .start
                .downcast_ref::<P>()
                .expect("the start is of the game's variant")
                .clone();
            let keep = self.history - 1;
            let first = self.played.len().saturating_sub(keep);
            for (k, text) in self.played.iter().enumerate() {
                if k >= first {
                    earlier.push(replay.position().clone());
                }
                // The record holds only actions that were played from
                // these very positions, so they replay.
                let _ = P::play_text(&mut replay, text);
            }
            earlier.reverse();
        }
        let position = game.position();
        let mut out = vec![0.0; stacked_len(position, self.history)];
        encode_stacked(
            position,
            &earlier,
            game.repetitions(),
            self.history,
            self.observer,
            &mut out,
        );
        out
    }
}
