//! Variant flags (`--set game.flag=value`): their definitions, and settings parsed once
//! into typed values.
//!
//! Every value is parsed by its flag's kind (a word of a list, a boolean, a whole number
//! in a range or of a list, a decimal with a fixed number of places) and compared as a
//! value: `sim.max_actions=0200000` is the default 200000, and labels show the canonical
//! form. A flag given twice is an error, and so is a flag set to a non-default value
//! where the other flags in force make it do nothing ([`Needs`]), e.g.
//! `spit.points_round_mode` without `spit.scoring=points`. Games read typed values
//! ([`Settings::get_bool`], [`Settings::get_int`], [`Settings::get_decimal`],
//! [`Settings::get_choice`]); asking for a flag by the wrong type, or a choice table
//! that does not cover the flag's words, is a programming error and panics.

use crate::output::quote::clip;
use std::fmt;

/// What values a flag accepts.
#[derive(Clone, Copy, Debug)]
pub enum FlagKind {
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Bool,
    /// A whole number in an inclusive range (leading zeros allowed: `0200` is 200).
    Int { min: u64, max: u64 },
    /// One of a fixed list of whole numbers.
    IntChoice(&'static [u64]),
    /// A decimal number with at most `places` decimals, from `min` to `max` counted in
    /// units of 10^-places (`0.05` with 6 places is 50000).
    Decimal { places: u32, min: u64, max: u64 },
}

/// A flag that only has an effect when another flag has certain values.
#[derive(Clone, Copy, Debug)]
pub struct Needs {
    /// The other flag.
    pub key: &'static str,
    /// True if, with the other flag at this value (canonical text), this flag has an effect.
    pub when: fn(&str) -> bool,
    /// What the other flag must be, for the error message (e.g. `spit.scoring=points`).
    pub text: &'static str,
}

/// One configurable rule variant or simulation limit.
#[derive(Clone, Copy, Debug)]
pub struct FlagDef {
    /// Full key, e.g. `spit.num_stockpiles`.
    pub key: &'static str,
    /// Accepted values.
    pub kind: FlagKind,
    /// Default value, as text (in canonical form).
    pub default: &'static str,
    /// One line of documentation (rule ID and meaning).
    pub doc: &'static str,
    /// The other flag this one depends on, if any: set to a non-default value while the
    /// other flag makes it do nothing, it is an error.
    pub needs: Option<Needs>,
}

/// A parsed flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagValue {
    /// A word of a [`FlagKind::Choice`].
    Word(&'static str),
    /// A [`FlagKind::Bool`].
    Bool(bool),
    /// A [`FlagKind::Int`] or [`FlagKind::IntChoice`].
    Int(u64),
    /// A [`FlagKind::Decimal`], in units of 10^-places.
    Decimal(u64),
}

/// Parses `text` as a decimal with at most `places` decimals into units of 10^-places
/// (`0.05`, 6 places: 50000). Digits only, with at most one `.` between digits.
pub fn parse_decimal(text: &str, places: u32) -> Option<u64> {
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || frac.is_some_and(|f| !digits(f) || f.len() > places as usize) {
        return None;
    }
    let scale = 10u64.checked_pow(places)?;
    let mut units = parse_whole(whole)?.checked_mul(scale)?;
    if let Some(f) = frac {
        let f_units = f.parse::<u64>().ok()? * 10u64.pow(places - f.len() as u32);
        units = units.checked_add(f_units)?;
    }
    Some(units)
}

/// The canonical text of `units` of 10^-places: `50000` with 6 places is `0.05`.
pub fn format_decimal(units: u64, places: u32) -> String {
    let scale = 10u64.pow(places);
    let (whole, frac) = (units / scale, units % scale);
    if frac == 0 {
        return whole.to_string();
    }
    let f = format!("{frac:0width$}", width = places as usize);
    format!("{whole}.{}", f.trim_end_matches('0'))
}

/// Parses a whole number written with digits only (leading zeros allowed).
fn parse_whole(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = text.trim_start_matches('0');
    if t.is_empty() { Some(0) } else { t.parse().ok() }
}

impl FlagDef {
    /// Human description of the accepted values.
    pub fn accepted(&self) -> String {
        match self.kind {
            FlagKind::Choice(values) => values.join("|"),
            FlagKind::Bool => "false|true".into(),
            FlagKind::Int { min, max } => format!("{min}..={max}"),
            FlagKind::IntChoice(values) => values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("|"),
            FlagKind::Decimal { places, min, max } => format!("{}..={}, at most {places} decimals", format_decimal(min, places), format_decimal(max, places)),
        }
    }

