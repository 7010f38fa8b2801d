//! A whole Nerts match on the real-time engine: deals (NERTS-SETUP-*, NERTS-MATCH-3),
//! each played until a call or the end of the global resets (NERTS-END-*), scored +1/-2
//! (NERTS-SCORE-*), summed per team (NERTS-PART-*), until a team reaches the target
//! with the single highest total (NERTS-MATCH-1, NERTS-MATCH-2).

use super::rules::{team_scores, DealEnd, MatchStatus, NertsAction, NertsRules, Source};
use super::state::{NertsState, MAX_NERTS_PLAYERS};
use super::strategies::NertsStrategy;
use crate::realtime::{play_round, EngineEvent, EngineObserver, MatchObserver, MatchRngs, Micros, RoundCounts, Seated, MAX_PLAYERS};
use crate::rng::MatchSeeds;

/// Match-level events (the engine reports the in-deal ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NertsEvent {
    /// A deal was dealt (every layout is in the state).
    Deal {
        /// Deals so far, this one included.
        deal: u32,
    },
    /// The deal ended and was scored.
    DealEnd {
        /// Why; `None` when the match's action budget ran out during the deal.
        end: Option<DealEnd>,
        /// Each team's score in the deal.
        scores: [i32; MAX_NERTS_PLAYERS],
    },
    /// The match ended.
    MatchEnd {
        /// The winning team; `None` for a capped match.
        winner: Option<usize>,
        /// The action cap was hit.
        capped: bool,
        /// Each team's match points.
        totals: [i32; MAX_NERTS_PLAYERS],
    },
}

/// Receives engine and match events of a Nerts match.
pub trait NertsObserver: MatchObserver<NertsState, NertsAction, NertsEvent> {}

impl<T: MatchObserver<NertsState, NertsAction, NertsEvent>> NertsObserver for T {}

/// How a match went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NertsOutcome {
    /// Players.
    pub players: usize,
    /// Winning team (`None` for a capped match).
    pub winner_team: Option<usize>,
    /// The lowest seat of the winning team.
    pub winner: Option<usize>,
    /// Hit the action cap (or a policy broke liveness).
    pub capped: bool,
    /// Deals played (a capped one included).
    pub deals: u32,
    /// Deals ended by a call.
    pub called_deals: u32,
    /// Simulated duration (shuffling and dealing off the clock).
    pub time: Micros,
    /// Engine counters over all deals.
    pub counts: RoundCounts,
    /// Match points per team.
    pub totals: [i32; MAX_NERTS_PLAYERS],
    /// Team of each seat.
    pub team_of_seat: [u8; MAX_NERTS_PLAYERS],
    /// Number of teams (a player alone is a team of one).
    pub teams: usize,
    /// Per-seat and race counters.
    pub tally: Tally,
}

/// Counters kept over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per seat: calls that ended a deal.
    pub calls: [u32; MAX_NERTS_PLAYERS],
    /// Per seat: cards it played to foundations.
    pub to_foundation: [u32; MAX_NERTS_PLAYERS],
    /// Per seat: foundation races won (its card lay where a rejected card aimed).
    pub races_won: [u32; MAX_NERTS_PLAYERS],
    /// Per seat: foundation races lost (its foundation card was rejected, NERTS-RT-5).
    pub races_lost: [u32; MAX_NERTS_PLAYERS],
    /// Foundation cards that tied an identical card within the window (NERTS-RT-6).
    pub ties: u32,
    /// Global resets (NERTS-STUCK-4).
    pub resets: u32,
}

/// Counts the per-seat figures of one deal on the way to the game's observer.
pub(super) struct Counting<'a, O> {
    inner: &'a mut O,
    out: &'a mut Tally,
    /// Per deck and card (a Joker's declared card), the seat whose hand put it on a
    /// foundation this deal: on a shared layout either partner may have.
    landed_by: [[u8; 52]; MAX_NERTS_PLAYERS],
}

impl<'a, O> Counting<'a, O> {
    pub(super) fn new(inner: &'a mut O, out: &'a mut Tally) -> Self {
        Counting { inner, out, landed_by: [[0; 52]; MAX_NERTS_PLAYERS] }
    }
}

