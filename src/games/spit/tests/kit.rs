//! Test kit: hand-built Spit positions, scripted strategies, constant reaction models
//! and an event recorder.

use crate::cards::{Card, CardSet, RANK_NAMES, SUIT_NAMES};
use crate::games::spit::config::SpitConfig;
use crate::games::spit::game::SpitEvent;
use crate::games::spit::rules::{SpitAction, SpitRules};
use crate::games::spit::state::{Slot, SpitState};
use crate::games::spit::strategies::{SpitBot, SpitStrategy};
use crate::games::spit::view::SpitView;
use crate::reaction::{Dist, ReactionModel};
use crate::realtime::{play_round, Bot, EngineEvent, EngineObserver, Micros, RoundCounts, RoundEnd, Seated, MAX_PLAYERS};
use crate::rng::SimRng;

/// Parses a card such as `7h`, `10s`, `As`.
pub fn card(s: &str) -> Card {
    let (rank, suit) = s.split_at(s.len() - 1);
    let r = RANK_NAMES.iter().position(|&n| n == rank).unwrap_or_else(|| panic!("bad rank in {s}")) as u8 + 1;
    let su = SUIT_NAMES.iter().position(|&n| n.to_string() == suit).unwrap_or_else(|| panic!("bad suit in {s}")) as u8;
    Card::new(r, su)
}

/// A slot spec: `-` empty, `7h` one face-up card, `2/7h` two face-down cards under 7h,
/// `3/?` three face-down cards with a face-down top.
fn slot(spec: &str) -> Slot {
    match spec {
        "-" => Slot::default(),
        _ => {
            let (down, top) = spec.split_once('/').unwrap_or(("0", spec));
            let down: u8 = down.parse().expect("face-down count");
            if top == "?" { Slot { down, up: None } } else { Slot { down, up: Some(card(top)) } }
        }
    }
}

/// Builds a state: each player's slots and spit-card count, and the two pile tops
/// (`None` for a pile not in play). Hidden cards and pile bodies are filled with the
/// unused cards so that all 52 are accounted for (SPIT-INV-1).
pub fn position(slots: [&[&str]; 2], spit: [u8; 2], tops: [Option<&str>; 2]) -> SpitState {
    let mut s = SpitState::EMPTY;
    let mut used = CardSet::EMPTY;
    for ((me, specs), &spit) in s.players.iter_mut().zip(slots).zip(&spit) {
        for (kept, spec) in me.slots.iter_mut().zip(specs) {
            *kept = slot(spec);
            if let Some(c) = kept.up {
                used.insert(c);
            }
        }
        me.spit = spit;
    }
    for (active, top) in s.active.iter_mut().zip(tops) {
        if let Some(t) = top {
            used.insert(card(t));
            *active = true;
        }
    }
    let mut free = CardSet(CardSet::FULL.0 & !used.0).iter();
    for me in &mut s.players {
        let need: u32 = me.slots.iter().map(|x| x.down as u32).sum::<u32>() + me.spit as u32;
        for _ in 0..need {
            me.hidden.insert(free.next().expect("enough cards"));
        }
    }
    let rest: Vec<Card> = free.collect();
    let active: Vec<usize> = (0..2).filter(|&j| s.active[j]).collect();
    for (i, c) in rest.into_iter().enumerate() {
        s.piles[active[i % active.len()]].cards.insert(c);
    }
    for (pile, top) in s.piles.iter_mut().zip(tops) {
        if let Some(t) = top {
            pile.push(card(t));
        }
    }
    s
}

/// A reaction model with constant times: every action takes `act_ms` (look) plus
/// `2 × move_ms` (two movements); a return takes `move_ms`; a slap `simple_ms + move_ms`;
/// recognising a stall `simple_ms`; the hand rests `2 × move_ms` after a spit.
pub fn constant_model(act_ms: f64, move_ms: f64, simple_ms: f64) -> ReactionModel {
    ReactionModel {
        look: Dist::Constant(act_ms),
        scan_per_item: 0.0,
        hick_b: 0.0,
        fitts_a: move_ms,
        fitts_b: 0.0,
        grasp_release: 0.0,
        motor_cv: 0.0,
        overlap: 0.0,
        simple: Dist::Constant(simple_ms),
        p_miss: 0.0,
        p_fumble: 0.0,
    }
}

