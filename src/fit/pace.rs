//! A bot's pace measured in play (issue 18): not the mean of its reaction model in a
//! reference situation, but what it does at a real table.
//!
//! **The measure.** A bot plays [`PACE_MATCHES`] mirror matches (against copies of
//! itself, the game's smallest table, seating design `all`, master seed [`PACE_SEED`]:
//! exactly the matches `cardsim trace GAME --bot B --bot B --seed 1 --index I` shows for
//! I from 0). Each of its card plays to a shared pile that landed (the game's
//! [`play_event`](crate::games::GameEntry::play_event): `play`, or Nerts'
//! `to_foundation`) is timed from its `start` event to its landing: the whole action
//! time of that play, its look, scan, choice, misses and movement, in the situations
//! the game brought (how many cards and moves there were to choose from). Rejected and
//! called-off plays are not counted. The pace is the mean of these times (ms), a ratio
//! over matches ([`cluster_ratio`]: plays within a match are not independent), with its
//! 95% interval over matches (t quantile) and the number of plays.
//!
//! A fitted bot's plays take exactly the fitted time whatever the situation, while a
//! preset's plays take longer with more cards to scan and more moves to choose from,
//! so a preset's pace in play differs from its reference-situation mean
//! ([`super::botfile::preset_play_mean`]). The nearest preset in play can then differ
//! from the nearest in the reference situation ([`nearest_in_play`]).

use crate::bot::BotSpec;
use crate::games::GameEntry;
use crate::reaction::presets::ALL_PRESETS;
use crate::reaction::Preset;
use crate::runner::SeatingDesign;
use crate::stats::cluster_ratio;
use crate::table::Table;
use crate::trace::{TraceEvent, TraceSink};
use rayon::prelude::*;

/// Master seed of the matches in play.
pub const PACE_SEED: u64 = 1;

/// Matches played per bot: 20 deals, each under both seatings of two seats (in Spit
/// about 11,000 landed plays per bot; the fitted bot and the four human presets together
/// take about a second).
pub const PACE_MATCHES: u64 = 40;

/// A bot's pace in play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Mean time of a landed play, start to landing (ms).
    pub mean: f64,
    /// 95% interval over matches (ms).
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// Landed plays timed.
    pub plays: u64,
    /// Matches played.
    pub matches: u64,
}

/// Times a match's landed plays: per seat the start of its action in flight.
struct PlayTimer {
    play_event: &'static str,
    started: [Option<u64>; crate::runner::MAX_SEATS],
    /// Sum of the landed plays' times (µs).
    sum: u64,
    /// Landed plays.
    plays: u64,
}

/// A trace time (s) in whole microseconds, the engine's clock.
fn micros(t: Option<f64>) -> u64 {
    (t.unwrap_or(0.0) * 1e6).round() as u64
}

impl TraceSink for PlayTimer {
    fn event(&mut self, ev: TraceEvent) {
        let Some(seat) = ev.seat else { return };
        if ev.kind == "start" {
            self.started[seat] = Some(micros(ev.time));
        } else if ev.kind == self.play_event {
            if let Some(start) = self.started[seat].take() {
                self.sum += micros(ev.time) - start;
                self.plays += 1;
            }
        } else if matches!(ev.kind, "reject" | "abort" | "cancel") {
            self.started[seat] = None;
        }
    }
}

