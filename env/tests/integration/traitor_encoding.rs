//! The Traitor family's action space and observation
//! (env/src/traitor/encoding.rs, docs/encoding.md): the index is a
//! bijection on the legal actions of seeded random positions of every mode
//! and commitment, hand-picked actions have the documented indices
//! (Black's flipped), selections are ranked as documented, observation
//! planes hold the documented values, and the observation never depends on
//! the opponent's secret (T10).

use std::collections::HashMap;

use heterodox_env::encoding::Encoding;
use heterodox_env::traitor::encoding::{
    num_actions_for, ANNOUNCE_OFFSET, SELECT_OFFSET, SIMPLIFIED_SELECTIONS, STANDARD_SELECTIONS,
};
use heterodox_env::traitor::{
    start_piece, Commitment, Mode, Secret, Selection, Step, Traitor, TraitorAction, TraitorRules,
};
use heterodox_env::{Color, Position, Role, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support;
use support::encoding::{
    check_index_bijection, check_side_planes, constant, index, nonzero, observation, plane,
};

const GAMES_PER_COMBINATION: u64 = 50;
const PLY_CAP: u32 = 160;

fn rules(mode: Mode, commitment: Commitment) -> TraitorRules {
    TraitorRules::new(mode, commitment)
}

fn position(fen: &str, rules: TraitorRules) -> Traitor {
    Traitor::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn bits(obs: &[f32]) -> Vec<u32> {
    obs.iter().map(|v| v.to_bits()).collect()
}

/// The first plane and square where two observations of `pos`'s layout
/// differ bitwise (`None` when identical), for short failure messages.
fn first_difference(pos: &Traitor, a: &[f32], b: &[f32]) -> Option<String> {
    let i = a
        .iter()
        .zip(b)
        .position(|(x, y)| x.to_bits() != y.to_bits())?;
    Some(format!(
        "{} square {}: {} vs {}",
        pos.channel_names()[i / 64],
        i % 64,
        a[i],
        b[i]
    ))
}

#[test]
fn sizes_and_channel_names() {
    assert_eq!(STANDARD_SELECTIONS, 2204);
    assert_eq!(SIMPLIFIED_SELECTIONS, 49);
    assert_eq!(ANNOUNCE_OFFSET, 73 * 64);
    assert_eq!(SELECT_OFFSET, 73 * 64 + 64);
    assert_eq!(num_actions_for(Commitment::Standard), 6940);
    assert_eq!(num_actions_for(Commitment::Simplified), 4785);
    assert_eq!(num_actions_for(Commitment::Impromptu), 4736);
    let expected_channels = [
        // 12 pieces + 2 control + status + 2 announced-by + 1 this turn
        // + secret + 2 budgets + 3 steps + ep + 4 castling + ko + undo
        // + no-progress + 2 sides.
        (Mode::Traitor, Commitment::Standard, 32),
        (Mode::Traitor, Commitment::Simplified, 36),
        (Mode::Traitor, Commitment::Impromptu, 31),
        (Mode::Defector, Commitment::Standard, 32),
        (Mode::Defector, Commitment::Impromptu, 32),
        (Mode::DoubleAgent, Commitment::Standard, 33),
        (Mode::DefectorDoubleAgent, Commitment::Simplified, 38),
        (Mode::Mercenary, Commitment::Impromptu, 32),
    ];
    for (mode, commitment, channels) in expected_channels {
        let pos = Traitor::new(rules(mode, commitment)).unwrap();
        assert_eq!(pos.num_channels(), channels, "{mode:?} {commitment:?}");
        assert_eq!(pos.channel_names().len(), channels);
        assert_eq!(pos.num_actions(), num_actions_for(commitment));
    }
    let names = Traitor::new(rules(Mode::DefectorDoubleAgent, Commitment::Simplified))
        .unwrap()
        .channel_names();
    assert_eq!(names[0], "own_colour_pawn");
    assert_eq!(names[11], "opp_colour_king");
    assert_eq!(
        &names[12..16],
        [
            "movable_by_own",
            "movable_by_opp",
            "double_agent",
            "defected"
        ]
    );
    assert_eq!(names[19], "own_secret_pawns");
    assert_eq!(names[23], "own_secret_queens");
    assert_eq!(names[34], "last_move");
    assert_eq!(names[35], "no_progress");
    assert_eq!(names[37], "observer_is_black");
}

/// One seeded random game under `rules`, its legal actions checked for
/// distinct indices inside the action space in every position reached.
/// Returns the number of positions checked.
fn check_bijection(rules: TraitorRules, seed: u64) -> usize {
    check_index_bijection(
        [seed],
        |_| Traitor::new(rules).unwrap(),
        PLY_CAP,
        |action, i| {
            assert!(i < num_actions_for(rules.commitment), "{action} -> {i}");
        },
    )
}

#[test]
fn index_is_a_bijection_on_legal_actions_of_every_mode_and_commitment() {
    let mut total = 0;
    for (m, mode) in Mode::ALL.into_iter().enumerate() {
        for (c, commitment) in Commitment::ALL.into_iter().enumerate() {
            let mut positions = 0;
            for game in 0..GAMES_PER_COMBINATION {
                let seed = (m as u64 * 3 + c as u64) * 1000 + game;
                positions += check_bijection(rules(mode, commitment), seed);
            }
            assert!(positions > 2_000, "{mode:?} {commitment:?}: {positions}");
            total += positions;
        }
    }
    assert!(total > 80_000, "{total} positions");
}

/// Every valid Standard selection mask, in increasing order, written
/// independently of the library: bit `k` is relative square `48 + k`.
fn standard_masks() -> Vec<u32> {
    const COSTS: [u32; 16] = [1, 1, 1, 1, 1, 1, 1, 1, 5, 3, 3, 9, 0, 3, 3, 5];
    (1u32..1 << 16)
        .filter(|mask| mask & (1 << 12) == 0)
        .filter(|mask| {
            (0..16)
                .filter(|k| mask & (1 << k) != 0)
                .map(|k| COSTS[k])
                .sum::<u32>()
                <= 9
        })
        .collect()
}

#[test]
fn standard_selections_fill_their_section_in_mask_order() {
    let ranks: HashMap<u32, usize> = standard_masks()
        .into_iter()
        .enumerate()
        .map(|(rank, mask)| (mask, rank))
        .collect();
    assert_eq!(ranks.len(), 2204);
    let mut pos = Traitor::new(rules(Mode::Traitor, Commitment::Standard)).unwrap();
    for chooser in [Color::White, Color::Black] {
        assert_eq!(pos.turn(), chooser);
        let mut actions = Vec::new();
        pos.legal_actions(&mut actions);
        assert_eq!(actions.len(), 2204);
        let mut indices: Vec<usize> = actions
            .iter()
            .map(|action| {
                let TraitorAction::Select(Selection::Pieces(ids)) = action else {
                    panic!("{action} is not a Standard selection");
                };
                let mask = ids
                    .into_iter()
                    .map(|id| 1u32 << (id.relative_to(chooser).index() - 48))
                    .sum::<u32>();
                let i = pos.action_index(action);
                assert_eq!(i, SELECT_OFFSET + ranks[&mask], "{action} by {chooser}");
                i
            })
            .collect();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(
            indices,
            (SELECT_OFFSET..SELECT_OFFSET + 2204).collect::<Vec<_>>()
        );
        pos.play(&actions[0]).unwrap();
    }
}

#[test]
fn selection_indices_by_hand() {
    let mut pos = Traitor::new(rules(Mode::Traitor, Commitment::Standard)).unwrap();
    assert_eq!(index(&pos, "S-a7"), SELECT_OFFSET);
    assert_eq!(index(&pos, "S-b7"), SELECT_OFFSET + 1);
    assert_eq!(index(&pos, "S-a7,b7"), SELECT_OFFSET + 2);
    // {d8} is bit 11: every valid subset of bits 0..10 (8 pawns, R, N, B)
    // comes first: 256 + 163 (R) + 247 (N) + 247 (B) + 9 + 9 (R with a
    // minor) + 93 (N+B) = 1024, of which one is empty.
    assert_eq!(index(&pos, "S-d8"), SELECT_OFFSET + 1023);
    // The last one: {h8} (rook, bit 15) with c8 and b8? No: 5 + 3 + 3 > 9;
    // the largest mask is h8 + g8 + pawn h7 (5 + 3 + 1).
    assert_eq!(index(&pos, "S-h7,g8,h8"), SELECT_OFFSET + 2203);
    pos.play(&pos.parse_action("S-d8").unwrap()).unwrap();
    // Black's choices, flipped: a2 is Black's "a7".
    assert_eq!(index(&pos, "S-a2"), SELECT_OFFSET);
    assert_eq!(index(&pos, "S-d1"), SELECT_OFFSET + 1023);

    let simplified = Traitor::new(rules(Mode::Traitor, Commitment::Simplified)).unwrap();
    let mut actions = Vec::new();
    simplified.legal_actions(&mut actions);
    assert_eq!(actions.len(), 46);
    // Pawns fastest, then knights, bishops, rooks, queens.
    assert_eq!(index(&simplified, "S-P"), SELECT_OFFSET);
    assert_eq!(index(&simplified, "S-PP"), SELECT_OFFSET + 1);
    assert_eq!(index(&simplified, "S-PPPPPPPP"), SELECT_OFFSET + 7);
    // p = 1..9 with no other type take 0..8 (nine pawns are never legal
    // from the start, but the section holds them).
    assert_eq!(index(&simplified, "S-N"), SELECT_OFFSET + 9);
    assert_eq!(index(&simplified, "S-Q"), SELECT_OFFSET + 48);
}

#[test]
fn move_and_announcement_indices_by_hand() {
    let mut pos = Traitor::new(rules(Mode::Traitor, Commitment::Impromptu)).unwrap();
    // 1.e4: north, distance 2 (plane 1), from e2 = 12.
    assert_eq!(index(&pos, "e2e4"), 64 + 12);
    // Ng1-f3: knight (-1, +2), plane 63, from g1 = 6.
    assert_eq!(index(&pos, "g1f3"), 63 * 64 + 6);
    pos.play(&pos.parse_action("e2e4").unwrap()).unwrap();
    // Black's 1...e5 is the same move seen from Black's side.
    assert_eq!(index(&pos, "e7e5"), 64 + 12);
    assert_eq!(index(&pos, "b8c6"), 56 * 64 + 1);
    // Black announces White's e-pawn (id e2, now on e4): e2 flipped is e7 = 52.
    assert_eq!(index(&pos, "T-e2"), ANNOUNCE_OFFSET + 52);
    pos.play(&pos.parse_action("e7e5").unwrap()).unwrap();
    // White announces Black's e-pawn (id e7): 52 too.
    assert_eq!(index(&pos, "T-e7"), ANNOUNCE_OFFSET + 52);
    // ... and Black's queen (id d8 = 59).
    assert_eq!(index(&pos, "T-d8"), ANNOUNCE_OFFSET + 59);
    pos.play(&pos.parse_action("T-d8").unwrap()).unwrap();
    assert_eq!(pos.step(), Step::Announced(Square::D8));
    // The traitor queen moves for White: d8-h4 is south-east, distance 4.
    assert_eq!(index(&pos, "d8h4"), (21 + 3) * 64 + 59);
}

#[test]
fn castling_and_backward_promotions() {
    let castle = position(
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 - - 9,9 -/- -/- open - -",
        rules(Mode::Traitor, Commitment::Impromptu),
    );
    // Black's O-O: east, distance 2 (plane 15) from e8 = e1 after the flip.
    assert_eq!(index(&castle, "e8g8"), 15 * 64 + 4);
    assert_eq!(index(&castle, "e8c8"), 43 * 64 + 4);
    // A Black-coloured traitor pawn on b2 that White controls promotes on
    // b1, toward White's own back rank (the King stands off the lines a
    // new traitor on b1 would attack: traitors attack both Kings).
    let traitor_pawn = position(
        "4k3/8/8/8/8/7K/1p6/8 w - - 0 1 b2=b7,h3=e1 b2 8,9 b7/- -/- open - -",
        rules(Mode::Traitor, Commitment::Impromptu),
    );
    // Queen: south, distance 1 (plane 28), from b2 = 9.
    assert_eq!(index(&traitor_pawn, "b2b1q"), 28 * 64 + 9);
    // Underpromotions share the forward planes: push (direction 1).
    assert_eq!(index(&traitor_pawn, "b2b1n"), (64 + 3) * 64 + 9);
    assert_eq!(index(&traitor_pawn, "b2b1b"), (64 + 4) * 64 + 9);
    assert_eq!(index(&traitor_pawn, "b2b1r"), (64 + 5) * 64 + 9);
}

#[test]
fn start_position_observation() {
    let pos = Traitor::new(rules(Mode::Traitor, Commitment::Standard)).unwrap();
    for observer in [Color::White, Color::Black] {
        let obs = observation(&pos, observer);
        assert_eq!(
            nonzero(plane(&pos, &obs, "own_colour_pawn")),
            (8..16).map(|i| (i, 1.0)).collect::<Vec<_>>()
        );
        assert_eq!(nonzero(plane(&pos, &obs, "own_colour_king")), [(4, 1.0)]);
        assert_eq!(nonzero(plane(&pos, &obs, "opp_colour_queen")), [(59, 1.0)]);
        assert_eq!(
            nonzero(plane(&pos, &obs, "movable_by_own")),
            (0..16).map(|i| (i, 1.0)).collect::<Vec<_>>()
        );
        assert_eq!(nonzero(plane(&pos, &obs, "movable_by_opp")).len(), 16);
        for name in [
            "traitor",
            "announced_by_own",
            "announced_this_turn",
            "own_secret_pieces",
            "en_passant",
        ] {
            assert!(nonzero(plane(&pos, &obs, name)).is_empty(), "{name}");
        }
        assert_eq!(constant(plane(&pos, &obs, "own_budget")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "opp_budget")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "step_select")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "step_open")), 0.0);
        assert_eq!(constant(plane(&pos, &obs, "own_castle_king_side")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "opp_castle_queen_side")), 1.0);
        assert_eq!(constant(plane(&pos, &obs, "no_progress")), 0.0);
        check_side_planes(&pos, &obs, observer);
    }
    // Simplified: the secret counts appear once chosen (S-NPP), for the
    // chooser only.
    let mut pos = Traitor::new(rules(Mode::Traitor, Commitment::Simplified)).unwrap();
    pos.play(&pos.parse_action("S-NPP").unwrap()).unwrap();
    let obs = observation(&pos, Color::White);
    assert_eq!(constant(plane(&pos, &obs, "own_secret_pawns")), 0.25);
    assert_eq!(constant(plane(&pos, &obs, "own_secret_knights")), 0.125);
    assert_eq!(constant(plane(&pos, &obs, "own_secret_queens")), 0.0);
    let obs = observation(&pos, Color::Black);
    assert_eq!(constant(plane(&pos, &obs, "own_secret_pawns")), 0.0);
    assert_eq!(constant(plane(&pos, &obs, "own_secret_knights")), 0.0);
    assert_eq!(constant(plane(&pos, &obs, "observer_to_act")), 1.0);
}

