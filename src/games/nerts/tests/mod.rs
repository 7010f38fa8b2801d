//! Nerts rule tests: one test (or more) per rule ID of nerts.md sections 1-13, the
//! worked examples of section 14, the invariants of section 15, and thousands of random
//! deals with random flags played on a small event loop that mimics the real-time
//! engine (lift, land at a time, reject and return, stalls, resets).

mod examples;
mod foundations;
mod invariants;
mod layout;
mod random_play;
mod realtime;
mod scoring;
mod search;
mod stock;

use super::config::NertsConfig;
use super::invariants::{InvariantChecker, Step};
use super::rules::{shows_not_stuck, NertsAction, NertsActions, NertsRules, Source};
use super::state::{is_joker, Foundations, NertsState, NONE};
use super::view::NertsView;
use crate::cards::{Card, RANK_NAMES, SUIT_NAMES};
use crate::realtime::{Landing, Micros, Stall};
use crate::rng::SimRng;
use rand::RngExt;

/// Seat `p` plays up to `n` of its legal actions on `s`, each drawn at random from `rng`
/// and landed at once (put back when rejected); it stops before the call or with nothing
/// left to play.
pub(super) fn random_moves(rules: &NertsRules, s: &mut NertsState, p: usize, n: usize, rng: &mut SimRng) {
    for _ in 0..n {
        let all = rules.legal_list(s, p);
        let Some(&a) = all.get(rng.random_range(0..all.len().max(1))) else { break };
        if a == NertsAction::CallNerts {
            break;
        }
        rules.lift(s, p, a);
        if rules.land(s, p, a, 0) == Landing::Rejected {
            rules.put_back(s, p, a);
        }
    }
}

/// Parses a card value: `7h`, `10s`, `As`, `Jk0`, `Jk1`.
pub(super) fn v(text: &str) -> u8 {
    if let Some(j) = text.strip_prefix("Jk") {
        return 52 + j.parse::<u8>().unwrap_or(0);
    }
    card(text).0
}

/// Parses a standard card: `7h`, `10s`, `As`.
pub(super) fn card(text: &str) -> Card {
    let (rank, suit) = text.split_at(text.len() - 1);
    let r = RANK_NAMES.iter().position(|&n| n == rank).unwrap_or_else(|| panic!("bad rank in {text}")) as u8 + 1;
    let s = SUIT_NAMES.iter().position(|&n| n.to_string() == suit).unwrap_or_else(|| panic!("bad suit in {text}")) as u8;
    Card::new(r, s)
}

/// Card values of a space-separated list.
pub(super) fn vs(text: &str) -> Vec<u8> {
    text.split_whitespace().map(v).collect()
}

/// Builds a position by hand. Cards of a deck not placed anywhere are set aside as one
/// completed foundation of that deck (they count +1 each for it), or go to the bottom of
/// its stock with [`Build::rest_to_stock`], so every card is somewhere (NERTS-INV-1).
pub(super) struct Build {
    s: NertsState,
    waste: [Vec<u8>; 8],
    stock: [Vec<u8>; 8],
    rest_to_stock: [bool; 8],
}

