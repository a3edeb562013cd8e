mod common;
use heterodox_env::{new_position, GameVariant, RuleOptions, Variant, VariantVisitor, Position};

struct V(String, u32);
impl VariantVisitor for V {
    type Output = ();
    fn visit<P: GameVariant>(self) {
        let Ok(pos) = new_position::<P>(Some(&self.0), &RuleOptions::new(), 0) else { return };
        if pos.outcome().is_some() { return; }
        let m = common::shortest_mate(&pos, self.1);
        if std::env::var("ONLY").is_ok() && m != Some(self.1) { return; }
        println!("{} shortest mate {:?}", self.0, m);
        if let Some(n) = m {
            let acts = common::mating_actions(&pos, n);
            println!("  keys: {:?}", acts.iter().map(|a| pos.notation(a)).collect::<Vec<_>>());
            let r = common::search(&pos, (2 * n + 2).min(12));
            let mut q = pos.clone();
            let mut line = String::new();
            for a in &r.pv { line.push_str(&q.notation(a)); line.push(' '); q.play_unchecked(a); }
            println!("  engine: {} {} pv {}", pos.notation(&r.best), r.score, line);
        }
    }
}

#[test]
fn compose() {
    let spec = std::env::var("COMPOSE").unwrap_or_default();
    for line in spec.split(';').filter(|l| !l.is_empty()) {
        let (variant, rest) = line.split_once('|').unwrap();
        let (fen, max) = rest.rsplit_once('|').unwrap();
        let variant: Variant = variant.parse().unwrap();
        variant.visit(V(fen.to_owned(), max.parse().unwrap()));
    }
}
