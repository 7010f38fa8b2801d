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
//!
//! The order is a strategy parameter per kind of move, its priority (0 to 100, higher
//! first; `balanced` has a second one for the call when it is behind): the defaults
//! give each style the order above, and `cardsim tune` can search them, e.g.
//! `--bot lazy,stock=95` turns the stock before anything but the call.

use super::{pick, Cat, NertsStrategy, Ranking, Registered};
use crate::games::nerts::rules::NertsAction;
use crate::games::nerts::view::NertsView;
use crate::games::params::{ParamDef, ParamValues};
use crate::games::StrategyInfo;
use crate::rng::SimRng;

use Cat::*;

/// The kinds of move a style ranks, in the order of its priority parameters.
const RANKED: [Cat; 11] = [Call, NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, WasteWork, StackUseful, Stock, Rotate];
/// The priority parameter of each kind in [`RANKED`].
const NAMES: [&str; 11] = ["call", "nerts_found", "nerts_work", "flip_nerts", "stack_for_nerts", "work_found", "waste_found", "waste_work", "stack_useful", "stock", "rotate"];
/// What each priority parameter ranks.
const ABOUT: [&str; 11] = [
    "priority of the call (higher goes first)",
    "priority of the Nerts top to a foundation",
    "priority of the Nerts top onto a work pile, an empty slot or under a pile",
    "priority of turning the next Nerts card up",
    "priority of a move between work piles that gives the Nerts top a place",
    "priority of a work-pile top to a foundation",
    "priority of the waste top to a foundation",
    "priority of the waste top onto a work pile",
    "priority of a move between work piles that opens some progress move",
    "priority of turning the stock (FLIP3, RECYCLE)",
    "priority of ROTATE",
];

/// The priority parameters of a style whose default order is `order`: the first kind
/// 100, the next 90, ... the last 0. A style ranks the kinds by priority, higher first;
/// kinds of equal priority keep their order in `order`.
const fn priorities(order: [Cat; 11]) -> [ParamDef; 11] {
    let mut defs = [ParamDef { name: "", about: "", default: 0.0, min: 0.0, max: 100.0, integer: true }; 11];
    let mut i = 0;
    while i < RANKED.len() {
        let mut k = 0;
        while order[k] as u8 != RANKED[i] as u8 {
            k += 1;
        }
        defs[i] = ParamDef { name: NAMES[i], about: ABOUT[i], default: (100 - 10 * k) as f64, min: 0.0, max: 100.0, integer: true };
        i += 1;
    }
    defs
}

/// `order` sorted by the priorities in `v` (the first [`RANKED`] parameters), higher
/// first, ties in `order`'s order; `call` replaces the call's priority.
fn ranked(order: [Cat; 11], v: &ParamValues, call: i64) -> [Cat; 11] {
    let priority = |c: Cat| if c == Call { call } else { v.int(RANKED.iter().position(|&r| r == c).expect("a ranked kind")) };
    let mut out = order;
    out.sort_by_key(|&c| -priority(c));
    out
}

const NERTS_FIRST_ORDER: [Cat; 11] = [Call, NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, WasteWork, StackUseful, Stock, Rotate];
const FOUNDATION_FIRST_ORDER: [Cat; 11] = [WorkFound, WasteFound, NertsFound, Call, NertsWork, FlipN, WasteWork, StackForNerts, StackUseful, Stock, Rotate];
const BALANCED_ORDER: [Cat; 11] = [Call, NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, WasteWork, StackUseful, Stock, Rotate];
const LAZY_ORDER: [Cat; 11] = [Call, NertsFound, WorkFound, WasteFound, NertsWork, FlipN, WasteWork, StackForNerts, StackUseful, Stock, Rotate];

/// `lazy` with the priorities of `strategies/nerts-lazy-tuned.toml` (the strongest
/// style on the 2-player skilled ladder): the rollout policy of `search`. A test checks
/// it against the file.
pub(super) const TUNED_LAZY_ORDER: [Cat; 11] = [NertsFound, WorkFound, NertsWork, FlipN, Call, WasteFound, StackForNerts, WasteWork, StackUseful, Rotate, Stock];

const NERTS_FIRST_PARAMS: [ParamDef; 11] = priorities(NERTS_FIRST_ORDER);
const FOUNDATION_FIRST_PARAMS: [ParamDef; 11] = priorities(FOUNDATION_FIRST_ORDER);
const LAZY_PARAMS: [ParamDef; 11] = priorities(LAZY_ORDER);
/// `balanced`: the priorities when it is ahead (or cannot call), and the call's
/// priority when it is behind: by default between the waste top to a foundation and
/// the waste top to a work pile, so it first plays every card it can to a foundation.
const BALANCED_PARAMS: [ParamDef; 12] = {
    let ahead = priorities(BALANCED_ORDER);
    let mut defs = [ahead[0]; 12];
    let mut i = 0;
    while i < ahead.len() {
        defs[i] = ahead[i];
        i += 1;
    }
    defs[11] = ParamDef { name: "call_behind", about: "priority of the call when another team projects a better match score", default: 35.0, min: 0.0, max: 100.0, integer: true };
    defs
};

/// A style that ranks the kinds of move in one order: `nerts-first`,
/// `foundation-first` and `lazy`.
pub struct Ranked {
    ranking: Ranking,
}

impl Ranked {
    fn new(order: [Cat; 11], v: &ParamValues) -> Ranked {
        Ranked { ranking: Ranking::new(&ranked(order, v, v.int(0))) }
    }
}

/// `balanced`: one order when it is ahead, the call moved when behind.
pub struct Balanced {
    ahead: Ranking,
    behind: Ranking,
}

