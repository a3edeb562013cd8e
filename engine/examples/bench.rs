//! `cargo run --release -p heterodox-engine --example bench [DEPTH]`: the
//! benchmark without the CLI (per variant nodes and nodes/s, total).

fn main() {
    let depth = std::env::args()
        .nth(1)
        .map_or(heterodox_engine::bench::DEFAULT_DEPTH, |d| {
            d.parse().expect("a depth")
        });
    let results = heterodox_engine::bench::run(depth).expect("the benchmark runs");
    let mut nodes = 0;
    let mut seconds = 0.0;
    for r in &results {
        println!(
            "{:<14} positions {:>2} nodes {:>10} time {:>8.3} s nps {:>9}",
            r.variant.name(),
            r.positions,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second()
        );
        nodes += r.nodes;
        seconds += r.elapsed.as_secs_f64();
    }
    println!(
        "total nodes {nodes} time {seconds:.3} s nps {:.0}",
        nodes as f64 / seconds
    );
}
