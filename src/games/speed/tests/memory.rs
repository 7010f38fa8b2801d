//! The public hand memory ([`HandMemory`]): its packed depths against a list of slot
//! masks kept the plain way, and, over random matches, against the players' true hands
//! tracked card by card from the engine's events (the memory never excludes the rank of
//! a card its slot stands for when both players draw only without a play).

use super::{bots, random_flags};
use crate::cards::{Card, CardSet};
use crate::games::speed::config::SpeedConfig;
use crate::games::speed::game::{play_match, SpeedEvent};
use crate::games::speed::rules::{playable_on, SpeedAction, SpeedRules};
use crate::games::speed::state::{HandMemory, SpeedState, HAND_LIMIT};
use crate::games::speed::view::SpeedView;
use crate::realtime::{EngineEvent, EngineObserver, MatchObserver, Micros, Seated};
use crate::rng::{rng_from, MatchSeeds};
use rand::RngExt;

/// The plain model: one mask per slot, oldest first.
fn plain_remove(masks: &mut Vec<u16>, rank: u8) {
    match masks.iter().position(|m| m >> (rank - 1) & 1 == 0) {
        Some(i) => {
            masks.remove(i);
        }
        None => {
            masks.iter_mut().for_each(|m| *m = 0);
            masks.pop();
        }
    }
}

#[test]
fn hand_memory_is_the_plain_list_of_slot_masks() {
    let mut rng = rng_from(21);
    let mut resets = 0;
    for _ in 0..2000 {
        let (mut memory, mut masks) = (HandMemory::default(), vec![0u16; HAND_LIMIT as usize]);
        for _ in 0..40 {
            let n = masks.len() as u32;
            match rng.random_range(0..3) {
                0 if n < HAND_LIMIT => masks.push(0),
                1 => {
                    let ranks = rng.random_range(0..1u16 << 13);
                    memory.exclude(ranks, n);
                    masks.iter_mut().for_each(|m| *m |= ranks);
                }
                _ if n > 0 => {
                    let rank = rng.random_range(1..=13u8);
                    let kept = memory.remove(rank, n);
                    resets += !kept as u32;
                    assert_eq!(kept, masks.iter().any(|m| m >> (rank - 1) & 1 == 0));
                    plain_remove(&mut masks, rank);
                }
                _ => {}
            }
            let mut want = [0u16; HAND_LIMIT as usize];
            want[..masks.len()].copy_from_slice(&masks);
            assert_eq!(memory.slots(), want, "slot masks, oldest first");
            for r in 1..=13u8 {
                assert_eq!(memory.depth(r), masks.iter().filter(|m| *m >> (r - 1) & 1 == 1).count() as u32, "rank {r}: the masks are nested");
            }
        }
    }
    assert!(resets > 100, "the reset is exercised ({resets})");
}

/// Tracks each player's true hand, card by card in the order the cards entered it, with
/// the ranks each card was shown not to be, and checks the state's memory against it
/// after every event. What was shown is worked out from the engine's events: a draw
/// started (no card fits a top then), a stall (nobody has a play), and a player idle
/// after an event (his action landed or came back; not after a flip he made, whose end
/// no event marks) who starts nothing before the next event (no card fits the tops
/// after the first event).
struct Truth {
    cfg: SpeedConfig,
    hands: [Vec<(Card, u16)>; 2],
    /// Idle by the engine's events (not acting, not returning).
    idle: [bool; 2],
    /// Turned a card at a flip (or the opening) and started nothing since.
    rest: [bool; 2],
    /// The ranks fitting the tops when he was last idle, if he started nothing since.
    armed: [Option<u16>; 2],
    /// The tops when a stall was declared.
    stall_tops: [Option<Card>; 2],
    /// Check that the memory is true (both players draw only without a play).
    exact: bool,
    checked: u64,
    excluded: u64,
    /// Ranks the tracker excludes, summed like `excluded`.
    truth_excluded: u64,
}

impl Truth {
    /// The ranks that fit a centre top now, worked out card by card.
    fn fitting_ranks(&self, s: &SpeedState) -> u16 {
        let tops: Vec<Card> = s.centre.iter().filter_map(|p| p.top).collect();
        (1..=13u8).filter(|&r| tops.iter().any(|&t| playable_on(&self.cfg, Card::new(r, 0), t))).fold(0, |m, r| m | 1 << (r - 1))
    }

    /// A fresh tracker that keeps `old`'s counts.
    fn counted(mut self, old: &Truth) -> Truth {
        (self.checked, self.excluded, self.truth_excluded) = (old.checked, old.excluded, old.truth_excluded);
        self
    }

    fn exclude(&mut self, p: usize, ranks: u16) {
        self.hands[p].iter_mut().for_each(|(_, m)| *m |= ranks);
    }

