//! The pieces of Gumbel AlphaZero (Danihelka, Guez, Schrittwieser, Silver:
//! "Policy improvement by planning with Gumbel", ICLR 2022) that do not
//! depend on the tree: the visit schedule of sequential halving, the
//! monotone transform `sigma`, the completed Q-values and the improved
//! policy.

/// For each simulation `s` of a search with `considered` root actions and
/// `simulations` simulations, the visit count an action must have to be
/// chosen at simulation `s`. Sequential halving: `log2(considered)` phases;
/// each phase visits every remaining action equally, then halves them.
pub fn considered_visit_schedule(considered: usize, simulations: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let phases = (considered as f64).log2().ceil().max(1.0) as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut remaining = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (phases * remaining)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..remaining]);
            for v in &mut visits[..remaining] {
                *v += 1;
            }
        }
        remaining = (remaining / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// `sigma(q) = (c_visit + max_b N(b)) * c_scale * q` for `q` in [0, 1].
#[inline]
pub fn sigma(q: f32, max_visits: u32, c_visit: f32, c_scale: f32) -> f32 {
    (c_visit + max_visits as f32) * c_scale * q
}

/// The value that completes the Q-values of unvisited actions: the node's
/// own value estimate mixed with the prior-weighted mean Q of the visited
/// actions (appendix D of the paper).
pub fn mixed_value(raw_value: f32, priors: &[f32], q: &[f32], visits: &[u32]) -> f32 {
    let total: u32 = visits.iter().sum();
    if total == 0 {
        return raw_value;
    }
    let mut visited_prior = 0.0f32;
    let mut weighted = 0.0f32;
    for ((&p, &qv), &n) in priors.iter().zip(q).zip(visits) {
        if n > 0 {
            let p = p.max(f32::MIN_POSITIVE);
            visited_prior += p;
            weighted += p * qv;
        }
    }
    let weighted_q = if visited_prior > 0.0 {
        weighted / visited_prior
    } else {
        0.0
    };
    (raw_value + total as f32 * weighted_q) / (total as f32 + 1.0)
}

/// Completes and transforms Q-values in place: unvisited actions take
/// `mixed_value`, then all are rescaled to [0, 1] by their range (values
/// in [-1, 1] otherwise) and mapped through `sigma`. `q` holds the
/// visited actions' mean values (from the acting player's side) on entry.
pub fn completed_sigma(
    raw_value: f32,
    priors: &[f32],
    q: &mut [f32],
    visits: &[u32],
    c_visit: f32,
    c_scale: f32,
) {
    let mix = mixed_value(raw_value, priors, q, visits);
    for (qv, &n) in q.iter_mut().zip(visits) {
        if n == 0 {
            *qv = mix;
        }
    }
    let (lo, hi) = q
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let max_visits = visits.iter().copied().max().unwrap_or(0);
    for qv in q.iter_mut() {
        let unit = if hi > lo { (*qv - lo) / (hi - lo) } else { 0.5 };
        *qv = sigma(unit, max_visits, c_visit, c_scale);
    }
}

/// `softmax(logits + sigma(completed q))` into `out`.
pub fn improved_policy(logits: &[f32], sigma_q: &[f32], out: &mut [f32]) {
    let mut max = f32::NEG_INFINITY;
    for (o, (&l, &s)) in out.iter_mut().zip(logits.iter().zip(sigma_q)) {
        *o = l + s;
        max = max.max(*o);
    }
    let mut total = 0.0;
    for o in out.iter_mut() {
        *o = (*o - max).exp();
        total += *o;
    }
    for o in out.iter_mut() {
        *o /= total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_halves_the_considered_actions() {
        // 4 actions, 16 simulations: phase 1 gives each of 4 two visits
        // (16 / (2 * 4) = 2 rounds), phase 2 gives the best 2 four more.
        assert_eq!(
            considered_visit_schedule(4, 16),
            [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        );
        assert_eq!(considered_visit_schedule(1, 3), [0, 1, 2]);
        assert_eq!(considered_visit_schedule(2, 4), [0, 0, 1, 1]);
    }

    #[test]
    fn mixed_value_and_improved_policy() {
        // Nothing visited: the raw value.
        assert_eq!(mixed_value(0.25, &[0.5, 0.5], &[0.0, 0.0], &[0, 0]), 0.25);
        // One action visited 3 times with q = 1: (0 + 3 * 1) / 4.
        assert_eq!(mixed_value(0.0, &[0.5, 0.5], &[1.0, 0.0], &[3, 0]), 0.75);
        let mut out = [0.0; 2];
        improved_policy(&[0.0, 0.0], &[1.0, 0.0], &mut out);
        let e = std::f32::consts::E;
        assert!((out[0] - e / (e + 1.0)).abs() < 1e-6);
    }
}
