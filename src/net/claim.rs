//! `heterodox claim` (served by `heterodox-net`): plays and judges a
//! strategy claim and writes its report directory (summary.md, claim.json,
//! games.csv, games.pgn, plots/).
//!
//! ```text
//! heterodox claim --list
//! heterodox claim hostage-favours-the-attacker
//! heterodox claim hostage-favours-the-attacker --agent hostage=net:runs/h1/last@64 \
//!     --agent chess=net:runs/c1/last@64 --games 400 --out reports/attacker
//! heterodox claim hostage-favours-the-attacker ... --resume   # after a stop
//! ```
//!
//! Every game is written to `OUT.journal/` as it finishes; a stopped run
//! continues with the same command and `--resume`
//! (`heterodox_training::claims::journal`). `--part K/N` plays one share
//! of the games into its journal and writes no report: the tasks of a run
//! on a Ray cluster (python/heterodox/ray/claim.py), whose driver merges
//! the parts' journals and writes the report with `--resume`.

use std::path::PathBuf;

use clap::Args;

use heterodox_selfplay::DuelPart;
use heterodox_training::claims::{
    play_claim_part, run_claim, AgentChoice, ClaimSettings, CLAIMS, DEFAULT_AGENT,
};

#[derive(Args, Debug)]
pub struct ClaimArgs {
    /// The claim (see --list).
    #[arg(required_unless_present = "list")]
    name: Option<String>,
    /// Lists the claims with their hypotheses.
    #[arg(long)]
    list: bool,
    /// The agent: SPEC for every variant, or VARIANT=SPEC for one
    /// (repeatable; of several for a variant, each rule set gets the last
    /// that can play it: a network plays the rules it was trained on);
    /// specs as in `heterodox arena`.
    #[arg(long = "agent", value_name = "[VARIANT=]SPEC")]
    agents: Vec<String>,
    /// Games per variant or rule set (default: the claim's).
    #[arg(long)]
    games: Option<u32>,
    /// A run of about two minutes (the claim's quick games, 6
    /// calibration games): an example of the report, not evidence, as
    /// the report says. --games and --calibration-games still override it.
    #[arg(long)]
    quick: bool,
    /// Paired games of each agent against each calibration opponent:
    /// random play, greedy, rollout@64 and the other family (its strength;
    /// default: the claim's, see --list).
    #[arg(long)]
    calibration_games: Option<u32>,
    /// The ply at which position measures are read.
    #[arg(long, default_value_t = 24)]
    ply: u32,
    /// A longer game is cut and scored a draw.
    #[arg(long, default_value_t = 200)]
    max_plies: u32,
    /// Random plies that open each game.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    #[command(flatten)]
    game_run: crate::device::GameRunArgs,
    /// The report directory (default: reports/NAME).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// Continues an interrupted run: the games written to OUT.journal as
    /// they finished are kept and only the others are played. The other
    /// options must be those of the interrupted run (--concurrent and
    /// --device may change).
    #[arg(long)]
    resume: bool,
    /// Plays only part K of N of every duel's games (the pairs whose
    /// number is K modulo N) into OUT.journal and writes no report: a task
    /// of a run split across machines (`python -m heterodox.ray claim`,
    /// docs/scale-out.md). A part whose journal holds games continues it.
    #[arg(long, value_name = "K/N", value_parser = parse_part)]
    part: Option<DuelPart>,
}

/// Reads `--part K/N`: K from 0 to N - 1, N from 1 to 65536.
pub(crate) fn parse_part(text: &str) -> Result<DuelPart, String> {
    let bad = || format!("'{text}' is not K/N with 0 <= K < N <= 65536 (e.g. 0/4)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.parse::<u32>().map_err(|_| bad())?,
        n.parse::<u32>().map_err(|_| bad())?,
    );
    if n > 65_536 {
        return Err(bad());
    }
    DuelPart::new(k, n).ok_or_else(bad)
}

