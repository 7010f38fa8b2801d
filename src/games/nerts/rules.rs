//! Nerts' actions and their legality (NERTS-WORK-*, NERTS-NPILE-*, NERTS-FOUND-*,
//! NERTS-STOCK-*, NERTS-JOKER-*), the real-time side the engine needs (lift, land with
//! the first-touch re-check and the tie window, put back, locks: NERTS-RT-*,
//! NERTS-PART-3), stuck detection and global resets (NERTS-STUCK-*), the end of a deal
//! (NERTS-END-*), scoring (NERTS-SCORE-*) and the match (NERTS-MATCH-*).
//!
//! [`NertsRules`] has one method per method of `crate::realtime::RealtimeRules`
//! (`legal`, `is_progress`, `has_progress`, `candidates`, `lift`, `land`, `put_back`,
//! `still_legal`, `stall`, `synchronise`), plus what the engine does not ask yet:
//! `land` and `still_legal` take the landing time (the tie window of NERTS-RT-6), and
//! `conflicts` says when two partners chose actions on the same pile at one instant.
//!
//! Decisions the rules leave open, taken here:
//! - A card sent to a foundation aims at "a foundation that takes it": the action names
//!   the card (a Joker's declared card), and it lands on the first foundation of its suit
//!   one rank below, whichever that is when it lands. Foundations with the same top are
//!   interchangeable, and a player whose pile was just taken moves on to its twin.
//! - Only the first free empty slot is offered as a target (the slots are
//!   interchangeable), and moving a whole work pile into an empty slot, which changes
//!   nothing, is not offered.
//! - A Joker with no rank to give (open and loose, or alone in its slot) may not be
//!   placed on another open, unconstrained Joker (a lone Joker in a slot): neither
//!   position gives a rank, so the pair would need two free declarations for nothing.
//!   A Joker whose position implies a rank (it lies on a card) may, declaring that rank,
//!   a suit of its colour and the suit of the Joker it covers; so may an open Joker onto
//!   any other open Joker (NERTS-JOKER-3). A Joker may not
//!   be slipped under a lone unconstrained Joker either. A standard card slipped under a
//!   lone unconstrained Joker makes it stand one rank lower (it is "placed on" that card).
//! - An unfixed Joker moved between work piles keeps the rank and colour its position
//!   implies (the implied identity "binds its moves within the work piles"); it is free
//!   again alone in an empty slot, and at a foundation it may declare any legal card.
//! - Under `nerts.joker_identity=until_uncovered`, a Joker's identity is freed when the
//!   cards on it are taken off; a Joker declared while nothing lies on it (covering
//!   another Joker) keeps its declaration until that happens.
//! - The Nerts call counts as progress for the engine (an action in flight that must not
//!   be called off by a stall), though it is not a progress move of NERTS-STUCK-2.

use super::config::{NertsConfig, RotateWhen, SlipSources};
use super::state::*;
use crate::cards::Card;
use crate::realtime::{Landing, Micros, Stall};
use arrayvec::ArrayVec;

/// Most legal actions one seat can have at once. A loose bound: foundation plays from
/// six sources, two of them Jokers declaring any of 52 cards (108); Nerts or waste top
/// onto four piles with declarations (32); stack moves onto piles with a single fitting
/// depth (48), onto two lone Jokers from any depth with a declared suit (104), into an
/// empty slot from any depth (39); slip-unders (12); flips, rotate, call (4).
pub const NERTS_MAX_ACTIONS: usize = 384;

/// A seat's legal actions, on the stack.
pub type NertsActions = ArrayVec<NertsAction, NERTS_MAX_ACTIONS>;

/// Where the card(s) of an action come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The top Nerts card.
    Nerts,
    /// The waste top.
    Waste,
    /// Work pile `pile` from card `depth` (0 = base) to its top.
    Work {
        /// The work pile.
        pile: u8,
        /// Index of the lowest card taken.
        depth: u8,
    },
}

/// Declarations a Joker needs (NERTS-JOKER-3..5): [`NONE`] where none is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decl {
    /// The card (value) the moving Joker is declared to be: when it covers an open Joker
    /// or is slipped under a pile.
    pub joker: u8,
    /// The suit declared for the open Joker being covered, which fixes it.
    pub cover: u8,
}

impl Decl {
    /// No declaration.
    pub const NONE: Decl = Decl { joker: NONE, cover: NONE };
}

