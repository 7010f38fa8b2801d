//! The four styles, each an order over the kinds of move ([`Cat`]).
//!
//! - `nerts-first` empties its Nerts pile at any cost: it calls at once, plays the Nerts
//!   top anywhere it goes (a foundation, a work pile, an empty slot, under a pile),
//!   turns it up, and rearranges its work piles to make room for it before anything
//!   else; only then does it feed the foundations from its work piles and waste.
//! - `foundation-first` presses the centre first: every card that can reach a
//!   foundation goes there (work tops and the waste before the Nerts top, so the centre
//!   grows fastest), then the call, then the Nerts pile, then builds.
//! - `balanced` builds its work piles to free Nerts cards (the Nerts top to a
//!   foundation or a work pile, then room made for it), then the centre; it times its
//!   call to its score lead: with the best projected match score (match points plus
//!   the deal's public score, +1 per foundation card and -2 per Nerts card) it calls at
//!   once; behind, it first plays every card it can to a foundation (each is +1).
//! - `lazy` turns the stock only when it has nothing else to do, never rearranges its
//!   work piles unless that opens a play at once, and calls at once.

use super::{pick, Cat, NertsStrategy, Registered};
use crate::games::nerts::rules::NertsAction;
use crate::games::nerts::view::NertsView;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

/// `nerts-first`.
pub struct NertsFirst;
/// `foundation-first`.
pub struct FoundationFirst;
/// `balanced`.
pub struct Balanced;
/// `lazy`.
pub struct Lazy;

/// Registry entries.
pub const NERTS_FIRST: Registered = Registered {
    info: StrategyInfo { name: "nerts-first", about: "empties its Nerts pile at any cost: calls at once, the Nerts top anywhere, work piles rearranged to make room for it", params: &[] },
    make: |_| Box::new(NertsFirst),
};
/// Registry entry.
pub const FOUNDATION_FIRST: Registered = Registered {
    info: StrategyInfo { name: "foundation-first", about: "presses the centre first: every card that reaches a foundation goes there before anything else", params: &[] },
    make: |_| Box::new(FoundationFirst),
};
/// Registry entry.
pub const BALANCED: Registered = Registered {
    info: StrategyInfo { name: "balanced", about: "builds work piles to free Nerts cards, then the centre; calls at once when ahead, after its foundation plays when behind", params: &[] },
    make: |_| Box::new(Balanced),
};
/// Registry entry.
pub const LAZY: Registered = Registered {
    info: StrategyInfo { name: "lazy", about: "plays what is open, rearranges work piles only to open a play, turns the stock only when it has nothing else", params: &[] },
    make: |_| Box::new(Lazy),
};

use Cat::*;

const NERTS_FIRST_ORDER: &[Cat] = &[Call, NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, WasteWork, StackUseful, Stock, Rotate];
const FOUNDATION_FIRST_ORDER: &[Cat] = &[WorkFound, WasteFound, NertsFound, Call, NertsWork, FlipN, WasteWork, StackForNerts, StackUseful, Stock, Rotate];
const BALANCED_AHEAD: &[Cat] = &[Call, NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, WasteWork, StackUseful, Stock, Rotate];
const BALANCED_BEHIND: &[Cat] = &[NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, Call, WasteWork, StackUseful, Stock, Rotate];
const LAZY_ORDER: &[Cat] = &[Call, NertsFound, WorkFound, WasteFound, NertsWork, FlipN, WasteWork, StackForNerts, StackUseful, Stock, Rotate];

impl NertsStrategy for NertsFirst {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        pick(view, legal, NERTS_FIRST_ORDER)
    }
}

impl NertsStrategy for FoundationFirst {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        pick(view, legal, FOUNDATION_FIRST_ORDER)
    }
}

impl Balanced {
    /// True if the viewer's team has the best projected match score (ties count).
    fn ahead(view: &NertsView) -> bool {
        let deal = view.deal_scores();
        let me = view.team();
        let mine = view.totals()[me] + deal[me];
        view.totals().iter().enumerate().filter(|&(t, _)| t != me).all(|(t, &total)| total + deal[t] <= mine)
    }
}

impl NertsStrategy for Balanced {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        let calling = legal.contains(&NertsAction::CallNerts);
        let order = if !calling || Self::ahead(view) { BALANCED_AHEAD } else { BALANCED_BEHIND };
        pick(view, legal, order)
    }
}

impl NertsStrategy for Lazy {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        pick(view, legal, LAZY_ORDER)
    }
}
