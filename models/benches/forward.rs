//! Inference throughput of the default network on the CPU, the number that
//! bounds self-play speed: one position (MCTS leaf) and a batch of 64
//! (batched leaf evaluation), in evaluation mode without autograd.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use heterodox_models::tch::{self, Device, Kind, Tensor};
use heterodox_models::{NetConfig, Network};

fn forward(c: &mut Criterion) {
    let config = NetConfig::default();
    let net = Network::new(&config, Device::Cpu).expect("default config is valid");
    let mut group = c.benchmark_group("forward/default");
    for batch in [1_i64, 64] {
        let xs = Tensor::randn(
            [
                batch,
                config.input_channels as i64,
                config.board_height as i64,
                config.board_width as i64,
            ],
            (Kind::Float, Device::Cpu),
        );
        group.throughput(Throughput::Elements(batch as u64));
        group.bench_with_input(BenchmarkId::from_parameter(batch), &xs, |b, xs| {
            b.iter(|| tch::no_grad(|| net.forward_t(xs, false)))
        });
    }
    group.finish();
}

criterion_group!(benches, forward);
criterion_main!(benches);
