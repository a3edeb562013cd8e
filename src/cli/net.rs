//! Subcommands that run a network are served by the sibling binary
//! `heterodox-net`, git-style: `heterodox model --cuda` execs
//! `heterodox-net model --cuda` from the directory `heterodox` itself is
//! in. Only `heterodox-net` links libtorch, whose libraries take about half
//! a second to load (CUDA included); the rules-only commands of this binary
//! start without them. The arguments are passed on unread, so
//! `heterodox-net` alone defines and checks them (and answers `--help`).

use std::ffi::OsString;
use std::process::Command;

/// The arguments of a network subcommand, passed on as they are.
#[derive(clap::Args, Debug)]
pub struct NetArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<OsString>,
}

/// The file name of the sibling binary.
const NET_BINARY: &str = "heterodox-net";

/// Replaces this process with `heterodox-net <subcommand> <args>` (on
/// Unix; elsewhere it runs it and exits with its status), so its output,
/// errors and exit code are the command's. Returns only on failure to
/// start it.
pub fn exec(subcommand: &str, args: &NetArgs) -> Result<(), String> {
    exec_args(subcommand, &args.args)
}

/// [`exec`] with the arguments as they are.
pub fn exec_args(subcommand: &str, args: &[OsString]) -> Result<(), String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the heterodox binary's directory: {e}"))?;
    let net = exe.with_file_name(format!("{NET_BINARY}{}", std::env::consts::EXE_SUFFIX));
    let mut command = Command::new(&net);
    command.arg(subcommand).args(args);
    // libtorch's OpenMP workers spin while they wait by default; beside
    // the search's own threads that starves both on a small machine
    // (self-play with a network ran about 2.7 x slower on 2 cores). The
    // setting is read when the library loads, so it is given here, before
    // `heterodox-net` starts; a value the user set is kept.
    if std::env::var_os("OMP_WAIT_POLICY").is_none() {
        command.env("OMP_WAIT_POLICY", "passive");
    }
    let cannot_run = |e: std::io::Error| {
        format!(
            "cannot run {}: {e} (the network subcommands are served by {NET_BINARY}, \
             which `cargo build` puts beside heterodox)",
            net.display()
        )
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        Err(cannot_run(command.exec()))
    }
    #[cfg(not(unix))]
    {
        let status = command.status().map_err(cannot_run)?;
        std::process::exit(status.code().unwrap_or(1));
    }
}