/// The text's sample game after 5...(T-Rh1): White chose Qd8, Black Rh1,
/// Bc1 and g2; the h1 rook (castled to f1) is Black's traitor.
const SAMPLE: &str = "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -";

#[test]
fn mid_game_observation() {
    let pos = position(SAMPLE, rules(Mode::Traitor, Commitment::Standard));
    let black = observation(&pos, Color::Black);
    // Black sees the board flipped: f1 is its f8 (61).
    assert_eq!(nonzero(plane(&pos, &black, "traitor")), [(61, 1.0)]);
    assert_eq!(
        nonzero(plane(&pos, &black, "announced_by_own")),
        [(61, 1.0)]
    );
    assert!(nonzero(plane(&pos, &black, "announced_by_opp")).is_empty());
    assert!(plane(&pos, &black, "movable_by_own")[61] == 1.0);
    assert!(plane(&pos, &black, "movable_by_opp")[61] == 0.0);
    // A White-coloured rook: the opponent colour's rook plane, from Black's side.
    assert_eq!(
        nonzero(plane(&pos, &black, "opp_colour_rook")),
        [(56, 1.0), (61, 1.0)]
    );
    // Black's remaining secret: the c1 bishop and the g2 pawn (c8, g7 flipped).
    assert_eq!(
        nonzero(plane(&pos, &black, "own_secret_pieces")),
        [(54, 1.0), (58, 1.0)]
    );
    assert_eq!(constant(plane(&pos, &black, "own_budget")), 4.0 / 9.0);
    assert_eq!(constant(plane(&pos, &black, "opp_budget")), 1.0);
    assert_eq!(constant(plane(&pos, &black, "step_open")), 1.0);
    assert_eq!(constant(plane(&pos, &black, "own_castle_king_side")), 1.0);
    assert_eq!(constant(plane(&pos, &black, "opp_castle_king_side")), 0.0);
    assert_eq!(constant(plane(&pos, &black, "observer_to_act")), 0.0);
    let white = observation(&pos, Color::White);
    // White's secret is the d8 queen, still on d8.
    assert_eq!(
        nonzero(plane(&pos, &white, "own_secret_pieces")),
        [(59, 1.0)]
    );
    // Black's 16 pieces and its traitor on f1.
    assert_eq!(nonzero(plane(&pos, &white, "movable_by_opp")).len(), 17);
    assert!(plane(&pos, &white, "movable_by_opp")[5] == 1.0);
    assert_eq!(constant(plane(&pos, &white, "own_budget")), 1.0);
    assert_eq!(constant(plane(&pos, &white, "opp_budget")), 4.0 / 9.0);
    assert_eq!(constant(plane(&pos, &white, "observer_to_act")), 1.0);
    // The view writes the same tensor as the full state.
    for observer in [Color::White, Color::Black] {
        let view = pos.view(observer);
        let mut out = vec![f32::NAN; view.num_channels() * 64];
        view.encode(&mut out);
        assert_eq!(bits(&out), bits(&observation(&pos, observer)));
    }
}

