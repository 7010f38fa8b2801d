//! The legal list and stuck detection of a table without Jokers (`nerts.jokers_per_deck=0`, the default),
//! from bit sets and rank arithmetic instead of the general matching of card identities
//! ([`super::rules::place_options`] and friends).
//!
//! Without Jokers every card stands for itself, and a work pile is a run one rank lower
//! and the other colour per card from its base up (NERTS-INV-6). So a stack that builds
//! on a work top starts at the one depth whose rank is one below that top: its index is
//! the base's rank minus that rank, and the card there fits when it is in the top's
//! [`builds_on`] set. Foundation plays test the foundations' `needs` mask, builds and
//! slip-unders the `builds_on` masks of the tops and the base's rank and colour.
//!
//! Stuck detection (NERTS-STUCK-1) works the same way on the four work tops.
//!
//! Which piles the stacks of each work pile build on is kept in the layout
//! ([`StackTargets`]) and computed again when an action changes a work pile, so a list
//! does not look for stack moves again after an action that left the work piles alone.
//!
//! The list is the general one ([`NertsRules::legal`] with Jokers), action for action
//! and in the same order: the random-play tests (`src/games/nerts/tests/random_play.rs`) compare the
//! two at every decision of thousands of deals, and the two stuck checks. The proof that the layout is not stuck (for ROTATE under
//! `nerts.rotate_when=stuck_only`) is kept while listing, not searched for afterwards.

use super::config::{NertsConfig, RotateWhen, SlipSources};
use super::rules::{builds_on, Decl, NertsAction, NertsRules, Source};
use super::state::{Layout, NertsState, WorkPile, LOCK_NERTS, LOCK_STOCK, NONE, WORK_PILES};
use crate::cards::Card;
use arrayvec::ArrayVec;

/// Rank value (1 = A .. 13 = K) of a standard card value.
#[inline]
const fn rank(v: u8) -> u8 {
    v / 4 + 1
}

/// True for a red standard card value.
#[inline]
const fn red(v: u8) -> bool {
    matches!(v % 4, 1 | 2)
}

/// Writes seat `p`'s legal actions into `out` on a table without Jokers (`s.jokers ==
/// 0`): the list [`NertsRules::legal`] writes, in its order.
#[inline]
pub(super) fn legal<const N: usize>(rules: &NertsRules, s: &NertsState, p: usize, out: &mut ArrayVec<NertsAction, N>) {
    let fits = legal_if_fits(rules, s, p, out);
    assert!(fits, "a list of {N} actions holds every list without Jokers");
}

