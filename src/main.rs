//! Command-line entry point: parse, run, and report any error as one line on stderr
//! with exit code 2. A closed standard output (`cardsim ... | head`) is not an error:
//! the command still writes its files and exits 0 without a word.

use cardsim::output::quote::one_line as safe_line;
use clap::error::ErrorKind;
use clap::Parser;

fn main() {
    if let Err(e) = cardsim::cpu::check() {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    let cli = match cardsim::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) => e.exit(),
        Err(e) => {
            eprintln!("error: {}", safe_line(&cardsim::cli::clap_error_line(&e)));
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
