//! Test support for Hostage Chess: a slow reference generator (pseudo-legal
//! actions filtered by playing each on a copy and testing the mover's King
//! with the prisons as they are after the action), written independently of
//! the fast generator, and seeded random play.

#![allow(dead_code)]

use heterodox_env::attacks;
use heterodox_env::hostage::{exchange_value, PROMOTION_ROLES};
use heterodox_env::{
    Bitboard, CastlingSide, Hostage, HostageAction, Move, Piece, Position, Rank, Role, Square,
};

/// Every legal action, by brute force.
pub fn reference_legal(pos: &Hostage) -> Vec<HostageAction> {
    let us = pos.turn();
    let them = !us;
    let board = pos.board();
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let capturable = board.by_color(them) - board.by_role(Role::King);
    let promotions: Vec<Role> = PROMOTION_ROLES
        .into_iter()
        .filter(|r| pos.prison(them).contains(*r))
        .collect();
    // Squares a piece may land on: not ours, never a king.
    let landing = !ours - board.by_role(Role::King);
    let mut pseudo = Vec::new();
    for (from, piece) in board.pieces() {
        if piece.color != us {
            continue;
        }
        let targets = match piece.role {
            Role::Pawn => {
                let mut t = Bitboard::EMPTY;
                if let Some(one) = from.offset(0, us.fold(1, -1)) {
                    if !occupied.contains(one) {
                        t.add(one);
                        if from.relative_rank(us) == Rank::SECOND {
                            let two = one.offset(0, us.fold(1, -1)).unwrap();
                            if !occupied.contains(two) {
                                t.add(two);
                            }
                        }
                    }
                }
                t | (attacks::pawn_attacks(us, from) & capturable)
            }
            Role::Knight => attacks::knight_attacks(from) & landing,
            Role::Bishop => attacks::bishop_attacks(from, occupied) & landing,
            Role::Rook => attacks::rook_attacks(from, occupied) & landing,
            Role::Queen => attacks::queen_attacks(from, occupied) & landing,
            Role::King => attacks::king_attacks(from) & landing,
            _ => unreachable!(),
        };
        for to in targets {
            let capture = board.role_at(to);
            let m = |promotion| {
                HostageAction::Move(Move::Normal {
                    role: piece.role,
                    from,
                    capture,
                    to,
                    promotion,
                })
            };
            if piece.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                for r in &promotions {
                    pseudo.push(m(Some(*r)));
                }
            } else {
                pseudo.push(m(None));
            }
        }
    }
    if let Some(ep) = pos.ep_square() {
        for from in attacks::pawn_attacks(them, ep) & board.by_piece(Piece::new(us, Role::Pawn)) {
            pseudo.push(HostageAction::Move(Move::EnPassant { from, to: ep }));
        }
    }
    let king = board.king_of(us).unwrap();
    if pos.attackers_to(king, them, occupied).is_empty() {
        for rook in pos.castling_rights() & Bitboard::relative_rank(us, Rank::FIRST) {
            let side = CastlingSide::from_squares(king, rook);
            let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
            let lo = king
                .index()
                .min(rook.index())
                .min(king_to.index())
                .min(rook_to.index());
            let hi = king
                .index()
                .max(rook.index())
                .max(king_to.index())
                .max(rook_to.index());
            let clear = (lo..=hi)
                .map(|i| Square::new(i as u32).unwrap())
                .filter(|sq| *sq != king && *sq != rook)
                .all(|sq| !occupied.contains(sq));
            let (a, b) = (
                king.index().min(king_to.index()),
                king.index().max(king_to.index()),
            );
            let safe = (a..=b).map(|i| Square::new(i as u32).unwrap()).all(|sq| {
                pos.attackers_to(sq, them, occupied - king - rook)
                    .is_empty()
            });
            if clear && safe {
                pseudo.push(HostageAction::Move(Move::Castle { king, rook }));
            }
        }
    }
    let empty = !occupied;
    let allowed = |role: Role, sq: Square| role != Role::Pawn || !Bitboard::BACKRANKS.contains(sq);
    for role in pos.airfield(us).roles() {
        for to in empty {
            if allowed(role, to) {
                pseudo.push(HostageAction::Drop { role, to });
            }
        }
    }
    for given in pos.prison(us).roles() {
        for rescued in pos.prison(them).roles() {
            if exchange_value(given) < exchange_value(rescued) {
                continue;
            }
            for to in empty {
                if allowed(rescued, to) {
                    pseudo.push(HostageAction::Exchange { given, rescued, to });
                }
            }
        }
    }
    pseudo
        .into_iter()
        .filter(|action| {
            let mut child = pos.clone();
            child.play_unchecked(action);
            let king = child.board().king_of(us).unwrap();
            child
                .attackers_to(king, them, child.board().occupied())
                .is_empty()
        })
        .collect()
}

/// Actions as sorted long-notation strings, for set comparisons.
pub fn sorted_strings(actions: &[HostageAction]) -> Vec<String> {
    let mut out: Vec<String> = actions.iter().map(ToString::to_string).collect();
    out.sort();
    out
}