/// [`legal`] when the list surely fits in what `out` has left ([`most_actions`]): writes
/// it and returns true; otherwise writes nothing and returns false.
#[inline]
pub(super) fn legal_if_fits<const N: usize>(rules: &NertsRules, s: &NertsState, p: usize, out: &mut ArrayVec<NertsAction, N>) -> bool {
    debug_assert_eq!(s.jokers, 0, "the standard-card list on a table with Jokers");
    if s.called != NONE {
        return true;
    }
    let cfg = &rules.cfg;
    let l = s.layout(p);
    let locks = l.locks;
    let free = |bit: u8| locks & bit == 0;
    let needs = s.found.needs();
    // The Nerts and waste tops a hand may take, in that order.
    let mut singles = [(Source::Nerts, NONE); 2];
    let mut n_singles = 0;
    if l.nerts_len > 0 && l.nerts_up && free(LOCK_NERTS) {
        singles[n_singles] = (Source::Nerts, l.nerts[l.nerts_len as usize - 1]);
        n_singles += 1;
    }
    if l.waste_len > 0 && free(LOCK_STOCK) {
        singles[n_singles] = (Source::Waste, l.sw[l.waste_len as usize - 1]);
        n_singles += 1;
    }
    let singles = &singles[..n_singles];
    // Work tops and what builds on each (any pile, locked or not); the target piles
    // (not empty and free) and the first free empty slot.
    let tops = work_tops(l);
    let mut wants = [0u64; WORK_PILES];
    let mut targets = 0u8;
    let mut target_tops = 0u64; // the target piles' tops (bit per value)
    let mut takes = 0u64; // the cards that build on some target pile
    let mut empty = None;
    for (i, &t) in tops.iter().enumerate() {
        if t != NONE {
            wants[i] = builds_on(Card(t));
        }
        if free(1 << i) {
            if t != NONE {
                targets |= 1 << i;
                target_tops |= 1 << t;
                takes |= wants[i];
            } else if empty.is_none() {
                empty = Some(i as u8);
            }
        }
    }
    if out.len() + most_actions(l, empty.is_some()) > N {
        return false;
    }
    let mut proof = false; // an action listed shows the layout not stuck (shows_not_stuck)
    for &(from, v) in singles {
        if needs >> v & 1 == 1 {
            out.push(NertsAction::ToFoundation { from, card: Card(v) });
            proof = true;
        }
    }
    // The piles are walked only when a foundation takes one of their tops.
    let found_piles = if needs & target_tops != 0 { WORK_PILES } else { 0 };
    for (i, &t) in tops[..found_piles].iter().enumerate() {
        if targets >> i & 1 == 1 && needs >> t & 1 == 1 {
            out.push(NertsAction::ToFoundation { from: Source::Work { pile: i as u8, depth: l.work[i].len - 1 }, card: Card(t) });
            proof = true;
        }
    }
    for &(from, v) in singles {
        // The piles are walked only when the card builds on one of them.
        let build_piles = if takes >> v & 1 == 1 { WORK_PILES } else { 0 };
        for (t, &want) in wants[..build_piles].iter().enumerate() {
            if targets >> t & 1 == 1 && want >> v & 1 == 1 {
                out.push(NertsAction::Build { from, to: t as u8, decl: Decl::NONE });
                proof = true;
            }
        }
        if let Some(to) = empty {
            out.push(NertsAction::Fill { from, to });
            proof = true;
        }
    }
    // Stacks between work piles (NERTS-WORK-3), depth by depth as the general list,
    // onto the target piles a stack of the pile builds on ([`StackTargets`], kept in
    // the layout as the piles change). The piles are walked only when a stack builds
    // somewhere or a slot is empty: most lists have neither.
    let stacks = l.stack_targets();
    let piles = if stacks.any() || empty.is_some() { WORK_PILES } else { 0 };
    for from in 0..piles {
        let w = &l.work[from];
        let onto = stacks.onto(from) & targets;
        if w.len == 0 || !free(1 << from) || onto == 0 && empty.is_none() {
            continue;
        }
        let depths = if cfg.partial_stack_moves { w.len } else { 1 };
        let builds = stack_builds(w, depths, &tops, onto);
        let src = |depth: u8| Source::Work { pile: from as u8, depth };
        let push_builds = |out: &mut ArrayVec<NertsAction, N>, mut bits: u64| {
            while bits != 0 {
                let k = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                out.push(NertsAction::Build { from: src(k / 4), to: k % 4, decl: Decl::NONE });
            }
        };
        match empty {
            None => push_builds(out, builds),
            Some(slot) => {
                push_builds(out, builds & 0xF);
                for depth in 1..depths {
                    push_builds(out, builds & (0xF << (4 * depth)));
                    out.push(NertsAction::Fill { from: src(depth), to: slot });
                }
            }
        }
    }
    // Slip-unders need an empty slot (NERTS-WORK-6).
    if empty.is_some() {
        for &(from, v) in singles {
            if from == Source::Nerts && cfg.slip_under_sources == SlipSources::WasteOnly {
                continue;
            }
            for (i, w) in l.work.iter().enumerate() {
                if w.len > 0 && free(1 << i) {
                    let b = w.standard_card(0);
                    if rank(b) < 13 && rank(v) == rank(b) + 1 && red(v) != red(b) {
                        out.push(NertsAction::SlipUnder { from, pile: i as u8, decl: Decl::NONE });
                    }
                }
            }
        }
    }
    if free(LOCK_NERTS) && l.nerts_len > 0 && !l.nerts_up {
        out.push(NertsAction::FlipNerts);
        proof = true;
    }
    if free(LOCK_STOCK) && l.sw_len > 0 {
        out.push(if l.flip_packet(cfg).is_some() { NertsAction::FlipStock } else { NertsAction::Recycle });
        if l.stock_len() >= 2 && (cfg.rotate_when == RotateWhen::AnyTime || !proof && stuck_with_tops(cfg, l, needs, &tops)) {
            out.push(NertsAction::Rotate);
        }
    }
    if l.nerts_len == 0 {
        out.push(NertsAction::CallNerts);
    }
    true
}

