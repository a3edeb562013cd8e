//! The live games, bounded: at most `max_games` at once (a new game evicts
//! the least recently used one) and none idle longer than `idle`. A game
//! that left answers 410 with why (evicted, expired, lost to an internal
//! error), remembered for the ids of the last few thousand that left; an
//! id never issued answers 404. A game that leaves has its agent's search
//! stopped: nobody can ask for its move any more (searches.rs).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use heterodox_env::Color;

use super::error::ApiError;
use super::seat::Seat;
use super::session::Session;

/// A game's seat tokens: White's, Black's, and the referee's (games
/// between two agents only).
#[derive(Clone, Debug)]
pub struct Tokens {
    pub white: String,
    pub black: String,
    pub referee: Option<String>,
}

impl Tokens {
    /// Fresh random tokens; a referee token when `referee`.
    pub fn new(referee: bool) -> Tokens {
        Tokens {
            white: random_id(),
            black: random_id(),
            referee: referee.then(random_id),
        }
    }

    fn seat(&self, token: &str) -> Option<Seat> {
        if token == self.white {
            Some(Seat::Player(Color::White))
        } else if token == self.black {
            Some(Seat::Player(Color::Black))
        } else if self.referee.as_deref() == Some(token) {
            Some(Seat::Referee)
        } else {
            None
        }
    }
}

/// 128 random bits as 32 hex digits: game ids and seat tokens, drawn from
/// the operating system's generator (unguessable, unlike a seeded one).
pub fn random_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// One live game.
pub type SharedSession = Arc<Mutex<Box<dyn Session>>>;

struct Entry {
    session: SharedSession,
    tokens: Tokens,
    last_used: Instant,
}

/// Why a game left.
#[derive(Copy, Clone, Debug)]
enum Left {
    Evicted,
    Expired,
    Lost,
}

#[derive(Copy, Clone, Debug)]
pub struct Limits {
    pub max_games: usize,
    pub idle: Duration,
}

pub struct Store {
    limits: Limits,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    games: HashMap<String, Entry>,
    left: HashMap<String, Left>,
    /// The ids in `left`, oldest first, so it stays bounded.
    left_order: VecDeque<String>,
}

impl Inner {
    fn remember(&mut self, id: String, why: Left, keep: usize) {
        self.left.insert(id.clone(), why);
        self.left_order.push_back(id);
        while self.left_order.len() > keep {
            if let Some(old) = self.left_order.pop_front() {
                self.left.remove(&old);
            }
        }
    }
}

impl Store {
    pub fn new(limits: Limits) -> Store {
        Store {
            limits,
            inner: Mutex::new(Inner::default()),
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// How many ids of games that left are remembered.
    fn keep_left(&self) -> usize {
        (4 * self.limits.max_games).max(4096)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The map is only ever changed by whole insertions and removals:
        // a panic elsewhere cannot leave it half changed.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a game; returns its id. Games idle too long leave first, then
    /// the least recently used while the store is full.
    pub fn insert(&self, session: Box<dyn Session>, tokens: Tokens) -> String {
        let now = Instant::now();
        let keep = self.keep_left();
        let mut inner = self.lock();
        let mut gone = self.expire(&mut inner, now);
        while inner.games.len() >= self.limits.max_games.max(1) {
            let oldest = inner
                .games
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(id, _)| id.clone());
            let Some(oldest) = oldest else { break };
            gone.extend(inner.games.remove(&oldest));
            inner.remember(oldest, Left::Evicted, keep);
        }
        let id = random_id();
        inner.games.insert(
            id.clone(),
            Entry {
                session: Arc::new(Mutex::new(session)),
                tokens,
                last_used: now,
            },
        );
        drop(inner);
        stop_agents(gone);
        id
    }

    /// Removes the games idle too long from `inner`; returns them.
    fn expire(&self, inner: &mut Inner, now: Instant) -> Vec<Entry> {
        let idle = self.limits.idle;
        let expired: Vec<String> = inner
            .games
            .iter()
            .filter(|(_, entry)| now.duration_since(entry.last_used) > idle)
            .map(|(id, _)| id.clone())
            .collect();
        let keep = self.keep_left();
        let mut gone = Vec::new();
        for id in expired {
            gone.extend(inner.games.remove(&id));
            inner.remember(id, Left::Expired, keep);
        }
        gone
    }

    /// Removes the games idle too long (also done on every insertion).
    pub fn sweep(&self) {
        let gone = self.expire(&mut self.lock(), Instant::now());
        stop_agents(gone);
    }

    /// The game `id` and the seat `token` holds in it; marks it used.
    pub fn get(&self, id: &str, token: &str) -> Result<(SharedSession, Seat), ApiError> {
        let now = Instant::now();
        let keep = self.keep_left();
        let mut inner = self.lock();
        let idle = match inner.games.get(id) {
            Some(entry) => now.duration_since(entry.last_used) > self.limits.idle,
            None => false,
        };
        if idle {
            let gone = inner.games.remove(id);
            inner.remember(id.to_owned(), Left::Expired, keep);
            drop(inner);
            stop_agents(gone);
            inner = self.lock();
        }
        if let Some(entry) = inner.games.get_mut(id) {
            let seat = entry.tokens.seat(token).ok_or_else(|| {
                ApiError::forbidden(format!("the token is not a seat of game {id}"))
            })?;
            entry.last_used = now;
            return Ok((Arc::clone(&entry.session), seat));
        }
        Err(match inner.left.get(id) {
            Some(Left::Evicted) => ApiError::gone(format!(
                "game {id} was evicted: the server keeps at most {} games and this one \
                 was the least recently used",
                self.limits.max_games
            )),
            Some(Left::Expired) => ApiError::gone(format!(
                "game {id} expired: it had no request for {} s",
                self.limits.idle.as_secs()
            )),
            Some(Left::Lost) => ApiError::gone(format!(
                "game {id} was lost to an internal error; start a new game"
            )),
            None => ApiError::not_found(format!("no game {id}")),
        })
    }

    /// Drops a game whose state can no longer be trusted (a panic while it
    /// was being changed).
    pub fn lose(&self, id: &str) {
        let keep = self.keep_left();
        let mut inner = self.lock();
        if inner.games.remove(id).is_some() {
            inner.remember(id.to_owned(), Left::Lost, keep);
        }
    }

    /// Live games now.
    pub fn len(&self) -> usize {
        self.lock().games.len()
    }
}

/// Stops the searches of games that left the store. Called with the
/// store's lock released: a session's lock is taken only after it, never
/// the other way round, as every request does.
fn stop_agents(gone: impl IntoIterator<Item = Entry>) {
    for entry in gone {
        // A poisoned game has no search worth stopping politely: its state
        // is untrusted, but its flag is still set.
        let mut session = entry.session.lock().unwrap_or_else(|e| e.into_inner());
        session.stop_agent();
    }
}
