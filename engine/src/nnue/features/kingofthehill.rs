//! King of the Hill, the test-only variant (env feature `test-variant`),
//! has no feature set and so no net: one line, what a variant without a
//! learned evaluation takes.

use heterodox_env::kingofthehill::KingOfTheHill;

use super::{Featured, NoFeatures};

impl Featured for KingOfTheHill {
    type Features = NoFeatures<Self>;
}
