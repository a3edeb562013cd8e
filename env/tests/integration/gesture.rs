//! What a person clicks to make each action (`heterodox_env::gesture`):
//! exact gestures for every kind of action, and, over random games of
//! every variant, that every target of every legal action is a place the
//! mover's SVG board lets them click.

use heterodox_env::gesture::{Gesture, Target};
use heterodox_env::render::{svg, svg_with, SvgOptions};
use heterodox_env::rng::SplitMix64;
use heterodox_env::traitor::{Commitment, Mode, TraitorRules};
use heterodox_env::{
    Chess, Color, GameVariant, HiddenInformation, Hostage, MadScientist, PoisonChess, RuleOptions,
    Traitor, Variant, VariantVisitor,
};

/// The gesture of the action `text` (long or standard notation) in
/// `position`, as kind and target names.
fn gesture_of<P: GameVariant>(position: &P, text: &str) -> (&'static str, Vec<String>, bool) {
    let action = position
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert!(position.is_legal(&action), "{text}");
    let Gesture {
        kind,
        targets,
        ordered,
    } = position.gesture(&action);
    (kind, targets.iter().map(Target::id).collect(), ordered)
}

fn names(targets: &[&str]) -> Vec<String> {
    targets.iter().map(|t| (*t).to_owned()).collect()
}

#[test]
fn board_moves_point_from_and_to_castling_at_the_kings_squares() {
    let chess =
        Chess::from_fen("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1").expect("valid");
    assert_eq!(
        gesture_of(&chess, "O-O"),
        ("move", names(&["e1", "g1"]), true)
    );
    assert_eq!(
        gesture_of(&chess, "Qd2d7"),
        ("move", names(&["d2", "d7"]), true)
    );
}

#[test]
fn poisonings_and_cures_point_at_the_harpy_or_doctor_then_the_target() {
    // White's Doctor on f1 cures its poisoned King on g1.
    let poison = PoisonChess::from_fen("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2")
        .expect("valid");
    assert_eq!(
        gesture_of(&poison, "f1~g1"),
        ("cure", names(&["f1", "g1"]), true)
    );
    // Black's Harpy on e2 stings the White pawn on f2.
    let poison = PoisonChess::from_fen("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 b - - 0 1 g1:4,d6:2")
        .expect("valid");
    assert_eq!(
        gesture_of(&poison, "e2*f2"),
        ("poison", names(&["e2", "f2"]), true)
    );
}

#[test]
fn drops_and_exchanges_point_at_the_reserves() {
    let fen = |reserves: &str| {
        Hostage::from_fen(&format!(
            "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[{reserves}] w KQ - 2 8"
        ))
        .expect("valid")
    };
    let hostage = fen("pp/N/P/-");
    assert_eq!(
        gesture_of(&hostage, "P@e4"),
        ("drop", names(&["white-airfield-P", "e4"]), true)
    );
    let hostage = fen("pp/NP/-/-");
    // White gives a Black pawn from its prison, rescues its pawn from
    // Black's prison and drops it on e3.
    assert_eq!(
        gesture_of(&hostage, "P-P@e3"),
        (
            "exchange",
            names(&["white-prison-P", "black-prison-P", "e3"]),
            true
        )
    );
}

#[test]
fn scientist_powers_point_at_the_hand_and_the_piece() {
    let mad = MadScientist::from_fen("7k/8/8/8/8/2[b]5/1KP5/[CC]7 w - - WC 0 1").expect("valid");
    let cases = [
        ("W@a2", "animate", names(&["white-hand-W", "a2"])),
        ("C+c3", "attach", names(&["white-hand-C", "c3"])),
        ("B-c3", "remove", names(&["c3"])),
        ("a1b3", "move", names(&["a1", "b3"])),
    ];
    for (text, kind, targets) in cases {
        assert_eq!(gesture_of(&mad, text), (kind, targets, true), "{text}");
    }
}

