//! `search`: looks ahead by determinized rollouts. For each decision with two or more
//! candidate moves (the move the tuned `lazy` would make, and the first legal move of
//! every other kind of move it ranks, [`Cat`]; never an aimless move), it samples full
//! states consistent with its view ([`NertsView::shown`]): its own hidden cards (under
//! the Nerts top, the stock and the waste but its top) dealt at random in their places,
//! every other layout rebuilt at random from the cards of its deck that are not on a
//! foundation (its Nerts count kept, one card in each work slot, the rest in stock and
//! waste with a random waste length), every other hand idle. Nerts keeps no hidden-zone
//! keys (the stock order is in the state) and no derived data, so the sample is ready
//! for the engine. From each sample every candidate is played out on the real-time
//! engine for `horizon` landed actions (all players) or to the deal's end, with the
//! tuned `lazy` (`strategies/nerts-lazy-tuned.toml`) choosing for every seat and its own
//! reaction model timing every seat; the candidate with the best mean of (its team's
//! deal score − the best other team's, ± [`CALL`] for the team whose call ended the
//! deal) is played. Every candidate meets the same samples and random numbers (common
//! random numbers), all drawn from the player's own stream. The rollouts it runs cost
//! `ms_per_rollout` each: that think time is reported to the engine, which adds it to
//! the action's time.

use super::styles::TUNED_LAZY_ORDER;
use super::{classify, pick, Cat, NertsStrategy, Ranking, Registered};
use crate::games::nerts::rules::{team_scores, NertsAction, NertsRules};
use crate::cards::Card;
use crate::games::nerts::state::{is_joker, Layout, NertsState, MAX_STOCK, NONE, WORK_PILES};
use crate::games::nerts::view::NertsView;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::StrategyInfo;
use crate::reaction::ReactionModel;
use crate::realtime::lookahead::{budget_params, Lookahead, RolloutBudget, Sample};
use crate::realtime::{ActionList, Bot, Hand, RoundEnd, Seated, MAX_ACTIONS, MAX_PLAYERS};
use crate::rng::SimRng;
use rand::RngExt;

/// Rollout search with charged think time.
pub struct Search {
    budget: RolloutBudget,
    margin: f64,
    z: f64,
    per_kind: usize,
}

/// The rollout budget's parameters ([`budget_params`]).
const BUDGET: [ParamDef; 3] = budget_params(12.0, 16.0, 0.1);
/// The parameters, in the order [`Search`] reads them.
const PARAMS: &[ParamDef] = &[
    BUDGET[0],
    BUDGET[1],
    BUDGET[2],
    ParamDef { name: "margin", about: "mean gain (deal points a rollout) over the tuned lazy's choice that another move needs to be played", default: 0.0, min: 0.0, max: 100.0, integer: false },
    ParamDef { name: "z", about: "standard errors by which another move's mean gain over the tuned lazy's choice must exceed zero to be played", default: 1.0, min: 0.0, max: 10.0, integer: false },
    ParamDef { name: "per_kind", about: "candidate moves of each kind of move (the first ones in the legal order)", default: 1.0, min: 1.0, max: 64.0, integer: true },
];

/// Registry entry.
pub const REGISTERED: Registered = Registered {
    info: StrategyInfo {
        name: "search",
        about: "determinized rollouts of the next actions (the tuned lazy playing every seat) from the best move of each kind; think time charged per rollout",
        params: PARAMS,
    },
    make: |v| Box::new(Search::new(v)),
};

/// A deal ended by a call within a rollout, in deal points: for the caller's team,
/// against the others.
pub const CALL: f64 = 5.0;

/// [`TUNED_LAZY_ORDER`] as [`pick`] reads it.
const TUNED_LAZY: Ranking = Ranking::new(&TUNED_LAZY_ORDER);

/// The rollout policy: `lazy` with the tuned priorities of
/// `strategies/nerts-lazy-tuned.toml`. A unit type, so a boxed one allocates nothing.
struct Rollout;

impl NertsStrategy for Rollout {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        pick(view, legal, &TUNED_LAZY)
    }
}

/// Deals the cards `pool[..left]`, last first, into the blanked places ([`NONE`]) of
/// `places`; `left` counts what is left.
fn deal_into(places: &mut [u8], pool: &[u8], left: &mut usize) {
    for v in places.iter_mut().filter(|v| **v == NONE) {
        *v = pool[*left - 1];
        *left -= 1;
    }
}

/// The cards a blanked layout shows (bit per value).
fn shown_cards(l: &Layout) -> u64 {
    let work = l.work.iter().flat_map(|w| w.iter());
    l.nerts[..l.nerts_len as usize].iter().copied().chain(work).chain(l.sw[..l.sw_len as usize].iter().copied()).filter(|&v| v != NONE).fold(0, |m, v| m | 1u64 << v)
}