/// One action of one seat (NERTS-RT-3 lists their types, see [`ActionKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NertsAction {
    /// A card to the foundations (NERTS-FOUND-3, NERTS-FOUND-4): the Nerts top, the
    /// waste top or a work-pile top (`depth` = its top). `card` is the card played, a
    /// Joker's declared card (NERTS-JOKER-5); an Ace starts a new foundation.
    ToFoundation {
        /// Where the card comes from.
        from: Source,
        /// The card it is (declared for a Joker).
        card: Card,
    },
    /// The Nerts or waste top, or a work-pile stack, onto the top of work pile `to`
    /// (NERTS-WORK-2, NERTS-WORK-3).
    Build {
        /// Where the card(s) come from.
        from: Source,
        /// The target work pile (not empty).
        to: u8,
        /// Joker declarations.
        decl: Decl,
    },
    /// The Nerts or waste top, or a work-pile stack not taken from its base, into the
    /// empty slot `to` (NERTS-WORK-4).
    Fill {
        /// Where the card(s) come from.
        from: Source,
        /// The empty slot.
        to: u8,
    },
    /// The Nerts or waste top slid under work pile `pile` while a slot is empty
    /// (NERTS-WORK-6).
    SlipUnder {
        /// The card's source.
        from: Source,
        /// The pile it goes under.
        pile: u8,
        /// Joker declaration of the slipped card.
        decl: Decl,
    },
    /// FLIP_N: turn the next Nerts card face-up (NERTS-NPILE-2).
    FlipNerts,
    /// FLIP3: turn the next packet of the stock onto the waste (NERTS-STOCK-1).
    FlipStock,
    /// RECYCLE: turn the waste over into a new stock (NERTS-STOCK-3).
    Recycle,
    /// ROTATE: the stock's top card to its bottom (NERTS-STUCK-3).
    Rotate,
    /// CALL: "Nerts!" with an empty Nerts pile (NERTS-END-1, NERTS-RT-8).
    CallNerts,
}

/// The action types of NERTS-RT-3 (RETURN is the movement of a rejected card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// A card to a foundation.
    ToFoundation,
    /// The Nerts or waste top onto a work pile.
    ToWork,
    /// A stack between work piles.
    StackMove,
    /// Anything into an empty slot.
    FillEmpty,
    /// A card under a work pile.
    SlipUnder,
    /// A stock packet onto the waste.
    Flip3,
    /// The waste back into the stock.
    Recycle,
    /// The next Nerts card face-up.
    FlipN,
    /// Stock top to bottom.
    Rotate,
    /// The Nerts call.
    Call,
}

impl NertsAction {
    /// Where the action's card(s) come from, if it moves any out of a pile.
    pub fn source(self) -> Option<Source> {
        match self {
            NertsAction::ToFoundation { from, .. } | NertsAction::Build { from, .. } | NertsAction::Fill { from, .. } | NertsAction::SlipUnder { from, .. } => Some(from),
            _ => None,
        }
    }
    /// The action's type (NERTS-RT-3).
    pub fn kind(self) -> ActionKind {
        match self {
            NertsAction::ToFoundation { .. } => ActionKind::ToFoundation,
            NertsAction::Build { from: Source::Work { .. }, .. } => ActionKind::StackMove,
            NertsAction::Build { .. } => ActionKind::ToWork,
            NertsAction::Fill { .. } => ActionKind::FillEmpty,
            NertsAction::SlipUnder { .. } => ActionKind::SlipUnder,
            NertsAction::FlipNerts => ActionKind::FlipN,
            NertsAction::FlipStock => ActionKind::Flip3,
            NertsAction::Recycle => ActionKind::Recycle,
            NertsAction::Rotate => ActionKind::Rotate,
            NertsAction::CallNerts => ActionKind::Call,
        }
    }
    /// True if the action lands in the common area (it wakes every idle player,
    /// NERTS-RT-7, and may race, NERTS-RT-5).
    pub fn to_common_area(self) -> bool {
        matches!(self, NertsAction::ToFoundation { .. })
    }
    /// True for a progress move of NERTS-STUCK-2: a card leaving a Nerts pile or a
    /// waste, or reaching a foundation. Flips, recycles, rotations and moves between
    /// work piles are not.
    pub fn is_progress_move(self) -> bool {
        match self {
            NertsAction::ToFoundation { .. } => true,
            NertsAction::Build { from, .. } | NertsAction::Fill { from, .. } | NertsAction::SlipUnder { from, .. } => !matches!(from, Source::Work { .. }),
            _ => false,
        }
    }
    /// The piles the action takes from or places on, as lock bits (NERTS-PART-3).
    pub fn resources(self) -> u8 {
        let src = |from: Source| match from {
            Source::Nerts => LOCK_NERTS,
            Source::Waste => LOCK_STOCK,
            Source::Work { pile, .. } => 1 << pile,
        };
        match self {
            NertsAction::ToFoundation { from, .. } => src(from),
            NertsAction::Build { from, to, .. } | NertsAction::Fill { from, to } => src(from) | 1 << to,
            NertsAction::SlipUnder { from, pile, .. } => src(from) | 1 << pile,
            NertsAction::FlipNerts => LOCK_NERTS,
            NertsAction::FlipStock | NertsAction::Recycle | NertsAction::Rotate => LOCK_STOCK,
            NertsAction::CallNerts => 0,
        }
    }
}

