//! The card-count invariants of nerts.md section 15 (NERTS-INV-1..9), as a checker to
//! run after every event: [`check_state`] for what holds in every state,
//! [`check_dealt`] for a fresh deal, and [`InvariantChecker`] for what may only change
//! in certain ways from one event to the next. Every error names its rule ID first.

use super::rules::{deck_score, team_scores, NertsAction};
use super::state::{is_joker, Eff, NertsState, MAX_LAYOUTS, MAX_STOCK, NERTS_PILE, NONE, WORK_PILES};
use crate::cards::Card;
use crate::realtime::Landing;

/// An event after which the invariants are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A seat took an action's cards into its hand.
    Lift {
        /// The seat.
        seat: usize,
        /// The action.
        action: NertsAction,
    },
    /// An action landed.
    Land {
        /// The seat.
        seat: usize,
        /// The action.
        action: NertsAction,
        /// What happened.
        landing: Landing,
    },
    /// A rejected or cancelled action's cards went back.
    PutBack {
        /// The seat.
        seat: usize,
        /// The action.
        action: NertsAction,
    },
    /// A global reset (NERTS-STUCK-4).
    Reset,
}

fn fail(id: &str, what: String) -> Result<(), String> {
    Err(format!("{id}: {what}"))
}

/// Checks what holds in every state: NERTS-INV-1 (each deck's cards exactly once), 2
/// (no card in another deck's layout), 4 and 5 (pile shapes), 6 (work piles descending
/// and alternating, consistent with Joker identities), 7 (foundations one suit rising
/// from the Ace, and the cards they take kept right), 8 (the score identity).
pub fn check_state(s: &NertsState) -> Result<(), String> {
    let full = s.deck_mask();
    for d in 0..MAX_LAYOUTS {
        let l = &s.layouts[d];
        let (mask, n) = l.census();
        if d >= s.n_layouts as usize {
            if n != 0 || s.on_found[d] != 0 {
                return fail("NERTS-INV-1", format!("deck {d} is not in play but has cards"));
            }
            continue;
        }
        if mask & !full != 0 || s.on_found[d] & !full != 0 {
            return fail("NERTS-INV-2", format!("layout {d} or its foundation cards hold a card that is not of its deck ({:#x})", (mask | s.on_found[d]) & !full));
        }
        let total = n + s.on_found[d].count_ones();
        if mask & s.on_found[d] != 0 || mask | s.on_found[d] != full || total != s.deck_size() {
            return fail(
                "NERTS-INV-1",
                format!(
                    "deck {d}: {total} cards counted (layout {n}, foundations {}), {} distinct, expected {}",
                    s.on_found[d].count_ones(),
                    (mask | s.on_found[d]).count_ones(),
                    s.deck_size()
                ),
            );
        }
        if l.nerts_len as usize > NERTS_PILE || (l.nerts_up || l.nerts_held) && l.nerts_len == 0 {
            return fail("NERTS-INV-4", format!("layout {d}: Nerts pile of {} cards, top up {}, held {}", l.nerts_len, l.nerts_up, l.nerts_held));
        }
        if l.sw_len as usize > MAX_STOCK || l.waste_len > l.sw_len || l.waste_held && l.waste_len == 0 {
            return fail("NERTS-INV-5", format!("layout {d}: stock and waste {} with waste {}", l.sw_len, l.waste_len));
        }
        check_work(s, d)?;
    }
    for p in 0..s.players as usize {
        if s.layout_of[p] >= s.n_layouts {
            return fail("NERTS-INV-2", format!("seat {p} plays on layout {} of {}", s.layout_of[p], s.n_layouts));
        }
    }
    let f = &s.found;
    for i in 0..f.len as usize {
        let (suit, rank, count) = (f.suit(i), f.rank(i), f.count[i]);
        if suit >= 4 || !(1..=13).contains(&rank) || count < rank || f.top_decks[i] == 0 {
            return fail("NERTS-INV-7", format!("foundation {i}: suit {suit}, rank {rank}, {count} cards"));
        }
    }
    if f.needs() != f.needs_of_tops() {
        return fail("NERTS-INV-7", format!("the foundations are kept as taking {:#x}, their tops take {:#x}", f.needs(), f.needs_of_tops()));
    }
    let on: u32 = (0..s.n_layouts as usize).map(|d| s.found_cards(d)).sum();
    if on != f.cards() {
        return fail("NERTS-INV-8", format!("{on} cards of the decks on foundations, {} on the foundations", f.cards()));
    }
    let by_deck: i32 = (0..s.n_layouts as usize).map(|d| s.found_cards(d) as i32 - 2 * s.layouts[d].nerts_len as i32).sum();
    let by_team: i32 = team_scores(s)[..s.teams as usize].iter().sum();
    let by_score: i32 = (0..s.n_layouts as usize).map(|d| deck_score(s, d)).sum();
    if by_deck != by_team || by_deck != by_score {
        return fail("NERTS-INV-8", format!("scores: {by_deck} by deck, {by_score} by deck_score, {by_team} by team"));
    }
    Ok(())
}