/// True if card value `v` may lie on card value `top` in a work pile: one rank lower,
/// the other colour, neither a Joker (NERTS-WORK-2).
fn lies_on(v: u8, top: u8) -> bool {
    !is_joker(v) && !is_joker(top) && Card(v).rank() + 1 == Card(top).rank() && Card(v).is_red() != Card(top).is_red()
}

/// Rebuilds another player's blanked layout `l` (its Nerts count kept) from the
/// shuffled cards `pool[..left]` of its deck that are off the foundations: the Nerts
/// pile, one card in each work slot, then stock and waste (a random waste length); when
/// stock and waste cannot hold the rest, the work piles are built down with fitting
/// cards first (another shuffle if none fits, at most [`REBUILDS`] tries).
fn rebuild_other(l: &mut Layout, pool: &mut [u8; 64], left: &mut usize, rng: &mut SimRng) {
    let blank = *l;
    let cards = *left;
    for _ in 0..REBUILDS {
        *l = blank;
        *left = cards;
        let n = l.nerts_len as usize;
        deal_into(&mut l.nerts[..n], pool, left);
        for w in l.work.iter_mut().take((*left).min(WORK_PILES)) {
            w.push_all(&[pool[*left - 1]]);
            *left -= 1;
        }
        while *left > MAX_STOCK {
            let fit = (0..*left).find_map(|i| l.work.iter().position(|w| w.top().is_some_and(|t| lies_on(pool[i], t))).map(|p| (i, p)));
            let Some((i, p)) = fit else { break };
            l.work[p].push_all(&[pool[i]]);
            pool.swap(i, *left - 1);
            *left -= 1;
        }
        if *left <= MAX_STOCK {
            break;
        }
        for i in (1..cards).rev() {
            pool.swap(i, rng.random_range(0..=i));
        }
    }
    // Never seen: after every try, the rest spread over the work piles, out of order. A
    // work pile holds a run (`WorkPile`), so such a sample reads other cards there than
    // these (a debug build stops at the push): a guess of the hidden cards, not the rules'.
    let mut p = 0;
    while *left > MAX_STOCK {
        l.work[p % WORK_PILES].push_all(&[pool[*left - 1]]);
        *left -= 1;
        p += 1;
    }
    l.sw_len = *left as u8;
    l.sw[..*left].fill(NONE);
    l.waste_len = rng.random_range(0..=l.sw_len);
}

/// Shuffles [`rebuild_other`] tries before it gives up on building the work piles.
const REBUILDS: usize = 64;

/// The values of `mask` (bit per value) shuffled with `rng`, and how many there are.
fn shuffled(mask: u64, rng: &mut SimRng) -> ([u8; 64], usize) {
    let mut out = [NONE; 64];
    let mut n = 0;
    for v in 0..64u8 {
        if mask >> v & 1 == 1 {
            out[n] = v;
            n += 1;
        }
    }
    for i in (1..n).rev() {
        out.swap(i, rng.random_range(0..=i));
    }
    (out, n)
}

impl Search {
    /// The strategy with parameters `v` (in [`PARAMS`] order).
    pub fn new(v: &ParamValues) -> Search {
        Search { budget: RolloutBudget::from_params(v), margin: v.get(3), z: v.get(4), per_kind: v.int(5) as usize }
    }

    /// The think time charged for a decision among `candidates` moves
    /// ([`RolloutBudget::think_ms`]).
    pub fn think_ms(&self, candidates: usize) -> f64 {
        self.budget.think_ms(candidates)
    }

    /// A full state consistent with `view`, drawn from `rng` (see the module
    /// documentation): the viewer's blanked cards dealt at random from the cards of his
    /// deck he does not see, every other layout rebuilt from its deck's cards off the
    /// foundations, no card held and no pile locked (every other hand is idle).
    pub fn sample(view: &NertsView, rng: &mut SimRng) -> NertsState {
        let mut s = view.shown();
        let mine = s.layout_of[view.seat()] as usize;
        let full = s.deck_mask();
        for d in 0..s.n_layouts as usize {
            let unseen = full & !s.on_found[d] & !shown_cards(&s.layouts[d]);
            let (mut pool, mut left) = shuffled(unseen, rng);
            let l = &mut s.layouts[d];
            if d != mine {
                rebuild_other(l, &mut pool, &mut left, rng);
            }
            let n = l.nerts_len as usize;
            deal_into(&mut l.nerts[..n], &pool, &mut left);
            let sw = l.sw_len as usize;
            deal_into(&mut l.sw[..sw], &pool, &mut left);
            debug_assert_eq!(left, 0, "layout {d}: every unseen card has a place");
            l.locks = 0;
            l.nerts_held = false;
            l.waste_held = false;
            for w in l.work.iter_mut() {
                w.held = 0;
            }
            l.refresh_work(); // another layout's work piles were rebuilt
        }
        s
    }

