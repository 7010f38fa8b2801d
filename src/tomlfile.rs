//! Reading the project's TOML files (bots, experiments) with one-line errors.

use serde::de::DeserializeOwned;
use std::path::Path;

/// Most bytes cardsim reads from one input file (a bot, experiment, rule or position
/// file is a few kilobytes): a bigger file, or an endless one (`/dev/zero`, a pipe), is
/// an error instead of eating the memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// Reads a UTF-8 text file, or standard input for `-`, of at most [`MAX_INPUT`] bytes;
/// errors are one line starting with `shown` (how the file is named to the user).
pub fn read_text(path: &Path, shown: &str) -> Result<String, String> {
    use std::io::Read;
    let reader: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{shown}: cannot read: {e}"))?)
    };
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("{shown}: more than {} MiB; not an input file cardsim reads", MAX_INPUT >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("{shown}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// Reads and parses a TOML file; errors are one line naming the file, line and problem.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = read_text(path, &crate::output::quote::clip_path(path))?;
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
