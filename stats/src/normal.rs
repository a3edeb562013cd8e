//! The standard normal distribution: its cdf and upper tail, its quantile,
//! and two-sided p-values of z statistics.
//!
//! Two cdfs live here. [`cdf`] and [`sf`] are accurate to about 1e-13
//! relative everywhere (the tail included): a power series of erf below 2
//! and Lentz's continued fraction of erfc above. [`cdf_chebyshev`] is the
//! Chebyshev fit `erfcc` of Numerical Recipes (fractional error below
//! 1.2e-7), which the command line's claims use: [`two_sided_p_chebyshev`]
//! and the p-values of [`crate::mean::Difference`] and
//! [`crate::regression`] come from it, so that the claims' published
//! numbers stay the same. Everything else uses the accurate one.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// `P(Z <= x)`, accurate to about 1e-13 relative.
pub fn cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The upper tail `P(Z > x)`, accurate to about 1e-13 relative however
/// far in the tail (no `1 - cdf` cancellation).
pub fn sf(x: f64) -> f64 {
    0.5 * erfc(x / std::f64::consts::SQRT_2)
}

/// The density `exp(-x^2 / 2) / sqrt(2 pi)`.
pub fn pdf(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Two-sided p-value of a z statistic, `2 P(Z > |z|)`, accurate in the
/// tail; 1 for NaN, 0 for an infinite `z`.
pub fn two_sided_p(z: f64) -> f64 {
    if z.is_nan() {
        return 1.0;
    }
    (2.0 * sf(z.abs())).clamp(0.0, 1.0)
}

/// The complementary error function, to about 1e-13 relative: for
/// `|x| < 2` one minus the series `erf x = 2/sqrt(pi) e^(-x^2)
/// sum 2^n x^(2n+1) / (2n+1)!!` (positive terms, no cancellation), above
/// the continued fraction `erfc x = e^(-x^2) / sqrt(pi) / (x + (1/2) / (x +
/// 1 / (x + (3/2) / (x + ...))))` by Lentz's method.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.0 {
        let x2 = 2.0 * x * x;
        let (mut term, mut sum) = (x, x);
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= x2 / (2.0 * n + 1.0);
            sum += term;
            if term <= 1e-17 * sum {
                break;
            }
        }
        return 1.0 - FRAC_2_SQRT_PI * (-x * x).exp() * sum;
    }
    if x > 27.3 {
        // erfc(27.3) < 1e-324: below the smallest subnormal.
        return 0.0;
    }
    const TINY: f64 = 1e-300;
    let (mut f, mut c, mut d) = (x, x, 0.0f64);
    for n in 1..1000 {
        let a = f64::from(n) / 2.0;
        d = x + a * d;
        if d == 0.0 {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c == 0.0 {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

/// The quantile `x` with `P(Z <= x) = p`: Wichura's algorithm AS 241
/// (PPND16, Applied Statistics 37, 1988), relative error about 1e-16;
/// `-inf` at 0, `+inf` at 1, NaN outside [0, 1].
pub fn quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        let r = 0.180_625 - q * q;
        return q * polynomial(&AS241_A, r) / polynomial(&AS241_B, r);
    }
    let r = if q < 0.0 { p } else { 1.0 - p };
    let r = (-r.ln()).sqrt();
    let value = if r <= 5.0 {
        let r = r - 1.6;
        polynomial(&AS241_C, r) / polynomial(&AS241_D, r)
    } else {
        let r = r - 5.0;
        polynomial(&AS241_E, r) / polynomial(&AS241_F, r)
    };
    if q < 0.0 {
        -value
    } else {
        value
    }
}

/// The normal quantile of a two-sided interval at `confidence` (1.96 at
/// 0.95): `-quantile((1 - confidence) / 2)`, exact to the last bits even
/// for a confidence near 1. NaN outside (0, 1).
pub fn z_of_confidence(confidence: f64) -> f64 {
    if !(confidence > 0.0 && confidence < 1.0) {
        return f64::NAN;
    }
    -quantile((1.0 - confidence) / 2.0)
}

/// `c[0] + c[1] x + ... + c[7] x^7` (Horner).
fn polynomial(c: &[f64; 8], x: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * x + k)
}

