//! Result exporters: the CSV summary and the readable table.

pub mod summary;

pub use summary::{summary_rows, write_csv, print_summary, SummaryRow};
