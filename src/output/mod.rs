//! Result exporters: the CSV summary and the readable table; output files
//! ([`sink`]), printing that survives a closed pipe ([`console`]) and user input
//! quoted in errors ([`quote`]).

pub mod charts;
pub mod console;
pub mod quote;
pub mod sink;
pub mod summary;

pub use quote::{clip, clip_path};
pub use sink::OutputPath;
pub use summary::{summary_rows, write_csv, print_summary, SummaryRow};