    /// Every accepted value in canonical form, in the order listed, for kinds with a
    /// finite list (choices and booleans); `None` for ranges.
    pub fn values(&self) -> Option<Vec<String>> {
        match self.kind {
            FlagKind::Choice(values) => Some(values.iter().map(|v| v.to_string()).collect()),
            FlagKind::Bool => Some(vec!["false".into(), "true".into()]),
            FlagKind::IntChoice(values) => Some(values.iter().map(|v| v.to_string()).collect()),
            FlagKind::Int { .. } | FlagKind::Decimal { .. } => None,
        }
    }

    /// Parses `text` (already trimmed) into a value of this flag's kind.
    pub fn parse(&self, text: &str) -> Option<FlagValue> {
        match self.kind {
            FlagKind::Choice(values) => values.iter().find(|&&v| v == text).map(|&v| FlagValue::Word(v)),
            FlagKind::Bool => match text {
                "true" => Some(FlagValue::Bool(true)),
                "false" => Some(FlagValue::Bool(false)),
                _ => None,
            },
            FlagKind::Int { min, max } => parse_whole(text).filter(|v| (min..=max).contains(v)).map(FlagValue::Int),
            FlagKind::IntChoice(values) => parse_whole(text).filter(|v| values.contains(v)).map(FlagValue::Int),
            FlagKind::Decimal { places, min, max } => parse_decimal(text, places).filter(|v| (min..=max).contains(v)).map(FlagValue::Decimal),
        }
    }

    /// The canonical text of a value of this flag.
    pub fn canonical(&self, v: FlagValue) -> String {
        match (self.kind, v) {
            (FlagKind::Decimal { places, .. }, FlagValue::Decimal(u)) => format_decimal(u, places),
            (_, FlagValue::Word(w)) => w.to_string(),
            (_, FlagValue::Bool(b)) => b.to_string(),
            (_, FlagValue::Int(n)) => n.to_string(),
            (_, FlagValue::Decimal(u)) => u.to_string(),
        }
    }

