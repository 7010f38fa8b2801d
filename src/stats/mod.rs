//! Statistics that merge exactly: integer counts and histograms, Wilson intervals,
//! ratios over clusters, Elo estimates, the SPRT, paired differences between configurations and
//! Bradley–Terry ratings.

pub mod cluster;
pub mod elo;
pub mod histogram;
pub mod interval;
pub mod paired;
pub mod ratings;
pub mod sprt;

pub use cluster::{cluster_ratio, ClusterRatio};
pub use elo::{
    elo_to_score, elo_with_interval, los, nelo_with_interval, paired_score, score_to_elo,
    PairedScore,
};
pub use histogram::Histogram;
pub use interval::{t_95, wilson_interval, Z_95};
pub use sprt::{Sprt, SprtModel, SprtVerdict};

#[cfg(test)]
pub(crate) mod tests {
    /// Asserts that `actual` is within `tol` of `expected`.
    pub(crate) fn close(actual: f64, expected: f64, tol: f64) {
        assert!((actual - expected).abs() <= tol, "{actual} differs from {expected} by more than {tol}");
    }
}