/// An upper bound on the length of a list of layout `l` on a table without Jokers: 45
/// actions besides stacks moved into an empty slot (the engine's first tier holds at
/// most 40, see `super::engine`; 45 leaves a margin), plus, when a slot is free
/// (`free_empty`, [`Layout::free_empty_slot`]), one such move per card above a pile's
/// base.
#[inline]
fn most_actions(l: &Layout, free_empty: bool) -> usize {
    let fills = if free_empty { l.work.iter().map(|w| w.len.saturating_sub(1) as usize).sum() } else { 0 };
    45 + fills
}

/// Which work piles the stacks of each work pile build on, kept in the layout
/// ([`Layout::refresh_work`]) so that a list after an action that left the work piles
/// alone (a flip, a card from the Nerts pile or the waste to a foundation: seven
/// decisions in ten) does not look for stack moves again. A function of the work
/// piles alone, stacks from every depth onto every other pile with cards; locks and
/// `nerts.partial_stack_moves` are applied where it is read. Two bytes a layout (the
/// state's size is bounded). On a table with Jokers it is kept but not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackTargets {
    /// Bit `4 * from + to`: a stack of pile `from`, from some depth, builds on the top
    /// of pile `to` ([`stack_builds`]). (A `u16` costs the layout no padding: its work
    /// piles already align it to 2 bytes.)
    bits: u16,
}

impl StackTargets {
    /// Four empty slots: no stack.
    pub const EMPTY: StackTargets = StackTargets { bits: 0 };

    /// The stack targets of `l`'s work piles: each pile with cards onto each other
    /// pile whose top a card of it builds on ([`depth_onto`] from every depth, its test
    /// written out on the piles' [`RUN_KEY`]s read once each).
    pub fn of(l: &Layout) -> StackTargets {
        let keys = l.work.each_ref().map(|w| RUN_KEY[w.top_or_none() as usize]);
        // A pile holding a Joker (only on a table with Jokers, whose general list does
        // not read these targets) is taken as empty: it builds on nothing.
        let lens = l.work.each_ref().map(|w| if w.has_joker() { 0 } else { w.len });
        let mut bits = 0u16;
        for from in 0..WORK_PILES {
            for to in 0..WORK_PILES {
                // `depth_onto(w, w.len, t).is_some()` on the keys read once.
                let builds = to != from && run_diff(keys[to], keys[from], lens[from]).is_some();
                debug_assert_eq!(builds, to != from && lens[from] > 0 && depth_onto(&l.work[from], lens[from], l.work[to].top_or_none()).is_some());
                bits |= u16::from(builds) << (4 * from + to);
            }
        }
        StackTargets { bits }
    }

    /// True if a stack of some pile builds on another pile.
    #[inline]
    fn any(self) -> bool {
        self.bits != 0
    }

    /// The piles (bit per pile) a stack of pile `from` builds on. [`stack_builds`] onto
    /// these piles gives what it gives onto every pile: the others add no stack.
    #[inline]
    fn onto(self, from: usize) -> u8 {
        (self.bits >> (4 * from)) as u8 & 0xF
    }
}

impl Layout {
    /// The layout's [`StackTargets`], checked against fresh ones in debug builds.
    #[inline]
    fn stack_targets(&self) -> StackTargets {
        debug_assert_eq!(self.stack_targets, StackTargets::of(self), "the stack targets kept up to date (Layout::refresh_work)");
        self.stack_targets
    }
}

/// The depth of the card of work pile `w` (no Joker) that builds on the top card `t`,
/// if it is among the first `depths` (none for an empty pile, or when `t` is [`NONE`] or
/// a Joker). A pile is a run from its base, one rank lower and the other colour per
/// card (NERTS-INV-6): each step flips both the colour and the rank's parity, so every
/// card of the run has its top's [`RUN_KEY`] class, and so has a top one rank above one
/// of them and of the other colour. So a card builds on `t` when `t` is of the pile's
/// class and its rank is `diff` = 1 to `len` above the pile's top; that card lies
/// `diff - 1` cards under the top, at depth `len - diff` (the random-play tests compare
/// the lists this gives with the general matching of the cards themselves).
#[inline]
fn depth_onto(w: &WorkPile, depths: u8, t: u8) -> Option<u8> {
    let diff = run_diff(RUN_KEY[t as usize], RUN_KEY[w.top_or_none() as usize], w.len)?;
    let depth = w.len - diff;
    (depth < depths).then_some(depth)
}