impl Build {
    /// An empty table of `players` seats under `cfg`.
    pub fn new(cfg: &NertsConfig, players: usize) -> Build {
        Build { s: NertsState::table(cfg, players), waste: Default::default(), stock: Default::default(), rest_to_stock: [false; 8] }
    }
    /// Nerts pile of layout `d`, bottom first; `up`: its top is face-up.
    pub fn nerts(mut self, d: usize, spec: &str, up: bool) -> Self {
        let cards = vs(spec);
        let l = &mut self.s.layouts[d];
        l.nerts[..cards.len()].copy_from_slice(&cards);
        l.nerts_len = cards.len() as u8;
        l.nerts_up = up && !cards.is_empty();
        self
    }
    /// Work pile `pile` of layout `d`, base first (replacing what was there).
    pub fn work(mut self, d: usize, pile: usize, spec: &str) -> Self {
        self.s.layouts[d].work[pile] = super::state::WorkPile::EMPTY;
        self.s.layouts[d].work[pile].push_all(&vs(spec));
        self.s.layouts[d].refresh_work();
        self
    }
    /// Waste of layout `d`, bottom first (the last card is the waste top).
    pub fn waste(mut self, d: usize, spec: &str) -> Self {
        self.waste[d] = vs(spec);
        self
    }
    /// Stock of layout `d`, top first.
    pub fn stock(mut self, d: usize, spec: &str) -> Self {
        self.stock[d] = vs(spec);
        self
    }
    /// A foundation of `suit` from its Ace to `rank`, all of deck `deck`.
    pub fn found(mut self, deck: usize, suit: char, rank: u8) -> Self {
        let su = SUIT_NAMES.iter().position(|&c| c == suit).unwrap() as u8;
        for r in 1..=rank {
            let c = Card::new(r, su);
            let spot = self.s.found.spot(c, deck as u8, 0, None).unwrap();
            self.s.found.place(spot, c, deck as u8, 0);
            self.s.on_found[deck] |= 1 << c.0;
        }
        self
    }
    /// Fixes Joker `j` of layout `d` as `card` (NERTS-JOKER-4).
    pub fn fix(mut self, d: usize, j: usize, card_name: &str) -> Self {
        self.s.layouts[d].joker_fixed[j] = card(card_name).0;
        self
    }
    /// Puts the cards of deck `d` not placed at the bottom of its stock.
    pub fn rest_to_stock(mut self, d: usize) -> Self {
        self.rest_to_stock[d] = true;
        self
    }
    /// The position.
    pub fn done(mut self) -> NertsState {
        let s = &mut self.s;
        for d in 0..s.n_layouts as usize {
            let l = &mut s.layouts[d];
            let mut sw = self.waste[d].clone();
            sw.extend(&self.stock[d]);
            l.waste_len = self.waste[d].len() as u8;
            let (placed, _) = {
                l.sw[..sw.len()].copy_from_slice(&sw);
                l.sw_len = sw.len() as u8;
                l.census()
            };
            let rest: Vec<u8> = (0..52 + s.jokers).filter(|&x| (placed | s.on_found[d]) >> x & 1 == 0).collect();
            if rest.is_empty() {
                continue;
            }
            if self.rest_to_stock[d] {
                let n = l.sw_len as usize;
                l.sw[n..n + rest.len()].copy_from_slice(&rest);
                l.sw_len += rest.len() as u8;
            } else {
                let i = s.found.len as usize;
                s.found.len += 1;
                s.found.top[i] = 13; // clubs, completed
                s.found.count[i] = rest.len() as u8;
                s.found.top_decks[i] = 0xFF; // no tie on cards set aside by the test
                for &x in &rest {
                    s.on_found[d] |= 1u64 << x;
                }
            }
        }
        super::invariants::check_state(s).unwrap_or_else(|e| panic!("built position breaks an invariant: {e}"));
        self.s
    }
}

/// The rules with default flags but `f` applied.
pub(super) fn rules_with(f: impl FnOnce(&mut NertsConfig)) -> NertsRules {
    let mut cfg = NertsConfig::default();
    f(&mut cfg);
    NertsRules::new(cfg)
}

/// Seat `p`'s legal actions.
pub(super) fn legal(r: &NertsRules, s: &NertsState, p: usize) -> Vec<NertsAction> {
    let mut out = NertsActions::new();
    r.legal(s, p, &mut out);
    out.to_vec()
}

/// Lifts and lands an action at once, checking the invariants; returns the landing.
pub(super) fn play(r: &NertsRules, s: &mut NertsState, p: usize, a: NertsAction, now: Micros) -> Landing {
    assert!(legal(r, s, p).contains(&a), "{a:?} is not legal for seat {p}: {:?}", legal(r, s, p));
    let mut chk = InvariantChecker::starting_from(s);
    r.lift(s, p, a);
    chk.step(s, Step::Lift { seat: p, action: a }).unwrap();
    let landing = r.land(s, p, a, now);
    chk.step(s, Step::Land { seat: p, action: a, landing }).unwrap();
    if landing == Landing::Rejected {
        r.put_back(s, p, a);
        chk.step(s, Step::PutBack { seat: p, action: a }).unwrap();
    }
    landing
}

/// A foundation play of a card (its own identity).
pub(super) fn to_found(from: Source, c: &str) -> NertsAction {
    NertsAction::ToFoundation { from, card: card(c) }
}

/// A work pile's top, as a source.
pub(super) fn top(s: &NertsState, p: usize, pile: u8) -> Source {
    Source::Work { pile, depth: s.layout(p).work[pile as usize].len - 1 }
}

/// The cards of work pile `pile` of seat `p`'s layout.
pub(super) fn pile(s: &NertsState, p: usize, pile: usize) -> Vec<u8> {
    s.layout(p).work[pile].iter().collect()
}

/// One second in microseconds.
pub(super) const SEC: Micros = 1_000_000;

