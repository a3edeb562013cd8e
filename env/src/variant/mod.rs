//! The registry of variants and the one dispatch point.
//!
//! [`Variant`] names every variant Heterodox implements; [`GameVariant`] is
//! what generic code (the batched environment, the search, self-play,
//! training, the CLI and Python) needs of a variant's position type beyond
//! its rules; [`Variant::visit`] hands a [`VariantVisitor`] the concrete
//! position type of a variant chosen at run time. Adding a variant is its
//! folder plus one line in the `registry!` invocation in the crate root
//! (lib.rs), which declares the module and the [`Variant`] arm: nothing
//! else matches on variants.
//!
//! [`AnyGame`] is the text-speaking game of any variant (CLI, Python),
//! itself built through [`Variant::visit`].

mod any_game;
mod spec;

pub use any_game::AnyGame;

use std::fmt;
use std::str::FromStr;

use crate::encoding::Encoding;
use crate::gesture::Gestures;
use crate::hidden::{HiddenInformation, StateSampler};
use crate::render::Diagram;
use crate::{FenError, Game, MoveError, OptionError, RuleOptions};

pub use crate::Variant;

/// Everything generic code needs of a variant's position type: its rules
/// ([`Position`]), its tensors ([`Encoding`]), what each player may know
/// ([`HiddenInformation`]), its rule settings, start positions,
/// rendering and what a person clicks to act ([`Gestures`]). Implemented
/// once per variant, in the variant's module.
pub trait GameVariant: Encoding + HiddenInformation + Gestures + fmt::Debug {
    /// The registry entry of this type.
    const VARIANT: Variant;
    /// The ply cap (in steps, so a Traitor announcement or a Mad Scientist
    /// discard counts as one) after which a learning environment truncates
    /// a game. Long enough that almost every game ends by the rules first;
    /// multi-step variants get more room.
    const DEFAULT_MAX_PLIES: u32;

    /// The variant's rule settings, read from [`RuleOptions`].
    type Rules: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// Reads rule settings; unknown keys or values are errors listing the
    /// valid ones.
    fn parse_rules(options: &RuleOptions) -> Result<Self::Rules, OptionError>;

    /// The settings written back as options, every key explicit, so that
    /// two equal settings give equal options (encoding specs, game records).
    fn rule_options(rules: &Self::Rules) -> RuleOptions;

    /// The settings this position is played under.
    fn rules(&self) -> Self::Rules;

    /// The start position of a game under `rules`. `seed` chooses among
    /// random set-ups (Traitor's `selection=random`); other variants
    /// ignore it. An error when the settings need a position string.
    fn start(rules: &Self::Rules, seed: u64) -> Result<Self, FenError>;

    /// Reads a position string in the variant's dialect under `rules`.
    fn from_position_string(text: &str, rules: &Self::Rules) -> Result<Self, FenError>;

    /// The board with the variant's extras, for [`crate::render`]. The
    /// full state (both secrets for Traitor).
    fn diagram(&self) -> Diagram;

    /// The variant's distinct rule sets, for studies that cover every one
    /// (the first-move-advantage claim plays each): the options that select
    /// it (only the keys that tell it from the defaults) and a label. By
    /// default the one rule set of a variant without settings: no options,
    /// no label.
    fn rule_sets() -> Vec<RuleSet> {
        vec![RuleSet {
            label: String::new(),
            options: RuleOptions::new(),
        }]
    }

    /// The diagram of what one player may know, built from its view alone
    /// (a front end shows each player this, never [`GameVariant::diagram`]).
    /// The default draws the one state a perfect-information view allows;
    /// a hidden-information variant overrides it to mark what the view
    /// hides instead of drawing a guess of it.
    fn view_diagram(view: &Self::View) -> Diagram {
        Self::sampler(view).state(0).diagram()
    }

    /// Reads one turn in the variant's notation and plays it; returns what
    /// was played in (long, standard) notation. One action by default;
    /// Traitor reads an announcement and a move together (`(T-Rh1)N:f2`).
    /// On error the game is unchanged.
    fn play_text(game: &mut Game<Self>, text: &str) -> Result<(String, String), MoveError> {
        if let Some(outcome) = game.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let action = game.position().parse_action(text)?;
        let standard = game.position().notation(&action);
        game.play(&action)?;
        Ok((action.to_string(), standard))
    }
}

/// One rule set of a variant ([`GameVariant::rule_sets`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSet {
    /// What tells it from the variant's other rule sets (`defector/impromptu`);
    /// empty for a variant with one rule set.
    pub label: String,
    /// The options that select it.
    pub options: RuleOptions,
}

/// Generic code that needs "some variant": [`Variant::visit`] calls
/// `visit::<P>()` with the variant's concrete position type, so the code
/// inside is monomorphised per variant (no dynamic dispatch per node).
pub trait VariantVisitor {
    type Output;
    fn visit<P: GameVariant>(self) -> Self::Output;
}

