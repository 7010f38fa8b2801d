//! Command-line entry point: parse, run, map errors to a one-line message and exit code 2.

use clap::Parser;

fn main() {
    let cli = cardsim::cli::Cli::parse();
    if let Err(e) = cardsim::cli::run(cli) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
