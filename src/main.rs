//! Command-line entry point: parse, run, and report any error as one line on stderr
//! with exit code 2.

use clap::error::ErrorKind;
use clap::Parser;

/// Folds a clap error into one line: its message lines up to the usage block.
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
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
            eprintln!("error: {}", one_line(&e));
            std::process::exit(2);
        }
    };
    if let Err(e) = cardsim::cli::run(cli) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