    /// The default as a value (a definition whose default does not parse is a
    /// programming error).
    pub fn default_value(&self) -> FlagValue {
        self.parse(self.default).unwrap_or_else(|| panic!("flag {}: default {} is not a valid value", self.key, self.default))
    }
}

/// The flag values in force for one run: every defined flag has a typed value.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Each flag, its value and the value's canonical text.
    values: Vec<(&'static FlagDef, FlagValue, String)>,
}

impl Settings {
    /// Defaults for `defs`, overridden by `assignments` of the form `KEY=VALUE`. Errors
    /// (one line, quoting at most 60 characters of what was given): no `=`, an unknown
    /// flag, an invalid value, a flag given twice, a flag without effect under the others.
    pub fn parse(defs: &'static [FlagDef], assignments: &[String]) -> Result<Settings, String> {
        let mut values: Vec<(&'static FlagDef, FlagValue, String)> = defs.iter().map(|d| (d, d.default_value(), d.default.to_string())).collect();
        let mut given: Vec<(usize, String)> = Vec::new();
        for a in assignments {
            let (key, value) = a
                .split_once('=')
                .ok_or_else(|| format!("--set {}: expected KEY=VALUE, e.g. spit.num_stockpiles=4", clip(a)))?;
            let (key, value) = (key.trim(), value.trim());
            let i = values.iter().position(|(d, ..)| d.key == key).ok_or_else(|| {
                let keys: Vec<&str> = defs.iter().map(|d| d.key).collect();
                format!("--set {}: unknown flag for this game; valid flags: {}", clip(key), keys.join(", "))
            })?;
            let def = values[i].0;
            if let Some((_, first)) = given.iter().find(|(j, _)| *j == i) {
                return Err(format!("--set {}: given twice ({}, then {}); give each flag once", def.key, clip(first), clip(value)));
            }
            let v = def.parse(value).ok_or_else(|| format!("--set {}={}: invalid value; valid values: {}", def.key, clip(value), def.accepted()))?;
            values[i] = (def, v, def.canonical(v));
            given.push((i, value.to_string()));
        }
        let s = Settings { values };
        for (def, v, text) in &s.values {
            if let Some(n) = def.needs {
                if *v != def.default_value() && !(n.when)(s.get(n.key)) {
                    return Err(format!("--set {}={text}: has no effect unless {} (now {}={}); set that too, or leave {} at its default {}", def.key, n.text, n.key, s.get(n.key), def.key, def.default));
                }
            }
        }
        Ok(s)
    }

    fn slot(&self, key: &str) -> &(&'static FlagDef, FlagValue, String) {
        self.values.iter().find(|(d, ..)| d.key == key).unwrap_or_else(|| panic!("flag {key} is not defined for this game"))
    }

    /// The value of `key` in canonical text (panics on a key that was not defined: a
    /// programming error).
    pub fn get(&self, key: &str) -> &str {
        &self.slot(key).2
    }
    /// The typed value of `key`.
    pub fn value(&self, key: &str) -> FlagValue {
        self.slot(key).1
    }
    /// True if `key` has a value other than its default.
    pub fn is_set(&self, key: &str) -> bool {
        let (d, v, _) = self.slot(key);
        *v != d.default_value()
    }
    /// The number of an integer flag ([`FlagKind::Int`] or [`FlagKind::IntChoice`]).
    pub fn get_int(&self, key: &str) -> u64 {
        match self.value(key) {
            FlagValue::Int(n) => n,
            other => panic!("flag {key} is not a whole number: {other:?}"),
        }
    }
    /// The value of a boolean flag.
    pub fn get_bool(&self, key: &str) -> bool {
        match self.value(key) {
            FlagValue::Bool(b) => b,
            other => panic!("flag {key} is not a boolean: {other:?}"),
        }
    }
    /// The value of a decimal flag, in units of 10^-places.
    pub fn get_decimal(&self, key: &str) -> u64 {
        match self.value(key) {
            FlagValue::Decimal(u) => u,
            other => panic!("flag {key} is not a decimal: {other:?}"),
        }
    }
    /// The meaning of a choice flag's word: `table` pairs every word of the flag with
    /// its meaning. A table that does not list exactly the flag's words panics, whatever
    /// the value, so a mismatch shows in the first test that reads the flag.
    pub fn get_choice<T: Copy>(&self, key: &str, table: &[(&str, T)]) -> T {
        let (def, v, _) = self.slot(key);
        let FlagKind::Choice(words) = def.kind else { panic!("flag {key} is not a choice") };
        assert!(
            words.len() == table.len() && words.iter().all(|w| table.iter().any(|(t, _)| t == w)),
            "flag {key}: the table {:?} does not match the words {words:?}",
            table.iter().map(|(t, _)| *t).collect::<Vec<_>>()
        );
        let FlagValue::Word(w) = v else { unreachable!("a choice holds a word") };
        table.iter().find(|(t, _)| t == w).map(|(_, m)| *m).expect("checked above")
    }
    /// Every flag with the value in force (canonical text), in definition order.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(d, _, t)| (d.key, t.as_str()))
    }
    /// Flags whose value differs from the default (compared as values), as
    /// `key=value` in canonical form joined by spaces.
    pub fn non_default(&self) -> String {
        self.values
            .iter()
            .filter(|(d, v, _)| *v != d.default_value())
            .map(|(d, _, t)| format!("{}={t}", d.key))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all: Vec<String> = self.values.iter().map(|(d, _, t)| format!("{}={t}", d.key)).collect();
        f.write_str(&all.join(" "))
    }
}

/// A `true|false` flag.
pub const BOOL: FlagKind = FlagKind::Bool;

/// Simulation limits shared by every game.
pub const SIM_FLAGS: [FlagDef; 1] = [FlagDef {
    key: "sim.max_actions",
    kind: FlagKind::Int { min: 100, max: 100_000_000 },
    default: "200000",
    doc: "cap on actions (real-time) or turns (turn-based) in one match; a match that reaches it is counted as capped",
    needs: None,
}];

#[cfg(test)]
mod tests {
    use super::*;

    static DEFS: [FlagDef; 5] = [
        FlagDef { key: "g.colour", kind: FlagKind::Choice(&["red", "blue"]), default: "red", doc: "", needs: None },
        FlagDef { key: "g.size", kind: FlagKind::Int { min: 1, max: 9 }, default: "5", doc: "", needs: None },
        FlagDef { key: "g.slots", kind: FlagKind::IntChoice(&[5, 4]), default: "5", doc: "", needs: None },
        FlagDef { key: "g.window", kind: FlagKind::Decimal { places: 6, min: 0, max: 1_000_000 }, default: "0.05", doc: "", needs: None },
        FlagDef {
            key: "g.shade",
            kind: BOOL,
            default: "false",
            doc: "",
            needs: Some(Needs { key: "g.colour", when: |v| v == "blue", text: "g.colour=blue" }),
        },
    ];

