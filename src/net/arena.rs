//! `heterodox arena` (served by `heterodox-net`): paired games between
//! agents on one variant (unpaired for an agent against itself), with a
//! results table, the games as PGN and the results as JSON.
//!
//! ```text
//! heterodox arena --variant hostage --agents net:runs/h1/last@64,uniform@64,random --games 40
//! heterodox arena --variant poison --agents net:runs/p1/last@64,uniform@64 --sprt 0,50 --games 2000
//! ```
//!
//! With `--out`, `--resume` keeps the games a stopped run wrote to
//! `OUT.journal` and `--part K/N` plays one share of them into it and
//! writes no results (the tasks of `python -m heterodox.ray arena`).

use std::path::PathBuf;

use clap::Args;

use heterodox_data::atomic::write_file;
use heterodox_data::pgn;
use heterodox_env::{GameVariant, RuleOptions, VariantVisitor};
use heterodox_selfplay::{openings, DuelPart, SearchConfig};
use heterodox_training::arena::agent::AgentSpec;
use heterodox_training::arena::rating::ScoreEstimate;
use heterodox_training::arena::rating_list::{rating_list, Meeting, Rating, PRIOR_DRAWS};
use heterodox_training::arena::sprt::{Sprt, SprtDecision};
use heterodox_training::arena::{run_arena, ArenaConfig, Pairing, Schedule};
use heterodox_training::journal::Journal;

use crate::choice::Choices;
use crate::selfplay::writable_dir;

#[derive(Args, Debug)]
pub struct ArenaArgs {
    #[command(flatten)]
    rules: crate::args::RulesArgs,
    /// Agents, comma-separated: random, greedy, ab@DEPTH, ab@MSms, ab@NODESn
    /// (the shipped learned evaluation where one exists; optionally
    /// /classical: the tuned hand-written one, or /hand: its numbers before
    /// tuning), uniform@SIMS, rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS (tree searches optionally
    /// /puct or /gumbel; networks also /nolosses: without the root's check for losses in one,
    /// or /nowins: without either probe; under hidden information, last, /beliefs: the roots
    /// drawn from a posterior over the opponent's secret).
    #[arg(long, value_delimiter = ',', required = true)]
    agents: Vec<String>,
    /// Games per pairing (whole pairs: one opening, both colours; an agent
    /// against itself plays unpaired games, each its own opening); with
    /// --sprt, the most it plays.
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// gauntlet (the first agent against each other) or round-robin.
    #[arg(long, default_value = "gauntlet")]
    schedule: String,
    /// ELO0,ELO1[,ALPHA,BETA]: stop as soon as "the first agent is ELO1
    /// rather than ELO0 stronger" is decided (two agents).
    #[arg(long)]
    sprt: Option<String>,
    /// Random plies that open each pair of games (after the book's
    /// opening, with --openings).
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// An opening book: one opening per line, a position string (FEN) or
    /// a line of moves from the start (`1.e4 e5 2.Nf3` or `1. e4 e5 2. Nf3`);
    /// the pairs take them in turn.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// A longer game is cut and scored a draw (0: the variant's cap).
    #[arg(long, default_value_t = 0)]
    max_plies: u32,
    #[command(flatten)]
    game_run: crate::device::GameRunArgs,
    /// Output directory for games.pgn and results.json (default: a new
    /// runs/arena/VARIANT-N).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Plays only the games OUT.journal lacks (the journal the parts of a
    /// run wrote, merged by `python -m heterodox.ray arena`; the other
    /// options must be theirs), then writes the results.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Plays only part K of N of each pairing's games (the pairs whose
    /// number is K modulo N) into OUT.journal and writes no results: a
    /// task of a run split across machines (`python -m heterodox.ray
    /// arena`, docs/scale-out.md). A part whose journal holds games
    /// continues it. Not with --sprt.
    #[arg(long, value_name = "K/N", value_parser = crate::claim::parse_part, requires = "out")]
    part: Option<DuelPart>,
}

