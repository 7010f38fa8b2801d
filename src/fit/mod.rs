//! `cardsim fit-rt`: a bot fitted to a person. Measured move times (ms) are fitted by
//! maximum likelihood with an ex-Gaussian and a shifted lognormal, in the
//! parameterisations of cardsim's own [`Dist`](crate::reaction::Dist); the better fit by
//! AIC can be written as a bot file whose card moves take exactly that distribution of
//! time ([`botfile`]). Usage, model and limits: `docs/fit-rt.md`.
//!
//! - [`input`]: reading the times (one per line, or a CSV column) with one-line errors;
//! - [`families`]: the two families' log-densities, log-likelihoods and distribution
//!   functions;
//! - [`optimise`]: the Nelder–Mead minimiser;
//! - [`mle`]: the fits and the observed information;
//! - [`profile`]: the profile-likelihood 95 % intervals;
//! - [`ks`]: the Kolmogorov–Smirnov goodness-of-fit test;
//! - [`botfile`]: mapping a fit onto the reaction model, and the bot file's text;
//! - [`pace`]: a bot's pace measured in play, and the nearest preset by it;
//! - [`command`]: the command itself.

pub mod botfile;
pub mod command;
pub mod families;
pub mod input;
pub mod ks;
pub mod mle;
pub mod optimise;
pub mod pace;
pub mod profile;

pub use families::Family;
pub use mle::{fit, Fit};