/// The pace in play of `bot` in `entry`'s game ([module docs](self)).
pub fn measure(entry: &'static dyn GameEntry, bot: &BotSpec) -> Result<Pace, String> {
    let play_event = entry.play_event().ok_or_else(|| format!("{} is turn-based: no pace in play", entry.name()))?;
    let seats = entry.players().0;
    let table = Table::new(entry, vec![bot.clone(); seats], &[], SeatingDesign::All)?;
    let game = table.build()?;
    let cfg = table.run_config(PACE_MATCHES, PACE_SEED, true);
    let per_match: Vec<(f64, f64)> = (0..PACE_MATCHES)
        .into_par_iter()
        .map(|i| {
            let (seat_bots, seeds) = cfg.match_at(seats, i);
            let mut timer = PlayTimer { play_event, started: [None; crate::runner::MAX_SEATS], sum: 0, plays: 0 };
            game.trace(&seat_bots[..seats], &seeds, &mut timer);
            (timer.sum as f64 / 1e3, timer.plays as f64)
        })
        .collect();
    let r = cluster_ratio(&per_match);
    Ok(Pace { mean: r.value, lo: r.lo, hi: r.hi, plays: r.y as u64, matches: PACE_MATCHES })
}

/// The human presets (not `machine`), slowest first, each with the pace in play of
/// `strategy` at that preset.
pub fn preset_paces(entry: &'static dyn GameEntry, strategy: &str) -> Result<Vec<(Preset, Pace)>, String> {
    ALL_PRESETS
        .into_iter()
        .filter(|&p| p != Preset::Machine)
        .map(|p| Ok((p, measure(entry, &BotSpec::parse(&format!("{strategy}@{}", p.name()))?)?)))
        .collect()
}

/// The preset of `presets` whose pace in play is nearest to `mean` ms (the first on a
/// tie).
pub fn nearest_in_play(presets: &[(Preset, Pace)], mean: f64) -> Preset {
    presets.iter().min_by(|a, b| (a.1.mean - mean).abs().total_cmp(&(b.1.mean - mean).abs())).expect("human presets exist").0
}

/// A pace as printed: `868.12 ms [850.20, 886.04], 2225 plays`.
pub fn pace_text(p: &Pace) -> String {
    format!("{:.2} ms [{:.2}, {:.2}], {} plays", p.mean, p.lo, p.hi, p.plays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    fn pace(mean: f64) -> Pace {
        Pace { mean, lo: mean, hi: mean, plays: 1, matches: 1 }
    }

    #[test]
    fn fit_nearest_in_play_takes_the_nearest_mean() {
        let presets = [(Preset::Novice, pace(2400.0)), (Preset::Casual, pace(1800.0)), (Preset::Skilled, pace(1100.0)), (Preset::Expert, pace(760.0))];
        assert_eq!(nearest_in_play(&presets, 900.0), Preset::Expert);
        assert_eq!(nearest_in_play(&presets, 940.0), Preset::Skilled);
        assert_eq!(nearest_in_play(&presets, 5000.0), Preset::Novice);
    }

    /// A timer counts a play from its start to its landing, and nothing for a play that
    /// was rejected.
    #[test]
    fn fit_play_timer_times_landed_plays_only() {
        let ev = |t: f64, seat: usize, kind: &'static str| TraceEvent { time: Some(t), seat: Some(seat), kind, detail: Default::default(), text: String::new() };
        let mut timer = PlayTimer { play_event: "play", started: [None; crate::runner::MAX_SEATS], sum: 0, plays: 0 };
        for e in [ev(0.5, 0, "start"), ev(0.6, 1, "start"), ev(1.25, 0, "play"), ev(1.3, 1, "reject"), ev(1.3, 0, "start"), ev(1.4, 0, "flip"), ev(1.5, 1, "start"), ev(2.0, 1, "play")] {
            timer.event(e);
        }
        assert_eq!((timer.sum, timer.plays), (750_000 + 500_000, 2));
    }

    /// Faster presets play faster in play, with intervals around their means.
    #[test]
    fn fit_preset_paces_are_ordered() {
        let spit = games::find("spit").unwrap();
        let paces = preset_paces(spit, "smart").unwrap();
        assert!(paces.windows(2).all(|w| w[0].1.mean > w[1].1.mean), "{paces:?}");
        for (p, pace) in &paces {
            assert!(pace.lo < pace.mean && pace.mean < pace.hi && pace.plays > 1_000, "{p:?}: {pace:?}");
        }
    }
}