/// The values of `--schedule`.
const SCHEDULES: Choices<Schedule> = Choices {
    kind: "schedule",
    kinds: "schedules",
    names: &[
        ("gauntlet", Schedule::Gauntlet),
        ("round-robin", Schedule::RoundRobin),
    ],
};

pub fn run(args: &ArenaArgs) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let book = match &args.openings {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the opening book {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let options = args.rules.options()?;
    let agents = args
        .agents
        .iter()
        .map(|a| a.parse::<AgentSpec>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let schedule = SCHEDULES.parse(&args.schedule)?;
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let config = ArenaConfig {
        games: args.games,
        concurrent: args.game_run.concurrent,
        max_plies: args.max_plies,
        opening_plies: args.opening_plies,
        openings: Vec::new(),
        seed: args.game_run.seed,
        history: 1,
        search: SearchConfig::default(),
        schedule,
        sprt,
        device: args.game_run.device.device()?,
        journal: None,
        part: None,
    };
    // A directory named by the user is checked before any game is played;
    // the default one is made when the games are written.
    if let Some(out) = &args.out {
        writable_dir(out)?;
    }
    variant.visit(Visit {
        args,
        book,
        options,
        agents,
        config,
    })
}

struct Visit<'a> {
    args: &'a ArenaArgs,
    /// The opening book's text, read under the variant's rules in `visit`.
    book: Option<String>,
    options: RuleOptions,
    agents: Vec<AgentSpec>,
    config: ArenaConfig,
}

/// `parent/NAME-N` for the first N from 1 that does not exist yet: every
/// arena run keeps its games, and the names say which came first.
fn fresh_dir(parent: &std::path::Path, name: &str) -> PathBuf {
    (1u32..)
        .map(|n| parent.join(format!("{name}-{n}")))
        .find(|dir| !dir.exists())
        .expect("some number is free")
}

impl Visit<'_> {
    /// The run's journal beside --out when it may be resumed or is a
    /// part (`heterodox_training::journal`): what a resumed run or a
    /// merged part must share with it is every setting that decides the
    /// games (the device and batch size only change a network's last
    /// bits).
    fn open_journal(&self, names: &[String]) -> Result<Option<Journal>, String> {
        let args = self.args;
        if !args.resume && args.part.is_none() {
            return Ok(None);
        }
        let out = args.out.as_ref().expect("clap requires --out");
        let settings = serde_json::json!({
            "command": "arena",
            "variant": args.rules.variant()?.name(),
            "options": self.options.to_string(),
            "agents": names,
            "games": self.config.games,
            "schedule": args.schedule,
            "opening_plies": self.config.opening_plies,
            "openings": self.config.openings,
            "max_plies": self.config.max_plies,
            "seed": self.config.seed,
        });
        let command = std::env::args().collect::<Vec<_>>().join(" ");
        let has_games = Journal::has_games(out).map_err(|e| e.to_string())?;
        let resume = args.resume || (args.part.is_some() && has_games);
        Journal::open(out, &settings, &command, resume)
            .map(Some)
            .map_err(|e| e.to_string())
    }
}

