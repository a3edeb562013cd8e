//! The registry of variants by name, and [`AnyGame`]: one type that holds a
//! game of any variant behind a text interface (UCI/SAN strings, FEN), for
//! the command line and the Python bindings.

use std::fmt;
use std::str::FromStr;

use crate::{
    perft, Chess, Color, FenError, Game, Hostage, MadScientist, MoveError, OptionError, Outcome,
    Position, RuleOptions,
};

/// Every variant Heterodox implements.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Chess,
    Poison,
    Hostage,
    MadScientist,
    Traitor,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Chess,
        Variant::Poison,
        Variant::Hostage,
        Variant::MadScientist,
        Variant::Traitor,
    ];

    /// The registered name, as typed on the command line and in Python.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Poison => "poison",
            Variant::Hostage => "hostage",
            Variant::MadScientist => "madscientist",
            Variant::Traitor => "traitor",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not registered; the message lists the valid ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (valid variants: {valid})", valid = Variant::ALL.map(Variant::name).join(", "))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| UnknownVariant(s.to_owned()))
    }
}

/// Why a game could not be set up: a bad position string or a bad rule option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NewGameError {
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Option(#[from] OptionError),
}

/// A player's view asked of a variant where both players see everything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0} has perfect information: there are no player views (only traitor has hidden information)"
)]
pub struct NoViews(pub Variant);

/// A game of any variant. Each arm holds the variant's own typed game; the
/// methods dispatch with one `match` and speak in strings.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Chess(Game<Chess>),
    Poison(Game<crate::PoisonChess>),
    Hostage(Game<Hostage>),
    MadScientist(Game<MadScientist>),
    Traitor(Game<crate::traitor::Traitor>),
}

/// Runs `$body` with `$game` bound to the typed game inside any arm.
macro_rules! dispatch {
    ($self:expr, $game:ident => $body:expr) => {
        match $self {
            AnyGame::Chess($game) => $body,
            AnyGame::Poison($game) => $body,
            AnyGame::Hostage($game) => $body,
            AnyGame::MadScientist($game) => $body,
            AnyGame::Traitor($game) => $body,
        }
    };
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
        Ok(match variant {
            Variant::Chess => {
                options.expect_only("chess", &[])?;
                AnyGame::Chess(Game::new(match fen {
                    Some(text) => Chess::from_fen(text)?,
                    None => Chess::new(),
                }))
            }
            Variant::Poison => {
                options.expect_only("poison", &[])?;
                AnyGame::Poison(Game::new(match fen {
                    Some(text) => crate::PoisonChess::from_fen(text)?,
                    None => crate::PoisonChess::new(),
                }))
            }
            Variant::Hostage => {
                options.expect_only("hostage", &[])?;
                AnyGame::Hostage(Game::new(match fen {
                    Some(text) => Hostage::from_fen(text)?,
                    None => Hostage::new(),
                }))
            }
            Variant::MadScientist => {
                options.expect_only("madscientist", &[])?;
                AnyGame::MadScientist(Game::new(match fen {
                    Some(text) => MadScientist::from_fen(text)?,
                    None => MadScientist::new(),
                }))
            }
            Variant::Traitor => {
                // mode, commitment, no_immediate_undo, announce_check, selection, seed.
                let rules = crate::traitor::TraitorRules::from_options(options)?;
                AnyGame::Traitor(Game::new(match fen {
                    Some(text) => crate::traitor::Traitor::from_fen(text, rules)?,
                    None => crate::traitor::Traitor::new(rules)?,
                }))
            }
        })
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Chess(_) => Variant::Chess,
            AnyGame::Poison(_) => Variant::Poison,
            AnyGame::Hostage(_) => Variant::Hostage,
            AnyGame::MadScientist(_) => Variant::MadScientist,
            AnyGame::Traitor(_) => Variant::Traitor,
        }
    }

    pub fn turn(&self) -> Color {
        dispatch!(self, game => game.position().turn())
    }

    pub fn fen(&self) -> String {
        dispatch!(self, game => game.position().fen())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, game => game.outcome())
    }

    pub fn plies(&self) -> u32 {
        dispatch!(self, game => game.plies())
    }

    /// Legal actions in long (UCI-style) notation, in generator order.
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch!(self, game => {
            let mut actions = Vec::new();
            game.legal_actions(&mut actions);
            actions.iter().map(ToString::to_string).collect()
        })
    }

    /// Legal actions in the variant's standard notation (SAN for chess).
    pub fn legal_moves_notation(&self) -> Vec<String> {
        dispatch!(self, game => {
            let mut actions = Vec::new();
            game.legal_actions(&mut actions);
            actions.iter().map(|a| game.position().notation(a)).collect()
        })
    }

    /// Reads and plays an action; returns it in (long, standard) notation.
    /// On error the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(String, String), MoveError> {
        // Traitor reads whole turns: `(T-Rh1)N:f2` is an announcement and a move.
        if let AnyGame::Traitor(game) = self {
            return crate::traitor::play_turn(game, text);
        }
        dispatch!(self, game => {
            if let Some(outcome) = game.outcome() {
                return Err(MoveError::GameOver(outcome.to_string()));
            }
            let action = game.position().parse_action(text)?;
            let standard = game.position().notation(&action);
            game.play(&action)?;
            Ok((action.to_string(), standard))
        })
    }

    /// Plays the `index`-th legal action (generator order); returns it in
    /// (long, standard) notation, or `None` when there is no such action.
    pub fn play_nth(&mut self, index: usize) -> Option<(String, String)> {
        dispatch!(self, game => {
            let mut actions = Vec::new();
            game.legal_actions(&mut actions);
            let action = *actions.get(index)?;
            let standard = game.position().notation(&action);
            game.play_unchecked(&action);
            Some((action.to_string(), standard))
        })
    }

    /// Perft from the current position (root split over threads).
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, game => perft::perft_parallel(game.position(), depth))
    }

    /// Perft per root action, in long notation.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        dispatch!(self, game => perft::divide(game.position(), depth)
            .into_iter()
            .map(|(action, nodes)| (action.to_string(), nodes))
            .collect())
    }

    /// What `player` may know, as a view string: the position string with
    /// `?` for the opponent's secret (Traitor). Other variants have no
    /// hidden information, so no views.
    pub fn view(&self, player: Color) -> Result<String, NoViews> {
        match self {
            AnyGame::Traitor(game) => Ok(game.position().view(player).fen()),
            other => Err(NoViews(other.variant())),
        }
    }

    /// A text diagram of the board, rank 8 on top.
    pub fn render(&self) -> String {
        dispatch!(self, game => format!("{:?}", game.position().board()))
    }

    /// The board with the variant's extras (countdowns, prisons and
    /// airfields, hands, announced pieces), for [`crate::render`].
    /// Traitor: the full state, both secrets included.
    pub fn diagram(&self) -> crate::render::Diagram {
        match self {
            AnyGame::Chess(game) => crate::render::chess(game.position()),
            AnyGame::Poison(game) => crate::render::poison(game.position()),
            AnyGame::Hostage(game) => crate::render::hostage(game.position()),
            AnyGame::MadScientist(game) => crate::render::madscientist(game.position()),
            AnyGame::Traitor(game) => crate::render::traitor(game.position()),
        }
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