/// NERTS-INV-6 for the work piles of layout `d`.
fn check_work(s: &NertsState, d: usize) -> Result<(), String> {
    let l = &s.layouts[d];
    for (i, w) in l.work.iter().enumerate().take(WORK_PILES) {
        if w.held > w.len || !w.is_canonical() {
            return fail("NERTS-INV-6", format!("layout {d} pile {i}: {} cards, {} held", w.len, w.held));
        }
        for k in 0..w.len as usize {
            let e = l.eff(i, k);
            if e == Eff::Wild && w.len > 1 {
                return fail("NERTS-INV-6", format!("layout {d} pile {i}: an open Joker at {k} under other cards"));
            }
            if k > 0 {
                let below = l.eff(i, k - 1);
                let (Some(r), Some(c), Some(rb), Some(cb)) = (e.rank(), e.red(), below.rank(), below.red()) else {
                    return fail("NERTS-INV-6", format!("layout {d} pile {i}: card {k} or the one under it has no rank"));
                };
                if r + 1 != rb || c == cb {
                    return fail("NERTS-INV-6", format!("layout {d} pile {i}: {} on {} is not one lower in the other colour", name(e), name(below)));
                }
            }
            if is_joker(w.card(k)) && k + 1 < w.len as usize && l.joker_fixed[(w.card(k) - 52) as usize] == NONE {
                return fail("NERTS-INV-6", format!("layout {d} pile {i}: a Joker with a card on it has no fixed identity (NERTS-JOKER-4)"));
            }
        }
    }
    Ok(())
}

fn name(e: Eff) -> String {
    match e {
        Eff::Card(c) => c.name(),
        Eff::Implied { rank, red } => format!("Jk({rank} {})", if red { "red" } else { "black" }),
        Eff::Wild => "Jk".into(),
    }
}

/// NERTS-INV-3: the layout right after the deal: Nerts pile of 13 with only the top
/// face-up, four work piles of one card, stock 35 + J, empty waste, no foundation.
pub fn check_dealt(s: &NertsState) -> Result<(), String> {
    check_state(s)?;
    for (d, l) in s.layouts().iter().enumerate() {
        let stock = s.deck_size() - NERTS_PILE as u32 - WORK_PILES as u32;
        if l.nerts_len as usize != NERTS_PILE || !l.nerts_up || l.work.iter().any(|w| w.len != 1) || l.sw_len as u32 != stock || l.waste_len != 0 || l.locks != 0 {
            return fail(
                "NERTS-INV-3",
                format!(
                    "layout {d} after the deal: Nerts {} (up {}), work {:?}, stock {}, waste {}",
                    l.nerts_len,
                    l.nerts_up,
                    l.work.iter().map(|w| w.len).collect::<Vec<_>>(),
                    l.sw_len,
                    l.waste_len
                ),
            );
        }
    }
    if s.found.len != 0 || s.on_found.iter().any(|&m| m != 0) {
        return fail("NERTS-INV-3", "foundations after the deal".into());
    }
    Ok(())
}

/// True if `small` is `big` with some cards left out, order kept.
fn subsequence(small: &[u8], big: &[u8]) -> bool {
    let mut it = big.iter();
    small.iter().all(|x| it.any(|y| y == x))
}

/// Checks every state, and what may change between two events: NERTS-INV-4 (a Nerts
/// pile never grows and only loses its top), 5 (stock and waste never grow and keep
/// their cyclic order but for rotations), 7 (a foundation card lands one rank up in the
/// suit, or ties), 9 (no card leaves a foundation).
#[derive(Clone, Debug, Default)]
pub struct InvariantChecker {
    prev: Option<NertsState>,
    /// Events checked so far.
    pub checks: u64,
}