#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_A: [f64; 8] = [
    3.387_132_872_796_366_608,
    1.331_416_678_917_843_774_5e2,
    1.971_590_950_306_551_442_7e3,
    1.373_169_376_550_946_112_5e4,
    4.592_195_393_154_987_145_7e4,
    6.726_577_092_700_870_085_3e4,
    3.343_057_558_358_812_810_5e4,
    2.509_080_928_730_122_672_7e3,
];
#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_B: [f64; 8] = [
    1.0,
    4.231_333_070_160_091_125_2e1,
    6.871_870_074_920_579_083_0e2,
    5.394_196_021_424_751_107_7e3,
    2.121_379_430_158_659_586_7e4,
    3.930_789_580_009_271_061_0e4,
    2.872_908_573_572_194_267_4e4,
    5.226_495_278_852_854_561_0e3,
];
#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_C: [f64; 8] = [
    1.423_437_110_749_683_577_34,
    4.630_337_846_156_545_295_90,
    5.769_497_221_460_691_405_50,
    3.647_848_324_763_204_605_04,
    1.270_458_252_452_368_382_58,
    2.417_807_251_774_506_117_70e-1,
    2.272_384_498_926_918_458_33e-2,
    7.745_450_142_783_414_076_40e-4,
];
#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_D: [f64; 8] = [
    1.0,
    2.053_191_626_637_758_821_87,
    1.676_384_830_183_803_849_40,
    6.897_673_349_851_000_045_50e-1,
    1.481_039_764_274_800_745_90e-1,
    1.519_866_656_361_645_719_66e-2,
    5.475_938_084_995_344_946_00e-4,
    1.050_750_071_644_416_843_24e-9,
];
#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_E: [f64; 8] = [
    6.657_904_643_501_103_777_20,
    5.463_784_911_164_114_369_90,
    1.784_826_539_917_291_335_80,
    2.965_605_718_285_048_912_30e-1,
    2.653_218_952_657_612_309_30e-2,
    1.242_660_947_388_078_438_60e-3,
    2.711_555_568_743_487_578_15e-5,
    2.010_334_399_292_288_132_65e-7,
];
#[allow(clippy::excessive_precision)] // Wichura's published digits.
const AS241_F: [f64; 8] = [
    1.0,
    5.998_322_065_558_879_376_90e-1,
    1.369_298_809_227_358_053_10e-1,
    1.487_536_129_085_061_485_25e-2,
    7.868_691_311_456_132_591_00e-4,
    1.846_318_317_510_054_681_80e-5,
    1.421_511_758_316_445_888_70e-7,
    2.044_263_103_389_939_785_64e-15,
];

/// The claims' normal cdf: the Chebyshev fit `erfcc` of Numerical Recipes
/// (fractional error below 1.2e-7 everywhere). Kept, rather than [`cdf`],
/// wherever the claims' numbers come from, so that they do not change.
pub fn cdf_chebyshev(x: f64) -> f64 {
    0.5 * erfc_chebyshev(-x / std::f64::consts::SQRT_2)
}

fn erfc_chebyshev(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The claims' two-sided p-value of a z statistic, `2 (1 - cdf(|z|))` with
/// [`cdf_chebyshev`]: absolute error below 2.4e-7 (it loses the relative
/// precision of p-values below about 1e-9, which the claims never
/// print); 1 for NaN, 0 for an infinite `z`. [`two_sided_p`] is the
/// accurate one.
pub fn two_sided_p_chebyshev(z: f64) -> f64 {
    if !z.is_finite() {
        return if z.is_nan() { 1.0 } else { 0.0 };
    }
    (2.0 * (1.0 - cdf_chebyshev(z.abs()))).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_distribution_values() {
        // The claims' fit, as the claims tested it.
        assert!((cdf_chebyshev(0.0) - 0.5).abs() < 1e-7);
        assert!((cdf_chebyshev(1.959_963_984_540_054) - 0.975).abs() < 1e-7);
        assert!((cdf_chebyshev(-1.0) - 0.158_655_253_931_457).abs() < 1e-7);
        assert!((two_sided_p_chebyshev(1.959_963_984_540_054) - 0.05).abs() < 1e-7);
        assert_eq!(two_sided_p_chebyshev(f64::NAN), 1.0);
        assert_eq!(two_sided_p_chebyshev(f64::INFINITY), 0.0);
    }

    #[test]
    fn accurate_cdf_and_tail() {
        // scipy.stats.norm.cdf / .sf (Cephes ndtr), to 1e-12 relative.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
        assert_eq!(cdf(0.0), 0.5);
        assert!(close(cdf(-1.0), 0.158_655_253_931_457_07));
        assert!(close(cdf(1.959_963_984_540_054), 0.975));
        assert!(close(sf(3.0), 0.001_349_898_031_630_093_3));
        assert!(close(sf(8.0), 6.220_960_574_271_74e-16));
        assert!(close(sf(30.0), 4.906_713_927_147_908e-198));
        assert!(close(two_sided_p(2.5), 0.012_419_330_651_552_265));
        assert_eq!(sf(40.0), 0.0);
        assert_eq!(two_sided_p(f64::NAN), 1.0);
        assert_eq!(two_sided_p(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn quantiles() {
        // scipy.stats.norm.ppf.
        assert_eq!(quantile(0.5), 0.0);
        assert!((quantile(0.975) - Z95).abs() < 1e-15);
        assert!((z_of_confidence(0.95) - Z95).abs() < 1e-15);
        assert!((quantile(0.001) - -3.090_232_306_167_813).abs() < 1e-14);
        assert!((quantile(1e-20) - -9.262_340_089_798_409).abs() < 1e-13);
        assert!((quantile(0.8) - 0.841_621_233_572_914_3).abs() < 1e-15);
        assert_eq!(quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(quantile(1.0), f64::INFINITY);
        assert!(quantile(1.5).is_nan() && quantile(f64::NAN).is_nan());
        // Round trips through the accurate cdf.
        for &p in &[1e-12, 0.01, 0.2, 0.6, 0.9, 0.999_999] {
            assert!((cdf(quantile(p)) - p).abs() < 1e-13 * p, "{p}");
        }
    }
}