impl VariantVisitor for Visit<'_> {
    type Output = Result<(), String>;

    fn visit<P: GameVariant>(mut self) -> Self::Output {
        let rules = P::parse_rules(&self.options).map_err(|e| format!("{e}"))?;
        if let Some(book) = &self.book {
            self.config.openings = openings::parse_openings::<P>(book, &rules).map_err(|e| {
                format!(
                    "{}: {e}",
                    self.args
                        .openings
                        .as_ref()
                        .expect("a book has a path")
                        .display()
                )
            })?;
        }
        let names: Vec<String> = self.agents.iter().map(ToString::to_string).collect();
        let journal = self.open_journal(&names)?;
        self.config.journal = journal.clone();
        self.config.part = self.args.part;
        let bar = crate::progress::Progress::spinner(self.args.quiet);
        let pairings = run_arena::<P>(&rules, &self.agents, &self.config, |pairing, done| {
            bar.set_message(format!("pairing {}: {done} games", pairing + 1));
        })
        .map_err(|e| e.to_string())?;
        bar.finish();
        if let (Some(part), Some(journal)) = (self.args.part, &journal) {
            let games: usize = pairings.iter().map(|p| p.games.len()).sum();
            crate::common::print_stdout(&format!(
                "arena: part {}/{}: {games} games in {}\n",
                part.index,
                part.count,
                journal.dir().display()
            ));
            return Ok(());
        }
        let mut text = format!(
            "{} ({}), openings{} of {} random plies, seed {}\n",
            P::VARIANT.name(),
            if self.options.is_empty() {
                "default rules".to_owned()
            } else {
                self.options.to_string()
            },
            if self.config.openings.is_empty() {
                String::new()
            } else {
                format!(" from a book of {}, then", self.config.openings.len())
            },
            self.config.opening_plies,
            self.config.seed
        );
        text.push_str(&format!(
            "{:<28} {:<28} {:>6} {:>8} {:>22} {:>6} {:>24} {:>24} {:>22}\n",
            "agent",
            "opponent",
            "games",
            "distinct",
            "score [95% CI]",
            "draws",
            "White's score [95% CI]",
            "Elo [95% CI]",
            "pairs 0/.5/1/1.5/2"
        ));
        for p in &pairings {
            text.push_str(&row(p, &names));
        }
        let ratings = ratings(&pairings, names.len());
        if names.len() > 2 {
            text.push_str(&rating_table(ratings.as_deref(), &names));
        }
        crate::common::print_stdout(&text);
        let out = match &self.args.out {
            Some(out) => out.clone(),
            None => {
                let out = fresh_dir(&PathBuf::from("runs/arena"), P::VARIANT.name());
                writable_dir(&out)?;
                out
            }
        };
        write_outputs::<P>(&out, &rules, &pairings, ratings.as_deref(), &names)?;
        if let Some(journal) = &journal {
            // The results are out: the journal holds nothing to resume.
            journal.remove_files().map_err(|e| e.to_string())?;
        }
        crate::common::print_stdout(&format!(
            "games: {}/games.pgn, results: {}/results.json\n",
            out.display(),
            out.display()
        ));
        Ok(())
    }
}

fn elo(e: Option<f64>, fallback: &str) -> String {
    e.map_or(fallback.to_owned(), |e| format!("{e:+.0}"))
}

/// `61.5% [52.3, 70.0]`.
fn score_interval(s: &ScoreEstimate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * s.score,
        100.0 * s.score_low,
        100.0 * s.score_high
    )
}

fn row(p: &Pairing, names: &[String]) -> String {
    let s = &p.score;
    let (e, low, high) = p.elo;
    let mut line = format!(
        "{:<28} {:<28} {:>6} {:>8} {:>22} {:>5.0}% {:>24} {:>24} {:>22}\n",
        names[p.a],
        names[p.b],
        p.games.len(),
        p.distinct,
        score_interval(s),
        100.0 * p.draw_rate(),
        score_interval(&p.white),
        format!(
            "{} [{}, {}]",
            elo(e, if s.score > 0.5 { "+inf" } else { "-inf" }),
            elo(low, "-inf"),
            elo(high, "+inf")
        ),
        match &p.pentanomial {
            Some(pairs) => pairs
                .counts
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("/"),
            None => "unpaired".to_owned(),
        }
    );
    if !p.paired {
        line.push_str(
            "  unpaired (an agent against itself): each game its own opening; no pentanomial, \
             Elo from the games' Wilson interval\n",
        );
    }
    if (p.distinct as usize) < p.games.len() {
        line.push_str(&format!(
            "  {} games, {} distinct: a game that repeats an earlier one (same start, same moves) \
             counts once\n",
            p.games.len(),
            p.distinct
        ));
    }
    if let Some((llr, decision)) = p.sprt {
        line.push_str(&format!(
            "  SPRT: LLR {llr:.2}, {}\n",
            match decision {
                SprtDecision::H1 => "H1 accepted (at least ELO1 stronger)",
                SprtDecision::H0 => "H0 accepted (not ELO1 stronger)",
                SprtDecision::Continue => "undecided after all games",
            }
        ));
    }
    line
}