/// Calls `f` with each declaration under which a card standing for `m` (the lowest card
/// of what moves) may be placed on a work-pile top standing for `t` (NERTS-WORK-2: one
/// rank lower, other colour, nothing on an Ace; NERTS-JOKER-3/4 for Jokers).
pub fn place_options(m: Eff, t: Eff, mut f: impl FnMut(Decl)) {
    match t {
        Eff::Card(t) => {
            let fits = t.rank() >= 2
                && match m {
                    Eff::Card(b) => b.rank() + 1 == t.rank() && b.is_red() != t.is_red(),
                    Eff::Implied { rank, red } => rank + 1 == t.rank() && red != t.is_red(),
                    Eff::Wild => true,
                };
            if fits {
                f(Decl::NONE);
            }
        }
        Eff::Implied { rank: r, red } if r >= 2 => {
            for cover in suits_of(red) {
                match m {
                    Eff::Card(b) if b.rank() + 1 == r && b.is_red() != red => f(Decl { joker: NONE, cover }),
                    Eff::Implied { rank: rb, red: rr } if rb + 1 == r && rr != red => suits_of(rr).into_iter().for_each(|js| f(Decl { joker: Card::new(rb, js).0, cover })),
                    Eff::Wild => suits_of(!red).into_iter().for_each(|js| f(Decl { joker: Card::new(r - 1, js).0, cover })),
                    _ => {}
                }
            }
        }
        Eff::Implied { .. } => {}
        Eff::Wild => match m {
            Eff::Card(b) if b.rank() <= 12 => suits_of(!b.is_red()).into_iter().for_each(|cover| f(Decl { joker: NONE, cover })),
            Eff::Implied { rank: rb, red: rr } if rb <= 12 => {
                for js in suits_of(rr) {
                    suits_of(!rr).into_iter().for_each(|cover| f(Decl { joker: Card::new(rb, js).0, cover }));
                }
            }
            _ => {}
        },
    }
}

/// Calls `f` with each declaration under which a loose card standing for `x` may be
/// slipped under a pile whose base stands for `base` (NERTS-WORK-6: one rank higher,
/// other colour; a slipped Joker declares, NERTS-JOKER-3).
pub fn slip_options(x: Eff, base: Eff, mut f: impl FnMut(Decl)) {
    match (base, x) {
        (Eff::Card(b), Eff::Card(c)) if b.rank() < 13 && c.rank() == b.rank() + 1 && c.is_red() != b.is_red() => f(Decl::NONE),
        (Eff::Card(b), Eff::Wild) if b.rank() < 13 => suits_of(!b.is_red()).into_iter().for_each(|js| f(Decl { joker: Card::new(b.rank() + 1, js).0, cover: NONE })),
        (Eff::Wild, Eff::Card(c)) if c.rank() >= 2 => f(Decl::NONE),
        _ => {}
    }
}

/// Calls `f` with each card a card standing for `e` may go to the foundations as, given
/// the cards they take (`needs`, [`Foundations::needs`]): itself, or for an open Joker
/// any card they take (NERTS-JOKER-5).
pub fn foundation_options(e: Eff, needs: u64, mut f: impl FnMut(Card)) {
    match e {
        Eff::Card(c) => {
            if needs >> c.0 & 1 == 1 {
                f(c);
            }
        }
        _ => {
            let mut bits = needs;
            while bits != 0 {
                f(Card(bits.trailing_zeros() as u8));
                bits &= bits - 1;
            }
        }
    }
}

/// What a card standing for `e` would add to the foundations now: true if some
/// foundation (or a new one) takes it.
pub fn fits_foundation(e: Eff, needs: u64) -> bool {
    match e {
        Eff::Card(c) => needs >> c.0 & 1 == 1,
        _ => true, // an open Joker can always start a foundation as an Ace
    }
}

/// Why a deal ended (NERTS-END-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DealEnd {
    /// A seat called Nerts (NERTS-END-1).
    Called(usize),
    /// Everyone was stuck again after a global reset with no progress since
    /// (NERTS-STUCK-5, NERTS-END-2).
    StuckAfterReset,
    /// Everyone was stuck after the last global reset `nerts.max_global_resets` allows.
    ResetLimit,
}

/// The result of a match so far (NERTS-MATCH-1, NERTS-MATCH-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchStatus {
    /// Nobody reached the target, or the highest totals are equal: deal again.
    Continue,
    /// This team won.
    Won(usize),
}

/// The rules of a Nerts deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NertsRules {
    /// Rules in force.
    pub cfg: NertsConfig,
}

impl NertsRules {
    /// The rules under `cfg`.
    pub fn new(cfg: NertsConfig) -> Self {
        NertsRules { cfg }
    }

    /// Number of seats.
    pub fn players(&self, s: &NertsState) -> usize {
        s.players as usize
    }

    /// Tie window for [`Foundations::spot`], if ties are kept.
    fn ties(&self) -> Option<Micros> {
        self.cfg.ties_kept().then_some(self.cfg.tie_window)
    }

    /// The card an action's source offers and what it stands for.
    fn source_card(l: &Layout, from: Source) -> Option<(u8, Eff)> {
        match from {
            Source::Nerts => l.nerts_top().map(|v| (v, l.loose_eff(v))),
            Source::Waste => l.waste_top().map(|v| (v, l.loose_eff(v))),
            Source::Work { pile, depth } => {
                let w = &l.work[pile as usize];
                (depth < w.len).then(|| (w.card(depth as usize), l.eff(pile as usize, depth as usize)))
            }
        }
    }

