//! Development aid: `probe VARIANT FEN|start DEPTH` prints the info lines
//! of a search.
use heterodox_engine::{Engine, EngineConfig, Limits};
use heterodox_env::{new_position, Game, GameVariant, RuleOptions, Variant, VariantVisitor};

struct Probe(Option<String>, u32);

impl VariantVisitor for Probe {
    type Output = ();
    fn visit<P: GameVariant>(self) {
        let pos: P = new_position(self.0.as_deref(), &RuleOptions::new(), 0).unwrap();
        let game = Game::new(pos.clone());
        let mut engine = Engine::<P>::new(EngineConfig::default()).unwrap();
        let report = engine
            .search(&game, &Limits::depth(self.1), |info| {
                let mut p = pos.clone();
                let mut line = String::new();
                for a in &info.pv {
                    line.push_str(&p.notation(a));
                    line.push(' ');
                    p.play_unchecked(a);
                }
                println!(
                    "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                    info.depth,
                    info.seldepth,
                    info.score,
                    info.nodes,
                    info.nps,
                    info.time.as_millis(),
                    line
                );
            })
            .unwrap();
        println!("best {} nodes {}", pos.notation(&report.best), report.nodes);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant: Variant = args[1].parse().unwrap();
    let fen = (args[2] != "start").then(|| args[2].clone());
    variant.visit(Probe(fen, args[3].parse().unwrap()));
}
