//! The rule settings of the Traitor Chess family (T2, T4a, T5-T8) and how
//! they are read from [`RuleOptions`]: `mode`, `commitment`,
//! `no_immediate_undo`, `announce_check`, `selection` and `seed`.

use crate::{Color, OptionError, Role, RuleOptions};

/// What an announced piece becomes (T4-T8).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// T4: keeps its colour, controlled by its announcer, attacks both Kings.
    Traitor,
    /// T5: changes colour and becomes a regular piece of the announcer.
    Defector,
    /// T6: keeps its colour, movable by either player.
    DoubleAgent,
    /// T7: changes colour and becomes a double agent.
    DefectorDoubleAgent,
    /// T8: movable by either player, captures any colour, attacks both Kings.
    Mercenary,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Traitor,
        Mode::Defector,
        Mode::DoubleAgent,
        Mode::DefectorDoubleAgent,
        Mode::Mercenary,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Mode::Traitor => "traitor",
            Mode::Defector => "defector",
            Mode::DoubleAgent => "double-agent",
            Mode::DefectorDoubleAgent => "defector-double-agent",
            Mode::Mercenary => "mercenary",
        }
    }

    /// The announcement flips the piece's colour (Defector, Defector-Double Agent).
    pub const fn changes_colour(self) -> bool {
        matches!(self, Mode::Defector | Mode::DefectorDoubleAgent)
    }

    /// Announced pieces keep a status of their own (traitor, double agent,
    /// mercenary); a Defector's defected piece is simply regular.
    pub const fn keeps_status(self) -> bool {
        !matches!(self, Mode::Defector)
    }

    /// Announced pieces may be moved by either player; the weak ko applies.
    pub const fn shared(self) -> bool {
        matches!(
            self,
            Mode::DoubleAgent | Mode::DefectorDoubleAgent | Mode::Mercenary
        )
    }

    /// Announced pieces attack both Kings (traitors, mercenaries).
    pub const fn status_attacks_both_kings(self) -> bool {
        matches!(self, Mode::Traitor | Mode::Mercenary)
    }
}

/// What a player commits to before play (T2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Commitment {
    /// Specific pieces, chosen secretly before play.
    Standard,
    /// Piece types and counts, chosen secretly; which piece is decided on
    /// announcement, by its current type.
    Simplified,
    /// Nothing chosen; any enemy piece whose value fits the public budget.
    Impromptu,
}

impl Commitment {
    pub const ALL: [Commitment; 3] = [
        Commitment::Standard,
        Commitment::Simplified,
        Commitment::Impromptu,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Commitment::Standard => "standard",
            Commitment::Simplified => "simplified",
            Commitment::Impromptu => "impromptu",
        }
    }

    /// Standard and Simplified have secret choices; Impromptu has none.
    pub const fn has_secrets(self) -> bool {
        !matches!(self, Commitment::Impromptu)
    }
}

/// Whether an announcement may leave the announced piece giving check
/// (T4a). The text lets a Traitor-mode traitor check at once, so that
/// 1.(T-Qd8) mates whatever White moves next (bar the queen's own :c7);
/// `Forbidden` is the setting that makes the mode playable.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnnounceCheck {
    /// The text: only the modes' own rules limit checks by announced
    /// pieces (T5, T7: either King; T8: the opponent's King).
    Allowed,
    /// No announcement after which the announced piece gives check to
    /// either King, in every mode.
    Forbidden,
}

impl AnnounceCheck {
    pub const ALL: [AnnounceCheck; 2] = [AnnounceCheck::Allowed, AnnounceCheck::Forbidden];

    pub const fn name(self) -> &'static str {
        match self {
            AnnounceCheck::Allowed => "allowed",
            AnnounceCheck::Forbidden => "forbidden",
        }
    }
}

/// How the secret choices of a new game (no position string) are made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SelectionSetting {
    /// A selection phase: White, then Black, each choose with one `Select`
    /// action that the other player never sees (the default).
    Phase,
    /// The position string holds both players' choices; a new game needs one.
    Fixed,
    /// Both choices drawn uniformly among the valid ones from `seed`.
    Random { seed: u64 },
}

/// Every rule setting of one game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraitorRules {
    pub mode: Mode,
    pub commitment: Commitment,
    /// T5: a player may not make defect the piece the opponent made defect on
    /// the previous turn. Only Simplified/Impromptu Defector can meet the
    /// case; elsewhere the setting is accepted and has no effect.
    pub no_immediate_undo: bool,
    /// T4a: may an announced piece give check at once? Defector and
    /// Defector-Double Agent already forbid it for either King (T5, T7),
    /// so there the setting changes nothing; in Mercenary (T8 forbids only
    /// the opponent's King) it adds the announcer's own.
    pub announce_check: AnnounceCheck,
    pub selection: SelectionSetting,
}

