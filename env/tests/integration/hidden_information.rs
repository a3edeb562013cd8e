//! Hidden information as an interface: for every secret the public
//! history allows, the observer's view, information-set key and tensor are
//! the same; the sampler produces only such states, uniformly; perfect-
//! information variants implement it trivially.

use heterodox_env::encoding::Encoding;
use heterodox_env::rng::SplitMix64;
use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
use heterodox_env::{Chess, Color, HiddenInformation, Hostage, Position, StateSampler};

fn play(p: &mut Traitor, text: &str) {
    let action = p.parse_step(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(&action).unwrap();
}

fn observation(p: &Traitor, observer: Color) -> Vec<f32> {
    let mut out = vec![f32::NAN; p.num_channels() * 64];
    p.encode(observer, &mut out);
    out
}

/// A Simplified game after both selections and a few moves: Black cannot
/// know what White chose beyond what White announced.
fn simplified_midgame() -> Traitor {
    let mut p = Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Simplified)).unwrap();
    play(&mut p, "S-NPP");
    play(&mut p, "S-RB");
    play(&mut p, "e2e4");
    play(&mut p, "e7e5");
    play(&mut p, "T-d7");
    p
}

/// Every consistent secret gives the same view, key and tensor; the key
/// and tensor of the other player change with the secret.
fn check_every_secret(p: &Traitor, observer: Color) -> usize {
    let view = p.view(observer);
    let sampler = Traitor::sampler(&view);
    let key = p.information_set_key(observer);
    let tensor = observation(p, observer);
    let mut distinct_other_keys = std::collections::HashSet::new();
    for i in 0..sampler.len() {
        let state = sampler.state(i);
        assert_eq!(state.view(observer), view);
        assert_eq!(state.information_set_key(observer), key, "secret {i}");
        assert_eq!(observation(&state, observer), tensor, "secret {i}");
        distinct_other_keys.insert(state.information_set_key(!observer));
    }
    // The opponent can tell its own secrets apart: one key per secret.
    assert_eq!(distinct_other_keys.len(), sampler.len());
    sampler.len()
}

#[test]
fn views_keys_and_tensors_ignore_the_hidden_secret() {
    let p = simplified_midgame();
    let candidates = check_every_secret(&p, Color::Black);
    assert!(candidates > 1, "{candidates}");
    // White knows both: its own secret and Black's (not yet announced)
    // remain hidden from each other symmetrically.
    assert!(check_every_secret(&p, Color::White) > 1);
    // Standard commitment before any announcement: 2204 selections.
    let mut q = Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Standard)).unwrap();
    play(&mut q, "S-d8");
    play(&mut q, "S-a1,b1");
    assert_eq!(check_every_secret(&q, Color::Black), 2204);
}

#[test]
fn keys_differ_when_the_observer_can_tell() {
    let p = simplified_midgame();
    let mut q = p.clone();
    play(&mut q, "d2d4");
    assert_ne!(
        p.information_set_key(Color::Black),
        q.information_set_key(Color::Black)
    );
    // Same board, different own secret: the observer knows its own.
    let mut a = Traitor::new(TraitorRules::new(Mode::Traitor, Commitment::Simplified)).unwrap();
    let mut b = a.clone();
    play(&mut a, "S-NPP");
    play(&mut b, "S-Q");
    assert_ne!(
        a.information_set_key(Color::White),
        b.information_set_key(Color::White)
    );
    // ...which Black cannot see.
    assert_eq!(
        a.information_set_key(Color::Black),
        b.information_set_key(Color::Black)
    );
}

#[test]
fn sampler_is_seeded_and_stays_in_the_information_set() {
    let p = simplified_midgame();
    let view = p.view(Color::Black);
    let sampler = Traitor::sampler(&view);
    let key = p.information_set_key(Color::Black);
    let mut rng = SplitMix64::new(11);
    let mut again = SplitMix64::new(11);
    for _ in 0..500 {
        let state = sampler.sample(&mut rng);
        assert_eq!(state, sampler.sample(&mut again));
        assert_eq!(state.information_set_key(Color::Black), key);
    }
}

/// Upper 0.1% point of the chi-square distribution with `df` degrees of
/// freedom (Wilson-Hilferty approximation, z = 3.090).
fn chi_square_critical(df: f64) -> f64 {
    let z = 3.090;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

#[test]
fn sampler_is_uniform_over_the_consistent_secrets() {
    let p = simplified_midgame();
    let sampler = Traitor::sampler(&p.view(Color::Black));
    let k = sampler.len();
    let per_bucket = 200;
    let draws = k * per_bucket;
    let mut counts = vec![0usize; k];
    let mut rng = SplitMix64::new(2026);
    let secrets = sampler.secrets().to_vec();
    for _ in 0..draws {
        let state = sampler.sample(&mut rng);
        let secret = state.secret(Color::White);
        let bucket = secrets.iter().position(|s| *s == secret).unwrap();
        counts[bucket] += 1;
    }
    let expected = per_bucket as f64;
    let statistic: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi_square_critical((k - 1) as f64);
    assert!(
        statistic < critical,
        "chi-square {statistic:.1} >= {critical:.1} over {k} secrets"
    );
}

#[test]
fn perfect_information_is_trivial() {
    const { assert!(Chess::PERFECT_INFORMATION && !Traitor::PERFECT_INFORMATION) };
    let mut game = heterodox_env::Game::new(Hostage::new());
    game.play_text("e4").unwrap();
    let p = game.position().clone();
    assert_eq!(p.view(Color::Black).fen(), p.fen());
    assert_eq!(p.information_set_key(Color::Black), p.repetition_key());
    let sampler = Hostage::sampler(&p.view(Color::White));
    assert_eq!(sampler.len(), 1);
    assert_eq!(sampler.sample(&mut SplitMix64::new(3)).fen(), p.fen());
}