impl Balanced {
    fn new(v: &ParamValues) -> Balanced {
        Balanced { ahead: Ranking::new(&ranked(BALANCED_ORDER, v, v.int(0))), behind: Ranking::new(&ranked(BALANCED_ORDER, v, v.int(11))) }
    }
}

/// Registry entries.
pub const NERTS_FIRST: Registered = Registered {
    info: StrategyInfo { name: "nerts-first", about: "empties its Nerts pile at any cost: calls at once, the Nerts top anywhere, work piles rearranged to make room for it", params: &NERTS_FIRST_PARAMS },
    make: |v| Box::new(Ranked::new(NERTS_FIRST_ORDER, v)),
};
/// Registry entry.
pub const FOUNDATION_FIRST: Registered = Registered {
    info: StrategyInfo { name: "foundation-first", about: "presses the centre first: every card that reaches a foundation goes there before anything else", params: &FOUNDATION_FIRST_PARAMS },
    make: |v| Box::new(Ranked::new(FOUNDATION_FIRST_ORDER, v)),
};
/// Registry entry.
pub const BALANCED: Registered = Registered {
    info: StrategyInfo { name: "balanced", about: "builds work piles to free Nerts cards, then the centre; calls at once when ahead, after its foundation plays when behind", params: &BALANCED_PARAMS },
    make: |v| Box::new(Balanced::new(v)),
};
/// Registry entry.
pub const LAZY: Registered = Registered {
    info: StrategyInfo { name: "lazy", about: "plays what is open, rearranges work piles only to open a play, turns the stock only when it has nothing else", params: &LAZY_PARAMS },
    make: |v| Box::new(Ranked::new(LAZY_ORDER, v)),
};

impl NertsStrategy for Ranked {
    fn choose(&self, view: &NertsView, legal: &[NertsAction], _: &mut SimRng) -> Option<NertsAction> {
        pick(view, legal, &self.ranking)
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
        // The call is legal only with an empty Nerts pile: the list is scanned only then.
        let calling = view.nerts_len() == 0 && legal.iter().any(|a| matches!(a, NertsAction::CallNerts));
        let ranking = if !calling || Self::ahead(view) { &self.ahead } else { &self.behind };
        pick(view, legal, ranking)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(defs: &[ParamDef], given: &[(&str, f64)]) -> ParamValues {
        let given: Vec<(String, f64)> = given.iter().map(|&(n, x)| (n.to_string(), x)).collect();
        ParamValues::resolve("style", defs, &given).unwrap()
    }

    #[test]
    fn the_default_priorities_give_each_style_its_order() {
        for (defs, order) in [(&NERTS_FIRST_PARAMS, NERTS_FIRST_ORDER), (&FOUNDATION_FIRST_PARAMS, FOUNDATION_FIRST_ORDER), (&LAZY_PARAMS, LAZY_ORDER)] {
            assert_eq!(Ranked::new(order, &ParamValues::defaults(defs)).ranking, Ranking::new(&order));
        }
        let v = ParamValues::defaults(&BALANCED_PARAMS);
        let b = Balanced::new(&v);
        assert_eq!(b.ahead, Ranking::new(&BALANCED_ORDER));
        assert_eq!(b.behind, Ranking::new(&[NertsFound, NertsWork, FlipN, StackForNerts, WorkFound, WasteFound, Call, WasteWork, StackUseful, Stock, Rotate]), "behind: the call after the foundation plays");
        // Lazy by name: the call 100, the Nerts top to a foundation 90, ... ROTATE 0.
        let lazy: Vec<(&str, f64)> = LAZY_PARAMS.iter().map(|d| (d.name, d.default)).collect();
        assert_eq!(&lazy[..4], &[("call", 100.0), ("nerts_found", 90.0), ("nerts_work", 60.0), ("flip_nerts", 50.0)]);
    }

    #[test]
    fn the_tuned_lazy_order_is_the_tuned_file() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/nerts-lazy-tuned.toml"));
        let spec = crate::bot::BotSpec::from_file(path).unwrap();
        assert_eq!((spec.strategy.as_str(), spec.preset), ("lazy", Some(crate::reaction::Preset::Skilled)));
        let v = ParamValues::resolve("lazy-tuned", &LAZY_PARAMS, &spec.params).unwrap();
        assert_eq!(ranked(LAZY_ORDER, &v, v.int(0)), TUNED_LAZY_ORDER);
        assert_eq!(Ranked::new(LAZY_ORDER, &v).ranking, Ranking::new(&TUNED_LAZY_ORDER));
    }

    #[test]
    fn priorities_reorder_the_kinds_and_ties_keep_the_default_order() {
        let v = values(&LAZY_PARAMS, &[("stock", 95.0), ("call", 0.0)]);
        assert_eq!(ranked(LAZY_ORDER, &v, v.int(0)), [Stock, NertsFound, WorkFound, WasteFound, NertsWork, FlipN, WasteWork, StackForNerts, StackUseful, Call, Rotate]);
        let v = values(&LAZY_PARAMS, &[("rotate", 90.0)]);
        assert_eq!(ranked(LAZY_ORDER, &v, v.int(0))[..3], [Call, NertsFound, Rotate], "a tie with nerts_found: the default order first");
        let v = values(&BALANCED_PARAMS, &[("call_behind", 0.0)]);
        assert_eq!(ranked(BALANCED_ORDER, &v, v.int(11))[7..], [StackUseful, Stock, Call, Rotate], "behind, the call at 0 ties ROTATE: the call comes first in balanced's order");
        assert_eq!(ranked(BALANCED_ORDER, &v, v.int(0))[0], Call, "ahead, the call keeps its priority");
    }
}