/// How many ranks the top of key `top_key` lies above the top of a pile of `len` cards
/// and key `pile_key` ([`RUN_KEY`]), when that is 1 to `len`: then a card of the pile
/// builds on that top, `diff - 1` cards under the pile's top ([`depth_onto`]).
#[inline]
fn run_diff(top_key: u8, pile_key: u8, len: u8) -> Option<u8> {
    let diff = top_key.wrapping_sub(pile_key);
    (diff.wrapping_sub(1) < len).then_some(diff)
}

/// Per card value, the key [`depth_onto`] compares: a standard card's rank (1 to 13),
/// plus 64 when its class (red xor odd rank) is 1; 200 for a Joker or [`NONE`]. Two keys
/// differ by 1 to 13 only for two standard cards of one class, by their ranks' difference
/// (another class, or a Joker or [`NONE`] on either side, puts them 51 or more apart,
/// counted modulo 256).
const RUN_KEY: [u8; 256] = {
    let mut key = [200u8; 256];
    let mut v = 0;
    while v < 52 {
        key[v as usize] = rank(v) + if red(v) ^ (rank(v) % 2 == 1) { 64 } else { 0 };
        v += 1;
    }
    key
};

/// The stacks of work pile `w` (stacks from depths `0..depths`) that build on the tops
/// of the piles in `onto` (bit per pile, none empty), as bit `4 * depth + pile` each: in
/// ascending bit order, depth by depth and pile by pile, the order of the general list
/// ([`depth_onto`] for each pile).
#[inline]
fn stack_builds(w: &WorkPile, depths: u8, tops: &[u8; WORK_PILES], onto: u8) -> u64 {
    let mut bits = 0u64;
    let mut piles = onto;
    while piles != 0 {
        let to = piles.trailing_zeros() as usize;
        piles &= piles - 1;
        if let Some(depth) = depth_onto(w, depths, tops[to]) {
            bits |= 1 << (4 * depth + to as u8);
        }
    }
    bits
}

/// The top card of each work pile of `l`, [`NONE`] for an empty slot.
#[inline]
pub(super) fn work_tops(l: &Layout) -> [u8; WORK_PILES] {
    l.work.each_ref().map(|w| w.top_or_none())
}

/// [`NertsRules::layout_stuck`] on a table without Jokers (NERTS-STUCK-1): items 1-3
/// on the layout as it is, then after each move between work piles. A move changes only
/// the tops of its two piles and whether a slot is empty, so each is tried on the four
/// tops, not on a copy of the layout; the stock's pass ([`Layout::pass_tops`]) is
/// computed once.
pub(super) fn layout_stuck(cfg: &NertsConfig, l: &Layout, needs: u64) -> bool {
    stuck_with_tops(cfg, l, needs, &work_tops(l))
}

/// Where a loose card goes with the work tops `tops` (a foundation taking `needs`, or a
/// work top), and the piles with cards (bit per pile); `None` when a work top goes to a
/// foundation (NERTS-STUCK-1 item 2).
#[inline]
fn takes_with(needs: u64, tops: &[u8; WORK_PILES]) -> Option<(u64, u8)> {
    let mut takes = needs;
    let mut filled = 0u8;
    for (i, &t) in tops.iter().enumerate() {
        if t != NONE {
            if needs >> t & 1 == 1 {
                return None;
            }
            takes |= builds_on(Card(t));
            filled |= 1 << i;
        }
    }
    Some((takes, filled))
}

