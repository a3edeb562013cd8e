//! [`AnyGame`]: a game of any variant behind a text interface (UCI/SAN and
//! the variants' notations, position strings), for the command line and the
//! Python bindings. Built through [`Variant::visit`]; every method is
//! written once, generically, in [`TypedGame`].

use std::any::Any;
use std::fmt;

use super::{new_position, GameVariant, NewGameError, NoViews, Variant, VariantVisitor};
use crate::{perft, Color, FenError, Game, MoveError, Outcome, RuleOptions};

/// A game of any variant: a [`Game`] of the variant's position type behind
/// an object-safe interface that speaks in strings.
pub struct AnyGame(Box<dyn TypedGame>);

/// The object-safe face of `Game<P>` for every [`GameVariant`] `P`.
trait TypedGame: Send + Sync + fmt::Debug {
    fn variant(&self) -> Variant;
    fn turn(&self) -> Color;
    fn fen(&self) -> String;
    fn outcome(&self) -> Option<Outcome>;
    fn plies(&self) -> u32;
    fn legal_moves(&self, standard: bool) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(String, String), MoveError>;
    fn play_nth(&mut self, index: usize) -> Option<(String, String)>;
    fn perft(&self, depth: u32) -> u64;
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    fn view(&self, player: Color) -> Result<String, NoViews>;
    fn render(&self) -> String;
    fn diagram(&self) -> crate::render::Diagram;
    fn boxed_clone(&self) -> Box<dyn TypedGame>;
    fn as_any(&self) -> &dyn Any;
}

impl<P: GameVariant> TypedGame for Game<P> {
    fn variant(&self) -> Variant {
        P::VARIANT
    }

    fn turn(&self) -> Color {
        self.position().turn()
    }

    fn fen(&self) -> String {
        self.position().fen()
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }

    fn plies(&self) -> u32 {
        Game::plies(self)
    }

    fn legal_moves(&self, standard: bool) -> Vec<String> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions
            .iter()
            .map(|action| {
                if standard {
                    self.position().notation(action)
                } else {
                    action.to_string()
                }
            })
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<(String, String), MoveError> {
        P::play_text(self, text)
    }

    fn play_nth(&mut self, index: usize) -> Option<(String, String)> {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        let action = *actions.get(index)?;
        let standard = self.position().notation(&action);
        self.play_unchecked(&action);
        Some((action.to_string(), standard))
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft_parallel(self.position(), depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(self.position(), depth)
            .into_iter()
            .map(|(action, nodes)| (action.to_string(), nodes))
            .collect()
    }

    fn view(&self, player: Color) -> Result<String, NoViews> {
        if P::PERFECT_INFORMATION {
            return Err(NoViews(P::VARIANT));
        }
        Ok(P::view_string(&self.position().view(player)))
    }

    fn render(&self) -> String {
        self.position().diagram().board_text()
    }

    fn diagram(&self) -> crate::render::Diagram {
        let mut diagram = self.position().diagram();
        if let Some(outcome) = Game::outcome(self) {
            diagram.set_result(outcome);
        }
        diagram
    }

    fn boxed_clone(&self) -> Box<dyn TypedGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Builds the typed game of a variant chosen at run time.
struct NewGame<'a> {
    fen: Option<&'a str>,
    options: &'a RuleOptions,
}

impl VariantVisitor for NewGame<'_> {
    type Output = Result<AnyGame, NewGameError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let position: P = new_position(self.fen, self.options, 0)?;
        Ok(AnyGame::from_game(Game::new(position)))
    }
}

impl AnyGame {
    /// A new game from the variant's start position or from a FEN, with
    /// the variant's default rule settings.
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<AnyGame, FenError> {
        match AnyGame::with_options(variant, fen, &RuleOptions::new()) {
            Ok(game) => Ok(game),
            Err(NewGameError::Fen(e)) => Err(e),
            Err(NewGameError::Option(e)) => unreachable!("default options are valid: {e}"),
        }
    }

    /// A new game with rule settings (`mode=defector`, ...); unknown keys
    /// or values are errors that list the valid ones.
    pub fn with_options(
        variant: Variant,
        fen: Option<&str>,
        options: &RuleOptions,
    ) -> Result<AnyGame, NewGameError> {
        variant.visit(NewGame { fen, options })
    }

    /// Wraps a typed game.
    pub fn from_game<P: GameVariant>(game: Game<P>) -> AnyGame {
        AnyGame(Box::new(game))
    }

    /// The typed game inside, when it is of variant `P`.
    pub fn downcast_ref<P: GameVariant>(&self) -> Option<&Game<P>> {
        self.0.as_any().downcast_ref::<Game<P>>()
    }

    pub fn variant(&self) -> Variant {
        self.0.variant()
    }

    pub fn turn(&self) -> Color {
        self.0.turn()
    }

    pub fn fen(&self) -> String {
        self.0.fen()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    pub fn plies(&self) -> u32 {
        self.0.plies()
    }

    /// Legal actions in long (UCI-style) notation, in generator order.
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves(false)
    }

    /// Legal actions in the variant's standard notation (SAN for chess).
    pub fn legal_moves_notation(&self) -> Vec<String> {
        self.0.legal_moves(true)
    }

    /// Reads and plays a turn; returns it in (long, standard) notation.
    /// On error the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(String, String), MoveError> {
        self.0.play(text)
    }

    /// Plays the `index`-th legal action (generator order); returns it in
    /// (long, standard) notation, or `None` when there is no such action.
    pub fn play_nth(&mut self, index: usize) -> Option<(String, String)> {
        self.0.play_nth(index)
    }

    /// Perft from the current position (root split over threads).
    pub fn perft(&self, depth: u32) -> u64 {
        self.0.perft(depth)
    }

    /// Perft per root action, in long notation.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.0.divide(depth)
    }

    /// What `player` may know, as a view string: the position string with
    /// `?` for the opponent's secret (Traitor). Variants with perfect
    /// information have no views.
    pub fn view(&self, player: Color) -> Result<String, NoViews> {
        self.0.view(player)
    }

    /// A text diagram of the board, rank 8 on top.
    pub fn render(&self) -> String {
        self.0.render()
    }

    /// The board with the variant's extras (countdowns, prisons and
    /// airfields, hands, announced pieces), for [`crate::render`].
    /// Traitor: the full state, both secrets included.
    pub fn diagram(&self) -> crate::render::Diagram {
        self.0.diagram()
    }

    /// The labelled text board with the variant's extras
    /// (see [`crate::render`]).
    pub fn render_text(&self) -> String {
        crate::render::text(&self.diagram())
    }

    /// The board as a self-contained SVG document (see [`crate::render`]).
    pub fn render_svg(&self) -> String {
        crate::render::svg(&self.diagram())
    }
}

impl Clone for AnyGame {
    fn clone(&self) -> AnyGame {
        AnyGame(self.0.boxed_clone())
    }
}

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
