//! A whole Spit match: deals, rounds on the real-time engine, the slap race, collection,
//! redeal, and the standard or points ending (spit.md sections 2 and 6-8).

use super::config::{Allocation, PointsMode, Scoring, SpitConfig, POINTS_TO_END};
use super::rules::{SpitAction, SpitDecision, SpitRules};
use super::state::{deal_layout, SpitState};
use super::strategies::SpitStrategy;
use crate::cards::{deal_split, CardSet};
use crate::realtime::{after, play_round, MatchObserver, MatchRngs, Micros, RoundCounts, Seated, MAX_PLAYERS};
use crate::rng::{ChanceKey, MatchSeeds, SimRng};
use rand::RngExt;

/// Why a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundEndReason {
    /// A player played his last stockpile card (SPIT-END-1 (a)).
    WentOut(usize),
    /// Two-pile stall with no spit cards left (SPIT-STALL-6).
    NoSpitCards,
    /// Single-pile stall with no spit cards left (SPIT-SHORT-5).
    SinglePileDeadlock,
}

/// Match-level events (the engine reports the in-round ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpitEvent {
    /// A new layout was dealt from these holdings (SPIT-SETUP-5).
    Deal { round: u32, holdings: [u32; 2], fresh: bool },
    /// The opening flip put the first spit cards on the piles (SPIT-SETUP-4).
    Opening,
    /// The round ended.
    RoundEnd { reason: RoundEndReason },
    /// A player's slap landed on a pile (SPIT-SLAP-1).
    Slap { player: usize, pile: usize },
    /// The first-out player gave a pile away (SPIT-SLAP-3).
    GiveAway { player: usize, pile: usize },
    /// The players' new holdings after collection (SPIT-REDEAL-1).
    Collected { holdings: [u32; 2], took: [Option<usize>; 2] },
    /// Points after a round (SPIT-SCORE-1).
    Scores { points: [u32; 2] },
    /// The match ended.
    MatchEnd { winner: Option<usize>, capped: bool },
}

/// Receives engine and match events of a Spit match (implement
/// `MatchObserver<SpitState, SpitAction, SpitEvent>`).
pub trait SpitObserver: MatchObserver<SpitState, SpitAction, SpitEvent> {}

impl<T: MatchObserver<SpitState, SpitAction, SpitEvent>> SpitObserver for T {}

/// How a match went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpitOutcome {
    /// Winning seat (`None` if capped).
    pub winner: Option<usize>,
    /// Hit the action cap (or a policy broke liveness).
    pub capped: bool,
    /// Rounds played.
    pub rounds: u32,
    /// Simulated duration.
    pub time: Micros,
    /// Engine counters over all rounds.
    pub counts: RoundCounts,
    /// Single-pile deadlocks (SPIT-SHORT-5).
    pub deadlocks: u32,
}

/// Deals a round from the players' holdings; `zone` keys the round's hidden cards.
fn deal(rules: &SpitRules, holdings: [CardSet; 2], zone: ChanceKey) -> SpitState {
    let players = [deal_layout(holdings[0], &rules.cfg, zone.zone(0)), deal_layout(holdings[1], &rules.cfg, zone.zone(1))];
    SpitState { players, ..SpitState::EMPTY }
}

/// The opening flip (SPIT-SETUP-4): each player with spit cards starts his own pile.
pub(crate) fn opening_flip(s: &mut SpitState) -> [bool; MAX_PLAYERS] {
    let mut flipped = [false; MAX_PLAYERS];
    for (p, me) in s.players.iter_mut().enumerate() {
        if me.spit > 0 {
            me.spit -= 1;
            let c = me.hidden.draw_keyed(me.zone);
            s.piles[p].push(c);
            s.active[p] = true;
            flipped[p] = true;
        }
    }
    flipped
}

/// The bots of a Spit match in seat order.
pub type SpitSeats<'a> = Seated<'a, dyn SpitStrategy>;

/// Shares out the spit piles at the end of a two-pile round: returns which pile each
/// player takes, and the time the allocation is settled.
pub(crate) fn allocate_piles<O: SpitObserver>(rules: &SpitRules, seats: &SpitSeats, s: &SpitState, end: Micros, first_out: Option<usize>, rngs: &mut MatchRngs, obs: &mut O) -> ([usize; 2], Micros) {
    if let (Allocation::FirstOutChooses, Some(p)) = (rules.cfg.allocation, first_out) {
        // SPIT-SLAP-3: the first-out player gives one pile away and takes the other.
        let given = seats.decide(rules, s, p, SpitDecision::GiveAway, &mut rngs.players[p]) & 1;
        obs.on_match_event(end, SpitEvent::GiveAway { player: p, pile: given }, s);
        let mut took = [0; 2];
        took[p] = 1 - given;
        took[1 - p] = given;
        return (took, end);
    }
    // SPIT-SLAP-1/2: the earlier slapper gets the pile he chose, the later one the other.
    let mut slaps = [(0u64, 0usize); 2];
    for (p, slap) in slaps.iter_mut().enumerate() {
        let rng = &mut rngs.players[p];
        let target = seats.decide(rules, s, p, SpitDecision::Slap, rng) & 1;
        *slap = (after(end, seats.reaction(p).slap_time(rng)), target);
    }
    let first = match slaps[0].0.cmp(&slaps[1].0) {
        std::cmp::Ordering::Less => 0,
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Equal => rngs.chance.random_range(0..2),
    };
    for p in [first, 1 - first] {
        obs.on_match_event(slaps[p].0, SpitEvent::Slap { player: p, pile: slaps[p].1 }, s);
    }
    let mut took = [0; 2];
    took[first] = slaps[first].1;
    took[1 - first] = 1 - slaps[first].1;
    (took, slaps[0].0.max(slaps[1].0))
}