const TRAITOR_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The standard Traitor start with both secrets chosen (White c8,g7,
/// Black c1,g2,h1) and the turn's opening step next.
fn traitor_with_secrets_chosen() -> Traitor {
    Traitor::from_fen(
        &format!("{TRAITOR_START} - - 9,9 -/- c8,g7/c1,g2,h1 open - -"),
        TraitorRules::new(Mode::Traitor, Commitment::Standard),
    )
    .expect("valid")
}

#[test]
fn announcements_and_selections_point_at_the_pieces() {
    let open = traitor_with_secrets_chosen();
    assert_eq!(
        gesture_of(&open, "T-g7"),
        ("announce", names(&["g7"]), true)
    );
    let selecting =
        Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Standard)).expect("valid");
    assert_eq!(
        gesture_of(&selecting, "S-c8,g7"),
        ("select", names(&["g7", "c8"]), false)
    );
    // Simplified selections name types, no piece: chosen from a list.
    let simplified =
        Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Simplified)).expect("valid");
    assert_eq!(
        gesture_of(&simplified, "S-NP"),
        ("select", Vec::new(), false)
    );
}

/// Over seeded random games: every target of every legal action is drawn,
/// clickable, on the mover's own board (its view's diagram), either way
/// up; reserve targets name men the reserve holds.
struct EveryTargetIsDrawn {
    options: RuleOptions,
}

impl VariantVisitor for EveryTargetIsDrawn {
    type Output = usize;

    fn visit<P: GameVariant>(self) -> usize {
        let rules = P::parse_rules(&self.options).expect("valid options");
        let mut checked = 0;
        for seed in 0..4u64 {
            let mut rng = SplitMix64::new(seed);
            let mut position = P::start(&rules, seed).expect("a start position");
            let mut actions = Vec::new();
            for _ in 0..120 {
                position.legal_actions(&mut actions);
                if actions.is_empty() || position.outcome().is_some() {
                    break;
                }
                let mover = position.turn();
                let diagram = P::view_diagram(&position.view(mover));
                let boards = [
                    svg(&diagram),
                    svg_with(&diagram, SvgOptions { flipped: true }),
                ];
                for action in &actions {
                    let gesture = position.gesture(action);
                    for target in &gesture.targets {
                        let attribute = format!("data-target=\"{}\"", target.id());
                        for board in &boards {
                            assert_eq!(board.matches(&attribute).count(), 1, "{action}: {target}");
                        }
                        if let Target::Reserve {
                            owner,
                            area,
                            letter,
                        } = target
                        {
                            let held = diagram
                                .reserves
                                .iter()
                                .filter(|r| r.owner == *owner && r.area == *area)
                                .flat_map(|r| &r.men)
                                .any(|men| men.letter == *letter && men.count > 0);
                            assert!(held, "{action}: {target} holds no man");
                        }
                        checked += 1;
                    }
                }
                let action = actions[rng.below(actions.len())];
                position.play_unchecked(&action);
            }
        }
        checked
    }
}

#[test]
fn every_target_of_every_legal_action_is_drawn_clickable() {
    for variant in Variant::ALL {
        let checked = variant.visit(EveryTargetIsDrawn {
            options: RuleOptions::new(),
        });
        assert!(checked > 1000, "{variant}: {checked}");
    }
    let checked = Variant::Traitor.visit(EveryTargetIsDrawn {
        options: RuleOptions::parse("commitment=simplified,mode=defector").expect("valid"),
    });
    assert!(checked > 1000, "{checked}");
}

/// A player's Traitor board shows its own secret and hides the opponent's.
#[test]
fn a_traitor_view_diagram_hides_the_opponents_secret() {
    let position = traitor_with_secrets_chosen();
    let secrets = |color: Color| {
        let diagram = Traitor::view_diagram(&position.view(color));
        diagram
            .below
            .iter()
            .find(|line| line.starts_with("secrets:"))
            .cloned()
            .expect("a secrets line")
    };
    assert_eq!(secrets(Color::White), "secrets: white g7,c8, black hidden");
    assert_eq!(
        secrets(Color::Black),
        "secrets: white hidden, black c1,h1,g2"
    );
    assert_eq!(
        position.diagram().below.last().map(String::as_str),
        Some("secrets: white g7,c8, black c1,h1,g2")
    );
    // Perfect information: the view's diagram is the diagram.
    let chess = Chess::default();
    assert_eq!(
        Chess::view_diagram(&chess.view(Color::Black)),
        chess.diagram()
    );
}
