//! Validation of a Traitor setup into a position: what a position string
//! (or a view's setup completed by the sampler) must satisfy to be a state
//! of the game.

use super::control;
use super::rules::{value, Commitment, Mode, TraitorRules};
use super::selection::{start_piece, Secret, Selection};
use super::setup::{bad, write_secret, write_squares, TraitorSetup};
use super::{Step, Traitor};
use crate::fide::{
    castling, validate_back_ranks, validate_ep_square, validate_fullmoves, FideState,
};
use crate::{Bitboard, Color, FenError, PositionError, Rank, Role, Setup, Square};

impl Traitor {
    /// Validates a setup: one King a side, no pawn on a back rank, every
    /// identity a starting square fitting its piece, statuses on non-royal
    /// pieces, budgets and secrets consistent with the commitment and the
    /// step, castling rights backed by an unmoved King and an unmoved rook
    /// (a defected one in Defector mode, T9), moved-pawn marks on pawns
    /// standing on their starting square (T11).
    pub fn from_setup(setup: TraitorSetup, rules: TraitorRules) -> Result<Traitor, FenError> {
        let TraitorSetup {
            setup,
            ids,
            announced,
            budgets,
            used,
            secrets,
            step,
            last_move,
            undo_forbidden,
            returned_pawns,
        } = setup;
        let board = setup.board;
        let mode = rules.mode;
        for colour in Color::ALL {
            match board
                .by_piece(crate::Piece::new(colour, Role::King))
                .count()
            {
                0 => return Err(PositionError::MissingKing(colour).into()),
                1 => {}
                _ => return Err(PositionError::TooManyKings(colour).into()),
            }
        }
        validate_back_ranks(board.by_role(Role::Pawn))?;
        let ids_text = || {
            let partial = TraitorSetup {
                setup: Setup {
                    board: board.clone(),
                    ..Setup::empty()
                },
                ids,
                announced: Bitboard::EMPTY,
                budgets: [0; 2],
                used: [Bitboard::EMPTY; 2],
                secrets: [None; 2],
                step: Step::Open,
                last_move: None,
                undo_forbidden: None,
                returned_pawns,
            };
            partial.to_fen().split(' ').nth(6).unwrap_or("-").to_owned()
        };
        let mut seen = Bitboard::EMPTY;
        for (sq, piece) in board.pieces() {
            let id = Square::new(u32::from(ids[sq.index()]));
            let start = id.and_then(start_piece);
            let (Some(id), Some((start_colour, start_role))) = (id, start) else {
                return Err(bad("ids", &ids_text(), format!(
                    "the piece on {sq} needs the square it started on (ranks 1, 2, 7, 8) as its id, like {sq}=g1"
                )));
            };
            let fits = if start_role == Role::Pawn {
                piece.role != Role::King
            } else {
                piece.role == start_role
            };
            if !fits || (!mode.changes_colour() && piece.color != start_colour) {
                return Err(bad(
                    "ids",
                    &ids_text(),
                    format!(
                        "a {} {} on {sq} cannot have started on {id}",
                        piece.color, piece.role
                    ),
                ));
            }
            if seen.contains(id) {
                return Err(bad(
                    "ids",
                    &ids_text(),
                    format!("two pieces have the id {id}"),
                ));
            }
            seen.add(id);
        }
        if let Some(sq) = returned_pawns.into_iter().find(|sq| {
            board.role_at(*sq) != Some(Role::Pawn) || ids[sq.index()] != sq.index() as u8
        }) {
            return Err(bad(
                "ids",
                &ids_text(),
                format!("{sq} holds no pawn on its starting square to mark as moved"),
            ));
        }
        let announced_text = write_squares(announced);
        if !mode.keeps_status() && announced.any() {
            return Err(bad(
                "announced",
                &announced_text,
                "Defector mode has no announced status: defected pieces are regular; write -",
            ));
        }
        if let Some(sq) = (announced - (board.occupied() - board.by_role(Role::King))).first() {
            return Err(bad(
                "announced",
                &announced_text,
                format!("{sq} holds no non-royal piece"),
            ));
        }
        let secrets_text = format!("{}/{}", write_secret(secrets[0]), write_secret(secrets[1]));
        let mut full_secrets = [Secret::Nothing; 2];
        for colour in Color::ALL {
            let Some(secret) = secrets[colour.index()] else {
                return Err(bad(
                    "secrets",
                    &secrets_text,
                    "a full state holds both secrets; '?' belongs to views",
                ));
            };
            let budget = budgets[colour.index()];
            match (secret, rules.commitment) {
                (Secret::Nothing, Commitment::Impromptu)
                | (Secret::Unchosen, Commitment::Standard | Commitment::Simplified) => {}
                (Secret::Remaining(Selection::Pieces(chosen)), Commitment::Standard) => {
                    let mut cost = 0u32;
                    for id in chosen {
                        match start_piece(id) {
                            Some((c, role)) if c != colour && role != Role::King => cost += u32::from(value(role)),
                            _ => return Err(bad("secrets", &secrets_text, format!("{colour} cannot choose {id}: not a non-royal piece of the opponent's start position"))),
                        }
                    }
                    if cost > u32::from(budget) {
                        return Err(bad(
                            "secrets",
                            &secrets_text,
                            format!(
                                "{colour}'s choices cost {cost}, more than its budget {budget}"
                            ),
                        ));
                    }
                }
                (Secret::Remaining(Selection::Types(counts)), Commitment::Simplified) => {
                    if counts.total_value() > u32::from(budget) {
                        return Err(bad(
                            "secrets",
                            &secrets_text,
                            format!(
                                "{colour}'s choices cost {}, more than its budget {budget}",
                                counts.total_value()
                            ),
                        ));
                    }
                }
                _ => {
                    return Err(bad(
                        "secrets",
                        &secrets_text,
                        format!("not a {} secret", rules.commitment.name()),
                    ))
                }
            }
            full_secrets[colour.index()] = secret;
        }
        let unchosen = full_secrets.map(|s| s == Secret::Unchosen);
        let step_ok = match step {
            Step::Select => match setup.turn {
                Color::White => unchosen == [true, true],
                Color::Black => unchosen == [false, true],
            },
            Step::Open | Step::Announced(_) => unchosen == [false, false],
        };
        if !step_ok {
            return Err(bad("step", &secrets_text, "the step does not fit the secrets: during selection White chooses first (*/* with White to act, then x/* with Black), afterwards both are chosen"));
        }
        let position = Traitor {
            rules,
            fide: FideState { board, ..setup },
            ids,
            announced,
            step,
            returned_pawns,
            budgets,
            used,
            secrets: full_secrets,
            last_move,
            undo_forbidden,
        };
        if let Step::Announced(id) = step {
            if position.square_of(id).is_none() || !used[setup.turn.index()].contains(id) {
                return Err(bad("step", &id.to_string(), "the piece announced this turn must be on the board and among the mover's used ids"));
            }
        }
        validate_fullmoves(setup.fullmoves)?;
        castling::validate_rights_by(setup.castling_rights, |colour, king_home, rook| {
            // T9: the right stays with an unmoved rook, which in Defector
            // mode may stand there defected to the other side (it may come
            // back and castle).
            let rook_fits = match board_piece(&position, rook) {
                Some(piece) if piece.role == Role::Rook && piece.color == colour => true,
                Some(piece) if piece.role == Role::Rook && mode == Mode::Defector => {
                    ids[rook.index()] == rook.index() as u8
                }
                _ => false,
            };
            board_piece(&position, king_home) == Some(crate::Piece::new(colour, Role::King))
                && rook_fits
                && !announced.contains(rook)
        })?;
        if let Some(ep) = setup.ep_square {
            let taker = if ep.rank() == Rank::SIXTH {
                Color::White
            } else {
                Color::Black
            };
            validate_ep_square(&position.fide.board, taker, ep)?;
        }
        if !mode.shared() && last_move.is_some() {
            return Err(bad("last", &fields_last(last_move), "only modes with the weak ko (double-agent, defector-double-agent, mercenary) keep the last move"));
        }
        if !rules.forbids_immediate_undo() && undo_forbidden.is_some() {
            return Err(bad(
                "undo",
                &undo_forbidden.map_or_else(String::new, |id| id.to_string()),
                "the no-undo rule is not in force in these settings",
            ));
        }
        if step == Step::Open
            && control::checkers(&position.fide.board, announced, mode, !setup.turn).any()
        {
            return Err(PositionError::OppositeCheck(!setup.turn).into());
        }
        Ok(position)
    }
}

fn board_piece(position: &Traitor, sq: Square) -> Option<crate::Piece> {
    position.fide.board.piece_at(sq)
}

fn fields_last(last: Option<(Square, Square)>) -> String {
    last.map_or_else(|| "-".to_owned(), |(a, b)| format!("{a}{b}"))
}
