//! What one Nerts player can see, as far as the strategies use it: his own layout's
//! face-up cards (the Nerts top and the number of cards under it, the waste top, the
//! size of the stock, every work-pile card), the foundations in the common area, every
//! layout's Nerts count and cards on foundations (the deal's score so far), and the
//! match's score sheet. The order of any stock, the cards under a Nerts top or a waste
//! top, and other layouts' piles are not reachable through a view, so a strategy cannot
//! cheat. [`NertsView::shown`] gives all of that as one state, hidden cards blanked,
//! for a strategy that samples the rest (`search`).

use super::config::NertsConfig;
use super::rules::{apply_in_layout, builds_on_tops, builds_onto, fits_foundation, has_place, team_scores, NertsAction, Source};
use crate::cards::Card;
use super::standard::work_tops;
use super::state::{Eff, Layout, NertsState, WorkPile, LOCK_NERTS, LOCK_STOCK, NONE, WORK_PILES};

/// One player's view of a Nerts state.
#[derive(Clone, Copy)]
pub struct NertsView<'a> {
    state: &'a NertsState,
    me: usize,
    cfg: &'a NertsConfig,
}

impl<'a> NertsView<'a> {
    /// The view of seat `me`.
    pub fn new(state: &'a NertsState, me: usize, cfg: &'a NertsConfig) -> Self {
        NertsView { state, me, cfg }
    }
    /// The viewer's seat.
    pub fn seat(&self) -> usize {
        self.me
    }
    /// The rules' flags.
    pub fn rules(&self) -> &NertsConfig {
        self.cfg
    }
    /// Seats at the table.
    pub fn players(&self) -> usize {
        self.state.players as usize
    }
    fn layout(&self) -> &Layout {
        self.state.layout(self.me)
    }
    /// Cards left in the viewer's Nerts pile.
    pub fn nerts_len(&self) -> u8 {
        self.layout().nerts_len
    }
    /// What the viewer's Nerts top stands for, if it is face-up.
    pub fn nerts_top(&self) -> Option<Eff> {
        let l = self.layout();
        l.nerts_top().filter(|_| l.nerts_up).map(|v| l.loose_eff(v))
    }
    /// What the viewer's waste top stands for.
    pub fn waste_top(&self) -> Option<Eff> {
        let l = self.layout();
        l.waste_top().map(|v| l.loose_eff(v))
    }
    /// Cards in the viewer's stock (face-down: only counted).
    pub fn stock_len(&self) -> u8 {
        self.layout().stock_len()
    }
    /// Cards in the viewer's work pile `i`.
    pub fn work_len(&self, i: usize) -> u8 {
        self.layout().work[i].len
    }
    /// What the top of the viewer's work pile `i` stands for.
    pub fn work_top(&self, i: usize) -> Option<Eff> {
        self.layout().top_eff(i)
    }
    /// True if the viewer has an empty work slot.
    pub fn has_empty_slot(&self) -> bool {
        self.layout().has_empty_slot()
    }
    /// Every card value the foundations take now (the Aces and each next card).
    pub fn needs(&self) -> u64 {
        self.state.found.needs()
    }
    /// Cards on foundations, set-aside ones included.
    pub fn foundation_cards(&self) -> u32 {
        self.state.found.cards()
    }
    /// The viewer's team.
    pub fn team(&self) -> usize {
        self.state.team_of_seat(self.me)
    }
    /// Number of teams (a player alone is a team of one).
    pub fn teams(&self) -> usize {
        self.state.teams as usize
    }
    /// Each team's match points before this deal.
    pub fn totals(&self) -> &[i32] {
        &self.state.totals[..self.teams()]
    }
    /// Each team's score in this deal if it ended now: +1 per card on a foundation, -2
    /// per card in its Nerts piles (both public).
    pub fn deal_scores(&self) -> [i32; super::state::MAX_NERTS_PLAYERS] {
        team_scores(self.state)
    }
    /// Nerts cards left to each seat's layout, seat by seat (public: every player sees
    /// the size of every Nerts pile; partners on a shared layout show the same count).
    pub fn nerts_counts(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.players()).map(|p| self.state.layout(p).nerts_len)
    }
    /// Fewest Nerts cards left to any other layout (public).
    pub fn fewest_other_nerts(&self) -> u8 {
        let mine = self.state.layout_of[self.me] as usize;
        self.state.layouts().iter().enumerate().filter(|&(d, _)| d != mine).map(|(_, l)| l.nerts_len).min().unwrap_or(u8::MAX)
    }
    /// True if a card standing for `e` would go to a foundation now.
    pub fn fits_foundation(&self, e: Eff) -> bool {
        fits_foundation(e, self.needs())
    }
    /// What the card(s) of `from` (the lowest card moved) stand for.
    pub fn source_eff(&self, from: Source) -> Option<Eff> {
        match from {
            Source::Nerts => self.nerts_top(),
            Source::Waste => self.waste_top(),
            Source::Work { pile, depth } => (depth < self.work_len(pile as usize)).then(|| self.layout().eff(pile as usize, depth as usize)),
        }
    }
    /// The table as the viewer sees it, as a state with every card he cannot see
    /// blanked ([`NONE`]):
    /// - public: the seats, layouts and teams, the foundations and, per deck, which of
    ///   its cards lie on them (cards are traced to their deck by their backs,
    ///   NERTS-SCORE-2, and each one reached the common area in the open), the call,
    ///   the global resets and whether progress was made since the last one, the score
    ///   sheet;
    /// - his own layout: the work piles, the Nerts top if face-up and the waste top as
    ///   they are; the cards under the Nerts top (all of the pile when its top is
    ///   face-down) and every other card of the stock and waste blanked, their counts
    ///   and places kept; Joker declarations, locks and held cards (a partner's hand is
    ///   in the open, NERTS-PART-3) as they are;
    /// - every other layout: its Nerts count only (blanked cards, whether the top is
    ///   face-up); no work pile, stock or waste.
    pub fn shown(&self) -> NertsState {
        let mut s = *self.state;
        let mine = s.layout_of[self.me] as usize;
        for (d, l) in s.layouts[..s.n_layouts as usize].iter_mut().enumerate() {
            let n = l.nerts_len as usize;
            let hidden = if d == mine && l.nerts_up { n - 1 } else { n };
            l.nerts[..hidden].fill(NONE);
            if d == mine {
                let top = l.waste_len as usize;
                for (i, v) in l.sw[..l.sw_len as usize].iter_mut().enumerate() {
                    if i + 1 != top {
                        *v = NONE;
                    }
                }
            } else {
                *l = Layout { nerts: l.nerts, nerts_len: l.nerts_len, nerts_up: l.nerts_up, work: [WorkPile::EMPTY; WORK_PILES], ..Layout::EMPTY };
            }
        }
        s
    }
    /// True if a partner's action in flight holds a pile of the viewer's layout (the
    /// partner's hand is on the table for everyone to see, NERTS-PART-3).
    pub fn partner_busy(&self) -> bool {
        self.layout().locks != 0
    }
    /// Progress moves open to the viewer on his face-up cards after a move `a` between
    /// his work piles (`None` for the layout as it is): which of the Nerts top and the
    /// waste top would have a place (a foundation, a work pile or an empty slot), and
    /// whether a work top would go to a foundation. Only face-up cards are read; a top
    /// a partner's action holds counts for nothing (the viewer cannot take it).
    pub fn open_after(&self, a: Option<NertsAction>) -> Opens {
        if self.state.jokers == 0 {
            if let Some(tops) = self.work_tops_after(a) {
                return self.opens_with_tops(&tops);
            }
        }
        self.open_after_general(a)
    }
    /// [`NertsView::open_after`] by applying the move to a copy of the layout and
    /// matching what each card stands for, Jokers included.
    pub(super) fn open_after_general(&self, a: Option<NertsAction>) -> Opens {
        let mut l = *self.layout();
        if let Some(a) = a {
            apply_in_layout(self.cfg, &mut l, a);
        }
        let needs = self.needs();
        let empty = l.has_empty_slot();
        let builds = builds_on_tops(&l);
        let placeable = |e: Eff| match (e, builds) {
            (Eff::Card(c), Some(builds)) => fits_foundation(e, needs) || empty || builds >> c.0 & 1 == 1,
            _ => has_place(&l, e, needs, empty),
        };
        let nerts = l.locks & LOCK_NERTS == 0 && l.nerts_top().filter(|_| l.nerts_up).is_some_and(|v| placeable(l.loose_eff(v)));
        let waste = l.locks & LOCK_STOCK == 0 && l.waste_top().is_some_and(|v| placeable(l.loose_eff(v)));
        let work = (0..WORK_PILES).any(|i| l.top_eff(i).is_some_and(|e| fits_foundation(e, needs)));
        Opens { nerts, waste, work }
    }
}