/// New holdings after a round (SPIT-REDEAL-1, SPIT-SHORT-4, SPIT-SHORT-5), with the
/// pile each player took, and the time play may resume.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collect<O: SpitObserver>(rules: &SpitRules, seats: &SpitSeats, s: &SpitState, end: Micros, reason: RoundEndReason, rngs: &mut MatchRngs, obs: &mut O) -> ([CardSet; 2], [Option<usize>; 2], Micros) {
    let own = [s.players[0].all_cards(), s.players[1].all_cards()];
    let mut took = [None; 2];
    let mut resume = end;
    if s.single_pile() {
        let long = if s.active[0] { 0 } else { 1 };
        let short = 1 - long;
        // The player who counts as first out keeps his own cards; the other takes the pile.
        let first_out = match reason {
            RoundEndReason::WentOut(p) => p,
            _ => {
                let stock = |p: usize| s.players[p].stock_count();
                if stock(short) < stock(long) { short } else { long }
            }
        };
        took[1 - first_out] = Some(long);
    } else {
        let first_out = if let RoundEndReason::WentOut(p) = reason { Some(p) } else { None };
        let (piles, at) = allocate_piles(rules, seats, s, end, first_out, rngs, obs);
        took = [Some(piles[0]), Some(piles[1])];
        resume = at;
    }
    let mut holdings = own;
    for p in 0..2 {
        if let Some(j) = took[p] {
            holdings[p] = holdings[p].union(s.piles[j].cards);
        }
    }
    (holdings, took, resume)
}

/// Plays a whole match between the two `seats` bots. The cards (every deal, every
/// hidden card) come from the deal's seeds, the same in every seating; reactions and
/// the bots' dice from the players' streams; the slap tie and the order of simultaneous
/// spits from public chance.
pub fn play_match<O: SpitObserver>(rules: &SpitRules, seats: &SpitSeats, seeds: &MatchSeeds, obs: &mut O) -> SpitOutcome {
    let cfg: SpitConfig = rules.cfg;
    let mut rngs = MatchRngs::new(seeds);
    let fresh = |r: &mut SimRng| {
        let (a, b) = deal_split(r, CardSet::FULL, 26);
        [a, b]
    };
    let mut holdings = fresh(&mut seeds.deal_rng());
    let mut out = SpitOutcome::default();
    let mut points = [0u32; 2];
    let mut budget = cfg.max_actions;
    let mut now: Micros = 0;
    let mut fresh_next = true;
    let mut s: SpitState;
    loop {
        out.rounds += 1;
        if !fresh_next && cfg.scoring == Scoring::Points && cfg.points_mode == PointsMode::FreshDeal {
            holdings = fresh(&mut seeds.chance_rng(out.rounds as u64));
            fresh_next = true;
        }
        s = deal(rules, holdings, seeds.hidden().zone(out.rounds as u64));
        obs.on_match_event(now, SpitEvent::Deal { round: out.rounds, holdings: [holdings[0].len(), holdings[1].len()], fresh: fresh_next }, &s);
        fresh_next = false;
        let busy = opening_flip(&mut s);
        obs.on_match_event(now, SpitEvent::Opening, &s);
        let end = play_round(rules, seats, &mut s, now, busy, &mut budget, &mut out.counts, &mut rngs, obs);
        now = end.time;
        if end.capped {
            out.capped = true;
            break;
        }
        let reason = match end.first_out {
            Some(p) => RoundEndReason::WentOut(p),
            None if s.single_pile() => RoundEndReason::SinglePileDeadlock,
            None => RoundEndReason::NoSpitCards,
        };
        out.deadlocks += (reason == RoundEndReason::SinglePileDeadlock) as u32;
        obs.on_match_event(now, SpitEvent::RoundEnd { reason }, &s);
        let unplayed = [s.players[0].count(), s.players[1].count()];
        if cfg.scoring == Scoring::Points && cfg.points_mode == PointsMode::FreshDeal {
            // Fresh-deal rounds end at the end event: no slap, no collection.
            for p in 0..2 {
                points[p] += unplayed[p];
            }
        } else {
            let (new, took, resume) = collect(rules, seats, &s, now, reason, &mut rngs, obs);
            now = resume;
            holdings = new;
            obs.on_match_event(now, SpitEvent::Collected { holdings: [new[0].len(), new[1].len()], took }, &s);
            if cfg.scoring == Scoring::Standard {
                if let Some(w) = (0..2).find(|&p| holdings[p].is_empty()) {
                    out.winner = Some(w);
                    break;
                }
                continue;
            }
            let scored = if cfg.points_mode == PointsMode::CarryOver { [new[0].len(), new[1].len()] } else { unplayed };
            for p in 0..2 {
                points[p] += scored[p];
            }
            if holdings.iter().any(|h| h.is_empty()) {
                holdings = fresh(&mut seeds.chance_rng(out.rounds as u64));
                fresh_next = true;
            }
        }
        obs.on_match_event(now, SpitEvent::Scores { points }, &s);
        // SPIT-SCORE-1/2: someone at 100 ends the match, lowest wins; a tie plays on.
        if points.iter().any(|&x| x >= POINTS_TO_END) && points[0] != points[1] {
            out.winner = Some(if points[0] < points[1] { 0 } else { 1 });
            break;
        }
    }
    out.time = now;
    obs.on_match_event(now, SpitEvent::MatchEnd { winner: out.winner, capped: out.capped }, &s);
    out
}
