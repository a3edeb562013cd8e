//! A position type outside the registry gets the generic knowledge (the
//! rules' endings and the mobility of the side to act): here chess's rules
//! behind a new position type, which no evaluation module names. It still
//! finds mates, and plays. (A registered variant names its knowledge with
//! one `Evaluated` impl, tests/test_variant.rs.)

use crate::support;

use heterodox_engine::{Limits, Score};
use heterodox_env::hidden::Known;
use heterodox_env::render::Diagram;
use heterodox_env::{
    Chess, Color, FenError, Game, GameVariant, HiddenInformation, Move, MoveError, OptionError,
    Outcome, Position, RuleOptions, Variant,
};

/// Chess under another name: a position type the engine has never seen.
#[derive(Clone, Debug)]
struct Stranger(Chess);

/// Trait methods that `Stranger` answers exactly as the chess position
/// inside it does: `fn NAME(&self, ARG: TYPE, ...) -> RETURN;` becomes a
/// method that calls `self.0.NAME(ARG, ...)`.
macro_rules! delegate_to_chess {
    ($(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?;)*) => {
        $(
            fn $name(&self $(, $arg: $ty)*) $(-> $ret)? {
                self.0.$name($($arg),*)
            }
        )*
    };
}

impl Position for Stranger {
    type Action = Move;
    delegate_to_chess! {
        fn turn(&self) -> Color;
        fn legal_actions(&self, out: &mut Vec<Move>);
        fn is_legal(&self, action: &Move) -> bool;
        fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome>;
        fn repetition_key(&self) -> u64;
        fn is_irreversible(&self, action: &Move) -> bool;
        fn fen(&self) -> String;
        fn parse_action(&self, text: &str) -> Result<Move, MoveError>;
        fn notation(&self, action: &Move) -> String;
    }
    fn play_unchecked(&mut self, action: &Move) {
        self.0.play_unchecked(action)
    }
}

impl heterodox_env::encoding::Encoding for Stranger {
    const ENCODING_VERSION: u32 = 1;
    delegate_to_chess! {
        fn num_actions(&self) -> usize;
        fn action_index(&self, action: &Move) -> usize;
        fn board_action_planes(&self) -> usize;
        fn num_channels(&self) -> usize;
        fn channel_names(&self) -> Vec<String>;
        fn encode(&self, observer: Color, out: &mut [f32]);
    }
}

impl HiddenInformation for Stranger {
    const PERFECT_INFORMATION: bool = true;
    type View = Stranger;
    type Sampler = Known<Stranger>;
    fn view(&self, _observer: Color) -> Stranger {
        self.clone()
    }
    fn information_set_key(&self, _observer: Color) -> u64 {
        self.repetition_key()
    }
    fn sampler(view: &Stranger) -> Known<Stranger> {
        Known(view.clone())
    }
    fn view_string(view: &Stranger) -> String {
        view.fen()
    }
}

impl heterodox_env::gesture::Gestures for Stranger {
    delegate_to_chess! {
        fn gesture(&self, action: &Move) -> heterodox_env::gesture::Gesture;
    }
}

impl GameVariant for Stranger {
    const VARIANT: Variant = Variant::Chess;
    const DEFAULT_MAX_PLIES: u32 = 512;
    type Rules = ();
    fn parse_rules(_options: &RuleOptions) -> Result<(), OptionError> {
        Ok(())
    }
    fn rule_options(_rules: &()) -> RuleOptions {
        RuleOptions::new()
    }
    fn rules(&self) {}
    fn start(_rules: &(), _seed: u64) -> Result<Stranger, FenError> {
        Ok(Stranger(Chess::new()))
    }
    fn from_position_string(text: &str, _rules: &()) -> Result<Stranger, FenError> {
        Chess::from_fen(text).map(Stranger)
    }
    delegate_to_chess! {
        fn diagram(&self) -> Diagram;
    }
}

#[test]
fn an_unknown_variant_finds_mates_with_the_generic_knowledge() {
    let pos = Stranger(Chess::from_fen("r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1").unwrap());
    let report = support::search(&pos, 5);
    assert_eq!(pos.notation(&report.best), "Rd8+");
    assert_eq!(report.score, Score::Mate(2));
    // The generic evaluation is not chess's: mobility only, no material.
    let known = support::search(&pos.0, 1);
    let stranger = support::search(&pos, 1);
    assert_ne!(known.value, stranger.value);
}

#[test]
fn an_unknown_variant_plays_a_game() {
    let mut game = Game::new(Stranger(Chess::new()));
    let mut engine = support::engine::<Stranger>(2);
    for _ in 0..6 {
        let report = engine.search(&game, &Limits::depth(3), |_| {}).unwrap();
        game.play(&report.best).unwrap();
    }
    assert_eq!(game.plies(), 6);
}
