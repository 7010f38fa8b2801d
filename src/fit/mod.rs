//! `cardsim fit-rt`: a bot fitted to a person. Measured move times (ms) are fitted by
//! maximum likelihood with an ex-Gaussian and a shifted lognormal, in the
//! parameterisations of cardsim's own [`Dist`](crate::reaction::Dist).
//!
//! - [`families`]: the two families' log-densities, log-likelihoods and distribution
//!   functions;
//! - [`optimise`]: the Nelder–Mead minimiser;
//! - [`mle`]: the fits, the observed information and the 95 % intervals;
//! - [`ks`]: the Kolmogorov–Smirnov goodness-of-fit test.

pub mod families;
pub mod ks;
pub mod mle;
pub mod optimise;

pub use families::Family;
pub use mle::{fit, Fit};
