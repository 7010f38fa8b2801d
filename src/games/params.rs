//! Strategy parameters: the numeric choices of a built-in heuristic (weights,
//! thresholds), each named with a range and a default. The defaults are the strategy's
//! standard behaviour; a bot sets others with `STRATEGY[@PRESET],NAME=VALUE,...` on the
//! command line or a `[params]` table in a bot file, and `cardsim tune` searches them.
//!
//! ```
//! use cardsim::games::params::{ParamDef, ParamValues};
//! const DEFS: &[ParamDef] = &[
//!     ParamDef { name: "bonus", about: "points for a play", default: 200.0, min: 0.0, max: 1000.0, integer: true },
//! ];
//! let v = ParamValues::resolve("smart,bonus=250", DEFS, &[("bonus".into(), 250.0)]).unwrap();
//! assert_eq!(v.int(0), 250);
//! assert!(ParamValues::resolve("smart,bonus=-1", DEFS, &[("bonus".into(), -1.0)]).is_err());
//! ```

use crate::output::quote::clip;

/// Most parameters one strategy has.
pub const MAX_PARAMS: usize = 12;

/// One parameter of a strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamDef {
    /// Name in `NAME=VALUE` and in bot files' `[params]`.
    pub name: &'static str,
    /// One line on what it weighs.
    pub about: &'static str,
    /// The standard value: the strategy's behaviour without parameters.
    pub default: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// True if the strategy uses the value rounded to an integer.
    pub integer: bool,
}

impl ParamDef {
    /// The value as the strategy uses it: `x` rounded for an integer parameter.
    pub fn effective(&self, x: f64) -> f64 {
        if self.integer { x.round() } else { x }
    }
}

/// The values of one strategy's parameters, in the order of its [`ParamDef`]s: a small
/// `Copy` array, so strategies read them without allocating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamValues {
    values: [f64; MAX_PARAMS],
}

impl ParamValues {
    /// Every parameter at its default.
    pub fn defaults(defs: &[ParamDef]) -> ParamValues {
        assert!(defs.len() <= MAX_PARAMS, "a strategy has at most {MAX_PARAMS} parameters");
        let mut values = [0.0; MAX_PARAMS];
        for (v, d) in values.iter_mut().zip(defs) {
            *v = d.default;
        }
        ParamValues { values }
    }

    /// The defaults with `given` (name, value) pairs applied, each checked: a known
    /// name, given once, a finite value within its range. `label` names the bot in the
    /// one-line error.
    pub fn resolve(label: &str, defs: &[ParamDef], given: &[(String, f64)]) -> Result<ParamValues, String> {
        let mut v = ParamValues::defaults(defs);
        for (k, (name, x)) in given.iter().enumerate() {
            let Some(i) = defs.iter().position(|d| d.name == name) else {
                let known = if defs.is_empty() { "it has no parameters".to_string() } else { format!("known: {}", defs.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")) };
                return Err(format!("--bot {}: unknown parameter '{}'; {known}", clip(label), clip(name)));
            };
            if given[..k].iter().any(|(n, _)| n == name) {
                return Err(format!("--bot {}: parameter '{}' is given twice", clip(label), clip(name)));
            }
            let d = &defs[i];
            if !x.is_finite() || *x < d.min || *x > d.max {
                return Err(format!("--bot {}: {name}={x}: out of range [{}, {}]", clip(label), d.min, d.max));
            }
            v.values[i] = *x;
        }
        Ok(v)
    }

    /// Parameter `i` as given (not rounded).
    pub fn get(&self, i: usize) -> f64 {
        self.values[i]
    }

    /// Parameter `i` rounded to the nearest integer (for [`ParamDef::integer`] ones).
    pub fn int(&self, i: usize) -> i64 {
        self.values[i].round() as i64
    }
}

/// Splits `NAME=VALUE` parts (the text after a strategy's first comma) into pairs, for
/// [`ParamValues::resolve`]; `label` names the bot in the one-line error.
pub fn parse_assignments<'a>(label: &str, parts: impl Iterator<Item = &'a str>) -> Result<Vec<(String, f64)>, String> {
    parts
        .map(|part| {
            let (name, value) = part.split_once('=').ok_or_else(|| format!("--bot {}: '{}' is not NAME=VALUE (a strategy parameter)", clip(label), clip(part)))?;
            let x: f64 = value.trim().parse().map_err(|_| format!("--bot {}: {}={}: not a number", clip(label), clip(name.trim()), clip(value.trim())))?;
            Ok((name.trim().to_string(), x))
        })
        .collect()
}

/// The parameters of a bot as `NAME=VALUE` joined by commas, in definition order, with
/// the effective (rounded) values: how `cardsim list` and tuned bot files show them.
pub fn describe(defs: &[ParamDef], v: &ParamValues) -> String {
    defs.iter().enumerate().map(|(i, d)| format!("{}={}", d.name, d.effective(v.get(i)))).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFS: &[ParamDef] = &[
        ParamDef { name: "a", about: "", default: 1.0, min: 0.0, max: 10.0, integer: true },
        ParamDef { name: "b", about: "", default: 0.5, min: -1.0, max: 1.0, integer: false },
    ];

    #[test]
    fn defaults_and_given_values() {
        let v = ParamValues::resolve("x", DEFS, &[("b".into(), -0.25)]).unwrap();
        assert_eq!((v.get(0), v.get(1)), (1.0, -0.25));
        let v = ParamValues::resolve("x", DEFS, &[("a".into(), 6.6)]).unwrap();
        assert_eq!(v.int(0), 7);
        assert_eq!(describe(DEFS, &v), "a=7,b=0.5");
    }

    #[test]
    fn bad_parameters_are_named() {
        let e = ParamValues::resolve("smart,c=1", DEFS, &[("c".into(), 1.0)]).unwrap_err();
        assert_eq!(e, "--bot smart,c=1: unknown parameter 'c'; known: a, b");
        let e = ParamValues::resolve("s", DEFS, &[("a".into(), 11.0)]).unwrap_err();
        assert_eq!(e, "--bot s: a=11: out of range [0, 10]");
        let e = ParamValues::resolve("s", DEFS, &[("a".into(), 1.0), ("a".into(), 2.0)]).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
        let e = ParamValues::resolve("s", &[], &[("a".into(), 1.0)]).unwrap_err();
        assert!(e.contains("it has no parameters"), "{e}");
        assert!(ParamValues::resolve("s", DEFS, &[("b".into(), f64::NAN)]).is_err());
        let e = parse_assignments("s", ["a=x"].into_iter()).unwrap_err();
        assert_eq!(e, "--bot s: a=x: not a number");
        assert!(parse_assignments("s", ["a"].into_iter()).unwrap_err().contains("not NAME=VALUE"));
        assert_eq!(parse_assignments("s", [" a = 2 "].into_iter()).unwrap(), vec![("a".to_string(), 2.0)]);
    }
}
