//! Progress for the long commands (`arena`, `claim`, `selfplay`, `teach`,
//! `train`), shown the same way by each: an indicatif line while stderr is
//! a terminal, and where it is not (a log file, `nohup`, CI, `make train >
//! log`) a plain line every [`PLAIN_EVERY`], so that a run of hours still
//! says where it is. indicatif draws nothing to a stderr that is not a
//! terminal, which left a claim of an hour silent in its log.

use std::io::Write;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often a plain line is written where no bar can be drawn: often
/// enough to see that a run lives, rarely enough that an hour's log stays
/// short (120 lines).
const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// A progress display: a bar on a terminal, throttled plain lines
/// elsewhere, nothing at all when quiet.
pub struct Progress {
    bar: ProgressBar,
    /// Where no bar is drawn and the command is not quiet.
    plain: Option<Mutex<PlainLines>>,
}

/// The plain-line state: where the lines go and when the last one was
/// written (a counter's position and length are its hidden bar's).
struct PlainLines {
    out: Box<dyn Write + Send>,
    every: Duration,
    started: Instant,
    last: Instant,
    /// What a counter counts (`None`: a spinner).
    unit: Option<&'static str>,
}

impl Progress {
    /// A spinner with the elapsed time and a message (`arena`, `claim`,
    /// `train`).
    pub fn spinner(quiet: bool) -> Progress {
        Progress::new(quiet, ProgressBar::new_spinner(), None).styled(
            "{spinner} {elapsed_precise} {msg}",
            // A spinner turns by itself while one long game is played.
            true,
        )
    }

    /// A bar counting to `total` `unit`s (`selfplay`: games, `teach`:
    /// positions) with their rate and a message.
    pub fn counter(quiet: bool, total: u64, unit: &'static str) -> Progress {
        Progress::new(quiet, ProgressBar::new(total), Some(unit)).styled(
            &format!(
                "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{per_sec}}, {{msg}}"
            ),
            false,
        )
    }

    fn new(quiet: bool, bar: ProgressBar, unit: Option<&'static str>) -> Progress {
        if quiet {
            return Progress {
                bar: ProgressBar::hidden(),
                plain: None,
            };
        }
        // indicatif hides a bar whose stderr is not a terminal.
        let plain = bar.is_hidden().then(|| {
            Mutex::new(PlainLines::new(
                Box::new(std::io::stderr()),
                PLAIN_EVERY,
                unit,
            ))
        });
        Progress { bar, plain }
    }

    fn styled(self, template: &str, steady: bool) -> Progress {
        if !self.bar.is_hidden() {
            self.bar.set_style(
                ProgressStyle::with_template(template)
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            if steady {
                self.bar.enable_steady_tick(Duration::from_millis(200));
            }
        }
        self
    }

    /// The plain lines, where they are written.
    fn plain(&self) -> Option<MutexGuard<'_, PlainLines>> {
        // A panic elsewhere while writing a line leaves nothing half done.
        self.plain
            .as_ref()
            .map(|plain| plain.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Moves a counter to `position`.
    pub fn set_position(&self, position: u64) {
        self.bar.set_position(position);
    }

    /// Shows `message`: on the bar at once, as a plain line if the last
    /// one is [`PLAIN_EVERY`] old.
    pub fn set_message(&self, message: String) {
        if let Some(mut plain) = self.plain() {
            plain.message(&self.bar, &message);
        }
        self.bar.set_message(message);
    }

    /// A line that stays (an iteration's summary): above the bar on a
    /// terminal, else on stderr, quiet or not.
    pub fn println(&self, text: &str) {
        if !self.bar.is_hidden() {
            self.bar.println(text);
        } else if let Some(mut plain) = self.plain() {
            plain.line(text);
        } else {
            eprintln!("{text}");
        }
    }

    /// Removes the bar before the command prints its result.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl PlainLines {
    fn new(out: Box<dyn Write + Send>, every: Duration, unit: Option<&'static str>) -> PlainLines {
        let now = Instant::now();
        PlainLines {
            out,
            every,
            started: now,
            last: now,
            unit,
        }
    }

    fn message(&mut self, bar: &ProgressBar, message: &str) {
        if self.last.elapsed() < self.every {
            return;
        }
        let elapsed = self.started.elapsed().as_secs();
        let clock = format!(
            "{:02}:{:02}:{:02}",
            elapsed / 3600,
            elapsed / 60 % 60,
            elapsed % 60
        );
        let text = match self.unit {
            Some(unit) => format!(
                "[{clock}] {}/{} {unit}, {message}",
                bar.position(),
                bar.length().unwrap_or(0)
            ),
            None => format!("[{clock}] {message}"),
        };
        self.line(&text);
    }

    /// Writes a line; a line is a sign of life, so the next plain one
    /// waits a full interval.
    fn line(&mut self, text: &str) {
        // Progress must never fail the command: a closed stderr loses it.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
        self.last = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::ProgressDrawTarget;
    use std::sync::Arc;

    /// A writer whose bytes the test reads back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// A display with a hidden bar whose plain lines the test reads: a
    /// counter to `total` `unit`s, or a spinner.
    fn plain(every: Duration, counter: Option<(u64, &'static str)>) -> (Progress, Captured) {
        let out = Captured::default();
        let progress = Progress {
            bar: ProgressBar::with_draw_target(
                counter.map(|(total, _)| total),
                ProgressDrawTarget::hidden(),
            ),
            plain: Some(Mutex::new(PlainLines::new(
                Box::new(out.clone()),
                every,
                counter.map(|(_, unit)| unit),
            ))),
        };
        (progress, out)
    }

    #[test]
    fn a_counter_writes_its_position_and_message_once_an_interval_has_passed() {
        let (progress, out) = plain(Duration::ZERO, Some((500, "positions")));
        progress.set_position(120);
        progress.set_message("3 games".to_owned());
        progress.set_position(260);
        progress.set_message("7 games".to_owned());
        assert_eq!(
            out.text(),
            "[00:00:00] 120/500 positions, 3 games\n[00:00:00] 260/500 positions, 7 games\n"
        );
    }

    #[test]
    fn a_spinner_writes_only_its_message_and_lines_that_stay_always_appear() {
        let (progress, out) = plain(Duration::ZERO, None);
        progress.set_message("pairing 1: 4 games".to_owned());
        progress.println("iteration 1: loss 2.31");
        assert_eq!(
            out.text(),
            "[00:00:00] pairing 1: 4 games\niteration 1: loss 2.31\n"
        );
    }

    #[test]
    fn within_the_interval_messages_are_not_written_but_lines_that_stay_are() {
        let (progress, out) = plain(Duration::from_secs(3600), Some((10, "games")));
        progress.set_position(4);
        progress.set_message("40 pos/s".to_owned());
        progress.println("wrote shard 1");
        progress.set_message("41 pos/s".to_owned());
        assert_eq!(out.text(), "wrote shard 1\n");
    }

    #[test]
    fn a_quiet_display_writes_nothing_but_its_lines() {
        let progress = Progress::counter(true, 10, "games");
        assert!(progress.plain.is_none());
        assert!(progress.bar.is_hidden());
    }
}