/// The other player's secret, replaced: `pos` with `opponent`'s secret
/// set to `secret` (a full state that differs in nothing else).
fn with_secret(pos: &Traitor, player: Color, secret: Secret) -> Traitor {
    let mut setup = pos.to_setup();
    setup.secrets[player.index()] = Some(secret);
    Traitor::from_setup(setup, *pos.rules()).unwrap()
}

/// Along random games, states that differ only in one player's secret
/// (every secret the public history allows, drawn by the view's sampler)
/// give the other player bit-identical observations; the owner's own
/// observation does change, so the comparison has teeth.
#[test]
fn observations_never_leak_the_opponents_secret() {
    for commitment in [Commitment::Standard, Commitment::Simplified] {
        for mode in [Mode::Traitor, Mode::Defector, Mode::Mercenary] {
            let rules = rules(mode, commitment);
            let mut rng = ChaCha8Rng::seed_from_u64(77);
            let mut pos = Traitor::new(rules).unwrap();
            // The selection phase: two different White selections, Black to act.
            let mut actions = Vec::new();
            pos.legal_actions(&mut actions);
            let a = with_selection(&pos, actions[3]);
            let b = with_selection(&pos, actions[40]);
            assert_ne!(a.secret(Color::White), b.secret(Color::White));
            let black = [observation(&a, Color::Black), observation(&b, Color::Black)];
            assert_eq!(first_difference(&a, &black[0], &black[1]), None);
            let white = [observation(&a, Color::White), observation(&b, Color::White)];
            assert!(first_difference(&a, &white[0], &white[1]).is_some());
            let mut own_changed = 0;
            let mut announced_states = 0;
            let mut checked = 0;
            for _ply in 0..120 {
                pos.legal_actions(&mut actions);
                if actions.is_empty() || pos.outcome().is_some() {
                    break;
                }
                if pos.step() != Step::Select {
                    for owner in [Color::White, Color::Black] {
                        let other = !owner;
                        let view = pos.view(other);
                        for secret in view.possible_opponent_secrets().into_iter().take(6) {
                            let twin = with_secret(&pos, owner, secret);
                            let seen = observation(&pos, other);
                            assert_eq!(
                                first_difference(&pos, &observation(&twin, other), &seen),
                                None,
                                "{other} sees {owner}'s secret in {}",
                                pos.fen()
                            );
                            if secret != pos.secret(owner) {
                                assert_ne!(twin.repetition_key(), pos.repetition_key());
                                if bits(&observation(&twin, owner))
                                    != bits(&observation(&pos, owner))
                                {
                                    own_changed += 1;
                                }
                            }
                            checked += 1;
                        }
                    }
                    if pos.used(Color::White).any() || pos.used(Color::Black).any() {
                        announced_states += 1;
                    }
                }
                // Prefer announcements, so that the games reach them.
                let announce = actions
                    .iter()
                    .copied()
                    .find(|a| matches!(a, TraitorAction::Announce(_)))
                    .filter(|_| rng.random_range(0..4) == 0);
                let action =
                    announce.unwrap_or_else(|| actions[rng.random_range(0..actions.len())]);
                pos.play(&action).unwrap();
            }
            assert!(checked > 300, "{mode:?} {commitment:?}: {checked}");
            assert!(own_changed > 50, "{mode:?} {commitment:?}: {own_changed}");
            assert!(
                announced_states > 5,
                "{mode:?} {commitment:?}: {announced_states}"
            );
        }
    }
}

