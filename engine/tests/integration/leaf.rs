//! The quiescence search alone, as the tactical leaf evaluation of the
//! Monte Carlo tree search ([`LeafQuiescence`]): on positions whose answer
//! is known, it finds the capture, the poisoning and the mate by a drop a
//! static evaluation misses, and its score is exactly the evaluation of
//! the position the tactic leads to.

use heterodox_engine::{Engine, EngineConfig, EvalWeights, LeafQuiescence, Score};
use heterodox_env::{GameVariant, Hostage, PoisonChess, Position};

/// `pos` after the legal action written `notation`.
fn after<P: GameVariant>(pos: &P, notation: &str) -> P {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let action = actions
        .iter()
        .find(|a| pos.notation(a) == notation)
        .unwrap_or_else(|| panic!("no {notation} in {}", pos.fen()));
    let mut child = pos.clone();
    child.play_unchecked(action);
    child
}

/// The tuned classical evaluation of `pos` for its player to act: what
/// the quiescence stands pat on.
fn classical<P: GameVariant>(pos: &P) -> i32 {
    Engine::<P>::new(EngineConfig::default())
        .unwrap()
        .evaluate(pos)
}

#[test]
fn a_hanging_doctor_is_taken() {
    // The Knight takes the undefended Doctor; Black has no capture back.
    let pos =
        PoisonChess::from_position_string("4k3/8/8/3d4/8/4N3/8/4K3 w - - 0 1 -", &()).unwrap();
    let taken = after(&pos, "Nxd5");
    let mut leaf = LeafQuiescence::<PoisonChess>::new(EvalWeights::Tuned);
    let score = leaf.score(&pos);
    assert_eq!(score, Score::Cp(-classical(&taken)));
    let (before, won) = (classical(&pos), -classical(&taken));
    // A lone Knight cannot mate: the evaluation scales the win down.
    assert!(before < -600 && won > 0, "{before} {won}");
    // Black to act keeps the Doctor: its quiescence stands pat.
    let black =
        PoisonChess::from_position_string("4k3/8/8/3d4/8/4N3/8/4K3 b - - 0 1 -", &()).unwrap();
    assert_eq!(leaf.score(&black), Score::Cp(classical(&black)));
    assert!(leaf.nodes() > 2);
}

#[test]
fn a_king_within_reach_of_a_harpy_is_poisoned() {
    // The Harpy beside the King poisons it; without a Doctor Black cannot
    // cure, and the King dies at White's fifth action.
    let pos =
        PoisonChess::from_position_string("4k3/4H3/8/8/8/8/4P3/4K3 w - - 0 1 -", &()).unwrap();
    let poisoned = after(&pos, "xHe7[e8,5]");
    assert_eq!(poisoned.fen(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 e8:5");
    let mut leaf = LeafQuiescence::<PoisonChess>::new(EvalWeights::Tuned);
    assert_eq!(leaf.score(&pos), Score::Cp(-classical(&poisoned)));
    assert!(-classical(&poisoned) > classical(&pos) + 1000);
}

#[test]
fn a_drop_that_mates_is_found() {
    // Q*d8#: the Queen from White's airfield, the King boxed in by its
    // own pawns, Black's hands empty.
    let pos =
        Hostage::from_position_string("6k1/5ppp/8/8/8/8/8/6K1[-/-/Q/-] w - - 0 1", &()).unwrap();
    let mated = after(&pos, "Q*d8#");
    assert!(mated.outcome().is_some());
    let mut leaf = LeafQuiescence::<Hostage>::new(EvalWeights::Tuned);
    assert_eq!(leaf.score(&pos), Score::Mate(1));
    // The mated side's leaf is lost on the spot.
    assert_eq!(leaf.score(&mated), Score::Mate(0));
}
