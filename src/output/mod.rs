//! Result exporters: the CSV summary and the readable table; CSV, JSON and Markdown
//! exports ([`mod@format`]), the HTML page of a results folder ([`report`]), completions
//! and man pages ([`manual`]); output files ([`sink`]), printing that survives a closed
//! pipe ([`console`]) and user input quoted in errors ([`quote`]).

pub mod charts;
pub mod console;
pub mod format;
pub mod manual;
pub mod quote;
pub mod report;
pub mod sink;
pub mod summary;

pub use quote::{clip, clip_path};
pub use sink::OutputPath;
pub use summary::{summary_rows, write_csv, print_summary, SummaryRow};
