//! A flag that names one of a few fixed choices (`--color white`,
//! `--schedule gauntlet`), read the same way by every command: the value
//! named, or an error that lists the valid names.

/// The names a flag takes and what each stands for.
pub struct Choices<T: 'static> {
    /// What one choice is called in an error (`colour`), and several.
    pub kind: &'static str,
    pub kinds: &'static str,
    pub names: &'static [(&'static str, T)],
}

impl<T: Clone> Choices<T> {
    /// The value `text` names, or
    /// `unknown KIND 'TEXT' (valid KINDS: a, b)`.
    pub fn parse(&self, text: &str) -> Result<T, String> {
        match self.names.iter().find(|(name, _)| *name == text) {
            Some((_, value)) => Ok(value.clone()),
            None => {
                let names: Vec<&str> = self.names.iter().map(|(name, _)| *name).collect();
                Err(format!(
                    "unknown {} '{text}' (valid {}: {})",
                    self.kind,
                    self.kinds,
                    names.join(", ")
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_gives_its_value_and_an_unknown_one_lists_the_choices() {
        const SIDES: Choices<u8> = Choices {
            kind: "colour",
            kinds: "colours",
            names: &[("white", 0), ("black", 1)],
        };
        assert_eq!(SIDES.parse("black"), Ok(1));
        assert_eq!(
            SIDES.parse("red"),
            Err("unknown colour 'red' (valid colours: white, black)".to_owned())
        );
    }
}