    fn parse(sets: &[&str]) -> Result<Settings, String> {
        Settings::parse(&DEFS, &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn defaults_and_overrides() {
        let s = parse(&["g.size=7"]).unwrap();
        assert_eq!(s.get("g.colour"), "red");
        assert_eq!(s.get_int("g.size"), 7);
        assert_eq!(s.non_default(), "g.size=7");
    }

    #[test]
    fn errors_name_the_problem_and_the_valid_choices() {
        let e = parse(&["g.shape=round"]).unwrap_err();
        assert!(e.contains("unknown flag") && e.contains("g.colour, g.size"), "{e}");
        let e = parse(&["g.colour=green"]).unwrap_err();
        assert!(e.contains("red|blue"), "{e}");
        let e = parse(&["g.size=10"]).unwrap_err();
        assert!(e.contains("1..=9"), "{e}");
        assert!(parse(&["nonsense"]).unwrap_err().contains("KEY=VALUE"));
        for bad in ["g.size=-1", "g.size=+3", "g.size=3.0", "g.size=", "g.size=99999999999999999999999", "g.slots=3", "g.window=0.0000001", "g.window=1.5", "g.window=.5", "g.window=1.", "g.shade=yes"] {
            assert!(parse(&[bad]).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn a_flag_given_twice_is_an_error() {
        let e = parse(&["g.size=7", "g.colour=blue", "g.size=7"]).unwrap_err();
        assert!(e.contains("g.size: given twice (7, then 7)"), "{e}");
        let e = parse(&["g.size=7", " g.size = 8"]).unwrap_err();
        assert!(e.contains("given twice"), "{e}");
    }

    #[test]
    fn values_compare_as_values_and_labels_are_canonical() {
        let s = parse(&["g.size=05", "g.slots=005", "g.window=0.050000"]).unwrap();
        assert_eq!(s.non_default(), "", "05, 005 and 0.050000 are the defaults");
        let s = parse(&["g.size=007", "g.slots=04", "g.window=0.10"]).unwrap();
        assert_eq!(s.non_default(), "g.size=7 g.slots=4 g.window=0.1");
        assert_eq!((s.get_int("g.slots"), s.get_decimal("g.window")), (4, 100_000));
        assert_eq!(s.to_string(), "g.colour=red g.size=7 g.slots=4 g.window=0.1 g.shade=false");
        assert_eq!(parse(&["g.window=1"]).unwrap().get("g.window"), "1");
        assert_eq!(parse(&["g.window=0"]).unwrap().get_decimal("g.window"), 0);
    }

    #[test]
    fn a_flag_without_effect_under_the_others_is_an_error() {
        let e = parse(&["g.shade=true"]).unwrap_err();
        assert!(e.contains("g.shade=true: has no effect unless g.colour=blue (now g.colour=red)"), "{e}");
        assert!(parse(&["g.shade=true", "g.colour=blue"]).is_ok());
        assert!(parse(&["g.shade=false"]).is_ok(), "the default is always allowed");
    }

    #[test]
    fn long_input_is_clipped_in_errors() {
        let long = "v".repeat(10_000);
        for bad in [format!("g.colour={long}"), format!("{long}=1"), long.clone()] {
            let e = Settings::parse(&DEFS, &[bad]).unwrap_err();
            assert!(e.len() < 300 && e.contains('…'), "{} bytes: {e:.100}", e.len());
        }
    }

    #[test]
    fn typed_getters_and_choice_tables() {
        let s = parse(&["g.colour=blue", "g.shade=true"]).unwrap();
        assert!(s.get_bool("g.shade"));
        assert_eq!(s.get_choice("g.colour", &[("red", 1), ("blue", 2)]), 2);
    }

    #[test]
    #[should_panic(expected = "does not match the words")]
    fn a_choice_table_missing_a_word_panics_whatever_the_value() {
        parse(&[]).unwrap().get_choice("g.colour", &[("red", 1)]);
    }

    #[test]
    fn decimals_round_trip() {
        for (text, units) in [("0", 0), ("0.05", 50_000), ("1", 1_000_000), ("0.000001", 1), ("12.5", 12_500_000)] {
            assert_eq!(parse_decimal(text, 6), Some(units), "{text}");
            assert_eq!(format_decimal(units, 6), text);
        }
        assert_eq!(parse_decimal("00.50", 6), Some(500_000));
        assert_eq!(parse_decimal("99999999999999999999", 6), None, "overflow");
    }

    /// Every game's defaults are valid and already canonical (so labels of default
    /// rules stay empty and committed CSVs unchanged).
    #[test]
    fn every_game_default_is_valid_and_canonical() {
        let mut all: Vec<&'static [FlagDef]> = crate::games::registry().iter().map(|g| g.flags()).collect();
        all.push(&crate::games::lopti::session::SESSION_FLAGS);
        for defs in all {
            let s = Settings::parse(defs, &[]).unwrap();
            assert_eq!(s.non_default(), "");
            for d in defs {
                assert_eq!(d.canonical(d.default_value()), d.default, "{}", d.key);
                if let Some(n) = d.needs {
                    assert!(defs.iter().any(|o| o.key == n.key), "{} needs an unknown flag {}", d.key, n.key);
                }
                for v in d.values().unwrap_or_default() {
                    assert_eq!(d.canonical(d.parse(&v).unwrap()), v, "{}={v}", d.key);
                }
            }
        }
    }
}