pub fn run(args: &ClaimArgs) -> Result<(), String> {
    if args.list {
        let mut text = String::new();
        for claim in CLAIMS {
            text.push_str(&format!(
                "{}\n  {}\n  {} games per variant or rule set by default, {} with --quick; \
                 {} calibration games per opponent by default\n",
                claim.name,
                claim.hypothesis,
                claim.default_games,
                claim.quick_games,
                claim.default_calibration_games
            ));
        }
        text.push_str(&format!("default agent: {DEFAULT_AGENT}\n"));
        crate::common::print_stdout(&text);
        return Ok(());
    }
    let name = args
        .name
        .as_deref()
        .expect("clap requires a name without --list");
    let claim = heterodox_training::claims::find(name).map_err(|e| e.to_string())?;
    let agents = AgentChoice::parse(&args.agents).map_err(|e| e.to_string())?;
    let mut settings = ClaimSettings::new(claim, agents);
    if args.quick {
        settings.quick(claim);
    }
    if let Some(games) = args.games {
        settings.games = games;
    }
    if let Some(games) = args.calibration_games {
        settings.calibration_games = games;
    }
    settings.ply = args.ply;
    settings.max_plies = args.max_plies;
    settings.opening_plies = args.opening_plies;
    settings.concurrent = args.game_run.concurrent;
    settings.seed = args.game_run.seed;
    settings.device = args.game_run.device.device()?;
    settings.resume = args.resume;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("reports").join(claim.name));
    let command = reproduce(claim.name, args, &settings, &out);
    let bar = crate::progress::Progress::spinner(args.quiet);
    if let Some(part) = args.part {
        settings.part = Some(part);
        let outcome = play_claim_part(name, &settings, &out, &command, &mut |line| {
            bar.set_message(line.to_owned());
        })
        .map_err(|e| e.to_string())?;
        bar.finish();
        crate::common::print_stdout(&format!(
            "{}: part {}/{}: {} games in {}\n",
            claim.name,
            part.index,
            part.count,
            outcome.games,
            outcome.journal.display()
        ));
        return Ok(());
    }
    let outcome = run_claim(name, &settings, &out, &command, &mut |line| {
        bar.set_message(line.to_owned());
    })
    .map_err(|e| e.to_string())?;
    bar.finish();
    let mut text = format!(
        "{}: {}\n{}\nreport: {}/summary.md\n",
        claim.name,
        outcome.verdict.words(),
        outcome.conclusion,
        out.display()
    );
    if let Err(reason) = &outcome.plots {
        text.push_str(&format!("plots not drawn: {reason}\n"));
    }
    for warning in &outcome.warnings {
        text.push_str(&format!("warning: {warning}\n"));
    }
    crate::common::print_stdout(&text);
    Ok(())
}

/// The command line that plays the same games again, every setting
/// explicit (the batch size and device too: a network's floating-point
/// results may depend on them), each word quoted for a POSIX shell where
/// it needs to be.
fn reproduce(
    name: &str,
    args: &ClaimArgs,
    settings: &ClaimSettings,
    out: &std::path::Path,
) -> String {
    let mut words = vec!["heterodox".to_owned(), "claim".to_owned(), name.to_owned()];
    for agent in &args.agents {
        words.push("--agent".to_owned());
        words.push(agent.clone());
    }
    // The explicit sizes below override it: it keeps the report's note.
    if settings.quick {
        words.push("--quick".to_owned());
    }
    for (flag, value) in [
        ("--games", settings.games.to_string()),
        (
            "--calibration-games",
            settings.calibration_games.to_string(),
        ),
        ("--ply", settings.ply.to_string()),
        ("--max-plies", settings.max_plies.to_string()),
        ("--opening-plies", settings.opening_plies.to_string()),
        ("--seed", settings.seed.to_string()),
        ("--concurrent", settings.concurrent.to_string()),
        ("--device", args.game_run.device.device.clone()),
        ("--out", out.display().to_string()),
    ] {
        words.push(flag.to_owned());
        words.push(value);
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as one POSIX shell word: as it is when it holds only characters
/// no shell treats specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;
    use heterodox_selfplay::DuelPart;

    #[test]
    fn parts_are_k_of_n() {
        assert_eq!(
            super::parse_part("0/4"),
            Ok(DuelPart { index: 0, count: 4 })
        );
        assert_eq!(
            super::parse_part("3/4"),
            Ok(DuelPart { index: 3, count: 4 })
        );
        for bad in ["4/4", "0/0", "1", "a/2", "-1/2", "0/65537"] {
            assert_eq!(
                super::parse_part(bad),
                Err(format!(
                    "'{bad}' is not K/N with 0 <= K < N <= 65536 (e.g. 0/4)"
                ))
            );
        }
    }

    #[test]
    fn words_are_quoted_only_when_a_shell_needs_it() {
        assert_eq!(shell_word("net:runs/h1/last@64"), "net:runs/h1/last@64");
        assert_eq!(shell_word("hostage=uniform@32"), "hostage=uniform@32");
        assert_eq!(shell_word("my runs/x"), "'my runs/x'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
