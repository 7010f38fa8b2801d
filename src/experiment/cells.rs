//! What an experiment plays, cell by cell: its matchups, the tables of a round robin or
//! gauntlet, or the points of a sweep. Every cell plays the same deals.

use super::{Experiment, Vary};
use serde::Deserialize;

/// How the tables of an experiment are formed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The `[[matchup]]` list as written.
    #[default]
    Matchups,
    /// The two bots of `pool` against each other.
    HeadToHead,
    /// Every table of `players` bots drawn from `pool` (every combination, in pool
    /// order), each played under the seating design; ratings from all of them.
    RoundRobin,
    /// `challenger` at a table with every combination of `players - 1` bots of `pool`;
    /// ratings from all of them.
    Gauntlet,
}

/// A change to one bot of a sweep point: its preset or a reaction parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Tweak {
    /// The bot (position in the table).
    pub bot: usize,
    /// `preset` or a reaction parameter such as `look.mu`.
    pub param: String,
    /// The value, as written.
    pub value: String,
}

/// One table an experiment plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Short description: the bots, or the sweep point (`param=value, ...`).
    pub label: String,
    /// Bot specs, one per seat (bot file paths relative to the experiment file resolved).
    pub bots: Vec<String>,
    /// Flags in force (the experiment's, the matchup's, the point's).
    pub flags: Vec<String>,
    /// Changes to bots at this sweep point.
    pub tweaks: Vec<Tweak>,
    /// For sweeps: the point's value of each `[[vary]]`, in order.
    pub point: Vec<String>,
}

/// Reaction parameters a sweep can vary (a distribution's field is `look.FIELD` or
/// `simple.FIELD`).
pub const REACTION_PARAMS: [&str; 9] = ["scan_per_item", "hick_b", "fitts_a", "fitts_b", "grasp_release", "motor_cv", "overlap", "p_miss", "p_fumble"];

/// The kind of a swept parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A rule or strategy flag (`--set KEY=VALUE`).
    Flag,
    /// A bot's reaction preset.
    Preset,
    /// A bot's reaction parameter.
    Reaction,
    /// A bot's strategy parameter (`params.NAME`, [`crate::games::params`]).
    Strategy,
    /// The number of players (the table's bots taken in turn).
    Players,
    /// A whole rule variant: each value is a list of `KEY=VALUE` flags separated by
    /// `;` (empty for the default rules).
    Set,
}

impl Vary {
    /// What kind of parameter this is.
    pub fn kind(&self) -> ParamKind {
        match self.param.as_str() {
            "players" => ParamKind::Players,
            "set" => ParamKind::Set,
            "preset" => ParamKind::Preset,
            p if REACTION_PARAMS.contains(&p) || p.starts_with("look.") || p.starts_with("simple.") => ParamKind::Reaction,
            p if p.starts_with("params.") => ParamKind::Strategy,
            _ => ParamKind::Flag,
        }
    }

    /// The values, as text (integral numbers without a decimal point).
    pub fn values(&self) -> Result<Vec<String>, String> {
        let p = &self.param;
        let values: Vec<String> = match (self.values.is_empty(), self.from, self.to, self.step) {
            (false, None, None, None) if self.values.len() > MAX_VALUES => return Err(format!("[[vary]] {p}: {} values; at most {MAX_VALUES}", self.values.len())),
            (false, None, None, None) => self.values.iter().map(value_text).collect::<Result<_, _>>().map_err(|e| format!("[[vary]] {p}: {e}"))?,
            (true, Some(from), Some(to), Some(step)) => {
                if !(step > 0.0 && from.is_finite() && to.is_finite() && from <= to) {
                    return Err(format!("[[vary]] {p}: from {from} to {to} by {step} needs from <= to and a positive step"));
                }
                let n = ((to - from) / step + 1e-9).floor() as u64 + 1;
                if n > MAX_VALUES as u64 {
                    return Err(format!("[[vary]] {p}: {n} values; at most {MAX_VALUES}"));
                }
                (0..n).map(|i| number_text(from + step * i as f64)).collect()
            }
            _ => return Err(format!("[[vary]] {p}: give either values = [...] or from, to and step")),
        };
        if values.is_empty() {
            return Err(format!("[[vary]] {p}: no values"));
        }
        let mut seen = values.clone();
        seen.sort();
        seen.dedup();
        if seen.len() != values.len() {
            return Err(format!("[[vary]] {p}: a value is repeated"));
        }
        Ok(values)
    }
}

