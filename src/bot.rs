//! Bot specifications on the command line: `STRATEGY[@PRESET]`.

use crate::reaction::Preset;

/// A parsed `--bot` argument.
#[derive(Clone, Debug, PartialEq)]
pub struct BotSpec {
    /// Strategy name, e.g. `smart`.
    pub strategy: String,
    /// Reaction preset, if given after `@`.
    pub preset: Option<Preset>,
    /// The spec as the user wrote it (used as the bot's label).
    pub label: String,
}

impl BotSpec {
    /// Parses `STRATEGY[@PRESET]`.
    pub fn parse(text: &str) -> Result<BotSpec, String> {
        let (strategy, preset) = match text.split_once('@') {
            Some((s, p)) => (s, Some(Preset::parse(p).map_err(|e| format!("--bot {text}: {e}"))?)),
            None => (text, None),
        };
        if strategy.is_empty() {
            return Err(format!("--bot {text}: missing strategy name before '@'"));
        }
        Ok(BotSpec { strategy: strategy.to_string(), preset, label: text.to_string() })
    }
    /// Checks the strategy against the names a game knows.
    pub fn check_strategy(&self, game: &str, known: &[&str]) -> Result<(), String> {
        if known.contains(&self.strategy.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "--bot {}: unknown strategy '{}' for {game}; known strategies: {}",
                self.label,
                self.strategy,
                known.join(", ")
            ))
        }
    }
}