/// A policy given as a function of the view and the legal actions.
pub struct Scripted<F>(pub F);

impl<F> SpitStrategy for Scripted<F>
where
    F: Fn(&SpitView, &[SpitAction]) -> Option<SpitAction> + Send + Sync,
{
    fn choose(&self, v: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        (self.0)(v, legal)
    }
}

/// A policy that always slaps / spits onto / gives away a fixed pile.
pub struct FixedPiles {
    /// Pile slapped.
    pub slap: usize,
    /// Pile spat onto under `any`.
    pub spit: usize,
    /// Pile given away.
    pub give: usize,
}

impl SpitStrategy for FixedPiles {
    fn choose(&self, _: &SpitView, legal: &[SpitAction], _: &mut SimRng) -> Option<SpitAction> {
        legal.iter().copied().find(|a| matches!(a, SpitAction::Play { .. } | SpitAction::Flip { .. }))
    }
    fn slap_target(&self, _: &SpitView, _: &mut SimRng) -> usize {
        self.slap
    }
    fn spit_target(&self, _: &SpitView, _: &mut SimRng) -> usize {
        self.spit
    }
    fn give_away(&self, _: &SpitView, _: &mut SimRng) -> usize {
        self.give
    }
}

/// Plays the first legal PLAY, else the first FLIP, else stays idle.
pub fn plays_only() -> Box<dyn SpitStrategy> {
    Box::new(Scripted(|_: &SpitView, legal: &[SpitAction]| {
        legal.iter().copied().find(|a| matches!(a, SpitAction::Play { .. } | SpitAction::Flip { .. }))
    }))
}

/// A bot from a strategy and a model.
pub fn bot(strategy: Box<dyn SpitStrategy>, reaction: ReactionModel) -> SpitBot {
    Bot { strategy, reaction }
}

/// Records every event with its time in seconds.
#[derive(Default)]
pub struct Recorder {
    /// Engine events.
    pub engine: Vec<(f64, EngineEvent<SpitAction>, SpitState)>,
    /// Match events.
    pub matches: Vec<(f64, SpitEvent)>,
}

impl EngineObserver<SpitState, SpitAction> for Recorder {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<SpitAction>, s: &SpitState) {
        self.engine.push((t as f64 / 1e6, ev, *s));
    }
}

impl crate::realtime::MatchObserver<SpitState, SpitAction, SpitEvent> for Recorder {
    fn on_match_event(&mut self, t: Micros, ev: SpitEvent, _: &SpitState) {
        self.matches.push((t as f64 / 1e6, ev));
    }
}

impl Recorder {
    /// Engine events without the states, for comparisons.
    pub fn events(&self) -> Vec<(f64, EngineEvent<SpitAction>)> {
        self.engine.iter().map(|(t, e, _)| (*t, *e)).collect()
    }
    /// Times of the events matching `pred`.
    pub fn times(&self, pred: impl Fn(&EngineEvent<SpitAction>) -> bool) -> Vec<f64> {
        self.engine.iter().filter(|(_, e, _)| pred(e)).map(|(t, _, _)| *t).collect()
    }
}

/// Plays one round of `s` from time 0 with both hands free and returns how it ended.
pub fn run_round(cfg: SpitConfig, bots: [&SpitBot; 2], s: &mut SpitState, seed: u64, rec: &mut Recorder) -> RoundEnd {
    let rules = SpitRules { cfg };
    let mut budget = 100_000;
    let mut counts = RoundCounts::default();
    play_round(&rules, &Seated::new(&bots), s, 0, [false; MAX_PLAYERS], &mut budget, &mut counts, &mut crate::realtime::MatchRngs::of_deal(seed), rec)
}

/// Approximate equality of times in seconds.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}
