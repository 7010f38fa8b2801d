//! Special rules: validation (LOPTI-MAKE-3..8), each catalog rule firing on a hand-built
//! position, no rule ever vetoing a basic event, and the base invariants under random
//! sets of rules.

use super::catalog::{self, BUILT_IN, REJECTED};
use super::run::{Fired, Ruled};
use super::*;
use crate::games::lopti::config::{DrawTiming, Rules, SevenOnSeven, SwapOrder};
use crate::games::lopti::events::{Event, HookEvent, Hooked, NoObserver, Observer, When};
use crate::games::lopti::invariants::{check_state, InvariantChecker};
use crate::games::lopti::ranks::{parse_rank, Rank, THREE};
use crate::games::lopti::rules::{Action, ClearCause};
use crate::games::lopti::round::Dice;
use crate::games::lopti::state::{Phase, State, Swap};
use crate::games::lopti::strategies::{Burner, Lowest, Random, Strategy};
use crate::games::lopti::tests::{cards, table, Table};
use crate::games::lopti::view::View;
use crate::rng::{rng_from, MatchSeeds, SimRng};
use rand::RngExt;
use std::sync::Arc;

fn rank(name: &str) -> Rank {
    parse_rank(name).unwrap()
}

/// A book with the built-in rules `ids` in force (default parameters), made by seat 0.
fn book(ids: &[&str]) -> RuleBook {
    let catalog = Arc::new(Catalog::built_in());
    let mut b = RuleBook::empty(catalog.clone());
    for (k, id) in ids.iter().enumerate() {
        let i = catalog.find(id).unwrap_or_else(|| panic!("no rule {id}"));
        b.rules.push(InForce { rule: i as u8, params: catalog.rules[i].defaults(), maker: 0, created_round: 0, serial: k as u16 + 1 });
    }
    b
}

const LOWEST: [&dyn Strategy; 5] = [&Lowest; 5];

/// Plays `line` in `t` with `book`'s rules, every seat `lowest`; checks the invariants.
fn act(t: &mut Table, book: &RuleBook, line: &str) -> Fired {
    let a = Action::parse(line).unwrap();
    assert!(t.legal().contains(&line.to_string()), "{line} is not legal: {:?}", t.legal());
    let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
    let mut r = Ruled::new(&mut t.rec, book, &LOWEST, Dice::Seats(&mut dice));
    t.st.apply(a, &mut r);
    let fired = r.fired;
    assert_eq!(t.rec.inv.error, None, "an invariant broke after {line}");
    fired
}

fn fires(events: &[Event], id: &str) -> usize {
    events.iter().filter(|e| matches!(e, Event::RuleFires { rule, .. } if *rule == id)).count()
}

fn gives(events: &[Event]) -> Vec<(u8, u8, Rank)> {
    events.iter().filter_map(|e| if let Event::Give { from, to, rank } = *e { Some((from, to, rank)) } else { None }).collect()
}

fn rule_draws(events: &[Event]) -> Vec<u8> {
    events.iter().filter_map(|e| if let Event::Draw { seat, by_rule: true, .. } = *e { Some(seat) } else { None }).collect()
}

// ---------------------------------------------------------------- validation

#[test]
fn every_catalog_rule_is_valid_and_has_a_text_lopti_make_sim_1() {
    assert!(BUILT_IN.len() >= 10, "a catalog of at least ten rules");
    let mut events = std::collections::BTreeSet::new();
    for def in BUILT_IN {
        validate(def).unwrap_or_else(|e| panic!("{e}"));
        assert!(def.text.len() > 20, "{}: a description", def.id);
        for h in def.hooks {
            events.insert(h.event.name());
        }
    }
    assert!(events.len() >= 10, "the catalog covers different hook points: {events:?}");
    let catalog = Catalog::built_in();
    let mut again = catalog.clone();
    assert!(again.add(&catalog::CLEAR_GIFT).unwrap_err().contains("already in the catalog"));
}

#[test]
fn rules_that_break_lopti_make_3_to_8_are_rejected_with_a_clear_error() {
    for (def, id) in REJECTED {
        let e = validate(def).expect_err(def.id);
        assert!(e.contains(id), "{}: the error names {id}: {e}", def.id);
        assert!(e.starts_with(&format!("rule {}: hook 1", def.id)), "the error names the rule and the hook: {e}");
        assert!(!e.contains('\n'), "one line");
        let mut c = Catalog::built_in();
        assert!(c.add(def).is_err(), "LOPTI-MAKE-3..8: the catalog refuses {}", def.id);
    }
    // The issue's example, word for word.
    let e = validate(&catalog::EIGHT_SKIPS_DRAW).unwrap_err();
    assert!(e.contains("LOPTI-MAKE-3") && e.contains("never prevent or replace"), "{e}");
}

