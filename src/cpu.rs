//! The processor features this build was compiled to use, checked against the running
//! processor before anything else runs: a build for x86-64-v2 (`.cargo/config.toml`) on
//! an older processor stops with one line naming what is missing instead of dying of an
//! illegal instruction in the middle of a run.

/// The x86-64-v2 features the compiler may use, each with whether this build was
/// compiled to use it and whether the running processor has it.
#[cfg(target_arch = "x86_64")]
fn features() -> Vec<(&'static str, bool, bool)> {
    macro_rules! feature {
        ($($name:tt),*) => {
            vec![$(($name, cfg!(target_feature = $name), std::arch::is_x86_feature_detected!($name))),*]
        };
    }
    feature!("sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "cmpxchg16b")
}

#[cfg(not(target_arch = "x86_64"))]
fn features() -> Vec<(&'static str, bool, bool)> {
    Vec::new()
}

/// The error for `features` (name, compiled in, present), if a feature the build uses
/// is missing.
fn missing(features: &[(&str, bool, bool)]) -> Result<(), String> {
    let lacking: Vec<&str> = features.iter().filter(|&&(_, used, present)| used && !present).map(|&(name, ..)| name).collect();
    if lacking.is_empty() {
        return Ok(());
    }
    Err(format!(
        "this cardsim was built for x86-64-v2 processors and this processor lacks {}: rebuild it with RUSTFLAGS=\"-C target-cpu=x86-64\" (docs/performance.md, \"Target processor\")",
        lacking.join(", ")
    ))
}

/// `Ok` when the running processor has every feature this build was compiled to use,
/// else the one-line error to print.
///
/// ```
/// // Any processor that runs this example runs the build that compiled it.
/// assert!(cardsim::cpu::check().is_ok());
/// ```
pub fn check() -> Result<(), String> {
    missing(&features())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_processor_runs_this_build() {
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn a_missing_feature_the_build_uses_is_named() {
        let err = missing(&[("sse4.2", true, true), ("popcnt", true, false), ("ssse3", false, false)]).unwrap_err();
        assert!(err.contains("lacks popcnt:"), "{err}");
        assert!(!err.contains("ssse3") && !err.contains("sse4.2,"), "only what the build uses and the processor lacks: {err}");
        assert_eq!(missing(&[("popcnt", false, false)]), Ok(()), "a feature the build does not use is not needed");
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_repository_build_uses_popcnt() {
        // .cargo/config.toml asks for x86-64-v2; a RUSTFLAGS in the environment of
        // `cargo test` (which the test inherits) replaces it, and then the build is
        // whatever that says.
        if std::env::var_os("RUSTFLAGS").is_none() && std::env::var_os("CARGO_ENCODED_RUSTFLAGS").is_none() {
            assert!(features().iter().any(|&(name, used, _)| name == "popcnt" && used), "{:?}", features());
        }
    }
}