    /// Writes the legal actions of seat `p` (whose hand is idle) into `out`: foundation
    /// plays, builds and fills from the Nerts and waste tops, stack moves, slip-unders,
    /// then flips, rotate and the call. Piles a partner's action in flight uses are out
    /// of reach (NERTS-PART-3); after a call nobody starts an action (NERTS-RT-8).
    /// Without Jokers the list comes from bit sets (`super::standard`); the general
    /// matching of card identities ([`NertsRules::legal_general`]) gives the same list.
    pub fn legal<const N: usize>(&self, s: &NertsState, p: usize, out: &mut ArrayVec<NertsAction, N>) {
        if s.jokers == 0 {
            super::standard::legal(self, s, p, out);
        } else {
            self.legal_general(s, p, out);
        }
    }

    /// [`NertsRules::legal`] by the general matching of what each card stands for
    /// ([`place_options`], [`slip_options`], [`foundation_options`]), Jokers included.
    pub fn legal_general<const N: usize>(&self, s: &NertsState, p: usize, out: &mut ArrayVec<NertsAction, N>) {
        if s.called != NONE {
            return;
        }
        let listed_before = out.len();
        let cfg = &self.cfg;
        let l = s.layout(p);
        let free = |bit: u8| l.locks & bit == 0;
        let needs = s.found.needs();
        let mut singles: ArrayVec<(Source, Eff), 2> = ArrayVec::new();
        if let Some(v) = l.nerts_top().filter(|_| free(LOCK_NERTS)) {
            singles.push((Source::Nerts, l.loose_eff(v)));
        }
        if let Some(v) = l.waste_top().filter(|_| free(LOCK_STOCK)) {
            singles.push((Source::Waste, l.loose_eff(v)));
        }
        for &(from, e) in &singles {
            foundation_options(e, needs, |card| out.push(NertsAction::ToFoundation { from, card }));
        }
        for i in 0..WORK_PILES {
            if let Some(e) = l.top_eff(i).filter(|_| free(1 << i)) {
                let from = Source::Work { pile: i as u8, depth: l.work[i].len - 1 };
                foundation_options(e, needs, |card| out.push(NertsAction::ToFoundation { from, card }));
            }
        }
        let empty = l.free_empty_slot();
        for &(from, e) in &singles {
            for t in 0..WORK_PILES {
                if let Some(te) = l.top_eff(t).filter(|_| free(1 << t)) {
                    place_options(e, te, |decl| out.push(NertsAction::Build { from, to: t as u8, decl }));
                }
            }
            if let Some(to) = empty {
                out.push(NertsAction::Fill { from, to });
            }
        }
        work_moves(cfg, l, l.locks, |a| out.push(a));
        if empty.is_some() {
            for &(from, e) in &singles {
                if from == Source::Nerts && cfg.slip_under_sources == SlipSources::WasteOnly {
                    continue;
                }
                for w in 0..WORK_PILES {
                    if !l.work[w].is_empty() && free(1 << w) {
                        slip_options(e, l.eff(w, 0), |decl| out.push(NertsAction::SlipUnder { from, pile: w as u8, decl }));
                    }
                }
            }
        }
        if free(LOCK_NERTS) && l.nerts_len > 0 && !l.nerts_up {
            out.push(NertsAction::FlipNerts);
        }
        if free(LOCK_STOCK) && l.sw_len > 0 {
            out.push(if l.flip_packet(cfg).is_some() { NertsAction::FlipStock } else { NertsAction::Recycle });
            let not_stuck = || out[listed_before..].iter().any(|&a| shows_not_stuck(a)) || !self.layout_stuck(s, s.layout_of[p] as usize);
            if l.stock_len() >= 2 && (cfg.rotate_when == RotateWhen::AnyTime || !not_stuck()) {
                out.push(NertsAction::Rotate);
            }
        }
        if l.nerts_len == 0 {
            out.push(NertsAction::CallNerts);
        }
    }

    /// The legal actions of seat `p` as a fresh list.
    pub fn legal_list(&self, s: &NertsState, p: usize) -> NertsActions {
        let mut out = NertsActions::new();
        self.legal(s, p, &mut out);
        out
    }

    /// True if the action counts as progress for stall detection: the progress moves of
    /// NERTS-STUCK-2, and the call (an in-flight call must not be called off).
    pub fn is_progress(&self, a: NertsAction) -> bool {
        a.is_progress_move() || matches!(a, NertsAction::CallNerts)
    }

    /// True if seat `p` is not stuck (NERTS-STUCK-1) and may still act (no call yet).
    pub fn has_progress(&self, s: &NertsState, p: usize) -> bool {
        s.called == NONE && !self.layout_stuck(s, s.layout_of[p] as usize)
    }

    /// Cards seat `p` scans for a move: the playable tops (Nerts, waste, work piles).
    pub fn candidates(&self, s: &NertsState, p: usize) -> u32 {
        let l = s.layout(p);
        let tops = l.has_nerts_top() as u32 + l.has_waste_top() as u32;
        (tops + l.work.iter().map(|w| (w.len > 0) as u32).sum::<u32>()).max(1)
    }

