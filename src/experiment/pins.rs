//! What a study's state read back is checked against: the files it read, pinned by
//! their SHA-256 ([`InputFile`]), and the shape and the counts of the state itself
//! ([`check_shape`], [`Study::check_state`](super::run::Study::check_state)).
//!
//! A checkpoint, a shard's partial and the manifest record every input of the study
//! (the experiment file and each bot file it names); `--resume` and `merge` refuse a
//! state whose inputs changed since, naming the file.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A file a study read, as the experiment names it (bot files relative to the
/// experiment's folder, so the record is the same on every machine), and the SHA-256
/// of the bytes read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct InputFile {
    /// The path as the experiment names it.
    pub path: String,
    /// SHA-256 of its contents, hex.
    pub sha256: String,
}

/// The SHA-256 of `bytes` as 64 hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// `Err` naming the first input that differs between `recorded` (what a saved state
/// was played with) and `now`, as "FILE changed since WHEN".
pub fn compare(recorded: &[InputFile], now: &[InputFile], since: &str) -> Result<(), String> {
    for r in recorded {
        match now.iter().find(|n| n.path == r.path) {
            Some(n) if n.sha256 == r.sha256 => {}
            Some(_) => return Err(format!("{} changed since {since} (its SHA-256 differs)", r.path)),
            None => return Err(format!("{} was an input {since} and is not one now", r.path)),
        }
    }
    if let Some(n) = now.iter().find(|n| !recorded.iter().any(|r| r.path == n.path)) {
        return Err(format!("{} is an input now and was not {since}", n.path));
    }
    Ok(())
}

/// Checks that `read` (a state read back, as JSON) has the shape of `reference` (an
/// empty state made for the same study): the same fields, arrays of the same length,
/// the same variant of every optional part. An empty array or map in the reference
/// (a histogram's counts) may hold anything of its kind. `Err` names the field path.
pub fn check_shape(reference: &serde_json::Value, read: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value as V;
    match (reference, read) {
        (V::Null, _) => Ok(()),
        (V::Array(r), V::Array(x)) if r.is_empty() => {
            let _ = x;
            Ok(())
        }
        (V::Array(r), V::Array(x)) => {
            if r.len() != x.len() {
                return Err(format!("{at}: {} entries where the experiment's table has {}", x.len(), r.len()));
            }
            r.iter().zip(x).enumerate().try_for_each(|(i, (a, b))| check_shape(a, b, &format!("{at}[{i}]")))
        }
        (V::Object(r), V::Object(_)) if r.is_empty() => Ok(()),
        (V::Object(r), V::Object(x)) => {
            for (k, a) in r {
                match x.get(k) {
                    Some(b) => check_shape(a, b, &if at.is_empty() { k.clone() } else { format!("{at}.{k}") })?,
                    None => return Err(format!("{at}: field {k} is missing")),
                }
            }
            match x.keys().find(|k| !r.contains_key(*k)) {
                Some(k) => Err(format!("{at}: unknown field {k}")),
                None => Ok(()),
            }
        }
        (V::Number(_), V::Number(_)) | (V::Bool(_), V::Bool(_)) | (V::String(_), V::String(_)) => Ok(()),
        (_, V::Null) => Err(format!("{at}: missing (null) where the experiment's table has a value")),
        _ => Err(format!("{at}: of the wrong kind")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sha256_of_a_known_text() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn compare_names_the_changed_file() {
        let a = |p: &str, h: &str| InputFile { path: p.into(), sha256: h.into() };
        let old = vec![a("x.toml", "1"), a("bot.toml", "2")];
        assert!(compare(&old, &old, "then").is_ok());
        assert_eq!(compare(&old, &[a("x.toml", "1"), a("bot.toml", "3")], "the interrupt").unwrap_err(), "bot.toml changed since the interrupt (its SHA-256 differs)");
        assert!(compare(&old, &[a("x.toml", "1")], "then").unwrap_err().contains("bot.toml was an input"));
        assert!(compare(&old[..1], &old, "then").unwrap_err().contains("bot.toml is an input now"));
    }

    #[test]
    fn shape_checks_lengths_fields_and_variants() {
        let r = json!({"games": [[0, 0], [0, 0]], "counts": {}, "bug": null, "points": {"sum": [0, 0]}, "pending": []});
        assert!(check_shape(&r, &json!({"games": [[1, 2], [3, 4]], "counts": {"17": 3}, "bug": {"seat": 1}, "points": {"sum": [5, 6]}, "pending": [1, 2, 3]}), "").is_ok());
        assert_eq!(check_shape(&r, &json!({"games": [[1, 2]], "counts": {}, "bug": null, "points": {"sum": [0, 0]}, "pending": []}), "").unwrap_err(), "games: 1 entries where the experiment's table has 2");
        assert_eq!(check_shape(&r, &json!({"games": [[1, 2], [3]], "counts": {}, "bug": null, "points": {"sum": [0, 0]}, "pending": []}), "").unwrap_err(), "games[1]: 1 entries where the experiment's table has 2");
        assert!(check_shape(&r, &json!({"games": [[1, 2], [3, 4]], "counts": {}, "bug": null, "points": null, "pending": []}), "").unwrap_err().starts_with("points: missing"));
        assert!(check_shape(&r, &json!({"games": [[1, 2], [3, 4]], "counts": {}, "bug": null, "points": {"sum": [0, 0]}}), "").unwrap_err().contains("field pending is missing"));
        assert!(check_shape(&r, &json!({"games": [[1, 2], [3, 4]], "counts": {}, "bug": null, "points": {"sum": [0, 0]}, "pending": [], "x": 1}), "").unwrap_err().contains("unknown field x"));
        assert!(check_shape(&r, &json!({"games": "a", "counts": {}, "bug": null, "points": {"sum": [0, 0]}, "pending": []}), "").unwrap_err().contains("wrong kind"));
    }
}
