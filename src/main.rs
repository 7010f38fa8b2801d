//! Command-line entry point: parse, run, and report any error as one line on stderr
//! with exit code 2. A closed standard output (`cardsim ... | head`) is not an error:
//! the command still writes its files and exits 0 without a word.

use cardsim::output::quote::{clip, one_line as safe_line, MAX_QUOTE};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser;

/// Folds a clap error into one line: its message lines up to the usage block, with
/// the values it quotes clipped to [`MAX_QUOTE`] characters.
fn one_line(e: &clap::Error) -> String {
    let mut text = e.render().to_string();
    for kind in [ContextKind::InvalidValue, ContextKind::InvalidArg, ContextKind::InvalidSubcommand] {
        if let Some(ContextValue::String(v)) = e.get(kind) {
            if v.chars().count() > MAX_QUOTE || v.contains(char::is_control) {
                text = text.replace(v.as_str(), &clip(v));
            }
        }
    }
    let msg: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    format!("{} (see --help)", msg.join(" ").trim_start_matches("error: "))
}

fn main() {
    let cli = match cardsim::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) => e.exit(),
        Err(e) => {
            eprintln!("error: {}", safe_line(&one_line(&e)));
            std::process::exit(2);
        }
    };
    match cardsim::cli::run(cli) {
        Ok(()) => {}
        Err(e) if e == cardsim::interrupt::INTERRUPTED => std::process::exit(cardsim::interrupt::EXIT_CODE),
        Err(e) => {
            eprintln!("error: {}", safe_line(&e));
            std::process::exit(2);
        }
    }
}