    /// Cards the action carries in the hand (NERTS-RT-2: one, except a stack move, a
    /// packet, a slip-under (the pile moves over the card), a recycle, a reset).
    pub fn cards_moved(&self, s: &NertsState, p: usize, a: NertsAction) -> u32 {
        let l = s.layout(p);
        match a {
            NertsAction::Build { from: Source::Work { pile, depth }, .. } | NertsAction::Fill { from: Source::Work { pile, depth }, .. } => {
                (l.work[pile as usize].len - depth) as u32
            }
            NertsAction::SlipUnder { pile, .. } => 1 + l.work[pile as usize].len as u32,
            NertsAction::FlipStock => l.flip_packet(&self.cfg).unwrap_or(0) as u32,
            NertsAction::Recycle => l.sw_len as u32,
            NertsAction::CallNerts => 0,
            _ => 1,
        }
    }

    /// True if the action needs a pile a partner's action in flight uses (NERTS-PART-3):
    /// of two partners choosing at one instant, the engine lets one proceed (by its
    /// generator) and the other decide again.
    pub fn conflicts(&self, s: &NertsState, p: usize, a: NertsAction) -> bool {
        s.layout(p).locks & a.resources() != 0
    }

    /// Takes the action's card(s) into the hand: they are in flight (held, their piles
    /// locked) until the action lands or they are put back.
    pub fn lift(&self, s: &mut NertsState, p: usize, a: NertsAction) {
        let l = &mut s.layouts[s.layout_of[p] as usize];
        debug_assert!(l.locks & a.resources() == 0, "NERTS-PART-3: {a:?} needs a locked pile");
        l.locks |= a.resources();
        match a.source() {
            Some(Source::Nerts) => l.nerts_held = true,
            Some(Source::Waste) => l.waste_held = true,
            Some(Source::Work { pile, depth }) => l.work[pile as usize].held = l.work[pile as usize].len - depth,
            None => {}
        }
    }

    /// Puts a rejected or cancelled action's card(s) back where they came from: nothing
    /// moved, so the piles are as before the play (NERTS-RT-5, NERTS-NPILE-3,
    /// NERTS-STOCK-4).
    pub fn put_back(&self, s: &mut NertsState, p: usize, a: NertsAction) {
        let l = &mut s.layouts[s.layout_of[p] as usize];
        l.locks &= !a.resources();
        match a.source() {
            Some(Source::Nerts) => l.nerts_held = false,
            Some(Source::Waste) => l.waste_held = false,
            Some(Source::Work { pile, .. }) => l.work[pile as usize].held = 0,
            None => {}
        }
    }

    /// True if the action would take effect if it landed at `now`: a foundation card
    /// needs a foundation that takes it (or a tie within the window, NERTS-RT-6); a
    /// slip-under needs its empty slot, which a partner may have filled. Other moves
    /// stay within the layout on locked piles and cannot conflict (NERTS-RT-4).
    #[inline]
    pub fn still_legal(&self, s: &NertsState, p: usize, a: NertsAction, now: Micros) -> bool {
        let d = s.layout_of[p];
        match a {
            NertsAction::ToFoundation { card, .. } => s.found.spot(card, d, now, self.ties()).is_some(),
            NertsAction::SlipUnder { pile, .. } => s.layouts[d as usize].work.iter().enumerate().any(|(i, w)| i != pile as usize && w.is_empty()),
            _ => true,
        }
    }

    /// Lands the action at `now`: re-checks it (first touch wins, NERTS-RT-5; a card
    /// that lost stays held until [`NertsRules::put_back`]) and applies it. The call
    /// does not end the round at once: nobody may start an action after it, the cards
    /// in mid-air land, and then [`NertsRules::stall`] ends the deal (NERTS-RT-8).
    pub fn land(&self, s: &mut NertsState, p: usize, a: NertsAction, now: Micros) -> Landing {
        let d = s.layout_of[p] as usize;
        // A foundation card's spot is found once: `still_legal` asks whether it has one.
        let spot = match a {
            NertsAction::ToFoundation { card, .. } => match s.found.spot(card, d as u8, now, self.ties()) {
                None => return Landing::Rejected,
                spot => spot,
            },
            _ if !self.still_legal(s, p, a, now) => return Landing::Rejected,
            _ => None,
        };
        // Its piles unlocked; what it holds is let go by the taking below ([`take`]),
        // so nothing else of [`NertsRules::put_back`] is needed.
        s.layouts[d].locks &= !a.resources();
        match a {
            NertsAction::ToFoundation { from, card } => {
                let spot = spot.expect("found above");
                let v = take(&self.cfg, &mut s.layouts[d], from).cards[0];
                if matches!(from, Source::Work { .. }) {
                    s.layouts[d].refresh_work();
                }
                s.found.place(spot, card, d as u8, now);
                s.on_found[d] |= 1u64 << v;
            }
            NertsAction::CallNerts => {
                if s.called == NONE {
                    s.called = p as u8;
                }
            }
            _ => apply_in_layout(&self.cfg, &mut s.layouts[d], a),
        }
        if a.is_progress_move() {
            s.progress_since_reset = true;
        }
        Landing::Placed
    }