fn with_selection(pos: &Traitor, action: TraitorAction) -> Traitor {
    let mut next = pos.clone();
    next.play(&action).unwrap();
    next
}

#[test]
fn defector_status_planes() {
    // Defector, Impromptu: White made Black's g8 knight defect; it now
    // stands on f5 as a White piece, and Black may not make it defect back
    // at once (T5).
    let pos = position(
        "rnbqkb1r/pppppppp/8/5N2/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1 f5=g8 - 6,9 g8/- -/- open - g8",
        rules(Mode::Defector, Commitment::Impromptu),
    );
    assert_eq!(start_piece(Square::G8), Some((Color::Black, Role::Knight)));
    let black = observation(&pos, Color::Black);
    // f5 is f4 (29) from Black's side.
    assert_eq!(nonzero(plane(&pos, &black, "defected")), [(29, 1.0)]);
    assert_eq!(
        nonzero(plane(&pos, &black, "announced_by_opp")),
        [(29, 1.0)]
    );
    assert_eq!(nonzero(plane(&pos, &black, "undo_forbidden")), [(29, 1.0)]);
    assert_eq!(plane(&pos, &black, "opp_colour_knight")[29], 1.0);
    assert_eq!(plane(&pos, &black, "movable_by_opp")[29], 1.0);
    assert_eq!(plane(&pos, &black, "movable_by_own")[29], 0.0);
    assert_eq!(constant(plane(&pos, &black, "opp_budget")), 6.0 / 9.0);
    assert_eq!(constant(plane(&pos, &black, "no_progress")), 0.01);
    let white = observation(&pos, Color::White);
    assert_eq!(nonzero(plane(&pos, &white, "defected")), [(37, 1.0)]);
    assert_eq!(
        nonzero(plane(&pos, &white, "announced_by_own")),
        [(37, 1.0)]
    );
}