/// A number as text: integral values without a decimal point.
fn number_text(x: f64) -> String {
    if x == x.round() && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x}") }
}

fn value_text(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(number_text(*f)),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("value {other} is not a string, number or boolean")),
    }
}

/// Most values one `[[vary]]` may take.
const MAX_VALUES: usize = 1000;

/// The number of combinations of `k` of `n` (n choose k), or `None` above `limit`:
/// computed before any is built, so a huge pool is refused at once.
fn count_combinations(n: usize, k: usize, limit: u128) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c becomes C(n, i + 1), an integer, and grows with i while i < k <= n / 2: once
        // past the limit it stays past it.
        c = c.checked_mul((n - i) as u128)? / (i as u128 + 1);
        if c > limit {
            return None;
        }
    }
    Some(c)
}

/// Checks that a table of `players` bots drawn `k` at a time from a pool of `n` makes
/// at most [`MAX_CELLS`] tables and has at most [`crate::rng::MAX_SEATS`] players.
fn check_tables(what: &str, players: usize, n: usize, k: usize) -> Result<(), String> {
    if players > crate::rng::MAX_SEATS {
        return Err(format!("{what} of {players} players: at most {} players", crate::rng::MAX_SEATS));
    }
    match count_combinations(n, k, MAX_CELLS as u128) {
        Some(_) => Ok(()),
        None => Err(format!("{what} of {players} players from a pool of {n} bots makes more than {MAX_CELLS} tables; at most {MAX_CELLS}")),
    }
}

/// Every combination of `k` of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    if k > n {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.clone());
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + n - k) else { return out };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Most cells an experiment may have.
const MAX_CELLS: usize = 2000;

impl Experiment {
    /// The tables this experiment plays, in order.
    pub fn cells(&self) -> Result<Vec<Cell>, String> {
        let bots = |specs: &[String]| specs.iter().map(|b| self.bot_path(b)).collect::<Vec<_>>();
        let plain = |specs: Vec<String>, extra: &[String]| Cell { label: specs.join(" vs "), bots: bots(&specs), flags: self.set.iter().chain(extra).cloned().collect(), tweaks: Vec::new(), point: Vec::new() };
        let players = self.players.unwrap_or(2);
        if self.format != Format::Matchups && !self.matchups.is_empty() {
            return Err(format!("format = {:?} takes its bots from pool, not [[matchup]]", self.format));
        }
        if self.format != Format::Gauntlet && self.challenger.is_some() {
            return Err("challenger is only for format = \"gauntlet\"".into());
        }
        if self.format == Format::Matchups && (!self.pool.is_empty() || self.players.is_some()) {
            return Err("pool and players are for head-to-head, round-robin and gauntlet formats".into());
        }
        if !self.vary.is_empty() && (self.format != Format::Matchups || self.matchups.len() != 1) {
            return Err("[[vary]] sweeps exactly one [[matchup]] (format = \"matchups\")".into());
        }
        if self.vary.len() > 2 {
            return Err(format!("{} [[vary]] tables; at most two", self.vary.len()));
        }
        let cells = match self.format {
            Format::Matchups if self.matchups.is_empty() => return Err("no [[matchup]] given".into()),
            Format::Matchups if self.vary.is_empty() => self.matchups.iter().map(|m| plain(m.bots.clone(), &m.set)).collect(),
            Format::Matchups => self.sweep_cells(&self.matchups[0])?,
            Format::HeadToHead => match self.pool.as_slice() {
                [a, b] => vec![plain(vec![a.clone(), b.clone()], &[])],
                other => return Err(format!("head-to-head needs a pool of two bots, got {}", other.len())),
            },
            Format::RoundRobin => {
                if players < 2 || self.pool.len() < players {
                    return Err(format!("round-robin of {players} players needs a pool of at least {players} bots (and players >= 2), got {}", self.pool.len()));
                }
                check_tables("round-robin", players, self.pool.len(), players)?;
                combinations(self.pool.len(), players).into_iter().map(|c| plain(c.iter().map(|&i| self.pool[i].clone()).collect(), &[])).collect()
            }
            Format::Gauntlet => {
                let Some(ch) = &self.challenger else { return Err("gauntlet needs a challenger".into()) };
                if players < 2 || self.pool.len() < players - 1 {
                    return Err(format!("gauntlet of {players} players needs a pool of at least {} bots (and players >= 2), got {}", players - 1, self.pool.len()));
                }
                check_tables("gauntlet", players, self.pool.len(), players - 1)?;
                combinations(self.pool.len(), players - 1)
                    .into_iter()
                    .map(|c| plain(std::iter::once(ch.clone()).chain(c.iter().map(|&i| self.pool[i].clone())).collect(), &[]))
                    .collect()
            }
        };
        if cells.len() > MAX_CELLS {
            return Err(format!("{} tables; at most {MAX_CELLS}", cells.len()));
        }
        Ok(cells)
    }