impl Default for TraitorRules {
    fn default() -> TraitorRules {
        TraitorRules {
            mode: Mode::Traitor,
            commitment: Commitment::Standard,
            no_immediate_undo: true,
            announce_check: AnnounceCheck::Allowed,
            selection: SelectionSetting::Phase,
        }
    }
}

const VARIANT: &str = "traitor";

/// The option keys the variant reads.
pub const OPTION_KEYS: [&str; 6] = [
    "mode",
    "commitment",
    "no_immediate_undo",
    "announce_check",
    "selection",
    "seed",
];

impl TraitorRules {
    pub fn new(mode: Mode, commitment: Commitment) -> TraitorRules {
        TraitorRules {
            mode,
            commitment,
            ..TraitorRules::default()
        }
    }

    /// Reads the settings; an unknown key or value is an error listing the
    /// valid ones.
    pub fn from_options(options: &RuleOptions) -> Result<TraitorRules, OptionError> {
        options.expect_only(VARIANT, &OPTION_KEYS)?;
        let mode_names = Mode::ALL.map(Mode::name);
        let mode_name = options.choice(VARIANT, "mode", &mode_names, "traitor")?;
        let commitment_names = Commitment::ALL.map(Commitment::name);
        let commitment_name =
            options.choice(VARIANT, "commitment", &commitment_names, "standard")?;
        let undo = options.choice(
            VARIANT,
            "no_immediate_undo",
            &["on", "off", "true", "false"],
            "on",
        )?;
        let announce_check_names = AnnounceCheck::ALL.map(AnnounceCheck::name);
        let announce_check =
            options.choice(VARIANT, "announce_check", &announce_check_names, "allowed")?;
        let selection =
            options.choice(VARIANT, "selection", &["phase", "fixed", "random"], "phase")?;
        let seed = match options.get("seed") {
            None => 0,
            Some(text) => text.parse::<u64>().map_err(|_| OptionError::BadValue {
                variant: VARIANT,
                key: "seed",
                value: text.to_owned(),
                valid: vec!["a whole number from 0 to 18446744073709551615"],
            })?,
        };
        Ok(TraitorRules {
            mode: Mode::ALL[mode_names
                .iter()
                .position(|n| *n == mode_name)
                .expect("chosen")],
            commitment: Commitment::ALL[commitment_names
                .iter()
                .position(|n| *n == commitment_name)
                .expect("chosen")],
            no_immediate_undo: matches!(undo, "on" | "true"),
            announce_check: AnnounceCheck::ALL[announce_check_names
                .iter()
                .position(|n| *n == announce_check)
                .expect("chosen")],
            selection: match selection {
                "fixed" => SelectionSetting::Fixed,
                "random" => SelectionSetting::Random { seed },
                _ => SelectionSetting::Phase,
            },
        })
    }

    /// The settings as options, every key explicit: the inverse of
    /// [`TraitorRules::from_options`] (encoding specs and game records
    /// compare settings through it).
    pub fn to_options(&self) -> RuleOptions {
        let mut options = RuleOptions::new();
        options
            .set("mode", self.mode.name())
            .set("commitment", self.commitment.name())
            .set(
                "no_immediate_undo",
                if self.no_immediate_undo { "on" } else { "off" },
            )
            .set("announce_check", self.announce_check.name());
        match self.selection {
            SelectionSetting::Phase => options.set("selection", "phase"),
            SelectionSetting::Fixed => options.set("selection", "fixed"),
            SelectionSetting::Random { seed } => options
                .set("selection", "random")
                .set("seed", &seed.to_string()),
        };
        options
    }

    /// Does a rule forbid an announcement by `announcer` after which the
    /// announced piece gives check to the King of `king`? T5 and T7 forbid
    /// checks on either King, T8 on the opponent's; the text puts no limit
    /// on traitors and double agents (T4, T6), which `announce_check =
    /// forbidden` adds, for either King, in every mode (T4a).
    pub fn forbids_announced_check(&self, king: Color, announcer: Color) -> bool {
        self.announce_check == AnnounceCheck::Forbidden
            || match self.mode {
                Mode::Defector | Mode::DefectorDoubleAgent => true,
                Mode::Mercenary => king != announcer,
                Mode::Traitor | Mode::DoubleAgent => false,
            }
    }

    /// The T5 no-undo rule is in force (Defector, not Standard, setting on).
    pub const fn forbids_immediate_undo(&self) -> bool {
        self.no_immediate_undo
            && matches!(self.mode, Mode::Defector)
            && !matches!(self.commitment, Commitment::Standard)
    }
}

/// The whole budget of a player (T1).
pub const BUDGET: u8 = 9;

/// Piece values of T1; the King is never a traitor.
pub const fn value(role: Role) -> u8 {
    match role {
        Role::Queen => 9,
        Role::Rook => 5,
        Role::Bishop | Role::Knight => 3,
        Role::Pawn => 1,
        _ => 0,
    }
}
