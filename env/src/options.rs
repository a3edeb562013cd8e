//! Rule settings by name (`mode=defector`, `commitment=impromptu`), as typed
//! on the command line, in Python keyword arguments and in perft files. Each
//! variant reads the keys it knows and rejects the rest with a message that
//! lists the valid ones.

use std::collections::BTreeMap;
use std::fmt;

/// An error in a rule setting.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("{variant} has no rule option '{key}' (valid options: {valid})", valid = list(valid))]
    UnknownKey {
        variant: &'static str,
        key: String,
        valid: Vec<&'static str>,
    },
    #[error("invalid value '{value}' for {variant} option '{key}' (valid values: {valid})", valid = list(valid))]
    BadValue {
        variant: &'static str,
        key: &'static str,
        value: String,
        valid: Vec<&'static str>,
    },
    #[error("cannot read rule option '{0}': expected key=value")]
    Syntax(String),
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

/// Rule settings: key -> value, both plain strings until a variant reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions(BTreeMap<String, String>);

impl RuleOptions {
    pub fn new() -> RuleOptions {
        RuleOptions::default()
    }

    /// Reads `key=value` items separated by commas or whitespace.
    pub fn parse(text: &str) -> Result<RuleOptions, OptionError> {
        let mut options = RuleOptions::new();
        for item in text.split([',', ' ', '\t']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| OptionError::Syntax(item.to_owned()))?;
            if key.is_empty() || value.is_empty() {
                return Err(OptionError::Syntax(item.to_owned()));
            }
            options.set(key, value);
        }
        Ok(options)
    }

    pub fn set(&mut self, key: &str, value: &str) -> &mut RuleOptions {
        self.0.insert(key.to_owned(), value.to_owned());
        self
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Fails on the first key not in `valid`.
    pub fn expect_only(
        &self,
        variant: &'static str,
        valid: &[&'static str],
    ) -> Result<(), OptionError> {
        match self.0.keys().find(|k| !valid.contains(&k.as_str())) {
            Some(key) => Err(OptionError::UnknownKey {
                variant,
                key: key.clone(),
                valid: valid.to_vec(),
            }),
            None => Ok(()),
        }
    }

    /// Reads a key whose value must be one of `valid`; `default` when absent.
    pub fn choice(
        &self,
        variant: &'static str,
        key: &'static str,
        valid: &[&'static str],
        default: &'static str,
    ) -> Result<&'static str, OptionError> {
        match self.get(key) {
            None => Ok(default),
            Some(value) => {
                valid
                    .iter()
                    .copied()
                    .find(|v| *v == value)
                    .ok_or_else(|| OptionError::BadValue {
                        variant,
                        key,
                        value: value.to_owned(),
                        valid: valid.to_vec(),
                    })
            }
        }
    }
}

impl fmt::Display for RuleOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_read() {
        let options = RuleOptions::parse("mode=defector, commitment=impromptu").unwrap();
        assert_eq!(options.get("mode"), Some("defector"));
        assert_eq!(options.to_string(), "commitment=impromptu,mode=defector");
        assert_eq!(
            RuleOptions::parse("mode").unwrap_err(),
            OptionError::Syntax("mode".into())
        );
        assert_eq!(
            options.expect_only("chess", &[]).unwrap_err().to_string(),
            "chess has no rule option 'commitment' (valid options: none)"
        );
        assert_eq!(
            options
                .choice("traitor", "mode", &["traitor", "mercenary"], "traitor")
                .unwrap_err()
                .to_string(),
            "invalid value 'defector' for traitor option 'mode' (valid values: traitor, mercenary)"
        );
        assert_eq!(options.choice("traitor", "absent", &["a"], "a"), Ok("a"));
    }
}
