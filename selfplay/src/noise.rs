//! Root noise from the crate's seeded generator: Gumbel(0, 1) for Gumbel
//! AlphaZero and Dirichlet for AlphaZero's exploration. Written out here
//! (a few lines each) so that the search depends on nothing but the rules
//! core and replays exactly from its seed.

use heterodox_env::rng::SplitMix64;

/// Uniform in the open interval (0, 1).
fn open_unit(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (open_unit(rng), open_unit(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gumbel(0, 1) draw: `-ln(-ln U)`.
pub fn gumbel(rng: &mut SplitMix64) -> f32 {
    (-(-open_unit(rng).ln()).ln()) as f32
}

/// A Gamma(`shape`, 1) draw (Marsaglia and Tsang 2000; shapes below 1 by
/// the `U^(1/shape)` boost).
pub fn gamma(shape: f64, rng: &mut SplitMix64) -> f64 {
    if shape < 1.0 {
        return gamma(shape + 1.0, rng) * open_unit(rng).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = open_unit(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Fills `out` with a symmetric Dirichlet(`alpha`) draw.
pub fn dirichlet(alpha: f32, rng: &mut SplitMix64, out: &mut [f32]) {
    let mut total = 0.0;
    for x in out.iter_mut() {
        let g = gamma(f64::from(alpha), rng);
        *x = g as f32;
        total += g;
    }
    if total > 0.0 {
        for x in out.iter_mut() {
            *x = (f64::from(*x) / total) as f32;
        }
    } else {
        out.fill(1.0 / out.len() as f32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_and_gumbel_moments() {
        let mut rng = SplitMix64::new(5);
        let n = 200_000;
        for shape in [0.3, 1.0, 2.5] {
            let mean = (0..n).map(|_| gamma(shape, &mut rng)).sum::<f64>() / n as f64;
            assert!(
                (mean - shape).abs() < 0.02 * shape.max(1.0),
                "{shape}: {mean}"
            );
        }
        // Gumbel(0, 1) has mean Euler's gamma, 0.5772.
        let mean = (0..n).map(|_| f64::from(gumbel(&mut rng))).sum::<f64>() / n as f64;
        assert!((mean - 0.5772).abs() < 0.01, "{mean}");
        let mut d = [0.0; 5];
        dirichlet(0.3, &mut rng, &mut d);
        assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
}