impl<O: EngineObserver<NertsState, NertsAction>> EngineObserver<NertsState, NertsAction> for Counting<'_, O> {
    #[inline]
    fn on_event(&mut self, time: Micros, event: EngineEvent<NertsAction>, s: &NertsState) {
        match event {
            EngineEvent::Landed { player, action: NertsAction::ToFoundation { card, .. } } => {
                self.out.to_foundation[player] += 1;
                self.landed_by[s.layout_of[player] as usize][card.0 as usize] = player as u8;
                // A tie: the card's deck is among two or more at the top of a foundation
                // holding its card. Without Jokers that is the foundation it just went
                // to, and the placing says whether it tied; a Joker's declared card may
                // match another card of its deck on another foundation.
                let tied = s.found.last_tied
                    || s.jokers != 0 && (0..s.found.len as usize).any(|i| s.found.top[i] == card.suit() << 4 | card.rank() && s.found.top_decks[i].count_ones() > 1 && s.found.top_decks[i] >> s.layout_of[player] & 1 == 1);
                self.out.ties += tied as u32;
            }
            EngineEvent::Rejected { player, action: NertsAction::ToFoundation { card, .. } } => {
                self.out.races_lost[player] += 1;
                // The race went to whoever's card lies where this one aimed: the seat
                // that played it, every one of tied cards (NERTS-RT-6).
                if let Some(i) = (0..s.found.len as usize).find(|&i| s.found.top[i] == card.suit() << 4 | card.rank()) {
                    for d in (0..s.n_layouts as usize).filter(|&d| s.found.top_decks[i] >> d & 1 == 1) {
                        self.out.races_won[self.landed_by[d][card.0 as usize] as usize] += 1;
                    }
                }
            }
            EngineEvent::Synchronised => self.out.resets += 1,
            _ => {}
        }
        self.inner.on_event(time, event, s);
    }
}

/// The bots of a Nerts match in seat order.
pub type NertsSeats<'a> = Seated<'a, dyn NertsStrategy>;

/// Plays a whole match between the `seats` bots. Every deal comes from the deal's seeds
/// (the same in every seating); reactions and the bots' dice from the players' streams.
pub fn play_match<O: NertsObserver>(rules: &NertsRules, seats: &NertsSeats, seeds: &MatchSeeds, obs: &mut O) -> NertsOutcome {
    let cfg = rules.cfg;
    let n = seats.len();
    let mut rngs = MatchRngs::new(seeds);
    let mut out = NertsOutcome { players: n, ..NertsOutcome::default() };
    let mut budget = cfg.max_actions;
    let mut now: Micros = 0;
    loop {
        out.deals += 1;
        let mut s = NertsState::deal_of_match(&cfg, n, seeds, out.deals);
        s.totals = out.totals;
        for p in 0..n {
            out.team_of_seat[p] = s.team_of_seat(p) as u8;
        }
        out.teams = s.teams as usize;
        obs.on_match_event(now, NertsEvent::Deal { deal: out.deals }, &s);
        // Everyone starts at once (NERTS-RT-1): every hand free at the start signal.
        let busy = [false; MAX_PLAYERS];
        let end = play_round(rules, seats, &mut s, now, busy, &mut budget, &mut out.counts, &mut rngs, &mut Counting::new(obs, &mut out.tally));
        now = end.time;
        let teams = s.teams as usize;
        let deal_end = if end.capped { None } else { rules.deal_end(&s) };
        let scores = if end.capped { [0; MAX_NERTS_PLAYERS] } else { team_scores(&s) };
        if let Some(DealEnd::Called(p)) = deal_end {
            out.tally.calls[p] += 1;
            out.called_deals += 1;
        }
        obs.on_match_event(now, NertsEvent::DealEnd { end: deal_end, scores }, &s);
        if end.capped {
            out.capped = true;
            obs.on_match_event(now, NertsEvent::MatchEnd { winner: None, capped: true, totals: out.totals }, &s);
            break;
        }
        debug_assert!(deal_end.is_some(), "a deal ends only by a call or after the resets");
        for (total, score) in out.totals.iter_mut().zip(scores).take(teams) {
            *total += score;
        }
        if let MatchStatus::Won(team) = super::rules::match_status(&out.totals[..teams], cfg.target) {
            out.winner_team = Some(team);
            out.winner = (0..n).find(|&p| s.team_of_seat(p) == team);
            obs.on_match_event(now, NertsEvent::MatchEnd { winner: Some(team), capped: false, totals: out.totals }, &s);
            break;
        }
    }
    out.time = now;
    out
}

/// True if `a` takes a card from seat `p`'s Nerts pile (for traces and tests).
pub fn from_nerts(a: NertsAction) -> bool {
    a.source() == Some(Source::Nerts)
}