    fn check(&mut self, s: &SpeedState) {
        for p in 0..2 {
            let memory = s.players[p].memory;
            let n = s.players[p].hand_count();
            let slots = memory.slots();
            assert!(slots[n as usize..].iter().all(|&m| m == 0), "no slot past the hand: {slots:?}, {n} cards");
            assert_eq!(SpeedView::new(s, 1 - p, &self.cfg).opponent_hand_exclusions(), slots, "the opponent's view shows the memory");
            if !self.exact {
                continue;
            }
            let truth = &self.hands[p];
            assert_eq!(truth.len() as u32, n, "the tracked hand");
            let mut held = s.players[p].hand;
            if let Some(c) = s.players[p].flying {
                held.insert(c);
            }
            assert_eq!(truth.iter().fold(CardSet::EMPTY, |mut h, &(c, _)| { h.insert(c); h }), held);
            for (i, &(card, mask)) in truth.iter().enumerate() {
                assert_eq!(mask >> (card.rank() - 1) & 1, 0, "player {p} was shown not to hold {}: a draw with a play?", card.name());
                assert_eq!(slots[i] & !mask, 0, "player {p} slot {i}: the memory {:013b} excludes more than the truth {mask:013b} ({})", slots[i], card.name());
                self.excluded += slots[i].count_ones() as u64;
                self.truth_excluded += mask.count_ones() as u64;
            }
        }
        self.checked += 1;
    }
}

impl Truth {
    fn new(cfg: SpeedConfig, exact: bool) -> Truth {
        Truth { cfg, hands: [Vec::new(), Vec::new()], idle: [true; 2], rest: [false; 2], armed: [None; 2], stall_tops: [None; 2], exact, checked: 0, excluded: 0, truth_excluded: 0 }
    }

    /// What the players armed at the last event showed by starting nothing since.
    fn disarm(&mut self) {
        for p in 0..2 {
            if let Some(ranks) = self.armed[p].take() {
                self.exclude(p, ranks);
            }
        }
    }

    /// Arms every player idle after this event and not busy after a flip.
    fn arm(&mut self, s: &SpeedState) {
        let ranks = self.fitting_ranks(s);
        for p in 0..2 {
            self.armed[p] = (self.idle[p] && !self.rest[p]).then_some(ranks);
        }
    }
}

impl EngineObserver<SpeedState, SpeedAction> for Truth {
    fn on_event(&mut self, _: Micros, ev: EngineEvent<SpeedAction>, s: &SpeedState) {
        match ev {
            EngineEvent::Start { .. } | EngineEvent::LivenessViolation { .. } => {}
            EngineEvent::Synchronised => {}
            _ => self.disarm(),
        }
        match ev {
            EngineEvent::Start { player, action, .. } => {
                (self.idle[player], self.rest[player], self.armed[player]) = (false, false, None);
                if action == SpeedAction::Draw {
                    self.exclude(player, self.fitting_ranks(s));
                }
            }
            EngineEvent::Rejected { player, .. } => self.idle[player] = false,
            EngineEvent::Returned { player, .. } | EngineEvent::Cancelled { player, .. } => self.idle[player] = true,
            EngineEvent::Landed { player, action: SpeedAction::Draw } => {
                self.idle[player] = true;
                let known = self.hands[player].iter().fold(s.players[player].hand, |mut h, &(c, _)| {
                    h.remove(c);
                    h
                });
                assert_eq!(known.len(), 1, "one card drawn");
                self.hands[player].push((known.iter().next().unwrap(), 0));
            }
            EngineEvent::Landed { player, action: SpeedAction::Play { card, .. } } => {
                self.idle[player] = true;
                self.hands[player].retain(|&(c, _)| c != card);
            }
            EngineEvent::Stalled => {
                let ranks = self.fitting_ranks(s);
                (0..2).for_each(|p| self.exclude(p, ranks));
                self.stall_tops = [0, 1].map(|j| s.centre[j].top);
            }
            EngineEvent::Synchronised => {
                for j in 0..2 {
                    // Player j turned side pile j if centre pile j has a new top.
                    if s.centre[j].top != self.stall_tops[j] {
                        self.rest[j] = true;
                    }
                }
            }
            _ => {}
        }
        if !matches!(ev, EngineEvent::Start { .. } | EngineEvent::Stalled | EngineEvent::LivenessViolation { .. }) {
            self.arm(s);
        }
        self.check(s);
    }
}

impl MatchObserver<SpeedState, SpeedAction, SpeedEvent> for Truth {
    fn on_match_event(&mut self, _: Micros, ev: SpeedEvent, s: &SpeedState) {
        match ev {
            SpeedEvent::Deal { .. } => *self = Truth::new(self.cfg, self.exact).counted(self),
            SpeedEvent::Hands => self.hands = [0, 1].map(|p| s.players[p].hand.iter().map(|c| (c, 0)).collect()),
            SpeedEvent::Opening => self.rest = [true; 2],
            _ => {}
        }
        if !matches!(ev, SpeedEvent::Deal { .. }) {
            self.check(s);
        }
    }
}

