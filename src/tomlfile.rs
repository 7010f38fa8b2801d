//! Reading the project's TOML files (bots, experiments) with one-line errors.

use serde::de::DeserializeOwned;
use std::path::Path;

/// Reads and parses a TOML file; errors are one line naming the file, line and problem.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    parse(&text, path)
}

/// Parses the TOML `text` of the file at `path` (named in errors, with the line).
pub fn parse<T: DeserializeOwned>(text: &str, path: &Path) -> Result<T, String> {
    let where_ = path.display();
    toml::from_str(text).map_err(|e| {
        // The message may quote the file's text (a 50 MB string): clipped.
        let msg = crate::output::quote::clip_to(&e.message().trim().replace('\n', " "), 200);
        match e.span() {
            Some(span) => {
                let line = text[..span.start].matches('\n').count() + 1;
                format!("{where_}: line {line}: {msg}")
            }
            None => format!("{where_}: {msg}"),
        }
    })
}