impl NertsView<'_> {
    /// The viewer's work tops (card values, [`NONE`] for an empty slot) after a move `a`
    /// between his work piles (`None`: as they are), or `None` for another action. A
    /// move between work piles changes only the tops of its two piles: the target's
    /// becomes the source's top (the moved stack's highest card), the source's the card
    /// under the stack, or none. Locks, the Nerts top and the waste stay as they are.
    fn work_tops_after(&self, a: Option<NertsAction>) -> Option<[u8; WORK_PILES]> {
        let l = self.layout();
        let mut tops = work_tops(l);
        match a {
            None => {}
            Some(NertsAction::Build { from: Source::Work { pile, depth }, to, .. } | NertsAction::Fill { from: Source::Work { pile, depth }, to }) => {
                tops[to as usize] = tops[pile as usize];
                tops[pile as usize] = if depth > 0 { l.work[pile as usize].card(depth as usize - 1) } else { NONE };
            }
            Some(_) => return None,
        }
        Some(tops)
    }

    /// [`NertsView::open_after`] on a table without Jokers, given the work tops after
    /// the move ([`NertsView::work_tops_after`]): the general computation with every
    /// card standing for itself (a card fits a foundation by `needs`, has a place on a
    /// work pile when one of the tops is among those it builds onto, [`builds_onto`],
    /// or anywhere with an empty slot).
    fn opens_with_tops(&self, tops: &[u8; WORK_PILES]) -> Opens {
        let l = self.layout();
        let needs = self.needs();
        // The tops as a set of values, an empty slot's NONE as bit 63 (`NONE & 63`),
        // which no card value, `needs` or `builds_onto` set holds.
        let on_tops = tops.iter().fold(0u64, |m, &t| m | 1 << (t & 63));
        let empty = on_tops >> 63 == 1;
        let work = needs & on_tops != 0;
        let placeable = |v: u8| empty || needs >> v & 1 == 1 || builds_onto(Card(v)) & on_tops != 0;
        let nerts = l.locks & LOCK_NERTS == 0 && l.nerts_top().is_some_and(placeable);
        let waste = l.locks & LOCK_STOCK == 0 && l.waste_top().is_some_and(placeable);
        Opens { nerts, waste, work }
    }
}

/// Progress a layout offers on its face-up cards (see [`NertsView::open_after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opens {
    /// The Nerts top has a place.
    pub nerts: bool,
    /// The waste top has a place.
    pub waste: bool,
    /// A work top goes to a foundation.
    pub work: bool,
}

impl Opens {
    /// Any progress at all.
    pub fn any(self) -> bool {
        self.nerts || self.waste || self.work
    }
}
