//! The priors of a leaf from its legal logits: a softmax, on its own so
//! that the numerics (max-subtracted, non-finite in, non-finite out) are
//! read in one place.

/// `out = softmax(logits)`, max-subtracted. Non-finite logits give
/// non-finite priors, which the search replaces by uniform ones.
#[inline]
pub(crate) fn softmax(logits: &[f32], out: &mut [f32]) {
    let max = logits.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x));
    let mut sum = 0.0f32;
    for (o, &x) in out.iter_mut().zip(logits) {
        let e = (x - max).exp();
        *o = e;
        sum += e;
    }
    let inv = 1.0 / sum;
    for o in out.iter_mut() {
        *o *= inv;
    }
}
