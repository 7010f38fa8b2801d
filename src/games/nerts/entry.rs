//! Nerts as the command line and the runner see it.

use super::config::{NertsConfig, NERTS_FLAGS};
use super::game::{play_match, NertsOutcome, NertsSeats};
use super::rules::NertsRules;
use super::strategies::{NertsStrategy, REGISTRY};
use super::trace::NertsTracer;
use crate::games::Registered;
use crate::realtime::{RealtimeEntry, RealtimeGame, MAX_PLAYERS};
use crate::rng::{MatchSeeds, MAX_SEATS};
use crate::runner::{Ending, MatchRecord, MetricDef, RateDef, RateSet, MAX_METRICS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;

/// Nerts, as a real-time game for 2 to 8 players (as many as the engine seats).
pub struct Nerts;

/// The registered Nerts entry.
pub static NERTS: RealtimeEntry<Nerts> = RealtimeEntry::new();

/// Nerts' per-match metrics.
pub static NERTS_METRICS: [MetricDef; 6] = [
    MetricDef { name: "deals", scale: 1, doc: "deals played to reach the target (NERTS-MATCH-1)" },
    MetricDef { name: "deal_seconds", scale: 1000, doc: "mean simulated length of a deal in seconds (dealing off the clock)" },
    MetricDef { name: "deal_actions", scale: 1, doc: "mean actions landed per deal (moves, flips, the call)" },
    MetricDef { name: "called_deals", scale: 1, doc: "deals that ended with a Nerts call (NERTS-END-1); the others ended stuck (NERTS-END-2)" },
    MetricDef { name: "foundation_cards", scale: 1, doc: "cards played to foundations over the match, every seat" },
    MetricDef { name: "races_lost", scale: 1, doc: "foundation plays that lost a race and went back (NERTS-RT-5); each credits a race won to every card (tied cards each) lying where it aimed" },
];

/// Nerts' per-seat rates, per deal played.
pub static NERTS_RATES: RateSet = RateSet {
    per: "deal",
    rates: &[
        RateDef { name: "nerts_out_rate", doc: "deals the bot ended with its Nerts call (NERTS-END-1), per deal played" },
        RateDef { name: "foundation_cards_per_deal", doc: "cards the bot played to foundations, per deal" },
        RateDef { name: "races_won_per_deal", doc: "foundation races won: the bot's card (the one its hand played, on a shared layout) lay where a rejected card aimed (NERTS-RT-5), per deal" },
        RateDef { name: "races_lost_per_deal", doc: "foundation races lost: the bot's foundation card went back (NERTS-RT-5), per deal" },
    ],
};

/// The runner's record of a match.
pub fn record(out: &NertsOutcome) -> MatchRecord {
    let deals = out.deals.max(1) as u64;
    let mut metrics = [0; MAX_METRICS];
    metrics[..6].copy_from_slice(&[
        out.deals as u64,
        out.time / 1000 / deals,
        out.counts.landed / deals,
        out.called_deals as u64,
        out.tally.to_foundation.iter().map(|&c| c as u64).sum(),
        out.tally.races_lost.iter().map(|&c| c as u64).sum(),
    ]);
    let mut rec = MatchRecord { winner: out.winner.map(|w| w as u8), ending: Ending::capped_if(out.capped), metrics, actions: out.counts.landed, illegal: out.counts.illegal, ..MatchRecord::default() };
    // Points: the seat's team's match total (so far, when capped); ranks by team, tied
    // teams sharing the better rank; teams only under partnerships.
    for p in 0..out.players {
        let team = out.team_of_seat[p] as usize;
        let mine = out.totals[team];
        rec.points[p] = mine;
        rec.rank[p] = out.totals[..out.teams].iter().filter(|&&t| t > mine).count() as u8;
    }
    for p in 0..out.players {
        rec.exposure[p] = out.deals;
        let t = &out.tally;
        rec.counts[p] = [t.calls[p], t.to_foundation[p], t.races_won[p], t.races_lost[p]];
    }
    if out.teams < out.players {
        let mut teams = [0u8; MAX_SEATS];
        teams[..out.players].copy_from_slice(&out.team_of_seat[..out.players]);
        rec.teams = Some(teams);
    }
    rec
}

impl RealtimeGame for Nerts {
    type Config = NertsConfig;
    type Strategy = dyn NertsStrategy;
    const NAME: &'static str = "nerts";
    const ABOUT: &'static str = "race to empty a 13-card Nerts pile onto shared foundations; deals scored +1/-2 to a target";
    const STATE_BYTES: usize = std::mem::size_of::<super::state::NertsState>();
    const PLAY_EVENT: &'static str = "to_foundation";
    const DEFAULT_BOTS: &'static [&'static str] = &["balanced@skilled", "nerts-first@skilled", "foundation-first@skilled", "lazy@skilled"];
    const PLAYERS: (usize, usize) = (2, if MAX_PLAYERS < 8 { MAX_PLAYERS } else { 8 });
    const REPORTS_POINTS: bool = true;
    const RATES: Option<&'static RateSet> = Some(&NERTS_RATES);

    fn flags() -> &'static [FlagDef] {
        &NERTS_FLAGS
    }
    fn metrics() -> &'static [MetricDef] {
        &NERTS_METRICS
    }
    fn external(bot: std::sync::Arc<crate::external::ExternalBot>) -> Box<dyn NertsStrategy> {
        Box::new(super::protocol::External(bot))
    }
    fn registry() -> &'static [Registered<dyn NertsStrategy>] {
        &REGISTRY
    }
    fn config(settings: &Settings, players: usize) -> Result<NertsConfig, String> {
        let cfg = NertsConfig::from_settings(settings);
        if settings.is_set("nerts.partnership_mode") && !cfg.teams(players) {
            return Err(format!(
                "--set nerts.partnership_mode={}: has no effect without teams, and {players} players under nerts.partnerships={} form none (auto: an even 6 or more; pairs: an even 4 or more)",
                settings.get("nerts.partnership_mode"),
                settings.get("nerts.partnerships")
            ));
        }
        Ok(cfg)
    }
    fn play(cfg: NertsConfig, seats: &NertsSeats, seeds: &MatchSeeds, sink: Option<&mut dyn TraceSink>) -> MatchRecord {
        let rules = NertsRules::new(cfg);
        record(&match sink {
            None => play_match(&rules, seats, seeds, &mut ()),
            Some(sink) => play_match(&rules, seats, seeds, &mut NertsTracer::new(sink)),
        })
    }
}
