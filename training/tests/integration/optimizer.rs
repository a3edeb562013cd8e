//! The optimizer reproduces `torch.optim.SGD` (momentum, weight decay,
//! Nesterov) exactly, and its state survives a save and a load.

use std::path::PathBuf;

use heterodox_models::tch::{nn, Device, Kind, Tensor};
use heterodox_training::trainer::config::{OptimizerConfig, Schedule};
use heterodox_training::trainer::optimizer::Sgd;

fn config(nesterov: bool) -> OptimizerConfig {
    OptimizerConfig {
        learning_rate: 0.1,
        momentum: 0.9,
        weight_decay: 0.01,
        nesterov,
        warmup_steps: 0,
        schedule: Schedule::Constant,
        decay_steps: 1,
        final_fraction: 1.0,
    }
}

/// A store with one variable `name = values`.
fn store_with(name: &str, values: &[f32]) -> (nn::VarStore, Tensor) {
    let vs = nn::VarStore::new(Device::Cpu);
    let var = vs.root().var_copy(name, &Tensor::from_slice(values));
    (vs, var)
}

/// A store with one variable `w = [1, -2]`.
fn store() -> (nn::VarStore, Tensor) {
    store_with("w", &[1.0, -2.0])
}

/// [`store`] and an optimizer of `config(nesterov)` that has taken one
/// step of the loss below.
fn after_one_step(nesterov: bool) -> (nn::VarStore, Tensor, Sgd) {
    let (vs, w) = store();
    let mut sgd = Sgd::new(config(nesterov));
    backward(&w);
    sgd.step(&vs, 0.1).unwrap();
    (vs, w, sgd)
}

/// A fresh directory `name` under the system's temporary directory, and
/// the path of an optimizer state in it.
fn state_path(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("optimizer.safetensors");
    (dir, path)
}

/// `loss = sum(w * [0.5, 1.5])`, so the gradient is `[0.5, 1.5]`.
fn backward(w: &Tensor) {
    (w * Tensor::from_slice(&[0.5f32, 1.5]))
        .sum(Kind::Float)
        .backward();
}

fn values(t: &Tensor) -> Vec<f32> {
    Vec::<f32>::try_from(t.detach()).unwrap()
}

fn assert_close(found: &[f32], expected: &[f32]) {
    for (f, e) in found.iter().zip(expected) {
        assert!((f - e).abs() < 1e-6, "{found:?} != {expected:?}");
    }
}

#[test]
fn sgd_steps_equal_torch_optim_sgd() {
    // Expected values printed by PyTorch 2.11:
    //   torch.optim.SGD([w], lr=0.1, momentum=0.9, weight_decay=0.01,
    //                   nesterov=...), two steps of the loss above.
    for (nesterov, first, second) in [
        (false, [0.949, -2.148], [0.852_151, -2.429_052]),
        (true, [0.9031, -2.2812], [0.765_074, -2.681_746]),
    ] {
        let (vs, w) = store();
        let mut sgd = Sgd::new(config(nesterov));
        backward(&w);
        sgd.step(&vs, 0.1).unwrap();
        assert_close(&values(&w), &first);
        backward(&w);
        sgd.step(&vs, 0.1).unwrap();
        assert_close(&values(&w), &second);
    }
}

#[test]
fn gradients_are_cleared_after_a_step() {
    let (_vs, w, _sgd) = after_one_step(false);
    backward(&w);
    // Not accumulated: the gradient is the second backward's alone.
    assert_close(&values(&w.grad()), &[0.5, 1.5]);
}

#[test]
fn a_saved_state_resumes_the_same_trajectory() {
    let (dir, path) = state_path("hdx-sgd");
    let (vs, w, mut sgd) = after_one_step(true);
    sgd.save(&path).unwrap();
    // A fresh optimizer over a copy of the variables, loaded from the file,
    // takes the same second step as the original.
    let (vs2, w2) = store();
    heterodox_models::tch::no_grad(|| w2.detach().copy_(&w));
    let mut resumed = Sgd::new(config(true));
    resumed.load(&path, &vs2).unwrap();
    backward(&w);
    sgd.step(&vs, 0.1).unwrap();
    backward(&w2);
    resumed.step(&vs2, 0.1).unwrap();
    assert_eq!(values(&w), values(&w2));
    assert_close(&values(&w2), &[0.765_074, -2.681_746]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_state_for_another_network_is_refused_and_changes_nothing() {
    let (dir, path) = state_path("hdx-sgd-bad");
    let (vs, _w, sgd) = after_one_step(false);
    sgd.save(&path).unwrap();

    let (other, _v) = store_with("w", &[1.0, 2.0, 3.0]);
    let mut fresh = Sgd::new(config(false));
    let e = fresh.load(&path, &other).unwrap_err().to_string();
    assert!(
        e.contains("optimizer buffer \"w\" has shape [2], the variable [3]"),
        "{e}"
    );

    let (renamed, _u) = store_with("u", &[1.0, 2.0]);
    let e = fresh.load(&path, &renamed).unwrap_err().to_string();
    assert!(
        e.contains("buffer for \"w\", which is not a trainable variable"),
        "{e}"
    );

    std::fs::write(&path, b"not a safetensors file").unwrap();
    let e = fresh.load(&path, &vs).unwrap_err().to_string();
    assert!(e.contains("cannot read optimizer state"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn learning_rate_schedules() {
    let mut c = config(false);
    c.learning_rate = 0.2;
    c.warmup_steps = 4;
    let sgd = Sgd::new(c.clone());
    let rates: Vec<f64> = (0..6).map(|s| sgd.learning_rate(s)).collect();
    for (r, e) in rates.iter().zip([0.05, 0.1, 0.15, 0.2, 0.2, 0.2]) {
        assert!((r - e).abs() < 1e-12, "{rates:?}");
    }
    c.warmup_steps = 0;
    c.schedule = Schedule::Cosine;
    c.decay_steps = 100;
    c.final_fraction = 0.1;
    let sgd = Sgd::new(c);
    assert!((sgd.learning_rate(0) - 0.2).abs() < 1e-12);
    // Half-way: the mean of the start and the end.
    assert!((sgd.learning_rate(50) - 0.11).abs() < 1e-12);
    assert!((sgd.learning_rate(100) - 0.02).abs() < 1e-12);
    assert!((sgd.learning_rate(10_000) - 0.02).abs() < 1e-12);
}
