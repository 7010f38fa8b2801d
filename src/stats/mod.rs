//! Statistics that merge exactly: integer counts and histograms, Wilson intervals.

pub mod histogram;
pub mod interval;

pub use histogram::Histogram;
pub use interval::{wilson_interval, Z_95};