#[test]
fn hand_memory_never_excludes_a_card_a_player_holds_when_both_draw_only_without_a_play() {
    let names = ["greedy", "smart", "search,rollouts=2,horizon=4"];
    let presets = ["novice", "casual", "skilled", "expert", "machine"];
    let mut rng = rng_from(4242);
    let (mut checked, mut excluded, mut truth_excluded) = (0, 0, 0);
    for i in 0..160u64 {
        let cfg = random_flags(&mut rng);
        let specs: Vec<String> = (0..2).map(|_| {
            let (name, preset) = (names[rng.random_range(0..3)], presets[rng.random_range(0..5)]);
            match name.split_once(',') {
                Some((n, params)) => format!("{n}@{preset},{params}"),
                None => format!("{name}@{preset}"),
            }
        }).collect();
        let bots = bots(&[specs[0].as_str(), specs[1].as_str()]);
        let mut truth = Truth::new(cfg, true);
        play_match(&SpeedRules::new(cfg), &Seated::new(&[&bots[0], &bots[1]]), &MatchSeeds::of_deal(i), &mut truth);
        checked += truth.checked;
        excluded += truth.excluded;
        truth_excluded += truth.truth_excluded;
    }
    // The memory loses only what its removal rule gives up (it cannot tell which of the
    // slots that may hold a played card held it) and what the tracker learns at a stall
    // that ends the deal: it keeps nearly everything.
    assert!(excluded * 100 >= truth_excluded * 90, "the memory keeps {excluded} of {truth_excluded} excluded ranks");
    assert!(checked > 160 * 40, "{checked} states checked");
    assert!(excluded > checked, "not vacuous: {excluded} excluded ranks over {checked} states");
}

#[test]
fn hand_memory_stays_within_the_hand_against_a_random_player() {
    let mut rng = rng_from(99);
    let mut checked = 0;
    for i in 0..60u64 {
        let cfg = random_flags(&mut rng);
        let bots = bots(&["random@expert", "smart@expert"]);
        let mut truth = Truth::new(cfg, false);
        play_match(&SpeedRules::new(cfg), &Seated::new(&[&bots[0], &bots[1]]), &MatchSeeds::of_deal(i), &mut truth);
        checked += truth.checked;
    }
    assert!(checked > 60 * 40, "{checked} states checked");
}

#[test]
fn a_table_keeps_the_memory_only_when_a_player_reads_it_and_plays_the_same_either_way() {
    let cfg = SpeedConfig::default();
    let seated = |names: [&str; 2]| {
        let bots = bots(&names);
        let kept = SpeedRules::for_seats(cfg, &Seated::new(&[&bots[0], &bots[1]])).hand_memory;
        kept
    };
    assert!(!seated(["greedy@expert", "smart@expert"]));
    assert!(!seated(["random@expert", "search@expert,memory=0"]));
    assert!(seated(["greedy@expert", "search@expert"]));
    assert!(SpeedRules::new(cfg).hand_memory);
    // Without the memory, the same matches: it changes no move of a bot that does not
    // read it, and the state without it stays empty.
    let mut rng = rng_from(31);
    let names = ["random", "greedy", "smart"];
    for i in 0..120u64 {
        let cfg = random_flags(&mut rng);
        let specs = [0, 1].map(|_| format!("{}@expert", names[rng.random_range(0..3)]));
        let bots = bots(&[specs[0].as_str(), specs[1].as_str()]);
        let seats = Seated::new(&[&bots[0], &bots[1]]);
        let without = SpeedRules::for_seats(cfg, &seats);
        assert!(!without.hand_memory, "{specs:?}");
        let mut empty = EmptyMemory(0);
        let a = play_match(&without, &seats, &MatchSeeds::of_deal(i), &mut empty);
        let b = play_match(&SpeedRules::new(cfg), &seats, &MatchSeeds::of_deal(i), &mut ());
        assert_eq!(a, b, "match {i}, {specs:?}");
        assert!(empty.0 > 20, "match {i}: {} states checked", empty.0);
    }
}

/// Checks after every event that no depth of the hand memory is set (the memory is not
/// kept) and counts the states checked.
struct EmptyMemory(u32);

impl EngineObserver<SpeedState, SpeedAction> for EmptyMemory {
    fn on_event(&mut self, _: Micros, _: EngineEvent<SpeedAction>, s: &SpeedState) {
        for p in 0..2 {
            assert_eq!(s.players[p].memory.slots(), [0; HAND_LIMIT as usize], "seat {p}");
        }
        self.0 += 1;
    }
}

impl MatchObserver<SpeedState, SpeedAction, SpeedEvent> for EmptyMemory {
    fn on_match_event(&mut self, _: Micros, _: SpeedEvent, _: &SpeedState) {}
}
