//! Variant flags (`--set game.flag=value`): their definitions, parsing and look-up.

use std::fmt;

/// What values a flag accepts.
#[derive(Clone, Copy, Debug)]
pub enum FlagKind {
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
    /// A whole number in an inclusive range.
    Int { min: u64, max: u64 },
}

/// One configurable rule variant or simulation limit.
#[derive(Clone, Copy, Debug)]
pub struct FlagDef {
    /// Full key, e.g. `spit.num_stockpiles`.
    pub key: &'static str,
    /// Accepted values.
    pub kind: FlagKind,
    /// Default value, as text.
    pub default: &'static str,
    /// One line of documentation (rule ID and meaning).
    pub doc: &'static str,
}

impl FlagDef {
    /// Human description of the accepted values.
    pub fn accepted(&self) -> String {
        match self.kind {
            FlagKind::Choice(values) => values.join("|"),
            FlagKind::Int { min, max } => format!("{min}..={max}"),
        }
    }
    fn validate(&self, value: &str) -> Result<(), String> {
        let ok = match self.kind {
            FlagKind::Choice(values) => values.contains(&value),
            FlagKind::Int { min, max } => value.parse::<u64>().is_ok_and(|v| (min..=max).contains(&v)),
        };
        if ok {
            Ok(())
        } else {
            Err(format!("--set {}={}: invalid value; valid values: {}", self.key, value, self.accepted()))
        }
    }
}

/// The flag values in force for one run: every defined flag has a value.
#[derive(Clone, Debug)]
pub struct Settings {
    values: Vec<(&'static FlagDef, String)>,
}

impl Settings {
    /// Defaults for `defs`, overridden by `assignments` of the form `KEY=VALUE`.
    pub fn parse(defs: &'static [FlagDef], assignments: &[String]) -> Result<Settings, String> {
        let mut values: Vec<(&'static FlagDef, String)> = defs.iter().map(|d| (d, d.default.to_string())).collect();
        for a in assignments {
            let (key, value) = a
                .split_once('=')
                .ok_or_else(|| format!("--set {a}: expected KEY=VALUE, e.g. spit.num_stockpiles=4"))?;
            let (key, value) = (key.trim(), value.trim());
            let slot = values.iter_mut().find(|(d, _)| d.key == key).ok_or_else(|| {
                let keys: Vec<&str> = defs.iter().map(|d| d.key).collect();
                format!("--set {key}: unknown flag for this game; valid flags: {}", keys.join(", "))
            })?;
            slot.0.validate(value)?;
            slot.1 = value.to_string();
        }
        Ok(Settings { values })
    }
    /// The text value of `key` (panics on a key that was not defined: a programming error).
    pub fn get(&self, key: &str) -> &str {
        self.values
            .iter()
            .find(|(d, _)| d.key == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("flag {key} is not defined for this game"))
    }
    /// The numeric value of an integer flag.
    pub fn get_int(&self, key: &str) -> u64 {
        self.get(key).parse().expect("integer flag validated at parse time")
    }
    /// True if a choice flag is set to `true`.
    pub fn get_bool(&self, key: &str) -> bool {
        self.get(key) == "true"
    }
    /// Every flag with the value in force, in definition order.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(d, v)| (d.key, v.as_str()))
    }
    /// Flags whose value differs from the default, as `key=value` joined by spaces.
    pub fn non_default(&self) -> String {
        self.values
            .iter()
            .filter(|(d, v)| d.default != v)
            .map(|(d, v)| format!("{}={}", d.key, v))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let all: Vec<String> = self.values.iter().map(|(d, v)| format!("{}={}", d.key, v)).collect();
        f.write_str(&all.join(" "))
    }
}

/// A `true|false` choice.
pub const BOOL: FlagKind = FlagKind::Choice(&["false", "true"]);

/// Simulation limits shared by every game.
pub const SIM_FLAGS: [FlagDef; 1] = [FlagDef {
    key: "sim.max_actions",
    kind: FlagKind::Int { min: 100, max: 100_000_000 },
    default: "200000",
    doc: "cap on actions (real-time) or turns (turn-based) in one match; a match that reaches it is counted as capped",
}];

#[cfg(test)]
mod tests {
    use super::*;

    static DEFS: [FlagDef; 2] = [
        FlagDef { key: "g.colour", kind: FlagKind::Choice(&["red", "blue"]), default: "red", doc: "" },
        FlagDef { key: "g.size", kind: FlagKind::Int { min: 1, max: 9 }, default: "5", doc: "" },
    ];

    #[test]
    fn defaults_and_overrides() {
        let s = Settings::parse(&DEFS, &["g.size=7".into()]).unwrap();
        assert_eq!(s.get("g.colour"), "red");
        assert_eq!(s.get_int("g.size"), 7);
        assert_eq!(s.non_default(), "g.size=7");
    }

    #[test]
    fn errors_name_the_problem_and_the_valid_choices() {
        let e = Settings::parse(&DEFS, &["g.shape=round".into()]).unwrap_err();
        assert!(e.contains("unknown flag") && e.contains("g.colour, g.size"), "{e}");
        let e = Settings::parse(&DEFS, &["g.colour=green".into()]).unwrap_err();
        assert!(e.contains("red|blue"), "{e}");
        let e = Settings::parse(&DEFS, &["g.size=10".into()]).unwrap_err();
        assert!(e.contains("1..=9"), "{e}");
        assert!(Settings::parse(&DEFS, &["nonsense".into()]).unwrap_err().contains("KEY=VALUE"));
    }
}
