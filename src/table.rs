//! A table ready to play: a game, its bots in the order that defines the seatings, the
//! rules in force and the seating design.

use crate::bot::BotSpec;
use crate::external::channel::Peer;
use crate::games::{self, GameEntry, TracedGame};
use crate::output::quote::clip;
use crate::runner::{twin_ranks, RunConfig, SeatingDesign};
use crate::settings::Settings;
use std::sync::Arc;

/// A checked table.
pub struct Table {
    /// The game.
    pub entry: &'static dyn GameEntry,
    /// The bots in the order that defines the seatings: sorted by label under the `all`
    /// design (so nothing depends on the order they were given in), as given otherwise.
    pub bots: Vec<BotSpec>,
    /// `table_of[i]`: the position, as given, of bot `i` of [`Table::bots`].
    pub table_of: Vec<usize>,
    /// Rules in force.
    pub settings: Settings,
    /// Seat orders per deal.
    pub seating: SeatingDesign,
    /// Per bot, its rank among identical copies ([`twin_ranks`] of the labels as given,
    /// before copies got their `#k`).
    twin_rank: Vec<usize>,
    /// Per bot, the label as given (what `cardsim trace --bot` takes).
    given_labels: Vec<String>,
}

impl Table {
    /// Checks `bots` (as given) and `sets` for `entry` and orders the bots. Two
    /// different bots may not share a label (their rows could not be told apart);
    /// identical copies of one bot get one row each, labelled `LABEL#1`, `LABEL#2`, ...
    pub fn new(entry: &'static dyn GameEntry, bots: Vec<BotSpec>, sets: &[String], seating: SeatingDesign) -> Result<Table, String> {
        games::check_bots(entry, &bots)?;
        check_labels(&bots)?;
        let mut order: Vec<usize> = (0..bots.len()).collect();
        if seating == SeatingDesign::All {
            order.sort_by(|&a, &b| bots[a].label.cmp(&bots[b].label));
        }
        let settings = Settings::parse(entry.flags(), sets)?;
        let mut bots: Vec<BotSpec> = order.iter().map(|&i| bots[i].clone()).collect();
        let given_labels: Vec<String> = bots.iter().map(|b| b.label.clone()).collect();
        let twin_rank = twin_ranks(&given_labels);
        for (i, b) in bots.iter_mut().enumerate() {
            if given_labels.iter().filter(|l| **l == given_labels[i]).count() > 1 {
                b.label = format!("{}#{}", given_labels[i], twin_rank[i] + 1);
            }
        }
        Ok(Table { entry, bots, table_of: order, settings, seating, twin_rank, given_labels })
    }

    /// Parses bot texts (`STRATEGY[@PRESET]` or bot files; the game's default bots when
    /// empty) and builds the table.
    pub fn parse(game: &str, bot_texts: &[String], sets: &[String], seating: SeatingDesign) -> Result<Table, String> {
        Table::parse_with(game, bot_texts, &[], sets, seating)
    }

    /// [`Table::parse`], where a bot text equal to the label of one of `peers` is that
    /// in-process bot ([`BotSpec::peer`]).
    pub fn parse_with(game: &str, bot_texts: &[String], peers: &[(String, Arc<dyn Peer>)], sets: &[String], seating: SeatingDesign) -> Result<Table, String> {
        let entry = games::find(game)?;
        let texts: Vec<String> = if bot_texts.is_empty() { entry.default_bots().iter().map(|s| s.to_string()).collect() } else { bot_texts.to_vec() };
        let bot = |t: &String| match peers.iter().find(|(label, _)| label == t) {
            Some((label, peer)) => BotSpec::peer(label, peer.clone()),
            None => BotSpec::parse(t),
        };
        let bots = texts.iter().map(bot).collect::<Result<Vec<_>, _>>()?;
        Table::new(entry, bots, sets, seating)
    }

    /// Sets the `--bot-timeout` of every external bot (seconds; `None` keeps the default).
    pub fn set_bot_timeout(&mut self, seconds: Option<f64>) -> Result<(), String> {
        if let Some(s) = seconds {
            let ms = crate::external::timeout_ms(s)?;
            self.bots.iter_mut().filter_map(|b| b.external.as_mut()).for_each(|e| e.timeout_ms = ms);
        }
        Ok(())
    }

    /// The bot labels in seating order.
    pub fn labels(&self) -> Vec<String> {
        self.bots.iter().map(|b| b.label.clone()).collect()
    }

