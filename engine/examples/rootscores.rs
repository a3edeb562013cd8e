use heterodox_engine::{Engine, EngineConfig};
use heterodox_env::{new_position, Game, GameVariant, Position, RuleOptions, Variant, VariantVisitor};
struct R(Option<String>, u32);
impl VariantVisitor for R {
    type Output = ();
    fn visit<P: GameVariant>(self) {
        let pos: P = new_position(self.0.as_deref(), &RuleOptions::new(), 0).unwrap();
        let mut engine = Engine::<P>::new(EngineConfig::default()).unwrap();
        for s in engine.score_root_moves(&Game::new(pos.clone()), self.1).unwrap().iter().take(12) {
            println!("{} {}", pos.notation(&s.action), s.score);
        }
    }
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v: Variant = a[1].parse().unwrap();
    v.visit(R((a[2] != "start").then(|| a[2].clone()), a[3].parse().unwrap()));
}
