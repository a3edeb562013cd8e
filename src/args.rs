//! Argument groups that several subcommands of both binaries take, each
//! declared once and flattened (`#[command(flatten)]`) into the commands:
//! the same flag then reads, checks and explains itself the same way
//! everywhere.

use clap::Args;
use heterodox_env::{AnyGame, RuleOptions, Variant};

/// A variant and its rule settings.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Variant name (see `heterodox variants`).
    #[arg(long, default_value = "chess")]
    pub variant: String,
    /// A rule setting of the variant, KEY=VALUE; repeatable.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Traitor family mode: sugar for `--option mode=...`.
    #[arg(long)]
    pub mode: Option<String>,
    /// Traitor family commitment: sugar for `--option commitment=...`.
    #[arg(long)]
    pub commitment: Option<String>,
}

impl RulesArgs {
    /// The variant named, or the error listing the valid ones.
    pub fn variant(&self) -> Result<Variant, String> {
        self.variant.parse().map_err(|e| format!("{e}"))
    }

    /// The rule settings: `--option`s, then the `--mode` and
    /// `--commitment` sugar.
    pub fn options(&self) -> Result<RuleOptions, String> {
        let mut options =
            RuleOptions::parse(&self.options.join(",")).map_err(|e| format!("{e}"))?;
        if let Some(mode) = &self.mode {
            options.set("mode", mode);
        }
        if let Some(commitment) = &self.commitment {
            options.set("commitment", commitment);
        }
        Ok(options)
    }
}

/// A game: a variant, its rules and where it starts.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start from this position instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
}

impl GameArgs {
    /// Builds the game these options describe.
    pub fn new_game(&self) -> Result<AnyGame, String> {
        AnyGame::with_options(
            self.rules.variant()?,
            self.fen.as_deref(),
            &self.rules.options()?,
        )
        .map_err(|e| format!("{e}"))
    }
}
