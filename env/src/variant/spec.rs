//! [`EncodingSpec::of`]: the encoding spec of a variant's position. The
//! spec itself is data in the encoding module (encoding/spec.rs); reading
//! it off a [`GameVariant`] is written here, with the variants, because
//! the encoding module is below them ([`GameVariant`] extends
//! [`Encoding`](crate::encoding::Encoding)) and names none.

use crate::encoding::{stacked_channel_names, EncodingSpec};

use super::GameVariant;

impl EncodingSpec {
    /// The spec of `position`'s variant and rule settings with `history`
    /// stacked positions (at least 1).
    pub fn of<P: GameVariant>(position: &P, history: usize) -> EncodingSpec {
        let options = P::rule_options(&position.rules())
            .iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        EncodingSpec {
            variant: P::VARIANT.name().to_owned(),
            options,
            version: P::ENCODING_VERSION,
            history,
            channel_names: stacked_channel_names(&position.channel_names(), history),
            num_actions: position.num_actions(),
            board_action_planes: position.board_action_planes(),
        }
    }
}
