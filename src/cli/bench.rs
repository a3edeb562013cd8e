//! `heterodox bench`: the engine's fixed benchmark. Per variant the number
//! of positions, nodes and nodes per second, then the total: its node
//! count is the search's signature (it changes exactly when the search
//! does), its nodes per second the speed on this machine.

use clap::Args;
use heterodox_engine::bench;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of every search (1 to 64).
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let results = bench::run(args.depth).map_err(|e| e.to_string())?;
    let mut out = String::new();
    let mut nodes = 0;
    let mut seconds = 0.0;
    for result in &results {
        out.push_str(&format!(
            "{:<14} positions {:>2} nodes {:>10} nps {:>9}\n",
            result.variant.name(),
            result.positions,
            result.nodes,
            result.nodes_per_second()
        ));
        nodes += result.nodes;
        seconds += result.elapsed.as_secs_f64();
    }
    out.push_str(&format!(
        "total nodes {nodes} time {seconds:.3} s nps {:.0}\n",
        nodes as f64 / seconds.max(1e-9)
    ));
    super::print_stdout(&out);
    Ok(())
}
