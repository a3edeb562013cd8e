//! The spinner line that the long network commands (`arena`, `claim`,
//! `train`) show while they work, drawn the same way by each.

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner with the elapsed time and a message, or a hidden bar when
/// `quiet` (the command then prints nothing while it works).
pub fn spinner(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .expect("a valid template"),
    );
    bar
}