    /// Player `p`'s layout (`d`) is stuck (NERTS-STUCK-1): none of the useful moves is
    /// open, even after one move between work piles. The foundations are taken as they
    /// stand; held cards count as back in place.
    pub fn layout_stuck(&self, s: &NertsState, d: usize) -> bool {
        if s.jokers == 0 {
            super::standard::layout_stuck(&self.cfg, &s.layouts[d], s.found.needs())
        } else {
            self.layout_stuck_general(s, d)
        }
    }

    /// [`NertsRules::layout_stuck`] by trying each move between work piles on a copy of
    /// the layout, Jokers included.
    pub fn layout_stuck_general(&self, s: &NertsState, d: usize) -> bool {
        let l = &s.layouts[d];
        let needs = s.found.needs();
        if useful_now(&self.cfg, l, needs) {
            return false;
        }
        let mut unstuck = false;
        work_moves(&self.cfg, l, 0, |a| {
            if !unstuck {
                let mut after = *l;
                apply_in_layout(&self.cfg, &mut after, a);
                unstuck = useful_now(&self.cfg, &after, needs);
            }
        });
        !unstuck
    }

    /// True if seat `p` is stuck.
    pub fn stuck(&self, s: &NertsState, p: usize) -> bool {
        self.layout_stuck(s, s.layout_of[p] as usize)
    }

    /// How a stall resolves (every hand idle, nobody has progress): the deal ends after
    /// a call (NERTS-RT-8), when everyone is stuck again after a reset with no progress
    /// since (NERTS-STUCK-5) or after the last reset allowed; otherwise a global reset
    /// (NERTS-STUCK-4).
    pub fn stall(&self, s: &NertsState) -> Stall {
        if self.deal_end(s).is_some() {
            Stall::RoundOver
        } else {
            Stall::Synchronised
        }
    }

    /// Why the deal ends if a stall happens now, or `None` for a global reset.
    pub fn deal_end(&self, s: &NertsState) -> Option<DealEnd> {
        if let Some(p) = s.caller() {
            return Some(DealEnd::Called(p));
        }
        if s.resets > 0 && !s.progress_since_reset {
            return Some(DealEnd::StuckAfterReset);
        }
        match self.cfg.max_global_resets {
            Some(m) if s.resets >= m => Some(DealEnd::ResetLimit),
            _ => None,
        }
    }

    /// The global reset (NERTS-STUCK-4): every stock is re-formed from its waste and
    /// remaining stock in cyclic order, then its top card goes to the bottom under
    /// `nerts.global_reset_rotate=1`. Every seat takes part.
    pub fn synchronise(&self, s: &mut NertsState) -> [bool; MAX_NERTS_PLAYERS] {
        debug_assert!(s.layouts().iter().all(|l| l.locks == 0), "NERTS-RT-9: a global reset with an action in flight");
        let n = s.n_layouts as usize;
        for l in &mut s.layouts[..n] {
            l.reset_stock(self.cfg.global_reset_rotate);
        }
        s.resets += 1;
        s.progress_since_reset = false;
        let mut took_part = [false; MAX_NERTS_PLAYERS];
        took_part[..s.players as usize].fill(true);
        took_part
    }
}

/// Removes the card(s) of `from` from layout `l` (nothing is checked).
#[inline]
fn take(cfg: &NertsConfig, l: &mut Layout, from: Source) -> Stack {
    match from {
        Source::Nerts => Stack::one(l.take_nerts()),
        Source::Waste => Stack::one(l.take_waste()),
        Source::Work { pile, depth } => l.take_work(cfg, pile as usize, depth as usize),
    }
}

/// Applies an action that stays within layout `l` (everything but foundation plays and
/// the call), with its Joker declarations. The flips, half of the actions landed, are a
/// line each and inlined where this is called; the moves of cards are
/// `move_in_layout`'s.
#[inline]
pub fn apply_in_layout(cfg: &NertsConfig, l: &mut Layout, a: NertsAction) {
    match a {
        NertsAction::FlipNerts => l.nerts_up = true,
        NertsAction::FlipStock => l.flip_stock(cfg),
        NertsAction::Recycle => l.recycle(),
        NertsAction::Rotate => l.rotate(),
        _ => move_in_layout(cfg, l, a),
    }
}