/// One rating per agent from every pairing (the first agent anchored at 0).
fn ratings(pairings: &[Pairing], agents: usize) -> Option<Vec<Rating>> {
    let meetings: Vec<Meeting> = pairings
        .iter()
        .map(|p| Meeting {
            a: p.a,
            b: p.b,
            games: p.score.games,
            score_a: p.score.score * f64::from(p.score.games),
        })
        .collect();
    rating_list(agents, &meetings)
}

/// The rating list, best first.
fn rating_table(ratings: Option<&[Rating]>, names: &[String]) -> String {
    let Some(ratings) = ratings else {
        return "\nno rating list: some agent played no games\n".to_owned();
    };
    let mut order: Vec<&Rating> = ratings.iter().collect();
    order.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    let mut text = format!(
        "\nratings (Bayesian, {} virtual draws per pairing; {} = 0):\n{:<28} {:>6} {:>8} {:>22}\n",
        PRIOR_DRAWS, names[0], "agent", "games", "points", "Elo [95% CI]"
    );
    for r in order {
        text.push_str(&format!(
            "{:<28} {:>6} {:>8.1} {:>22}\n",
            names[r.agent],
            r.games,
            r.score,
            if r.agent == 0 {
                "0 (anchor)".to_owned()
            } else {
                format!("{:+.0} [{:+.0}, {:+.0}]", r.elo, r.low, r.high)
            }
        ));
    }
    text
}

fn write_outputs<P: GameVariant>(
    out: &std::path::Path,
    rules: &P::Rules,
    pairings: &[Pairing],
    ratings: Option<&[Rating]>,
    names: &[String],
) -> Result<(), String> {
    let mut pgn_text = String::new();
    let mut results = Vec::new();
    for p in pairings {
        for game in &p.games {
            let text = pgn::record_to_pgn::<P>(
                &game.record,
                rules,
                "heterodox arena",
                game.index as usize,
            )
            .map_err(|e| e.to_string())?;
            let (white, black) = if game.a_white {
                (&names[p.a], &names[p.b])
            } else {
                (&names[p.b], &names[p.a])
            };
            if !pgn_text.is_empty() {
                pgn_text.push('\n');
            }
            pgn_text.push_str(&pgn::with_players(&text, white, black));
        }
        results.push(serde_json::json!({
            "agent": names[p.a],
            "opponent": names[p.b],
            "games": p.games.len(),
            "distinct_games": p.distinct,
            "paired": p.paired,
            "score": p.score,
            "white_score": p.white,
            "elo": p.elo.0,
            "elo_low": p.elo.1,
            "elo_high": p.elo.2,
            "pentanomial": p.pentanomial.map(|pairs| pairs.counts),
            "sprt": p.sprt.map(|(llr, d)| serde_json::json!({"llr": llr, "decision": d})),
        }));
    }
    write_file(&out.join("games.pgn"), pgn_text.as_bytes()).map_err(|e| e.to_string())?;
    let ratings: Vec<serde_json::Value> = ratings
        .unwrap_or_default()
        .iter()
        .map(|r| {
            serde_json::json!({
                "agent": names[r.agent],
                "elo": r.elo,
                "elo_low": r.low,
                "elo_high": r.high,
                "games": r.games,
                "points": r.score,
            })
        })
        .collect();
    let mut json = serde_json::json!({ "pairings": results });
    // A rating list needs three or more agents; two have their pairing.
    if names.len() > 2 {
        json["ratings"] = serde_json::json!(ratings);
        json["prior_draws"] = serde_json::json!(PRIOR_DRAWS);
    }
    let json = serde_json::to_string_pretty(&json).expect("results serialize") + "\n";
    write_file(&out.join("results.json"), json.as_bytes()).map_err(|e| e.to_string())
}