    /// The points of a sweep of `base`: the grid of the `[[vary]]` values, the first
    /// parameter varying slowest.
    fn sweep_cells(&self, base: &super::Matchup) -> Result<Vec<Cell>, String> {
        let values: Vec<Vec<String>> = self.vary.iter().map(Vary::values).collect::<Result<_, _>>()?;
        if let [a, b] = self.vary.as_slice() {
            if a.param == b.param && a.bot == b.bot {
                return Err(format!("[[vary]] {} is given twice", a.param));
            }
        }
        for v in &self.vary {
            match (v.kind(), v.bot) {
                (ParamKind::Preset | ParamKind::Reaction | ParamKind::Strategy, None) => return Err(format!("[[vary]] {}: name the bot it changes (bot = 0 for the first)", v.param)),
                (ParamKind::Preset | ParamKind::Reaction | ParamKind::Strategy, Some(b)) if b >= base.bots.len() => {
                    return Err(format!("[[vary]] {}: bot = {b}, but the table has bots 0 to {}", v.param, base.bots.len() - 1))
                }
                (ParamKind::Flag | ParamKind::Players | ParamKind::Set, Some(_)) => return Err(format!("[[vary]] {}: bot = is only for preset, reaction and strategy parameters", v.param)),
                _ => {}
            }
        }
        let points: usize = values.iter().map(Vec::len).product();
        if points > MAX_CELLS {
            return Err(format!("[[vary]]: {} points; at most {MAX_CELLS}", values.iter().map(|v| v.len().to_string()).collect::<Vec<_>>().join(" x ")));
        }
        if let Some(v) = self.vary.iter().zip(&values).find(|(v, _)| v.kind() == ParamKind::Players) {
            if let Some(bad) = v.1.iter().find(|n| n.parse::<usize>().map_or(true, |n| !(1..=crate::rng::MAX_SEATS).contains(&n))) {
                return Err(format!("[[vary]] players: {bad} is not a number of players from 1 to {}", crate::rng::MAX_SEATS));
            }
        }
        let grid: Vec<Vec<usize>> = match values.as_slice() {
            [a] => (0..a.len()).map(|i| vec![i]).collect(),
            [a, b] => (0..a.len()).flat_map(|i| (0..b.len()).map(move |j| vec![i, j])).collect(),
            _ => unreachable!("one or two [[vary]]"),
        };
        grid.into_iter()
            .map(|at| {
                let mut cell = Cell { label: String::new(), bots: base.bots.iter().map(|b| self.bot_path(b)).collect(), flags: self.set.iter().chain(&base.set).cloned().collect(), tweaks: Vec::new(), point: Vec::new() };
                let mut parts = Vec::new();
                for (v, (vals, &i)) in self.vary.iter().zip(values.iter().zip(&at)) {
                    let value = vals[i].clone();
                    match v.kind() {
                        ParamKind::Flag => cell.flags.push(format!("{}={value}", v.param)),
                        ParamKind::Set => cell.flags.extend(value.split(';').map(str::trim).filter(|f| !f.is_empty()).map(String::from)),
                        ParamKind::Players => {
                            let n: usize = value.parse().map_err(|_| format!("[[vary]] players: {value} is not a number of players"))?;
                            let first = base.bots.iter().map(|b| self.bot_path(b)).collect::<Vec<_>>();
                            cell.bots = (0..n).map(|s| first[s % first.len()].clone()).collect();
                        }
                        ParamKind::Preset | ParamKind::Reaction | ParamKind::Strategy => cell.tweaks.push(Tweak { bot: v.bot.expect("checked"), param: v.param.clone(), value: value.clone() }),
                    }
                    parts.push(match (v.bot, v.kind()) {
                        (Some(b), _) => format!("bot {b} {}={value}", v.param),
                        (None, ParamKind::Set) if value.trim().is_empty() => "default rules".to_string(),
                        (None, ParamKind::Set) => value.split(';').map(str::trim).collect::<Vec<_>>().join(" "),
                        (None, _) => format!("{}={value}", v.param),
                    });
                    cell.point.push(value);
                }
                cell.label = parts.join(", ");
                Ok(cell)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exp(text: &str) -> Result<Experiment, String> {
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = crate::scratch::scratch("cells", &n.to_string());
        let path = dir.join(format!("e{}.toml", text.len()));
        std::fs::write(&path, text).unwrap();
        Experiment::load(&path)
    }

    const HEAD: &str = "description = \"d\"\ngame = \"spit\"\nseed = 1\ngames = 10\n";

    #[test]
    fn combination_counts_are_exact_and_capped() {
        assert_eq!(count_combinations(5, 2, 100), Some(10));
        assert_eq!(count_combinations(20, 8, 1_000_000), Some(125_970));
        assert_eq!(count_combinations(20, 8, 2000), None);
        assert_eq!(count_combinations(3, 4, 10), Some(0));
        assert_eq!(count_combinations(60, 30, u128::MAX), Some(118_264_581_564_861_424));
        assert_eq!(count_combinations(100_000, 8, 2000), None);
        for n in 0..12 {
            for k in 0..=n + 1 {
                assert_eq!(count_combinations(n, k, u128::MAX), Some(combinations(n, k).len() as u128), "{n} choose {k}");
            }
        }
    }

    #[test]
    fn sizes_are_refused_before_anything_is_built() {
        let pool: Vec<String> = (0..400).map(|i| format!("\"b{i}\"")).collect();
        let rr = exp(&format!("{HEAD}format = \"round-robin\"\nplayers = 8\npool = [{}]\n", pool.join(", "))).unwrap_err();
        assert!(rr.contains("more than 2000 tables"), "{rr}");
        let big = exp(&format!("{HEAD}format = \"round-robin\"\nplayers = 9\npool = [{}]\n", pool[..9].join(", "))).unwrap_err();
        assert!(big.contains("at most 8 players"), "{big}");
        let values: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let grid = exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"x.a\"\nvalues = [{0}]\n[[vary]]\nparam = \"x.b\"\nvalues = [{0}]\n", values.join(", "))).unwrap_err();
        assert!(grid.contains("1000 x 1000 points; at most 2000"), "{grid}");
        let many: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
        assert!(exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"x.a\"\nvalues = [{}]\n", many.join(", "))).unwrap_err().contains("100000 values; at most 1000"));
        let players = exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"players\"\nvalues = [2, 1000000000]\n")).unwrap_err();
        assert!(players.contains("1000000000 is not a number of players from 1 to 8"), "{players}");
    }

    #[test]
    fn combinations_in_order() {
        assert_eq!(combinations(4, 2), [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        assert_eq!(combinations(3, 3), [[0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
    }

    #[test]
    fn round_robin_and_gauntlet_tables() {
        let rr = exp(&format!("{HEAD}format = \"round-robin\"\npool = [\"a\", \"b\", \"c\"]\n")).unwrap().cells().unwrap();
        assert_eq!(rr.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["a vs b", "a vs c", "b vs c"]);
        let g = exp(&format!("{HEAD}format = \"gauntlet\"\nchallenger = \"x\"\nplayers = 3\npool = [\"a\", \"b\", \"c\"]\n")).unwrap().cells().unwrap();
        assert_eq!(g.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["x vs a vs b", "x vs a vs c", "x vs b vs c"]);
        assert!(exp(&format!("{HEAD}format = \"head-to-head\"\npool = [\"a\"]\n")).unwrap_err().contains("pool of two"));
        assert!(exp(&format!("{HEAD}format = \"gauntlet\"\npool = [\"a\"]\n")).unwrap_err().contains("needs a challenger"));
    }

    #[test]
    fn sweeps_make_a_grid_of_points() {
        let e = exp(&format!("{HEAD}[[matchup]]\nbots = [\"smart@skilled\", \"greedy@skilled\"]\n[[vary]]\nparam = \"look.mu\"\nbot = 0\nfrom = 200\nto = 250\nstep = 25\n[[vary]]\nparam = \"spit.num_stockpiles\"\nvalues = [5, 4]\n")).unwrap();
        let cells = e.cells().unwrap();
        assert_eq!(cells.len(), 6);
        assert_eq!(cells[1].label, "bot 0 look.mu=200, spit.num_stockpiles=4");
        assert_eq!(cells[1].point, ["200", "4"]);
        assert_eq!(cells[1].flags, ["spit.num_stockpiles=4"]);
        assert_eq!(cells[5].tweaks, [Tweak { bot: 0, param: "look.mu".into(), value: "250".into() }]);
        let players = exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"players\"\nvalues = [2, 3]\n")).unwrap().cells().unwrap();
        assert_eq!(players[1].bots, ["a", "b", "a"]);
        let variants = exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"set\"\nvalues = [\"\", \"x.y=1; x.z=2\"]\n")).unwrap().cells().unwrap();
        assert_eq!((variants[0].label.as_str(), variants[0].flags.len()), ("default rules", 0));
        assert_eq!((variants[1].label.as_str(), variants[1].flags.clone()), ("x.y=1 x.z=2", vec!["x.y=1".to_string(), "x.z=2".to_string()]));
    }

    #[test]
    fn bad_sweeps_say_what_is_wrong() {
        let base = format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n");
        for (vary, want) in [
            ("param = \"x.y\"\n", "give either values"),
            ("param = \"x.y\"\nvalues = []\n", "give either values"),
            ("param = \"x.y\"\nvalues = [1, 1]\n", "repeated"),
            ("param = \"look.mu\"\nvalues = [1]\n", "name the bot"),
            ("param = \"preset\"\nbot = 2\nvalues = [\"expert\"]\n", "bots 0 to 1"),
            ("param = \"x.y\"\nfrom = 3\nto = 1\nstep = 1\n", "from <= to"),
        ] {
            let e = exp(&format!("{base}[[vary]]\n{vary}")).unwrap_err();
            assert!(e.contains(want), "{vary}: {e}");
        }
        assert!(exp(&format!("{HEAD}[[matchup]]\nbots = [\"a\", \"b\"]\n[[matchup]]\nbots = [\"a\", \"b\"]\n[[vary]]\nparam = \"x\"\nvalues = [1]\n")).unwrap_err().contains("exactly one"));
    }
}