    /// The value of a rollout's end for seat `me`: his team's deal score minus the best
    /// other team's, plus or minus [`CALL`] if a call ended the deal.
    fn value(s: &NertsState, me: usize, _: RoundEnd) -> f64 {
        let scores = team_scores(s);
        let team = s.team_of_seat(me);
        let best_other = (0..s.teams as usize).filter(|&t| t != team).map(|t| scores[t]).max().unwrap_or(0);
        let mut v = (scores[team] - best_other) as f64;
        if let Some(p) = s.caller() {
            v += if s.team_of_seat(p) == team { CALL } else { -CALL };
        }
        v
    }

    /// The candidates: the tuned `lazy`'s choice first, then the first `per_kind` legal
    /// moves of each kind it ranks (its choice counted), in the legal order. Empty when
    /// `lazy` waits.
    pub fn candidates(view: &NertsView, legal: &[NertsAction], per_kind: usize) -> ActionList<NertsAction> {
        let mut out = ActionList::new();
        let Some(first) = pick(view, legal, &TUNED_LAZY) else { return out };
        out.push(first);
        let mut taken = [0usize; 12];
        taken[classify(view, first) as usize] = 1;
        for &a in legal {
            let cat = classify(view, a);
            if a != first && taken[cat as usize] < per_kind && TUNED_LAZY_ORDER.contains(&cat) && !matches!(cat, Cat::Stock | Cat::Rotate) && !out.is_full() {
                taken[cat as usize] += 1;
                out.push(a);
            }
        }
        out
    }

    /// The search: the tuned `lazy`'s choice, unless another candidate's mean rollout
    /// value beats it by more than `margin` (then the best of them, ties to the earlier
    /// one), and the think time charged.
    fn search(&self, view: &NertsView, legal: &[NertsAction], reaction: &ReactionModel, rng: &mut SimRng) -> (Option<NertsAction>, f64) {
        let candidates = Self::candidates(view, legal, self.per_kind);
        let think = self.think_ms(candidates.len());
        match candidates.len() {
            0 => return (None, 0.0),
            1 => return (Some(candidates[0]), think),
            _ => {}
        }
        let rules = NertsRules::new(*view.rules());
        let me = view.seat();
        let n = view.players();
        let bots: [Bot<dyn NertsStrategy>; MAX_PLAYERS] = std::array::from_fn(|_| Bot { strategy: Box::new(Rollout) as Box<dyn NertsStrategy>, reaction: *reaction });
        let seats: Seated<dyn NertsStrategy> = bots[..n].iter().collect();
        let search = Lookahead { rules: &rules, seats: &seats, me, options: legal.len() };
        let sample = |r: &mut SimRng| Sample::<NertsRules> { state: Self::sample(view, r), hands: [Hand::Idle; MAX_PLAYERS] };
        // Per candidate, the sum and sum of squares of its rollout value minus the
        // tuned lazy's on the same rollout (paired by the common random numbers).
        let (mut first, mut sum, mut sq) = (0.0, [0.0f64; MAX_ACTIONS], [0.0f64; MAX_ACTIONS]);
        search.rollouts(&candidates, think, &self.budget, rng, sample, |s, end| Self::value(s, me, end), |k, v| {
            if k == 0 {
                first = v;
            } else {
                sum[k] += v - first;
                sq[k] += (v - first) * (v - first);
            }
        });
        // The other move with the best mean gain, played if the gain is significant:
        // more than `z` standard errors (and positive).
        let n = self.budget.rollouts as f64;
        let mut best = 1;
        for k in 2..candidates.len() {
            if sum[k] > sum[best] {
                best = k;
            }
        }
        let mean = sum[best] / n;
        let var = if n > 1.0 { (sq[best] - n * mean * mean).max(0.0) / (n - 1.0) } else { 0.0 };
        let play = if mean > self.margin && mean > self.z * (var / n).sqrt() { best } else { 0 };
        (Some(candidates[play]), think)
    }
}

impl NertsStrategy for Search {
    /// Without the engine's reaction model (a caller outside a match), the search
    /// models every player with the default preset.
    fn choose(&self, view: &NertsView, legal: &[NertsAction], rng: &mut SimRng) -> Option<NertsAction> {
        self.search(view, legal, &crate::realtime::DEFAULT_PRESET.model(), rng).0
    }
    fn choose_timed(&self, view: &NertsView, legal: &[NertsAction], reaction: &ReactionModel, rng: &mut SimRng) -> (Option<NertsAction>, f64) {
        self.search(view, legal, reaction, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_boxed_rollout_policy_is_a_unit() {
        assert_eq!(std::mem::size_of::<Rollout>(), 0, "boxing it must not allocate");
    }
}