#[test]
fn no_veto_no_seat_no_loop_no_blocked_win_lopti_make_3_4_5_8() {
    let hook = |when, event, conds: &'static [Cond], effects: &'static [Effect]| Hook { when, event, conds, effects };
    let rule = |hooks: &'static [Hook]| RuleDef { id: "t", text: "a test rule that says what it does", params: &[], hooks };
    let check = |h: Hook| validate(Box::leak(Box::new(rule(Box::leak(Box::new([h])))))).err().unwrap_or_default();
    // LOPTI-MAKE-3: add, don't replace.
    assert!(check(hook(When::Before, HookEvent::TurnStart, &[], &[Effect::SkipTurn { who: Role::Actor }])).contains("LOPTI-MAKE-3"));
    assert!(check(hook(When::After, HookEvent::Play, &[], &[Effect::ReturnPlay])).contains("LOPTI-MAKE-3"));
    assert!(
        check(hook(When::Before, HookEvent::FaceupTakeover, &[], &[Effect::Draw { who: Role::Actor, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-3"),
        "filling the empty hand just before a takeover would replace it"
    );
    // LOPTI-MAKE-4: keep it playable.
    assert!(check(hook(When::After, HookEvent::Swap, &[], &[Effect::SwapOwn { who: Role::Actor }])).contains("LOPTI-MAKE-4"), "endless loop");
    assert!(check(hook(When::After, HookEvent::PlayerOut, &[], &[Effect::Give { who: Role::Previous, to: Direction::Next, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-4"));
    assert!(check(hook(When::After, HookEvent::Play, &[], &[Effect::Undo])).contains("LOPTI-MAKE-4"), "retroactive");
    assert!(check(hook(When::After, HookEvent::RoundEnd, &[], &[Effect::Draw { who: Role::Next, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-4"));
    assert!(check(hook(When::After, HookEvent::RuleVote, &[], &[Effect::CancelVote])).contains("LOPTI-MAKE-4"), "must not block voting");
    // LOPTI-VOTE-8: voting and RPS cannot be changed by any rule.
    assert!(check(hook(When::Before, HookEvent::RuleVote, &[], &[Effect::ChangeVoting])).contains("LOPTI-VOTE-8"));
    // LOPTI-MAKE-5: conditions and roles, never people.
    assert!(check(hook(When::After, HookEvent::Play, &[Cond::SeatIs(1)], &[Effect::Draw { who: Role::Next, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-5"));
    assert!(check(hook(When::After, HookEvent::Play, &[Cond::ActorIs(Role::Maker)], &[Effect::Draw { who: Role::Next, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-5"));
    assert!(check(hook(When::After, HookEvent::Play, &[], &[Effect::Draw { who: Role::Maker, cards: Amount::Const(1) }])).contains("LOPTI-MAKE-5"));
    assert_eq!(check(hook(When::After, HookEvent::Play, &[Cond::ActorIs(Role::Dealer)], &[Effect::Draw { who: Role::Next, cards: Amount::Const(1) }])), "", "roles are fine");
    // LOPTI-MAKE-8: add clear conditions, never stop a clear or the bonus.
    assert!(check(hook(When::Before, HookEvent::Clear, &[], &[Effect::CancelClear])).contains("LOPTI-MAKE-8"));
    assert!(check(hook(When::After, HookEvent::Clear, &[], &[Effect::CancelBonus])).contains("LOPTI-MAKE-8"));
    assert!(check(hook(When::After, HookEvent::Pickup, &[], &[Effect::Clear])).contains("LOPTI-MAKE-8"), "a clear condition is checked after a play");
    assert_eq!(check(hook(When::After, HookEvent::Play, &[Cond::Straight { plays: Amount::Const(3) }], &[Effect::Clear])), "");
    // Conditions read what the table sees.
    assert!(check(hook(When::Before, HookEvent::Draw, &[Cond::Rank(RankSet(1))], &[Effect::Give { who: Role::Actor, to: Direction::Next, cards: Amount::Const(1) }])).contains("hidden"));
}

#[test]
fn rules_from_toml_are_loaded_and_checked_the_same_way() {
    let ok = r#"
[[rule]]
id = "ace_tax"
text = "After an ace, the next player draws one card."
[[rule.param]]
name = "cards"
default = 1
min = 1
max = 3
[[rule.hook]]
when = "after"
event = "PLAY"
if = [{ rank = ["A"] }]
do = [{ draw = { who = "next", cards = "cards" } }]
"#;
    let rules = file::parse(ok).unwrap();
    assert_eq!(rules.len(), 1);
    let r = rules[0];
    assert_eq!((r.id, r.params[0].default), ("ace_tax", 1));
    assert_eq!(r.hooks[0].effects[0], Effect::Draw { who: Role::Next, cards: Amount::Param(0) });
    assert_eq!(r.hooks[0].conds[0], Cond::Rank(RankSet(1 << 12)));
    let eight = r#"
[[rule]]
id = "eight_skips_draw"
text = "An 8 makes the next player skip its draw."
[[rule.hook]]
when = "after"
event = "PLAY"
if = [{ rank = ["8"] }]
do = [{ skip_draw = { who = "next" } }]
"#;
    let e = file::parse(eight).unwrap_err();
    assert!(e.starts_with("rule eight_skips_draw: hook 1 (after PLAY)") && e.contains("LOPTI-MAKE-3"), "{e}");
    let seat = ok.replace(r#"who = "next""#, "who = { seat = 2 }");
    assert!(file::parse(&seat).unwrap_err().contains("LOPTI-MAKE-5"));
    let typo = ok.replace("PLAY", "PLAYS");
    assert!(file::parse(&typo).is_err());
    let bad_param = ok.replace(r#"cards = "cards""#, r#"cards = "count""#);
    assert!(file::parse(&bad_param).unwrap_err().contains("no parameter named 'count'"));
}

// ---------------------------------------------------------------- each rule fires

#[test]
fn clear_gift_fires_after_a_clear() {
    let b = book(&["clear_gift"]);
    let mut t = table(2).pile("K").hand(0, "10 5 9").down(0, "4").hand(1, "6").down(1, "4").start();
    let f = act(&mut t, &b, "play 10 x1");
    let ev = t.events();
    assert_eq!(f.by_rule[0], 1);
    assert_eq!(fires(&ev, "clear_gift"), 1);
    assert_eq!(gives(&ev), [(0, 1, rank("5"))], "lowest gives its least useful card");
    assert_eq!((t.hand(0), t.hand(1)), (cards("9"), cards("5 6")));
    assert!(t.st.turn.bonus && t.st.current == 0, "the clearer keeps the bonus play (LOPTI-MAKE-8)");
}

#[test]
fn pickup_extra_draw_fires_after_a_pickup() {
    let b = book(&["pickup_extra_draw"]);
    let mut t = table(2).pile("A").hand(0, "4").down(0, "5").hand(1, "6").down(1, "6").draw("Q J").start();
    act(&mut t, &b, "pickup");
    let ev = t.events();
    assert_eq!(rule_draws(&ev), [0]);
    assert_eq!(t.hand(0).len(), 3, "the pile and one more card");
    assert_eq!(t.st.current, 1, "the pick-up still ends the turn (LOPTI-PICK-2)");
}

#[test]
fn two_swap_fires_after_a_two() {
    let b = book(&["two_swap"]);
    let mut t = table(2).pile("K").hand(0, "2 10 5").up(0, "4 4 4").down(0, "6 6 6").hand(1, "8").down(1, "9").start();
    act(&mut t, &b, "play 2 x1");
    let ev = t.events();
    assert!(ev.contains(&Event::Swap { seat: 0, hand: rank("10"), face_up: rank("4") }), "{ev:?}");
    assert_eq!((t.hand(0), t.st.players[0].face_up), (cards("4 5"), cards("4 4 10")));
    let mut t = table(2).pile("K").hand(0, "A 10 5").up(0, "4 4 4").down(0, "6 6 6").hand(1, "8").down(1, "9").start();
    act(&mut t, &b, "play A x1");
    assert_eq!(fires(&t.events(), "two_swap"), 0, "only after a 2");
}

#[test]
fn quad_punish_fires_after_four_of_a_kind() {
    let b = book(&["quad_punish"]);
    let mut t = table(2).pile("6 6 6").hand(0, "6 9").down(0, "5").hand(1, "K").down(1, "4").draw("Q J").start();
    act(&mut t, &b, "play 6 x1");
    let ev = t.events();
    assert_eq!(rule_draws(&ev), [1], "the next player draws");
    assert_eq!(t.hand(1).len(), 2);
    assert!(t.st.turn.bonus, "LOPTI-MAKE-8: the bonus play stays");
    let mut t = table(2).pile("K").hand(0, "10 9").down(0, "5").hand(1, "K").down(1, "4").draw("Q J").start();
    act(&mut t, &b, "play 10 x1");
    assert_eq!(fires(&t.events(), "quad_punish"), 0, "not after a 10");
}

#[test]
fn takeover_tax_fires_when_face_up_cards_are_taken() {
    let b = book(&["takeover_tax"]);
    let mut t = table(2).pile("K").hand(0, "10").up(0, "Q Q 4").down(0, "5 5 5").hand(1, "8").down(1, "9").draw("J J").start();
    act(&mut t, &b, "play 10 x1");
    act(&mut t, &b, "play J x1");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Takeover { seat: 0, .. })));
    assert_eq!(rule_draws(&ev), [1]);
    assert_eq!(t.hand(1), cards("8 J"));
}

#[test]
fn equal_clear_adds_a_clear_condition_lopti_make_8() {
    let b = book(&["equal_clear"]);
    let mut t = table(2).pile("5 5|6 6").hand(0, "9 9 K").down(0, "4").hand(1, "8").down(1, "4").start();
    act(&mut t, &b, "play 9 x2");
    let ev = t.events();
    assert!(ev.iter().any(|e| matches!(e, Event::Clear { seat: 0, cause: ClearCause::SpecialRule, .. })), "LOPTI-CLEAR-2 (5)");
    assert!(t.st.pile.is_empty() && t.st.turn.bonus && t.st.current == 0, "LOPTI-CLEAR-1: the clear earns the bonus play");
    assert_eq!(t.st.counters.clears, 1);
    let mut t = table(2).pile("5|6 6").hand(0, "9 9 K").down(0, "4").hand(1, "8").down(1, "4").start();
    act(&mut t, &b, "play 9 x2");
    assert!(!t.st.pile.is_empty() && t.st.current == 1, "1, 2, 2 cards: no clear");
}

#[test]
fn straight_clear_adds_a_clear_condition() {
    let b = book(&["straight_clear"]);
    let mut t = table(2).pile("4|5").hand(0, "6 K").down(0, "4").hand(1, "8").down(1, "9").start();
    act(&mut t, &b, "play 6 x1");
    assert!(t.events().iter().any(|e| matches!(e, Event::Clear { cause: ClearCause::SpecialRule, .. })));
    assert!(t.st.turn.bonus && t.st.current == 0);
    let mut t = table(2).pile("4|6").hand(0, "7 K").down(0, "4").hand(1, "8").down(1, "9").start();
    act(&mut t, &b, "play 7 x1");
    assert_eq!(fires(&t.events(), "straight_clear"), 0, "4, 6, 7 is no straight");
}

#[test]
fn out_pass_left_fires_when_a_player_goes_out() {
    let b = book(&["out_pass_left"]);
    let mut t = table(3)
        .pile("8")
        .down(0, "9")
        .hand(1, "5 K")
        .down(1, "4")
        .hand(2, "4 Q")
        .down(2, "6")
        .rules(|r| r.play_for_rankings = true)
        .start();
    act(&mut t, &b, "blind");
    let ev = t.events();
    assert!(t.st.is_out(0) && t.st.winner == Some(0), "the rule does not stop him going out");
    assert_eq!(gives(&ev), [(1, 2, rank("5")), (2, 1, rank("4"))], "every remaining player passes to the left, the player out skipped");
    assert_eq!((t.hand(1), t.hand(2)), (cards("4 K"), cards("5 Q")));
}

#[test]
fn dealer_draw_fires_before_the_dealers_turn() {
    let mut b = book(&["dealer_draw"]);
    b.dealer = 1;
    let mut t = table(2).pile("8").hand(0, "9 K").down(0, "4").hand(1, "5").down(1, "4").draw("Q Q").start();
    act(&mut t, &b, "play 9 x1");
    let ev = t.events();
    let fired = ev.iter().position(|e| matches!(e, Event::RuleFires { rule: "dealer_draw", when: When::Before, .. })).unwrap();
    let turn = ev.iter().position(|e| matches!(e, Event::TurnStart { seat: 1, .. })).unwrap();
    assert!(fired < turn, "before TURN_START");
    assert_eq!(t.hand(1), cards("5 Q"));
}

#[test]
fn reveal_tax_fires_on_a_face_down_ten() {
    let b = book(&["reveal_tax"]);
    let mut t = table(3).pile("K").down(0, "10 10").hand(1, "5").down(1, "4").hand(2, "6").down(2, "4").draw("J Q A").start();
    act(&mut t, &b, "blind");
    let ev = t.events();
    assert_eq!(rule_draws(&ev), [1, 2], "every other player, clockwise");
    assert!(ev.iter().any(|e| matches!(e, Event::Clear { cause: ClearCause::Ten, .. })), "the 10 still clears");
}

#[test]
fn last_card_gift_fires_on_the_last_card_of_the_draw_pile() {
    let b = book(&["last_card_gift"]);
    let mut t = table(2).pile("8").hand(0, "9 K 5").down(0, "4").hand(1, "6").down(1, "4").draw("Q").start();
    act(&mut t, &b, "play 9 x1");
    let ev = t.events();
    assert_eq!(gives(&ev), [(0, 1, rank("5"))]);
    assert!(t.st.draw.is_empty());
}

#[test]
fn swap_fee_fires_after_a_swap() {
    let b = book(&["swap_fee"]);
    let mut st = State::deal(2, 0, Rules::default(), &MatchSeeds::of_deal(3), &mut NoObserver);
    let p = st.players[0];
    let swap = Swap { hand: p.hand.nth(0), face_up: p.face_up.nth(0) };
    let mut inv = InvariantChecker::default();
    let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
    let mut r = Ruled::new(&mut inv, &b, &LOWEST, Dice::Seats(&mut dice));
    st.apply_swap(0, Some(swap), &mut r);
    assert_eq!(r.fired.by_rule[0], 1);
    assert_eq!(st.players[0].hand.len(), 4, "three cards and the fee");
    assert!(check_state(&st).is_ok(), "LOPTI-INV-8 counts cards a special rule gave");
}

#[test]
fn winner_handicap_fires_after_the_deal() {
    let mut b = book(&["winner_handicap"]);
    b.last_winner = Some(2);
    let mut inv = InvariantChecker::default();
    let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
    let mut r = Ruled::new(&mut inv, &b, &LOWEST, Dice::Seats(&mut dice));
    let seeds = MatchSeeds::of_deal(9);
    let st = State::deal_with(3, 0, Rules::default(), &mut seeds.deal_rng(), seeds.hidden(), &mut r);
    let hands: Vec<u32> = st.players[..3].iter().map(|p| p.hand.len()).collect();
    assert_eq!(hands, [3, 3, 4], "the last winner draws one");
    assert_eq!(st.draw.len(), 52 - 27 - 1);
    assert_eq!(inv.error, None, "LOPTI-INV-2 holds for the deal itself");
}

#[test]
fn failed_vote_draw_fires_after_a_failed_rule_vote() {
    let b = book(&["failed_vote_draw"]);
    let mut st = State::deal(4, 0, Rules::default(), &MatchSeeds::of_deal(2), &mut NoObserver);
    let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
    let mut quiet = NoObserver;
    let mut r = Ruled::new(&mut quiet, &b, &LOWEST, Dice::Seats(&mut dice));
    let vote = |passed| Hooked { passed: Some(passed), ..Hooked::of(HookEvent::RuleVote, Some(1)) };
    r.fire(&mut st, When::After, &vote(true));
    assert_eq!(st.players[1].hand.len(), 3, "a vote that passed costs nothing");
    r.fire(&mut st, When::After, &vote(false));
    assert_eq!(st.players[1].hand.len(), 4, "the proposer of the failed vote draws");
}

#[test]
fn big_pickup_shared_fires_before_a_big_pickup() {
    let b = book(&["big_pickup_shared"]);
    let mut t = table(3).pile("4 4|5 5|6 6").hand(0, "K").down(0, "9").hand(1, "8").down(1, "9").hand(2, "7").down(2, "9").draw("Q J").start();
    act(&mut t, &b, "pickup");
    let ev = t.events();
    let draw = ev.iter().position(|e| matches!(e, Event::Draw { seat: 2, by_rule: true, .. })).expect("the player before draws");
    let pickup = ev.iter().position(|e| matches!(e, Event::Pickup { seat: 0, .. })).unwrap();
    assert!(draw < pickup, "before PICKUP");
    assert_eq!(t.hand(0).len(), 7, "and the pick-up happens (LOPTI-MAKE-3)");
    let mut t = table(3).pile("4 4").hand(0, "K").down(0, "9").hand(1, "8").down(1, "9").hand(2, "7").down(2, "9").draw("Q J").start();
    act(&mut t, &b, "pickup");
    assert_eq!(fires(&t.events(), "big_pickup_shared"), 0, "a small pile");
}

#[test]
fn bonus_swap_fires_after_a_bonus_play() {
    let b = book(&["bonus_swap"]);
    let mut t = table(2).pile("K").hand(0, "10 5 A").up(0, "4 4 4").down(0, "6 6 6").hand(1, "8").down(1, "9").start();
    act(&mut t, &b, "play 10 x1");
    assert_eq!(fires(&t.events(), "bonus_swap"), 0, "the 10 was no bonus play");
    act(&mut t, &b, "play A x1");
    let ev = t.events();
    assert!(ev.contains(&Event::Swap { seat: 0, hand: rank("5"), face_up: rank("4") }), "{ev:?}");
}

/// Swaps whenever a rule lets it (a bot that makes hook chains).
struct AlwaysSwap;

impl Strategy for AlwaysSwap {
    fn swap(&self, _: &View, _: &mut SimRng) -> Option<Swap> {
        None
    }
    fn act(&self, _: &View, legal: &crate::games::lopti::rules::Actions, _: &mut SimRng) -> Action {
        legal[0]
    }
    fn rule_swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        Some(Swap { hand: view.hand().nth(0), face_up: view.face_up().nth(0) })
    }
}

#[test]
fn hook_chains_stop_at_the_depth_limit_lopti_make_sim_1() {
    // Each rule alone is fine; together a draw sets off a swap that sets off a draw ...
    let rules = file::parse(
        r#"
[[rule]]
id = "draw_then_swap"
text = "After a draw, the player who drew may swap a hand card with a face-up card."
[[rule.hook]]
when = "after"
event = "DRAW"
do = [{ swap_own = { who = "actor" } }]
"#,
    )
    .unwrap();
    let swap_draws = &catalog::SWAP_FEE;
    let mut catalog = Catalog::built_in();
    catalog.add(rules[0]).unwrap();
    let catalog = Arc::new(catalog);
    for depth in [2u8, 8] {
        let mut b = RuleBook::empty(catalog.clone());
        b.max_depth = depth;
        for (k, def) in [rules[0], swap_draws].iter().enumerate() {
            let i = catalog.find(def.id).unwrap();
            b.rules.push(InForce { rule: i as u8, params: def.defaults(), maker: 0, created_round: 0, serial: k as u16 + 1 });
        }
        let mut t = table(2).pile("8").hand(0, "9").up(0, "4 4 4").down(0, "5 5 5").hand(1, "6").down(1, "4").draw("Q Q Q J J J K K K A A").start();
        let bots: [&dyn Strategy; 5] = [&AlwaysSwap; 5];
        let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
        let mut r = Ruled::new(&mut t.rec, &b, &bots, Dice::Seats(&mut dice));
        t.st.apply(Action::Play { rank: rank("9"), count: 1 }, &mut r);
        let fired = r.fired;
        assert_eq!(fired.depth_limited, 1, "depth {depth}: the chain is cut once");
        assert_eq!(fired.by_rule[0] + fired.by_rule[1], depth as u32, "depth {depth}: hooks nest {depth} deep, no more");
        assert_eq!(t.rec.inv.error, None);
        assert!(t.events().iter().any(|e| matches!(e, Event::HookDepthLimit { .. })));
        assert_eq!(t.st.current, 1, "the turn still ends normally");
    }
}

// ---------------------------------------------------------------- no veto, invariants

/// The basic event an engine event is, for matching `before` hooks.
fn basic(ev: &Event) -> Option<(HookEvent, Option<u8>)> {
    Some(match *ev {
        Event::Deal { seat, .. } => (HookEvent::Deal, Some(seat)),
        Event::Swap { seat, .. } => (HookEvent::Swap, Some(seat)),
        Event::TurnStart { seat, .. } => (HookEvent::TurnStart, Some(seat)),
        Event::Play { seat, .. } => (HookEvent::Play, Some(seat)),
        Event::Pickup { seat, .. } => (HookEvent::Pickup, Some(seat)),
        Event::Draw { seat, .. } => (HookEvent::Draw, Some(seat)),
        Event::Clear { seat, .. } => (HookEvent::Clear, Some(seat)),
        Event::Takeover { seat, .. } => (HookEvent::FaceupTakeover, Some(seat)),
        Event::Reveal { seat, .. } => (HookEvent::FacedownReveal, Some(seat)),
        Event::Out { seat, .. } => (HookEvent::PlayerOut, Some(seat)),
        Event::End { .. } => (HookEvent::RoundEnd, None),
        _ => return None,
    })
}

/// Watches a game with special rules for anything a veto would look like: a `before` hook
/// whose event then does not happen, a skipped turn, a clear without its bonus play, a
/// play whose cards leave the pile, plus every invariant (LOPTI-INV-*).
#[derive(Default)]
struct VetoChecker {
    inv: InvariantChecker,
    error: Option<String>,
    expected: Vec<(HookEvent, Option<u8>)>,
    last_turn: Option<u8>,
    starter: Option<u8>,
    play: Option<(Rank, u8)>,
    clear_by: Option<u8>,
    fired: std::collections::BTreeMap<&'static str, u32>,
}

impl VetoChecker {
    fn fail(&mut self, e: String) {
        self.error.get_or_insert(e);
    }
}

impl Observer for VetoChecker {
    fn event(&mut self, s: &State, ev: Event) {
        self.inv.event(s, ev);
        if let Some((r, n)) = self.play.take() {
            if r != THREE && !matches!(ev, Event::Clear { .. }) && s.pile.top() != Some((r, n)) {
                self.fail(format!("LOPTI-MAKE-3: the play {r} x{n} left the pile ({:?}) before {ev:?}", s.pile));
            }
        }
        if let Event::RuleFires { rule, when, event, actor } = ev {
            *self.fired.entry(rule).or_default() += 1;
            if when == When::Before {
                let event = if event == HookEvent::BonusPlay { HookEvent::Play } else { event };
                self.expected.push((event, actor));
            }
        }
        if let Some(b) = basic(&ev) {
            if let Some(i) = self.expected.iter().position(|&e| e == b) {
                self.expected.remove(i);
            }
        }
        match ev {
            Event::TurnStart { seat, .. } => {
                let want = match self.last_turn {
                    Some(p) => s.next_active(p),
                    None => self.starter.unwrap_or(s.starter),
                };
                if seat != want {
                    self.fail(format!("LOPTI-MAKE-3: P{seat}'s turn started, P{want} was next: a turn was skipped"));
                }
                self.last_turn = Some(seat);
                if let Some(c) = self.clear_by.take() {
                    self.fail(format!("LOPTI-MAKE-8: P{c} cleared but got no bonus play"));
                }
            }
            Event::Play { rank, count, .. } => self.play = Some((rank, count)),
            // LOPTI-WIN-3: a player who went out with the clearing play gets no bonus play.
            Event::Clear { seat, .. } if !s.is_out(seat) => self.clear_by = Some(seat),
            Event::Bonus { seat } if self.clear_by == Some(seat) => self.clear_by = None,
            Event::Out { seat, .. } if self.clear_by == Some(seat) => self.clear_by = None,
            Event::End { capped: false, cycled: false, .. } => {
                if let Some(c) = self.clear_by.take() {
                    self.fail(format!("LOPTI-MAKE-8: P{c} cleared but got no bonus play"));
                }
            }
            _ => {}
        }
    }

    fn resolved(&mut self, s: &State) {
        self.inv.resolved(s);
        if !self.expected.is_empty() {
            let e = format!("LOPTI-MAKE-3: before-hooks fired but their events never came: {:?}", self.expected);
            self.fail(e);
        }
        for seat in 0..s.n {
            if s.players[seat as usize].cards() == 0 && !s.is_out(seat) {
                self.fail(format!("LOPTI-MAKE-4: P{seat} holds no cards but is not out"));
            }
        }
    }
}

fn random_rules(rng: &mut SimRng) -> Rules {
    Rules {
        seven_on_seven: if rng.random() { SevenOnSeven::Free } else { SevenOnSeven::EqualMore },
        draw_timing: if rng.random() { DrawTiming::EndOfTurn } else { DrawTiming::BeforeBonus },
        empty_clear_bonus: rng.random(),
        facedown_may_pickup: rng.random(),
        bonus_optional: rng.random(),
        swap_order: if rng.random() { SwapOrder::ClockwiseFromStarter } else { SwapOrder::Simultaneous },
        play_for_rankings: rng.random(),
        max_turns: 20_000,
    }
}

/// Plays one random game with `book` (roles drawn at random), returning the checker.
fn random_game(book: &mut RuleBook, g: u64, rng: &mut SimRng) -> (VetoChecker, State) {
    let n = rng.random_range(2..=5u8);
    let rules = random_rules(rng);
    let all: [&dyn Strategy; 3] = [&Random, &Lowest, &Burner];
    let bots: Vec<&dyn Strategy> = (0..n).map(|_| all[rng.random_range(0..3)]).collect();
    book.dealer = rng.random_range(0..n);
    book.last_winner = rng.random_bool(0.7).then(|| rng.random_range(0..n));
    let starter = book.last_winner.unwrap_or(book.dealer);
    let mut dice: Vec<SimRng> = (0..n as u64).map(|s| rng_from(g * 7 + s)).collect();
    let mut check = VetoChecker { starter: Some(starter), ..Default::default() };
    let seeds = MatchSeeds::of_deal(g);
    let mut r = Ruled::new(&mut check, book, &bots, Dice::Seats(&mut dice));
    let mut st = State::deal_with(n, starter, rules, &mut seeds.deal_rng(), seeds.hidden(), &mut r);
    let proposer = rng.random_range(0..n);
    let vote = Hooked { passed: Some(rng.random()), ..Hooked::of(HookEvent::RuleVote, Some(proposer)) };
    r.fire(&mut st, When::After, &vote);
    r.play(&mut st);
    assert_eq!(st.phase, Phase::Over);
    (check, st)
}

/// 400 random games (2-5 players, random flags and bots, the rule's parameters varied over
/// its alternatives) with rule `id` in force: no sign of a veto, every invariant, and the
/// rule fires.
fn never_vetoes(id: &str) {
    let catalog = Arc::new(Catalog::built_in());
    let i = catalog.find(id).unwrap();
    let def = catalog.rules[i];
    let mut rng = rng_from(11 + i as u64);
    let mut total = 0;
    for g in 0..400u64 {
        let mut b = RuleBook::empty(catalog.clone());
        let mut params = def.defaults();
        for (v, p) in params.iter_mut().zip(def.params) {
            *v = p.alternatives[g as usize % p.alternatives.len()];
        }
        b.rules.push(InForce { rule: i as u8, params, maker: 0, created_round: 0, serial: 1 });
        let (check, st) = random_game(&mut b, g, &mut rng);
        assert_eq!(check.error, None, "{id}: game {g}");
        assert_eq!(check.inv.error, None, "{id}: game {g}: invariants");
        assert!(!st.capped, "{id}: game {g} capped");
        total += check.fired.get(def.id).copied().unwrap_or(0);
    }
    assert!(total > 0, "{id} never fired in 400 random games");
}

/// One "never vetoes a basic event" test per catalog rule (LOPTI-MAKE-3).
macro_rules! never_vetoes {
    ($($name:ident: $id:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                never_vetoes($id);
            }
        )*
        /// The rules with a test above.
        const NEVER_VETOES: &[&str] = &[$($id),*];
    };
}

never_vetoes! {
    clear_gift_never_vetoes_a_basic_event: "clear_gift",
    pickup_extra_draw_never_vetoes_a_basic_event: "pickup_extra_draw",
    two_swap_never_vetoes_a_basic_event: "two_swap",
    quad_punish_never_vetoes_a_basic_event: "quad_punish",
    takeover_tax_never_vetoes_a_basic_event: "takeover_tax",
    equal_clear_never_vetoes_a_basic_event: "equal_clear",
    straight_clear_never_vetoes_a_basic_event: "straight_clear",
    out_pass_left_never_vetoes_a_basic_event: "out_pass_left",
    dealer_draw_never_vetoes_a_basic_event: "dealer_draw",
    reveal_tax_never_vetoes_a_basic_event: "reveal_tax",
    last_card_gift_never_vetoes_a_basic_event: "last_card_gift",
    swap_fee_never_vetoes_a_basic_event: "swap_fee",
    winner_handicap_never_vetoes_a_basic_event: "winner_handicap",
    failed_vote_draw_never_vetoes_a_basic_event: "failed_vote_draw",
    big_pickup_shared_never_vetoes_a_basic_event: "big_pickup_shared",
    bonus_swap_never_vetoes_a_basic_event: "bonus_swap",
}

#[test]
fn every_catalog_rule_has_a_no_veto_test_lopti_make_3() {
    let ids: Vec<&str> = BUILT_IN.iter().map(|d| d.id).collect();
    assert_eq!(ids, NEVER_VETOES, "one never-vetoes test per catalog rule, in catalog order");
}

#[test]
fn invariants_hold_after_every_action_with_random_sets_of_catalog_rules() {
    let catalog = Arc::new(Catalog::built_in());
    let mut rng = rng_from(5);
    let (mut games, mut fired, mut capped) = (0, 0u64, 0);
    for g in 0..3000u64 {
        let mut b = RuleBook::empty(catalog.clone());
        b.max_depth = rng.random_range(1..=8);
        for (i, def) in catalog.rules.iter().enumerate() {
            if rng.random_bool(0.35) {
                let mut params = def.defaults();
                for (v, p) in params.iter_mut().zip(def.params) {
                    *v = rng.random_range(p.min..=p.max);
                }
                b.rules.push(InForce { rule: i as u8, params, maker: 0, created_round: 0, serial: b.rules.len() as u16 + 1 });
            }
        }
        let (check, st) = random_game(&mut b, 10_000 + g, &mut rng);
        assert_eq!(check.inv.error, None, "LOPTI-INV-1..9 after every action, game {g}, rules {:?}", b.rules.iter().map(|r| b.def(r).id).collect::<Vec<_>>());
        assert_eq!(check.error, None, "game {g}");
        assert!(check.inv.checks > 0);
        fired += check.fired.values().map(|&v| v as u64).sum::<u64>();
        capped += st.capped as u32;
        games += 1;
    }
    assert_eq!(capped, 0, "random games with special rules end");
    assert!(fired > 10 * games, "the rules fire ({fired} times in {games} games)");
}

#[test]
fn ruled_play_without_rules_is_the_base_game() {
    // The same deal and dice with an empty rule book play the same game as play_round.
    let catalog = Arc::new(Catalog::built_in());
    let b = RuleBook::empty(catalog);
    for g in 0..300u64 {
        let bots: [&dyn Strategy; 3] = [&Random, &Lowest, &Burner];
        let seeds = MatchSeeds::of_deal(g);
        let mut a = State::deal(3, 0, Rules::default(), &seeds, &mut NoObserver);
        let mut base = a;
        let mut dice_a: Vec<SimRng> = (0..3).map(|s| seeds.player_rng(s)).collect();
        let mut dice_b = dice_a.clone();
        let mut quiet = NoObserver;
        Ruled::new(&mut quiet, &b, &bots, Dice::Seats(&mut dice_a)).play(&mut a);
        crate::games::lopti::round::play_round(&mut base, &bots, Dice::Seats(&mut dice_b), &mut NoObserver).expect("built-in bots choose legal actions");
        assert_eq!(a, base, "deal {g}");
    }
    let lowest: [&dyn Strategy; 2] = [&Lowest, &Lowest];
    let mut cycled = 0;
    for g in 0..400u64 {
        let seeds = MatchSeeds::of_deal(g);
        let mut a = State::deal(2, 0, Rules::default(), &seeds, &mut NoObserver);
        let mut base = a;
        let book = book(&[]);
        let mut d1 = [rng_from(1), rng_from(2)];
        let mut d2 = d1.clone();
        Ruled::new(&mut NoObserver, &book, &lowest, Dice::Seats(&mut d1)).play(&mut a);
        crate::games::lopti::round::play_round(&mut base, &lowest, Dice::Seats(&mut d2), &mut NoObserver).expect("built-in bots choose legal actions");
        assert_eq!(a, base, "deal {g}: the repeated-position stop works the same");
        cycled += a.cycled as u32;
    }
    assert!(cycled > 0);
}