/// A seat's hand in the [`Sim`] (as the engine's `Hand`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hand {
    Idle,
    Acting { at: Micros, a: NertsAction },
    Returning { at: Micros, a: NertsAction },
}

/// What ended a [`Sim`] run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// The deal ended at a stall.
    Deal,
    /// The action cap.
    Capped,
}

/// A small event loop with the engine's semantics: players start actions that land at
/// a time, landings are re-checked (first touch wins), rejected cards return after a
/// delay, stalls call off aimless actions in flight and resolve by a reset or the end.
/// Every event goes through the invariant checker.
pub(super) struct Sim {
    pub r: NertsRules,
    pub s: NertsState,
    pub hands: [Hand; 8],
    pub now: Micros,
    pub chk: InvariantChecker,
    pub landed: u64,
    pub rejected: u64,
    pub resets: u32,
    pub ties: u64,
    pub max_legal: usize,
    /// Decisions whose legal list proved the layout not stuck (checked against the
    /// full NERTS-STUCK-1 test).
    pub not_stuck_proofs: u64,
    /// Decisions on a table without Jokers whose legal list was compared with the
    /// general matching ([`NertsRules::legal_general`]).
    pub standard_checks: u64,
}

impl Sim {
    pub fn new(r: NertsRules, s: NertsState) -> Sim {
        Sim { r, chk: InvariantChecker::starting_from(&s), s, hands: [Hand::Idle; 8], now: 0, landed: 0, rejected: 0, resets: 0, ties: 0, max_legal: 0, not_stuck_proofs: 0, standard_checks: 0 }
    }
    fn n(&self) -> usize {
        self.s.players as usize
    }
    fn check(&mut self, step: Step) {
        if let Err(e) = self.chk.step(&self.s, step) {
            panic!("{e}\nafter {step:?} at {} µs\n{:?}", self.now, self.s);
        }
    }
    /// Seat `p` starts `a`, landing at `at`.
    pub fn start(&mut self, p: usize, a: NertsAction, at: Micros) {
        assert_eq!(self.hands[p], Hand::Idle, "NERTS-RT-2: seat {p} already has an action in hand");
        self.r.lift(&mut self.s, p, a);
        self.hands[p] = Hand::Acting { at, a };
        self.check(Step::Lift { seat: p, action: a });
    }
    /// Processes the earliest hand event (exact ties: lowest seat, or `rng`); returns
    /// the seat and what happened (`None` for a card back in place).
    pub fn next(&mut self, rng: Option<&mut SimRng>) -> Option<(usize, Option<Landing>)> {
        let time = |h: &Hand| match *h {
            Hand::Acting { at, .. } | Hand::Returning { at, .. } => Some(at),
            Hand::Idle => None,
        };
        let t = self.hands[..self.n()].iter().filter_map(time).min()?;
        let tied: Vec<usize> = (0..self.n()).filter(|&p| time(&self.hands[p]) == Some(t)).collect();
        let p = match rng {
            Some(rng) => tied[rng.random_range(0..tied.len())],
            None => tied[0],
        };
        self.now = t;
        match self.hands[p] {
            Hand::Acting { a, .. } => {
                let before = self.s.found;
                let landing = self.r.land(&mut self.s, p, a, t);
                self.check(Step::Land { seat: p, action: a, landing });
                if landing == Landing::Rejected {
                    self.rejected += 1;
                    self.hands[p] = Hand::Returning { at: t + 100_000, a };
                } else {
                    self.landed += 1;
                    self.hands[p] = Hand::Idle;
                    if (0..before.len as usize).any(|i| self.s.found.count[i] > before.count[i] && self.s.found.rank(i) == before.rank(i)) {
                        self.ties += 1;
                    }
                }
                Some((p, Some(landing)))
            }
            Hand::Returning { a, .. } => {
                self.r.put_back(&mut self.s, p, a);
                self.hands[p] = Hand::Idle;
                self.check(Step::PutBack { seat: p, action: a });
                Some((p, None))
            }
            Hand::Idle => unreachable!(),
        }
    }
    /// Runs every event until all hands are idle.
    pub fn settle(&mut self) {
        while self.next(None).is_some() {}
    }
    /// The engine's stall test: no progress action in flight, no card returning, and
    /// nobody with progress once the aimless actions in flight are imagined undone.
    fn stall_possible(&self) -> bool {
        let mut undone = self.s;
        for p in 0..self.n() {
            match self.hands[p] {
                Hand::Idle => {}
                Hand::Acting { a, .. } if !self.r.is_progress(a) => self.r.put_back(&mut undone, p, a),
                _ => return false,
            }
        }
        self.hands.iter().any(|h| *h != Hand::Idle) && (0..self.n()).all(|p| !self.r.has_progress(&undone, p))
    }
    /// Idle seats choose uniformly among their legal actions on the same state; the
    /// actions are lifted in random order, a partner's conflicting choice dropped
    /// (NERTS-PART-3). Actions land after 10-400 ms on a 10 ms grid (exact ties happen).
    fn decide(&mut self, rng: &mut SimRng) {
        let mut chosen = [None; 8];
        for (p, choice) in chosen.iter_mut().enumerate().take(self.n()) {
            if self.hands[p] == Hand::Idle {
                let l = legal(&self.r, &self.s, p);
                self.max_legal = self.max_legal.max(l.len());
                if self.s.jokers == 0 {
                    let mut general = NertsActions::new();
                    self.r.legal_general(&self.s, p, &mut general);
                    assert_eq!(l, general.as_slice(), "the standard-card list differs from the general one for seat {p}");
                    let d = self.s.layout_of[p] as usize;
                    assert_eq!(self.r.layout_stuck(&self.s, d), self.r.layout_stuck_general(&self.s, d), "stuck detection without Jokers differs from the general one for layout {d}");
                    self.standard_checks += 1;
                    let view = NertsView::new(&self.s, p, &self.r.cfg);
                    assert_eq!(view.open_after(None), view.open_after_general(None), "what seat {p}'s layout opens, without Jokers");
                    for &a in l.iter().filter(|a| matches!(a, NertsAction::Build { from: Source::Work { .. }, .. } | NertsAction::Fill { from: Source::Work { .. }, .. })) {
                        assert_eq!(view.open_after(Some(a)), view.open_after_general(Some(a)), "what {a:?} opens for seat {p}, without Jokers");
                    }
                }
                if l.iter().any(|&a| shows_not_stuck(a)) {
                    assert!(!self.r.stuck(&self.s, p), "NERTS-STUCK-1: seat {p} has {l:?} yet is stuck");
                    self.not_stuck_proofs += 1;
                }
                if !l.is_empty() {
                    *choice = Some(l[rng.random_range(0..l.len())]);
                }
            }
        }
        let mut order: Vec<usize> = (0..self.n()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for p in order {
            if let Some(a) = chosen[p] {
                if !self.r.conflicts(&self.s, p, a) {
                    let at = self.now + rng.random_range(1..=40u64) * 10_000;
                    self.start(p, a, at);
                }
            }
        }
    }
    /// Plays random actions until the deal ends or `cap` actions landed.
    pub fn run_random(&mut self, rng: &mut SimRng, cap: u64) -> Ended {
        self.decide(rng);
        loop {
            if self.landed >= cap {
                return Ended::Capped;
            }
            if self.hands[..self.n()].iter().all(|h| *h == Hand::Idle) {
                if let Some(p) = (0..self.n()).find(|&p| self.r.has_progress(&self.s, p)) {
                    panic!("NERTS-RT-9: every hand idle while seat {p} is not stuck");
                }
                match self.r.stall(&self.s) {
                    Stall::RoundOver => return Ended::Deal,
                    Stall::Synchronised => {
                        self.r.synchronise(&mut self.s);
                        self.resets += 1;
                        self.check(Step::Reset);
                        self.now += 500_000;
                        self.decide(rng);
                        continue;
                    }
                }
            }
            self.next(Some(rng));
            self.decide(rng);
            if self.stall_possible() {
                for p in 0..self.n() {
                    if let Hand::Acting { a, .. } | Hand::Returning { a, .. } = self.hands[p] {
                        self.r.put_back(&mut self.s, p, a);
                        self.hands[p] = Hand::Idle;
                        self.check(Step::PutBack { seat: p, action: a });
                    }
                }
            }
        }
    }
}

/// A check that `s` holds only its own deck's Jokers where expected.
pub(super) fn jokers_in(s: &NertsState, d: usize) -> usize {
    let (mask, _) = s.layouts[d].census();
    (52..54).filter(|&j| mask >> j & 1 == 1 && is_joker(j)).count()
}

/// Foundations with the given top (`suit << 4 | rank`).
pub(super) fn count_tops(f: &Foundations, c: Card) -> usize {
    (0..f.len as usize).filter(|&i| f.suit(i) == c.suit() && f.rank(i) == c.rank()).count()
}
