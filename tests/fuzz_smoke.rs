//! Runs every fuzz body (`cardsim::fuzzing`, the targets of `fuzz/`) over its seed
//! corpus (`fuzz/seeds/TARGET/`), mutations of the seeds and pseudo-random byte strings,
//! so the suite keeps checking what the fuzzers check: no panic, invariants kept, and
//! every illegal choice of a byte-driven bot reported by the engine as the bot made it.

use cardsim::fuzzing::TARGETS;
use cardsim::rng::rng_from;
use rand::RngExt;
use std::path::Path;

/// Pseudo-random inputs per target besides the seeds and their mutations.
const RANDOM_INPUTS: usize = 1500;

/// The seed files of `target`, read as bytes.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    files.sort();
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

#[test]
fn every_fuzz_body_survives_its_seeds_their_mutations_and_random_bytes() {
    let mut rng = rng_from(7);
    for (name, body) in TARGETS {
        let corpus = seeds(name);
        assert!(!corpus.is_empty(), "{name}: a seed corpus in fuzz/seeds/{name}");
        for seed in &corpus {
            body(seed);
            // A few mutations of each seed: bytes overwritten, a cut, a doubled part.
            for _ in 0..20 {
                let mut m = seed.clone();
                match rng.random_range(0..3) {
                    0 => {
                        for _ in 0..rng.random_range(1..4) {
                            if !m.is_empty() {
                                let i = rng.random_range(0..m.len());
                                m[i] = rng.random();
                            }
                        }
                    }
                    1 => m.truncate(rng.random_range(0..=m.len())),
                    _ => {
                        let i = rng.random_range(0..=m.len());
                        let part = m[..i].to_vec();
                        m.splice(i..i, part);
                    }
                }
                body(&m);
            }
        }
        for _ in 0..RANDOM_INPUTS {
            let len = rng.random_range(0..400);
            let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            body(&bytes);
        }
    }
}

#[test]
fn byte_driven_bots_make_illegal_choices_that_the_engines_report() {
    // Inputs whose decision bytes are mostly >= 240 replay stale actions: the engines
    // must see some as illegal (the bodies assert that each report matches the script).
    use cardsim::fuzzing::{lopti_actions, nerts_actions, speed_actions, spit_actions};
    let mut rng = rng_from(9);
    for (name, body) in [("spit", spit_actions as fn(&[u8]) -> _), ("speed", speed_actions), ("lopti", lopti_actions), ("nerts", nerts_actions)] {
        let mut reported = 0;
        for _ in 0..200 {
            let mut bytes: Vec<u8> = (0..16).map(|_| rng.random()).collect();
            bytes.extend((0..300).map(|_| if rng.random_range(0..4) == 0 { 240 + rng.random_range(0..16) } else { rng.random_range(0..224) }));
            reported += body(&bytes).is_some() as u32;
        }
        assert!(reported >= 20, "{name}: {reported} of 200 scripts with stale actions were reported illegal");
    }
}