/// [`apply_in_layout`] for an action that moves cards within layout `l`: a build, a
/// fill, a slip-under. Not inlined: its register saves would weigh on every flip.
#[inline(never)]
fn move_in_layout(cfg: &NertsConfig, l: &mut Layout, a: NertsAction) {
    match a {
        NertsAction::Build { from, to, decl } => {
            let (v, e) = NertsRules::source_card(l, from).expect("the source has a card");
            let top = l.top_eff(to as usize).expect("Build onto a non-empty pile");
            if decl.joker != NONE {
                l.joker_fixed[(v - 52) as usize] = decl.joker;
            }
            if decl.cover != NONE {
                let covered = l.work[to as usize].top().expect("a covered Joker");
                let rank = match top {
                    Eff::Implied { rank, .. } => rank,
                    _ => {
                        1 + match e {
                            Eff::Card(b) => b.rank(),
                            Eff::Implied { rank, .. } => rank,
                            Eff::Wild => Card(decl.joker).rank(),
                        }
                    }
                };
                l.joker_fixed[(covered - 52) as usize] = Card::new(rank, decl.cover).0;
            }
            let stack = take(cfg, l, from);
            l.work[to as usize].push_all(stack.cards());
            l.refresh_work();
        }
        NertsAction::Fill { from, to } => {
            let stack = take(cfg, l, from);
            l.work[to as usize].push_all(stack.cards());
            l.refresh_work();
        }
        NertsAction::SlipUnder { from, pile, decl } => {
            let v = take(cfg, l, from).cards[0];
            if decl.joker != NONE {
                l.joker_fixed[(v - 52) as usize] = decl.joker;
            }
            l.slip_under(pile as usize, v);
            l.refresh_work();
        }
        _ => unreachable!("not a move of cards within a layout: {a:?}"),
    }
}

/// Calls `f` with every move between work piles of layout `l` whose piles are not in
/// `locks` (NERTS-WORK-3): a stack from any depth (the base only without
/// `nerts.partial_stack_moves`) onto a pile it fits, or into the first free empty slot
/// when it is not the whole pile.
pub fn work_moves(cfg: &NertsConfig, l: &Layout, locks: u8, mut f: impl FnMut(NertsAction)) {
    let empty = (0..WORK_PILES as u8).find(|&i| l.work[i as usize].is_empty() && locks & (1 << i) == 0);
    let tops: [Option<Eff>; WORK_PILES] = std::array::from_fn(|t| l.top_eff(t));
    let wants: [u64; WORK_PILES] = std::array::from_fn(|t| if let Some(Eff::Card(c)) = tops[t] { builds_on(c) } else { 0 });
    for from in 0..WORK_PILES {
        let len = l.work[from].len as usize;
        if len == 0 || locks & (1 << from) != 0 {
            continue;
        }
        let depths = if cfg.partial_stack_moves { len } else { 1 };
        for depth in 0..depths {
            let e = l.eff(from, depth);
            let src = Source::Work { pile: from as u8, depth: depth as u8 };
            for to in 0..WORK_PILES {
                if to == from || locks & (1 << to) != 0 {
                    continue;
                }
                match (e, tops[to]) {
                    (_, None) => {}
                    (Eff::Card(b), Some(Eff::Card(_))) => {
                        if wants[to] >> b.0 & 1 == 1 {
                            f(NertsAction::Build { from: src, to: to as u8, decl: Decl::NONE });
                        }
                    }
                    (_, Some(te)) => place_options(e, te, |decl| f(NertsAction::Build { from: src, to: to as u8, decl })),
                }
            }
            if depth > 0 {
                if let Some(to) = empty {
                    f(NertsAction::Fill { from: src, to });
                }
            }
        }
    }
}

/// True if card `e` has a place from layout `l`: a foundation taking `needs`, an empty
/// work slot (`empty`), or a work pile it builds on.
pub fn has_place(l: &Layout, e: Eff, needs: u64, empty: bool) -> bool {
    fits_foundation(e, needs)
        || empty
        || (0..WORK_PILES).any(|t| {
            l.top_eff(t).is_some_and(|te| {
                let mut any = false;
                place_options(e, te, |_| any = true);
                any
            })
        })
}

/// True if a legal action `a` proves its layout not stuck (NERTS-STUCK-1 items 1-3): a
/// card to a foundation, a Nerts flip, or the Nerts or waste top built on a work pile or
/// moved into an empty slot. (A slip-under or a move between work piles proves nothing.)
pub(super) fn shows_not_stuck(a: NertsAction) -> bool {
    match a {
        NertsAction::ToFoundation { .. } | NertsAction::FlipNerts => true,
        NertsAction::Build { from, .. } | NertsAction::Fill { from, .. } => matches!(from, Source::Nerts | Source::Waste),
        _ => false,
    }
}

/// The standard cards that build on some work top of `l` (one rank lower, the other
/// colour), as a bit set over card values; `None` when a top is an open Joker (then
/// [`has_place`] decides card by card).
pub(super) fn builds_on_tops(l: &Layout) -> Option<u64> {
    let mut builds = 0u64;
    for t in 0..WORK_PILES {
        match l.top_eff(t) {
            None => {}
            Some(Eff::Card(t)) => builds |= builds_on(t),
            Some(_) => return None,
        }
    }
    Some(builds)
}

/// The standard cards that build on card `t` with no declaration ([`place_options`]
/// between two standard cards): one rank lower, the other colour, as a bit set.
#[inline]
pub(super) fn builds_on(t: Card) -> u64 {
    BUILDS_ON[t.0 as usize]
}

/// The standard cards a standard card `c` builds on with no declaration (one rank
/// higher, the other colour; none for a King), as a bit set: the tops `t` whose
/// [`builds_on`] holds `c`.
#[inline]
pub(super) fn builds_onto(c: Card) -> u64 {
    BUILDS_ONTO[c.0 as usize]
}