/// Declares the registry, invoked once in the crate root (lib.rs) with one
/// line per variant, `Arm => module::Position, "name";` (attributes, such
/// as a doc comment or a `#[cfg(...)]`, before it): the variant's module
/// (its folder `src/<module>/`), its [`Variant`] arm, its registered name,
/// its arm of [`Variant::visit`] and its line of
/// [`for_each_variant!`](crate::for_each_variant). Nothing else in the
/// crate names a variant: this line is how a variant joins.
macro_rules! registry {
    ($(
        $(#[doc = $doc:literal])*
        $(#[cfg($cfg:meta)])?
        $arm:ident => $module:ident :: $position:ident, $name:literal;
    )*) => {
        $(
            $(#[cfg($cfg)])?
            pub mod $module;
        )*

        // `for_each_variant!` has metavariables and repetitions of its own,
        // which `registry!` would read as its own if it wrote them: so
        // `registry!` defines it through a helper that is handed the `$`
        // token as an argument (`$d`) and writes `$d name` where the new
        // macro needs `$name`. The registry's lines are expanded here, once.
        $crate::variant::define_for_each_variant! {
            ($)
            $(
                $(#[cfg($cfg)])?
                $arm => $crate::$module::$position;
            )*
        }

        /// Every variant Heterodox implements.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Variant {
            $(
                $(#[doc = $doc])*
                $(#[cfg($cfg)])?
                $arm,
            )*
        }

        impl Variant {
            /// Every registered variant, in registry order.
            pub const ALL: [Variant; [$($(#[cfg($cfg)])? Variant::$arm,)*].len()] =
                [$($(#[cfg($cfg)])? Variant::$arm,)*];

            /// The registered name, as typed on the command line and in Python.
            pub const fn name(self) -> &'static str {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        Variant::$arm => $name,
                    )*
                }
            }

            /// Runs `visitor` with this variant's concrete position type:
            /// the one place where a variant chosen at run time becomes a
            /// type.
            pub fn visit<V: $crate::variant::VariantVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(
                        $(#[cfg($cfg)])?
                        Variant::$arm => visitor.visit::<$module::$position>(),
                    )*
                }
            }
        }
    };
}

pub(crate) use registry;

/// Defines the exported [`for_each_variant!`](crate::for_each_variant) from
/// the registry's lines; `$d` is the `$` token (see `registry!`).
macro_rules! define_for_each_variant {
    (($d:tt) $($line:tt)*) => {
        /// Hands the registry to a downstream crate: `for_each_variant!(m)`
        /// expands to
        ///
        /// ```text
        /// m! { Chess => heterodox_env::chess::Chess; Poison => ...; ... }
        /// ```
        ///
        /// one `Arm => PositionType;` per registered variant, in registry
        /// order (the order of [`Variant::ALL`]), each after its line's
        /// `#[cfg(...)]` when it has one (a callback matches
        /// `$(#[$meta:meta])* $arm:ident => $position:ty;`).
        /// `for_each_variant!(m, args...)` hands `m` the arguments first, in
        /// parentheses: `m! { (args...) Chess => ...; ... }`.
        ///
        /// This is how code outside this crate that needs a trait of its own
        /// for every variant (the engine's evaluation, the claims' measures)
        /// builds its dispatch: from the registry, not from a list of its
        /// own, so a variant added to the registry is dispatched everywhere,
        /// and one that lacks the downstream trait's impl is a compile
        /// error, never silently left out. A `#[cfg(...)]` is evaluated in
        /// the crate where the callback expands: a crate that expands it
        /// and tests the test-only variant declares its own `test-variant`
        /// feature forwarding to `heterodox-env/test-variant`.
        #[macro_export]
        macro_rules! for_each_variant {
            ($d callback:ident) => {
                $d callback! { $($line)* }
            };
            ($d callback:ident, $d($d args:tt)*) => {
                $d callback! { ($d($d args)*) $($line)* }
            };
        }
    };
}

pub(crate) use define_for_each_variant;

impl Variant {
    /// The variant's rule sets ([`GameVariant::rule_sets`]).
    pub fn rule_sets(self) -> Vec<RuleSet> {
        struct RuleSets;
        impl VariantVisitor for RuleSets {
            type Output = Vec<RuleSet>;
            fn visit<P: GameVariant>(self) -> Vec<RuleSet> {
                P::rule_sets()
            }
        }
        self.visit(RuleSets)
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

/// Implements [`GameVariant`] and perfect-information
/// [`crate::HiddenInformation`] for a variant without rule settings, whose
/// start position is `new()` (also its [`Default`]: with no settings there
/// is one start) and whose position strings are read by `from_fen`. The
/// diagram is the variant folder's `diagram::diagram` (every folder has
/// the same file set), so the macro is invoked from a module beside
/// `diagram`: the folder's `variant.rs`. One line there.
macro_rules! variant_without_options {
    ($position:ty, $variant:ident, max_plies = $plies:expr) => {
        impl Default for $position {
            fn default() -> $position {
                <$position>::new()
            }
        }

        impl $crate::variant::GameVariant for $position {
            const VARIANT: $crate::Variant = $crate::Variant::$variant;
            const DEFAULT_MAX_PLIES: u32 = $plies;
            type Rules = ();

            fn parse_rules(options: &$crate::RuleOptions) -> Result<(), $crate::OptionError> {
                options.expect_only(Self::VARIANT.name(), &[])
            }

            fn rule_options(_rules: &()) -> $crate::RuleOptions {
                $crate::RuleOptions::new()
            }

            fn rules(&self) {}

            fn start(_rules: &(), _seed: u64) -> Result<$position, $crate::FenError> {
                Ok(<$position>::new())
            }

            fn from_position_string(
                text: &str,
                _rules: &(),
            ) -> Result<$position, $crate::FenError> {
                <$position>::from_fen(text)
            }

            fn diagram(&self) -> $crate::render::Diagram {
                super::diagram::diagram(self)
            }
        }

        $crate::hidden::perfect_information!($position);
    };
}

pub(crate) use variant_without_options;

/// A position of `P` under `options`: from `fen`, or the start position of
/// game `seed`.
pub fn new_position<P: GameVariant>(
    fen: Option<&str>,
    options: &RuleOptions,
    seed: u64,
) -> Result<P, NewGameError> {
    let rules = P::parse_rules(options)?;
    Ok(match fen {
        Some(text) => P::from_position_string(text, &rules)?,
        None => P::start(&rules, seed)?,
    })
}