impl InvariantChecker {
    /// A checker that has seen nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts from a fresh deal (NERTS-INV-3 and every state invariant).
    pub fn dealt(&mut self, s: &NertsState) -> Result<(), String> {
        check_dealt(s)?;
        self.prev = Some(*s);
        self.checks += 1;
        Ok(())
    }

    /// Starts from any position (tests).
    pub fn starting_from(s: &NertsState) -> Self {
        InvariantChecker { prev: Some(*s), checks: 0 }
    }

    /// Checks `s` after `step`.
    pub fn step(&mut self, s: &NertsState, step: Step) -> Result<(), String> {
        self.checks += 1;
        check_state(s)?;
        if let Some(prev) = self.prev.replace(*s) {
            check_change(&prev, s, step)?;
        }
        Ok(())
    }
}

/// The invariants on the change from `a` to `b` by `step`.
fn check_change(a: &NertsState, b: &NertsState, step: Step) -> Result<(), String> {
    let reordered = matches!(step, Step::Reset | Step::Land { action: NertsAction::Rotate, .. });
    for d in 0..a.n_layouts as usize {
        let (la, lb) = (&a.layouts[d], &b.layouts[d]);
        if lb.nerts_len > la.nerts_len || la.nerts[..lb.nerts_len as usize] != lb.nerts[..lb.nerts_len as usize] {
            return fail("NERTS-INV-4", format!("layout {d}: Nerts pile went from {} to {} cards, or a card under the top changed", la.nerts_len, lb.nerts_len));
        }
        if la.nerts_len == lb.nerts_len && la.nerts_up && !lb.nerts_up {
            return fail("NERTS-INV-4", format!("layout {d}: the top Nerts card turned face-down"));
        }
        let (sa, sb) = (&la.sw[..la.sw_len as usize], &lb.sw[..lb.sw_len as usize]);
        if sb.len() > sa.len() {
            return fail("NERTS-INV-5", format!("layout {d}: stock and waste grew from {} to {}", sa.len(), sb.len()));
        }
        if !reordered && !subsequence(sb, sa) {
            return fail("NERTS-INV-5", format!("layout {d}: stock and waste lost their cyclic order"));
        }
        if b.on_found[d] & a.on_found[d] != a.on_found[d] {
            return fail("NERTS-INV-9", format!("deck {d}: a card left the foundations"));
        }
    }
    let (fa, fb) = (&a.found, &b.found);
    if fb.len < fa.len {
        return fail("NERTS-INV-9", format!("foundations went from {} to {}", fa.len, fb.len));
    }
    let mut changed = 0;
    for i in 0..fb.len as usize {
        if i < fa.len as usize {
            if fb.suit(i) != fa.suit(i) || fb.rank(i) < fa.rank(i) || fb.count[i] < fa.count[i] {
                return fail("NERTS-INV-9", format!("foundation {i} lost cards or changed suit"));
            }
            if fb.count[i] == fa.count[i] {
                continue;
            }
        }
        changed += 1;
        let (count_before, rank_before) = if i < fa.len as usize { (fa.count[i], fa.rank(i)) } else { (0, 0) };
        let grew = fb.count[i] - count_before;
        let (rank, suit) = (fb.rank(i), fb.suit(i));
        let tie = rank == rank_before;
        if grew != 1 || !(tie || rank == rank_before + 1) {
            return fail("NERTS-INV-7", format!("foundation {i} went from rank {rank_before} ({count_before} cards) to rank {rank} ({} cards)", fb.count[i]));
        }
        match step {
            Step::Land { action: NertsAction::ToFoundation { card, .. }, landing: Landing::Placed, .. } if card == Card::new(rank, suit) => {}
            _ => return fail("NERTS-INV-7", format!("foundation {i} changed to {} by {step:?}", Card::new(rank, suit).name())),
        }
    }
    let expected = matches!(step, Step::Land { action: NertsAction::ToFoundation { .. }, landing: Landing::Placed, .. }) as u32;
    if changed != expected {
        return fail("NERTS-INV-7", format!("{changed} foundations changed by {step:?}"));
    }
    Ok(())
}
