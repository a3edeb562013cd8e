//! What the two binaries, `heterodox` and `heterodox-net`, share: how a
//! command line is parsed and run, and how errors reach the user (one line
//! on stderr and a non-zero exit code), so that a network subcommand
//! behaves the same whichever binary serves it.

use std::process::ExitCode;

use clap::Parser;

/// Parses the command line as `C` and runs it: help and version go to
/// stdout with success, an argument error is clap's first line on stderr
/// with exit code 2, a failed command `error: <message>` with exit code 1.
pub fn main_with<C: Parser>(run: fn(C) -> Result<(), String>) -> ExitCode {
    let args = match C::try_parse() {
        Ok(args) => args,
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                print!("{err}");
                return ExitCode::SUCCESS;
            }
            // Keep clap's message to its first line: one clear line.
            let text = err.to_string();
            eprintln!(
                "{}",
                text.lines().next().unwrap_or("error: invalid arguments")
            );
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes to stdout, ignoring a closed pipe (`heterodox play | head`): the
/// reader has what it wanted, which is no error.
pub fn print_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
