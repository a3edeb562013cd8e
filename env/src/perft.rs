//! Perft: the number of leaf nodes of the legal-action tree, the standard
//! correctness test for move generators. Depth 1 is bulk-counted (the count
//! of legal actions, without playing them); the root is split over rayon.

use rayon::prelude::*;

use crate::Position;

/// Leaf nodes at `depth`, single-threaded.
pub fn perft<P: Position>(position: &P, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<P::Action>> = (0..depth).map(|_| Vec::new()).collect();
    perft_with(position, depth, &mut buffers)
}

/// The recursion, with one reusable action buffer per remaining ply so no
/// node allocates.
fn perft_with<P: Position>(position: &P, depth: u32, buffers: &mut [Vec<P::Action>]) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_legal_actions() as u64,
        _ => {
            let (actions, rest) = buffers.split_first_mut().expect("one buffer per ply");
            position.legal_actions(actions);
            let mut nodes = 0;
            for action in actions.iter() {
                let mut child = position.clone();
                child.play_unchecked(action);
                nodes += perft_with(&child, depth - 1, rest);
            }
            nodes
        }
    }
}

/// Leaf nodes under each legal root action (perft "divide"), computed in
/// parallel; in the order the generator lists the actions.
pub fn divide<P: Position>(position: &P, depth: u32) -> Vec<(P::Action, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut actions = Vec::new();
    position.legal_actions(&mut actions);
    actions
        .into_par_iter()
        .map(|action| {
            let mut child = position.clone();
            child.play_unchecked(&action);
            (action, perft(&child, depth - 1))
        })
        .collect()
}

/// Leaf nodes at `depth`, with the root actions split over rayon's threads.
pub fn perft_parallel<P: Position>(position: &P, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(position, depth);
    }
    divide(position, depth).iter().map(|(_, nodes)| nodes).sum()
}
