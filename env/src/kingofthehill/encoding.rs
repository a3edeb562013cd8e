//! King of the Hill as a learning environment sees it: exactly chess's
//! action space (AlphaZero's 73 move planes) and observation (20 planes,
//! [`crate::chess::encoding`]). The hill is the same four squares in every
//! game, so no plane needs to show it.

use crate::chess::encoding::{board_move_index, CHANNEL_NAMES, MOVE_PLANES, NUM_ACTIONS};
use crate::encoding::Encoding;
use crate::{Color, Move, Position};

use super::KingOfTheHill;

impl Encoding for KingOfTheHill {
    const ENCODING_VERSION: u32 = 1;

    fn board_action_planes(&self) -> usize {
        MOVE_PLANES
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    #[inline]
    fn action_index(&self, action: &Move) -> usize {
        board_move_index(action, self.turn())
    }

    fn num_channels(&self) -> usize {
        CHANNEL_NAMES.len()
    }

    fn channel_names(&self) -> Vec<String> {
        CHANNEL_NAMES.map(String::from).into()
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        self.chess.encode(observer, out);
    }
}