/// [`layout_stuck`] given the layout's work tops ([`work_tops`]): items 1-3 on the
/// layout as it is here, inlined into the list; the moves between work piles, which
/// few calls reach, in [`stuck_after_moves`].
#[inline]
fn stuck_with_tops(cfg: &NertsConfig, l: &Layout, needs: u64, tops: &[u8; WORK_PILES]) -> bool {
    let nerts = (l.nerts_len > 0).then(|| l.nerts[l.nerts_len as usize - 1]);
    if nerts.is_some() && !l.nerts_up {
        return false; // a Nerts card to turn up
    }
    // Items 1-3 on the layout as it is. The stock's pass is walked only up to its first
    // card with a place: when it has none, `pass` is the whole pass, for the moves.
    let Some((takes, filled)) = takes_with(needs, tops) else { return false };
    let empties = WORK_PILES - filled.count_ones() as usize;
    if nerts.is_some_and(|v| empties > 0 || takes >> v & 1 == 1) {
        return false;
    }
    let pass = if l.sw_len > 0 {
        if empties > 0 {
            return false; // the stock's cards go into the empty slot
        }
        let pass = l.pass_tops_until(cfg, takes);
        if pass & takes != 0 {
            return false;
        }
        Some(pass)
    } else {
        None
    };
    // No stack builds anywhere and no empty slot: no move between work piles.
    if empties == 0 && !l.stack_targets().any() {
        return true;
    }
    stuck_after_moves(cfg, l, needs, tops, nerts, pass, filled)
}

/// The rest of [`stuck_with_tops`]: items 1-3 after each move between work piles, given
/// the Nerts top, the stock's whole pass and the piles with cards (`filled`). Out of
/// line: most calls end before it.
#[inline(never)]
fn stuck_after_moves(cfg: &NertsConfig, l: &Layout, needs: u64, tops: &[u8; WORK_PILES], nerts: Option<u8>, pass: Option<u64>, filled: u8) -> bool {
    let tops = *tops;
    let empties = WORK_PILES - filled.count_ones() as usize;
    // Items 1-3 with other work tops and an empty slot or not.
    let useful = |tops: &[u8; WORK_PILES], empty: bool| match takes_with(needs, tops) {
        None => true,
        Some((takes, _)) => nerts.is_some_and(|v| empty || takes >> v & 1 == 1) || pass.is_some_and(|p| empty || p & takes != 0),
    };
    let slot = (empties > 0).then(|| (!filled).trailing_zeros() as usize);
    let stacks = l.stack_targets();
    for (from, w) in l.work.iter().enumerate() {
        let onto = stacks.onto(from);
        if w.len == 0 || onto == 0 && slot.is_none() {
            continue;
        }
        let depths = if cfg.partial_stack_moves { w.len } else { 1 };
        let under = |depth: u8| if depth > 0 { w.standard_card(depth as usize - 1) } else { NONE };
        let mut builds = stack_builds(w, depths, &tops, onto);
        while builds != 0 {
            let k = builds.trailing_zeros() as u8;
            builds &= builds - 1;
            let (depth, to) = (k / 4, (k % 4) as usize);
            let mut after = tops;
            after[to] = tops[from];
            after[from] = under(depth);
            if useful(&after, empties > 0 || depth == 0) {
                return false;
            }
        }
        if let Some(slot) = slot {
            for depth in 1..depths {
                let mut after = tops;
                after[slot] = tops[from];
                after[from] = under(depth);
                if useful(&after, empties > 1) {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`depth_onto`] finds the depth of the card that builds on the top by
    /// [`builds_on`], on runs from every base of every length with mixed suits, from
    /// every number of depths, onto every card, a Joker and an empty slot.
    #[test]
    fn depth_onto_finds_the_card_that_builds_on_the_top() {
        for base in 0..52u8 {
            for pattern in 0..4u32 {
                let mut cards = vec![base];
                while rank(*cards.last().unwrap()) > 1 {
                    let top = *cards.last().unwrap();
                    let suits: [u8; 2] = if red(top) { [0, 3] } else { [1, 2] };
                    cards.push(top - 4 - top % 4 + suits[(pattern >> (cards.len() % 2)) as usize & 1]);
                }
                for len in 1..=cards.len() {
                    let mut w = WorkPile::EMPTY;
                    w.push_all(&cards[..len]);
                    for depths in 1..=len as u8 {
                        for t in (0..54u8).chain([NONE]) {
                            let fits = (0..depths).find(|&d| t < 52 && builds_on(Card(t)) >> cards[d as usize] & 1 == 1);
                            assert_eq!(depth_onto(&w, depths, t), fits, "base {base}, {len} cards, {depths} depths, top {t}");
                        }
                    }
                }
            }
        }
        assert_eq!(depth_onto(&WorkPile::EMPTY, 0, 5), None, "an empty slot");
    }
}