#[test]
fn batched_environment_reads_the_rule_options() {
    use heterodox_env::{make_batch_env, EnvConfig, RuleOptions, Variant};
    let mut options = RuleOptions::new();
    options
        .set("mode", "mercenary")
        .set("commitment", "simplified")
        .set("selection", "random")
        .set("seed", "3");
    let env = make_batch_env(Variant::Traitor, &options, EnvConfig::new(4).with_seed(1)).unwrap();
    assert_eq!(env.num_actions(), 4785);
    // 37 planes (Simplified, with the ko plane) and two repetition planes.
    assert_eq!(env.observation_shape(), [37 + 2, 8, 8]);
    // Random selections: play starts at once, and the games' secrets
    // come from the games' seeds, so the four envs do not all agree.
    let fens: Vec<String> = (0..4).map(|i| env.fen(i).unwrap()).collect();
    assert!(fens.iter().all(|fen| fen.contains(" open ")), "{fens:?}");
    assert!(fens.iter().any(|fen| *fen != fens[0]), "{fens:?}");
    let default = make_batch_env(Variant::Traitor, &RuleOptions::new(), EnvConfig::new(1)).unwrap();
    assert_eq!(default.num_actions(), 6940);
    assert_eq!(default.legal_moves(0).unwrap().len(), 2204);
    let mut fixed = RuleOptions::new();
    fixed.set("selection", "fixed");
    assert!(make_batch_env(Variant::Traitor, &fixed, EnvConfig::new(1)).is_err());
    let mut unknown = RuleOptions::new();
    unknown.set("mode", "spy");
    let message = make_batch_env(Variant::Traitor, &unknown, EnvConfig::new(1))
        .err()
        .unwrap()
        .to_string();
    assert!(message.contains("mercenary"), "{message}");
}