/// [`builds_onto`] of each standard card value: [`BUILDS_ON`] read the other way.
const BUILDS_ONTO: [u64; 52] = {
    let mut table = [0u64; 52];
    let mut t = 0;
    while t < 52 {
        let mut on = BUILDS_ON[t];
        while on != 0 {
            table[on.trailing_zeros() as usize] |= 1 << t;
            on &= on - 1;
        }
        t += 1;
    }
    table
};

/// [`builds_on`] of each standard card value: nothing on an Ace; on a red card the black
/// suits (clubs, spades) one rank lower, on a black card the red ones (diamonds, hearts).
const BUILDS_ON: [u64; 52] = {
    let mut table = [0u64; 52];
    let mut v = 4;
    while v < 52 {
        let lower = (v / 4 - 1) * 4; // the value of the lower rank's first suit
        table[v] = if matches!(v % 4, 1 | 2) { 1 << lower | 1 << (lower + 3) } else { 1 << (lower + 1) | 1 << (lower + 2) };
        v += 1;
    }
    table
};

/// Items 1-3 of NERTS-STUCK-1 on layout `l` with foundations taking `needs`: the Nerts
/// top playable or to be flipped, a work top to a foundation, or a card that is or will
/// be the waste top during one pass playable anywhere.
pub fn useful_now(cfg: &NertsConfig, l: &Layout, needs: u64) -> bool {
    let empty = l.has_empty_slot();
    let builds = builds_on_tops(l);
    let card_useful = |e: Eff, empty: bool| match (e, builds) {
        (Eff::Card(c), Some(builds)) => fits_foundation(e, needs) || empty || builds >> c.0 & 1 == 1,
        _ => has_place(l, e, needs, empty),
    };
    if l.nerts_len > 0 {
        if !l.nerts_up {
            return true;
        }
        if card_useful(l.loose_eff(l.nerts[l.nerts_len as usize - 1]), empty) {
            return true;
        }
    }
    if (0..WORK_PILES).any(|i| l.top_eff(i).is_some_and(|e| fits_foundation(e, needs))) {
        return true;
    }
    if l.sw_len > 0 {
        if empty {
            return true;
        }
        let mut tops = l.pass_tops(cfg);
        while tops != 0 {
            let v = tops.trailing_zeros() as u8;
            tops &= tops - 1;
            if card_useful(l.loose_eff(v), false) {
                return true;
            }
        }
    }
    false
}

/// Score of deck `d` in a finished deal (NERTS-SCORE-1, NERTS-JOKER-6): +1 per card of
/// the deck on a foundation, set-aside ones included, -2 per card left in its Nerts
/// pile. Cards are traced to their deck by their backs (NERTS-SCORE-2); calling earns
/// nothing (NERTS-SCORE-3).
pub fn deck_score(s: &NertsState, d: usize) -> i32 {
    s.found_cards(d) as i32 - 2 * s.layouts[d].nerts_len as i32
}

/// Score of each team (a player alone is a team of one): the sum of its decks' scores
/// (NERTS-PART-2, NERTS-PART-4).
pub fn team_scores(s: &NertsState) -> [i32; MAX_NERTS_PLAYERS] {
    let mut t = [0; MAX_NERTS_PLAYERS];
    for d in 0..s.n_layouts as usize {
        t[s.team_of[d] as usize] += deck_score(s, d);
    }
    t
}

/// Each seat's deal score: its team's.
pub fn seat_scores(s: &NertsState) -> [i32; MAX_NERTS_PLAYERS] {
    let t = team_scores(s);
    let mut out = [0; MAX_NERTS_PLAYERS];
    for (p, o) in out.iter_mut().enumerate().take(s.players as usize) {
        *o = t[s.team_of_seat(p)];
    }
    out
}

/// Whether a match with these running totals (per team, may be negative,
/// NERTS-SCORE-4) is over after a deal (NERTS-MATCH-1, NERTS-MATCH-2): once a team
/// reaches `target`, the highest total wins; equal highest totals play another deal.
pub fn match_status(totals: &[i32], target: i32) -> MatchStatus {
    let best = totals.iter().copied().max().unwrap_or(0);
    if best < target {
        return MatchStatus::Continue;
    }
    let mut leaders = totals.iter().enumerate().filter(|(_, &t)| t == best);
    match (leaders.next(), leaders.next()) {
        (Some((team, _)), None) => MatchStatus::Won(team),
        _ => MatchStatus::Continue,
    }
}

#[cfg(test)]
mod mask_tests {
    use super::*;

    /// NERTS-WORK-2 by bit set: `builds_on` lists exactly the standard cards that
    /// [`place_options`] lets build on a standard card with no declaration.
    #[test]
    fn builds_on_and_builds_onto_agree_with_place_options() {
        for t in 0..52 {
            for b in 0..52 {
                let mut fits = false;
                place_options(Eff::Card(Card(b)), Eff::Card(Card(t)), |d| fits |= d == Decl::NONE);
                assert_eq!(builds_on(Card(t)) >> b & 1 == 1, fits, "{b} on {t}");
                assert_eq!(builds_onto(Card(b)) >> t & 1 == 1, fits, "{b} onto {t}");
            }
        }
    }
}