    /// The summary rows (`cardsim match --csv`) of this table's counts `stats`, played
    /// from master seed `seed`, with the game's per-match `metrics`.
    pub fn summary_rows(&self, seed: u64, stats: &crate::runner::MatchupStats, metrics: &[crate::runner::MetricDef]) -> Vec<crate::output::summary::SummaryRow> {
        use crate::output::summary::{summary_rows, MatchupLabels};
        let (labels, flags) = (self.labels(), self.settings.non_default());
        let seating = format!("{:?}", self.seating).to_lowercase();
        summary_rows(&MatchupLabels { game: self.entry.name(), bots: &labels, flags: &flags, seed, seating: &seating }, stats, metrics)
    }

    /// The run configuration for `games` matches from `seed`.
    pub fn run_config(&self, games: u64, seed: u64, quiet: bool) -> RunConfig {
        RunConfig { games, seed, seating: self.seating, twin_rank: self.twin_rank.clone(), quiet }
    }

    /// The `cardsim trace` command line (without `--index`; [`repro_at`] adds it) that
    /// replays a match of this table from master seed `seed`: game, bots by label,
    /// flags, seating. With an in-process bot, which the command line cannot start, it
    /// is the Python call `cardsim.trace("GAME", [...], seed=S, flags={...},
    /// seating="D")` instead, each in-process bot written `<in-process bot LABEL>`: the
    /// caller passes the same Python bot there.
    pub fn trace_command(&self, seed: u64) -> String {
        let seating = format!("{:?}", self.seating).to_lowercase();
        let non_default = self.settings.non_default();
        let sets = non_default.split(' ').filter(|kv| !kv.is_empty());
        let in_process = |b: &BotSpec| b.external.as_ref().is_some_and(|e| e.peer.is_some());
        if self.bots.iter().any(in_process) {
            let q = |t: &str| serde_json::to_string(t).expect("a string as JSON");
            let bots: Vec<String> = self.given_labels.iter().zip(&self.bots).map(|(l, b)| if in_process(b) { format!("<in-process bot {}>", clip(l)) } else { q(l) }).collect();
            let flags: Vec<String> = sets.filter_map(|kv| kv.split_once('=')).map(|(k, v)| format!("{}: {}", q(k), q(v))).collect();
            let flags = if flags.is_empty() { String::new() } else { format!(", flags={{{}}}", flags.join(", ")) };
            return format!("cardsim.trace({}, [{}], seed={seed}{flags}, seating={})", q(self.entry.name()), bots.join(", "), q(&seating));
        }
        let mut cmd = format!("cardsim trace {}", self.entry.name());
        for label in &self.given_labels {
            cmd += &format!(" --bot {label}");
        }
        cmd += &format!(" --seed {seed}");
        for kv in sets {
            cmd += &format!(" --set {kv}");
        }
        cmd + &format!(" --seating {seating}")
    }

    /// The runnable game.
    pub fn build(&self) -> Result<Box<dyn TracedGame>, String> {
        self.entry.build(&self.bots, &self.settings)
    }
}

/// The replay `repro` of a table ([`Table::trace_command`]) for match `index`: the
/// command line with `--index INDEX`, or the Python call with `index=INDEX`.
pub fn repro_at(repro: &str, index: u64) -> String {
    match repro.strip_suffix(')') {
        Some(call) => format!("{call}, index={index})"),
        None => format!("{repro} --index {index}"),
    }
}

/// `Err` if two different bots (another strategy, preset, reaction or bot file contents)
/// share a label.
fn check_labels(bots: &[BotSpec]) -> Result<(), String> {
    let what = |b: &BotSpec| (b.strategy.clone(), b.preset, format!("{:?} {:?}", b.overrides, b.params), b.game.clone(), b.source.as_ref().map(|s| s.sha256.clone()));
    for (i, a) in bots.iter().enumerate() {
        if let Some(b) = bots[..i].iter().find(|b| b.label == a.label && what(b) != what(a)) {
            let name = |x: &BotSpec| x.source.as_ref().map_or_else(|| format!("{}{}", x.strategy, x.preset.map_or(String::new(), |p| format!("@{}", p.name()))), |s| s.path.clone());
            return Err(format!(
                "--bot {}: two different bots share this label ({} and {}); give one another label (label = \"...\" in its bot file)",
                crate::output::clip(&a.label),
                crate::output::clip(&name(b)),
                crate::output::clip(&name(a))
            ));
        }
    }
    Ok(())
}
