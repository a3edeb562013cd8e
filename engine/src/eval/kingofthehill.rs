//! King of the Hill, the test-only variant (env feature `test-variant`):
//! searched with the generic knowledge, which is what a variant without
//! an evaluation of its own takes. One line; an evaluation of its own
//! would replace it with its `Knowledge` type, as chess's module does.

use heterodox_env::kingofthehill::KingOfTheHill;

use super::{Evaluated, GenericKnowledge};

impl Evaluated for KingOfTheHill {
    type Knowledge = GenericKnowledge<KingOfTheHill>;
}

#[cfg(test)]
mod tests {
    use std::any::type_name;

    use super::super::{
        evaluate, generic, material, visit_knowledge, EvalWeights, Knowledge, KnowledgeVisitor,
    };
    use super::*;
    use heterodox_env::Color;

    #[test]
    fn king_of_the_hill_is_evaluated_with_the_generic_knowledge() {
        // The registry's dispatch finds its knowledge (a type outside the
        // registry would get `None`), and it is the generic one.
        struct Which;
        impl KnowledgeVisitor for Which {
            type Output = &'static str;
            fn visit<K: Knowledge>(self) -> &'static str {
                type_name::<K>()
            }
        }
        assert_eq!(
            visit_knowledge::<KingOfTheHill, _>(Which),
            Some(type_name::<GenericKnowledge<KingOfTheHill>>())
        );
        let start = KingOfTheHill::new();
        assert_eq!(
            evaluate(&start, EvalWeights::Tuned),
            generic::evaluate(&start)
        );
        assert_eq!(material(&start, Color::White), 0);
    }
}
