//! King of the Hill as a learning environment sees it: exactly chess's
//! action space (AlphaZero's 73 move planes) and observation (20 planes),
//! so a chess network's shapes fit it. The hill is the same four squares in
//! every game, so no plane needs to show it. Every method is chess's.

use crate::encoding::Encoding;
use crate::{Color, Move};

use super::KingOfTheHill;

impl Encoding for KingOfTheHill {
    const ENCODING_VERSION: u32 = 1;

    fn board_action_planes(&self) -> usize {
        self.chess.board_action_planes()
    }

    fn num_actions(&self) -> usize {
        self.chess.num_actions()
    }

    #[inline]
    fn action_index(&self, action: &Move) -> usize {
        self.chess.action_index(action)
    }

    fn num_channels(&self) -> usize {
        self.chess.num_channels()
    }

    fn channel_names(&self) -> Vec<String> {
        self.chess.channel_names()
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        self.chess.encode(observer, out);
    }
}
