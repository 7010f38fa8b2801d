//! Rule tests for Speed: each SPEED-* rule ID by a test that exercises it, and the
//! invariant checker over thousands of random matches with random flags.

mod memory;
mod search;

use crate::realtime::MatchRngs;
use crate::rng::{ChanceKey, MatchSeeds};
use super::config::{ScoreCounts, SpeedConfig, SPEED_FLAGS};
use super::game::{deal_points, fewer_cards_wins, play_match, SpeedEvent};
use super::invariants::InvariantChecker;
use super::rules::{has_play, legal_actions, SpeedAction, SpeedRules};
use super::state::{PlayerCards, SpeedState, HAND_LIMIT};
use super::strategies::{SpeedBot, REGISTRY};
use super::view::SpeedView;
use crate::bot::BotSpec;
use crate::cards::{Card, CardSet};
use crate::reaction::Motion;
use crate::realtime::{build_bots, synchronise, ActionList, EngineEvent, EngineObserver, Landing, Micros, Pile, RealtimeRules, Seated, Stall};
use crate::rng::{rng_from, SimRng};
use crate::settings::Settings;
use rand::RngExt;

fn bots(specs: &[&str]) -> Vec<SpeedBot> {
    let specs: Vec<BotSpec> = specs.iter().map(|s| BotSpec::parse(s).unwrap()).collect();
    build_bots(&specs, &REGISTRY).unwrap()
}

fn set(cards: &[Card]) -> CardSet {
    let mut s = CardSet::EMPTY;
    for &c in cards {
        s.insert(c);
    }
    s
}

/// A card of rank `r` (1 = A .. 13 = K) in suit `s`.
fn c(r: u8, s: u8) -> Card {
    Card::new(r, s)
}

/// A mid-deal state: the given hands and centre tops, every other card spread over the
/// stocks (`stocks[p]` cards each) and the side piles.
fn position(hands: [&[Card]; 2], tops: [Card; 2], stocks: [u32; 2], rng: &mut SimRng) -> SpeedState {
    let mut rest = CardSet::FULL;
    let mut players = [PlayerCards::default(); 2];
    for p in 0..2 {
        players[p].hand = set(hands[p]);
        rest = CardSet(rest.0 & !players[p].hand.0);
    }
    let mut centre = [Pile::EMPTY; 2];
    for j in 0..2 {
        rest.remove(tops[j]);
        centre[j].push(tops[j]);
    }
    for p in 0..2 {
        let (stock, r) = crate::cards::deal_split(rng, rest, stocks[p]);
        players[p].stock = stock;
        rest = r;
    }
    let (side0, side1) = crate::cards::deal_split(rng, rest, rest.len() / 2);
    SpeedState { players, side: [side0, side1], centre, shown: set(&tops), recycled_since_landing: false, recycles: 0, zone: ChanceKey(rng.random()), totals: [0; 2] }
}

fn legal(cfg: &SpeedConfig, s: &SpeedState, p: usize) -> Vec<SpeedAction> {
    let mut out = ActionList::new();
    legal_actions(cfg, s, p, &mut out);
    out.to_vec()
}

/// Records every event time and kind of a match.
#[derive(Default)]
struct Recorder {
    starts: Vec<(Micros, usize, SpeedAction)>,
    opening: Option<Micros>,
    tops_before_opening: Vec<Option<Card>>,
    busy: [bool; 2],
}

impl EngineObserver<SpeedState, SpeedAction> for Recorder {
    fn on_event(&mut self, t: Micros, ev: EngineEvent<SpeedAction>, s: &SpeedState) {
        match ev {
            EngineEvent::Start { player, action, .. } => {
                assert!(!self.busy[player], "SPEED-RT-1: player {player} started a second action while busy");
                assert!(s.players[player].flying.is_some() == matches!(action, SpeedAction::Play { .. }), "SPEED-RT-1: one card per action");
                self.busy[player] = true;
                self.starts.push((t, player, action));
            }
            EngineEvent::Landed { player, .. } | EngineEvent::Returned { player, .. } | EngineEvent::Cancelled { player, .. } => self.busy[player] = false,
            _ => {}
        }
    }
}

impl crate::realtime::MatchObserver<SpeedState, SpeedAction, SpeedEvent> for Recorder {
    fn on_match_event(&mut self, t: Micros, ev: SpeedEvent, s: &SpeedState) {
        match ev {
            SpeedEvent::Hands => self.tops_before_opening = s.centre.iter().map(|x| x.top).collect(),
            SpeedEvent::Opening => {
                assert!(s.centre.iter().all(|x| x.top.is_some()), "SPEED-START-1: both middle cards are up after the opening");
                self.opening = Some(t);
            }
            _ => {}
        }
    }
}

#[test]
fn speed_setup_1_deal_sizes_in_both_variants() {
    for (side, stock) in [(10u8, 15u32), (5, 20)] {
        let cfg = SpeedConfig { side_pile_size: side, ..SpeedConfig::default() };
        assert_eq!(cfg.stock_size(), stock);
        let s = SpeedState::deal(&cfg, &mut rng_from(side as u64), ChanceKey(1));
        assert_eq!([s.side[0].len(), s.side[1].len()], [side as u32; 2], "SPEED-SETUP-1: side piles");
        assert_eq!([s.players[0].stock.len(), s.players[1].stock.len()], [stock; 2], "SPEED-SETUP-1: personal stocks");
        assert!(s.players.iter().all(|p| p.hand.is_empty()), "SPEED-SETUP-1: hands are drawn later");
        assert_eq!([s.centre[0].len(), s.centre[1].len()], [1, 1], "SPEED-SETUP-1: one middle card each");
        assert!(s.centre.iter().all(|x| x.top.is_none()), "SPEED-SETUP-1: middle cards face-down");
        assert_eq!(s.census(), (CardSet::FULL, 52));
    }
}

#[test]
fn speed_setup_2_hands_of_five_from_own_stock_hidden_from_the_opponent() {
    let cfg = SpeedConfig::default();
    let mut rng = rng_from(7);
    let mut s = SpeedState::deal(&cfg, &mut rng, ChanceKey(7));
    let stocks = [s.players[0].stock, s.players[1].stock];
    s.draw_hands();
    for (me, stock) in s.players.iter().zip(stocks) {
        assert_eq!((me.hand.len(), me.stock.len()), (5, 10), "SPEED-SETUP-2: five cards in hand");
        assert_eq!(me.hand.0 & !stock.0, 0, "SPEED-SETUP-2: hand drawn from the player's own stock");
    }
    let view = SpeedView::new(&s, 1, &cfg);
    assert_eq!(view.hand(), s.players[1].hand);
    assert_eq!(view.hand_count(false), 5);
    assert_eq!(view.unseen().0 & s.players[0].hand.0, s.players[0].hand.0, "SPEED-SETUP-2: the opponent's hand is unseen");
}

#[test]
fn speed_start_1_middle_cards_turn_up_together_then_hands_rest() {
    // Machine bots: every movement is 100 ms per move, so the opening flip keeps both
    // hands busy for 200 ms and nobody can act before.
    let cfg = SpeedConfig::default();
    let b = bots(&["greedy@machine", "greedy@machine"]);
    let rules = SpeedRules::new(cfg);
    let seats = Seated::new(&[&b[0], &b[1]]);
    let mut rec = Recorder::default();
    play_match(&rules, &seats, &MatchSeeds::of_deal(3), &mut rec);
    assert_eq!(rec.tops_before_opening, [None, None], "SPEED-START-1: middle cards stay face-down until the opening");
    assert_eq!(rec.opening, Some(0));
    let first = rec.starts.iter().map(|x| x.0).min().unwrap();
    assert_eq!(first, 200_000, "SPEED-START-1: both hands rest for the synchronised flip");
    assert!(rec.starts.iter().filter(|x| x.0 == first).count() == 2, "SPEED-START-1: both players start together");
}

#[test]
fn speed_play_1_adjacent_ranks_with_and_without_wrap() {
    let mut rng = rng_from(1);
    // Hand A, 3, 7 against tops K and 2.
    let s = position([&[c(1, 0), c(3, 0), c(7, 0)], &[]], [c(13, 1), c(2, 1)], [10, 10], &mut rng);
    let wrap = SpeedConfig::default();
    let play = |card, pile| SpeedAction::Play { card, pile };
    assert_eq!(legal(&wrap, &s, 0), [play(c(1, 0), 0), play(c(1, 0), 1), play(c(3, 0), 1), SpeedAction::Draw], "SPEED-PLAY-1: A is next to K and 2");
    let straight = SpeedConfig { wrap: false, ..wrap };
    assert_eq!(legal(&straight, &s, 0), [play(c(1, 0), 0), play(c(3, 0), 1), SpeedAction::Draw], "SPEED-PLAY-1: with wrap=false A is only next to K");
}

#[test]
fn speed_play_1_first_touch_wins_and_the_later_card_goes_back_to_the_hand() {
    let mut rng = rng_from(2);
    let rules = SpeedRules::new(SpeedConfig::default());
    let mut s = position([&[c(6, 0), c(10, 0)], &[c(8, 0), c(10, 1)]], [c(7, 1), c(2, 1)], [10, 10], &mut rng);
    let (six, eight) = (SpeedAction::Play { card: c(6, 0), pile: 0 }, SpeedAction::Play { card: c(8, 0), pile: 0 });
    rules.lift(&mut s, 0, six);
    rules.lift(&mut s, 1, eight);
    assert_eq!(s.players[1].hand_count(), 2, "the card in flight still counts against the hand limit");
    assert_eq!(rules.land(&mut s, 0, six, 0), Landing::Placed, "SPEED-PLAY-1: 6 on 7");
    assert!(!rules.still_legal(&s, 1, eight, 0));
    assert_eq!(rules.land(&mut s, 1, eight, 0), Landing::Rejected, "SPEED-PLAY-1: 8 no longer fits the 6 that touched first");
    rules.put_back(&mut s, 1, eight);
    assert_eq!(s.players[1].hand, set(&[c(8, 0), c(10, 1)]), "SPEED-PLAY-1: the rejected card is back in the hand");
    assert_eq!(s.centre[0].top, Some(c(6, 0)));
    assert_eq!(s.census(), (CardSet::FULL, 52));
}

#[test]
fn speed_play_2_draw_only_below_five_cards_with_a_stock() {
    let mut rng = rng_from(3);
    let rules = SpeedRules::new(SpeedConfig::default());
    let five = [c(5, 0), c(5, 1), c(5, 2), c(5, 3), c(9, 0)];
    let four = [c(6, 0), c(6, 1), c(6, 2), c(6, 3)];
    let mut s = position([&five, &four], [c(12, 0), c(2, 1)], [10, 0], &mut rng);
    assert!(!legal(&rules.cfg, &s, 0).contains(&SpeedAction::Draw), "SPEED-PLAY-2: no draw with five cards");
    assert!(!legal(&rules.cfg, &s, 1).contains(&SpeedAction::Draw), "SPEED-PLAY-2: no draw from an empty stock");
    s.players[0].hand.remove(c(9, 0));
    s.players[0].stock.insert(c(9, 0));
    assert_eq!(legal(&rules.cfg, &s, 0), [SpeedAction::Draw], "SPEED-PLAY-2: four cards and a stock: draw");
    rules.lift(&mut s, 0, SpeedAction::Draw);
    assert_eq!(rules.land(&mut s, 0, SpeedAction::Draw, 0), Landing::Placed);
    assert_eq!((s.players[0].hand.len(), s.players[0].stock.len()), (5, 10), "SPEED-PLAY-2: one draw moves one card");
    assert_eq!(s.census(), (CardSet::FULL, 52));
}

#[test]
fn speed_rt_1_one_hand_one_card_with_play_and_draw_motions() {
    let b = bots(&["random@skilled", "greedy@novice"]);
    let rules = SpeedRules::new(SpeedConfig::default());
    let seats = Seated::new(&[&b[0], &b[1]]);
    assert_eq!(rules.motion(SpeedAction::Play { card: c(1, 0), pile: 0 }), Motion::Play, "SPEED-RT-1: PLAY motion");
    assert_eq!(rules.motion(SpeedAction::Draw), Motion::Draw, "SPEED-RT-1: DRAW motion");
    let (mut plays, mut draws) = (0, 0);
    for seed in 0..200 {
        let mut rec = Recorder::default();
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(seed), &mut rec);
        assert!(!out.capped);
        plays += rec.starts.iter().filter(|x| matches!(x.2, SpeedAction::Play { .. })).count();
        draws += rec.starts.iter().filter(|x| x.2 == SpeedAction::Draw).count();
    }
    assert!(plays > 0 && draws > 0, "SPEED-RT-1: both action types occur");
}

#[test]
fn speed_stall_1_stuck_only_with_a_full_hand_or_an_empty_stock_then_side_piles_turn() {
    let mut rng = rng_from(4);
    let b = bots(&["greedy", "greedy"]);
    let rules = SpeedRules::new(SpeedConfig::default());
    let seats = Seated::new(&[&b[0], &b[1]]);
    // No hand card fits K or 2 with wrap... except A and 3 and Q: hands avoid them.
    let p0 = [c(5, 0), c(5, 1), c(6, 2), c(7, 3), c(9, 0)];
    let p1 = [c(5, 2), c(6, 0), c(7, 1)];
    let mut s = position([&p0, &p1], [c(13, 1), c(2, 1)], [10, 0], &mut rng);
    assert!(!rules.has_progress(&s, 0), "SPEED-STALL-1: five cards and no play is stuck");
    assert!(!rules.has_progress(&s, 1), "SPEED-STALL-1: an empty stock and no play is stuck");
    assert_eq!(rules.stall(&s), Stall::Synchronised);
    let before = s;
    let took_part = synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(rng.random()));
    assert_eq!(&took_part[..2], [true, true], "SPEED-STALL-1: both players turn a side card at once");
    for j in 0..2 {
        assert_eq!(s.side[j].len() + 1, before.side[j].len(), "SPEED-STALL-1: one card from each side pile");
        assert_eq!(s.centre[j].len(), 2, "SPEED-STALL-1: onto the centre pile next to it");
        assert!(before.side[j].contains(s.centre[j].top.unwrap()));
    }
    // A player with four cards and a stock is never stuck: he can draw.
    s.players[0].hand.remove(c(9, 0));
    s.players[0].stock.insert(c(9, 0));
    assert!(rules.has_progress(&s, 0), "SPEED-STALL-1: fewer than five cards and a stock is not stuck");
}

#[test]
fn speed_stall_2_side_piles_reformed_from_the_centre_under_the_tops() {
    let b = bots(&["greedy", "greedy"]);
    let rules = SpeedRules::new(SpeedConfig::default());
    let seats = Seated::new(&[&b[0], &b[1]]);
    let mut splits = [0u32; 2];
    for seed in 0..40 {
        let mut rng = rng_from(seed);
        let mut s = position([&[c(5, 0)], &[c(5, 1)]], [c(13, 1), c(2, 1)], [0, 0], &mut rng);
        // Move every side card onto the centre: 3 under pile 0's top, 2 under pile 1's.
        let all_side = s.side[0].union(s.side[1]);
        let mut extra = all_side.iter();
        s.side = [CardSet::EMPTY; 2];
        for j in 0..2 {
            let top = s.centre[j].top.unwrap();
            for _ in 0..3 - j {
                s.centre[j].cards.insert(extra.next().unwrap());
            }
            assert_eq!(s.centre[j].top, Some(top));
        }
        let rest: Vec<Card> = extra.collect();
        for &x in &rest {
            s.players[0].stock.insert(x);
        }
        let tops = [s.centre[0].top, s.centre[1].top];
        let pool = CardSet(s.centre[0].cards.0 | s.centre[1].cards.0) ;
        assert_eq!(s.recyclable(), 5);
        assert_eq!(rules.stall(&s), Stall::Synchronised, "SPEED-STALL-2: empty side piles are re-formed");
        synchronise(&rules, &seats, &mut s, &mut MatchRngs::of_deal(rng.random()));
        assert_eq!(s.recycles, 1);
        let side = [s.side[0].len(), s.side[1].len()];
        assert!(side == [1, 2] || side == [2, 1], "SPEED-STALL-2: 5 cards split 3/2, one turned from each: {side:?}");
        splits[(side[0] == 2) as usize] += 1;
        for (pile, top) in s.centre.iter().zip(tops) {
            assert_eq!(pile.len(), 2, "SPEED-STALL-2: only the old top stays under the turned card");
            assert!(pile.cards.contains(top.unwrap()), "SPEED-STALL-2: the top card stays");
        }
        let now = CardSet(s.centre[0].cards.0 | s.centre[1].cards.0 | s.side[0].0 | s.side[1].0);
        assert_eq!(now, pool, "SPEED-STALL-2: the recycled cards are the centre cards");
        assert_eq!(s.census(), (CardSet::FULL, 52));
    }
    assert!(splits[0] > 0 && splits[1] > 0, "SPEED-STALL-2: the odd card goes to a random pile {splits:?}");
}

#[test]
fn speed_stall_2_nothing_to_recycle_ends_the_deal_and_fewer_cards_win() {
    let mut rng = rng_from(5);
    let rules = SpeedRules::new(SpeedConfig::default());
    let mut s = position([&[c(5, 0), c(5, 1)], &[c(5, 2)]], [c(13, 1), c(2, 1)], [0, 0], &mut rng);
    for x in s.side[0].union(s.side[1]).iter() {
        s.players[0].stock.insert(x);
    }
    s.side = [CardSet::EMPTY; 2];
    assert_eq!(s.recyclable(), 0);
    assert_eq!(rules.stall(&s), Stall::RoundOver, "SPEED-STALL-2: nothing to recycle ends the deal");
    assert_eq!(fewer_cards_wins(&s), Some(1), "SPEED-STALL-2: fewer cards win");
    s.players[0].stock = CardSet::EMPTY;
    s.players[0].hand.remove(c(5, 1));
    assert_eq!(fewer_cards_wins(&s), None, "SPEED-STALL-2: equal counts draw");
    // A second run-out with nothing landed since the re-forming also ends the deal.
    s.centre[0].cards.insert(c(5, 1));
    s.recycled_since_landing = true;
    assert_eq!(rules.stall(&s), Stall::RoundOver, "SPEED-STALL-2: no play can come after a fruitless pass");
    s.recycled_since_landing = false;
    assert_eq!(rules.stall(&s), Stall::Synchronised);
}

#[test]
fn speed_win_1_the_last_card_played_ends_the_deal() {
    let mut rng = rng_from(6);
    let rules = SpeedRules::new(SpeedConfig::default());
    let mut s = position([&[c(6, 0), c(9, 0)], &[c(5, 1)]], [c(7, 1), c(10, 1)], [0, 3], &mut rng);
    let six = SpeedAction::Play { card: c(6, 0), pile: 0 };
    rules.lift(&mut s, 0, six);
    assert_eq!(rules.land(&mut s, 0, six, 0), Landing::Placed, "SPEED-WIN-1: a card left in hand");
    let nine = SpeedAction::Play { card: c(9, 0), pile: 1 };
    rules.lift(&mut s, 0, nine);
    assert_eq!(rules.land(&mut s, 0, nine, 0), Landing::RoundOver, "SPEED-WIN-1: hand and stock empty wins the deal");
    assert_eq!(s.players[0].count(), 0);
}

#[test]
fn speed_score_1_points_per_card_and_the_target() {
    let loser = PlayerCards { hand: set(&[c(1, 0), c(2, 0)]), stock: set(&[c(3, 0), c(4, 0), c(5, 0)]), flying: None, ..PlayerCards::default() };
    let cfg = SpeedConfig::default();
    assert_eq!(deal_points(&cfg, &loser), 3, "SPEED-SCORE-1: stock_only counts the stock");
    let both = SpeedConfig { score_counts: ScoreCounts::HandAndStock, ..cfg };
    assert_eq!(deal_points(&both, &loser), 5, "SPEED-SCORE-1: hand_and_stock counts hand and stock");
    // Matches to 10 points: several fresh deals, the winner reaches the target first.
    let cfg = SpeedConfig { target: 10, score_counts: ScoreCounts::HandAndStock, ..cfg };
    let b = bots(&["smart@skilled", "greedy@casual"]);
    let rules = SpeedRules::new(cfg);
    let seats = Seated::new(&[&b[0], &b[1]]);
    let mut multi = 0;
    for seed in 0..100 {
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(seed), &mut checker);
        let w = out.winner.expect("SPEED-SCORE-1: a target match has a winner");
        assert!(out.points[w] >= 10 && out.points[1 - w] < 10, "SPEED-SCORE-1: points {:?}", out.points);
        assert_eq!(out.margin(), out.points[w] - out.points[1 - w]);
        multi += (out.deals > 1) as u32;
    }
    assert!(multi > 0, "SPEED-SCORE-1: some matches need more than one deal");
}

/// Random flags for one match.
fn random_flags(rng: &mut SimRng) -> SpeedConfig {
    let pick = |rng: &mut SimRng, v: &[&str]| v[rng.random_range(0..v.len())].to_string();
    let sets = vec![
        format!("speed.side_pile_size={}", pick(rng, &["10", "5"])),
        format!("speed.wrap={}", pick(rng, &["true", "false"])),
        format!("speed.score_counts={}", pick(rng, &["stock_only", "hand_and_stock"])),
        format!("speed.target={}", pick(rng, &["0", "0", "8"])),
    ];
    SpeedConfig::from_settings(&Settings::parse(&SPEED_FLAGS, &sets).unwrap())
}

/// Checks after every event that `has_progress` from the moves as bit sets is the rules'
/// test: a draw, or a hand card that fits a top (SPEED-STALL-1).
struct Progress {
    rules: SpeedRules,
    states: usize,
    stuck: usize,
}

impl Progress {
    fn check(&mut self, s: &SpeedState) {
        self.states += 1;
        for p in 0..2 {
            let want = s.players[p].can_draw() || has_play(&self.rules.cfg, s, p);
            assert_eq!(self.rules.has_progress(s, p), want, "player {p}, {s:?}");
            self.stuck += !want as usize;
        }
    }
}

/// An observer that hands every state of a match (after each engine and match event) to
/// its function: the tests' checks on every state.
pub(super) struct EveryState<F>(pub F);

impl<F: FnMut(&SpeedState)> EngineObserver<SpeedState, SpeedAction> for EveryState<F> {
    fn on_event(&mut self, _: Micros, _: EngineEvent<SpeedAction>, s: &SpeedState) {
        (self.0)(s);
    }
}

impl<F: FnMut(&SpeedState)> crate::realtime::MatchObserver<SpeedState, SpeedAction, SpeedEvent> for EveryState<F> {
    fn on_match_event(&mut self, _: Micros, _: SpeedEvent, s: &SpeedState) {
        (self.0)(s);
    }
}

#[test]
fn progress_from_the_moves_is_a_draw_or_a_fitting_hand_card_on_every_state_of_random_matches() {
    let names = ["random", "greedy", "smart"];
    let mut rng = rng_from(1919);
    let (mut states, mut stuck) = (0, 0);
    for i in 0..500u64 {
        let cfg = random_flags(&mut rng);
        let spec = |rng: &mut SimRng| format!("{}@expert", names[rng.random_range(0..3)]);
        let (a, b) = (spec(&mut rng), spec(&mut rng));
        let bots = bots(&[&a, &b]);
        let seats = Seated::new(&[&bots[0], &bots[1]]);
        let mut progress = Progress { rules: SpeedRules::new(cfg), states: 0, stuck: 0 };
        play_match(&SpeedRules::new(cfg), &seats, &MatchSeeds::of_deal(i), &mut EveryState(|s: &SpeedState| progress.check(s)));
        (states, stuck) = (states + progress.states, stuck + progress.stuck);
    }
    assert!(states > 20_000 && stuck > 1_000, "{states} states, {stuck} stuck players");
}

#[test]
fn speed_inv_1_and_rule_invariants_hold_after_every_event_of_random_matches() {
    let names = ["random", "greedy", "smart"];
    let presets = ["novice", "casual", "skilled", "expert", "machine"];
    let mut rng = rng_from(2024);
    let mut endings = [0u64; 3];
    let (mut events, mut recycles) = (0, 0);
    for i in 0..3000u64 {
        let cfg = random_flags(&mut rng);
        let spec = |rng: &mut SimRng| format!("{}@{}", names[rng.random_range(0..3)], presets[rng.random_range(0..5)]);
        let (a, b) = (spec(&mut rng), spec(&mut rng));
        let bots = bots(&[&a, &b]);
        let rules = SpeedRules::new(cfg);
        let seats = Seated::new(&[&bots[0], &bots[1]]);
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(i), &mut checker);
        assert!(!out.capped, "match {i} ({a} vs {b}, {cfg:?}) hit the cap");
        events += checker.events;
        recycles += checker.recycles;
        for (total, n) in endings.iter_mut().zip(checker.endings) {
            *total += n;
        }
    }
    assert!(events > 100_000, "SPEED-INV-1: {events} events checked");
    assert!(endings[0] > 0, "SPEED-WIN-1: deals won by going out {endings:?}");
    assert!(recycles > 0, "SPEED-STALL-2: side piles re-formed {recycles} times");
}

#[test]
#[should_panic(expected = "SPEED-INV-1")]
fn speed_inv_1_catches_a_lost_card() {
    let mut s = SpeedState::deal(&SpeedConfig::default(), &mut rng_from(1), ChanceKey(1));
    s.draw_hands();
    s.players[0].hand = CardSet::EMPTY;
    InvariantChecker::new(SpeedConfig::default()).check_state(&s);
}

#[test]
#[should_panic(expected = "SPEED-INV-1")]
fn speed_inv_1_catches_a_sixth_hand_card() {
    let mut s = SpeedState::deal(&SpeedConfig::default(), &mut rng_from(1), ChanceKey(1));
    s.draw_hands();
    let extra = s.players[0].stock.draw(&mut rng_from(3));
    s.players[0].hand.insert(extra);
    assert_eq!(s.players[0].hand.len(), HAND_LIMIT + 1);
    InvariantChecker::new(SpeedConfig::default()).check_state(&s);
}

#[test]
fn the_state_is_small() {
    assert!(std::mem::size_of::<SpeedState>() <= 120, "SpeedState is {} bytes", std::mem::size_of::<SpeedState>());
}

#[test]
fn a_match_replays_from_its_seeds() {
    let b = bots(&["smart@skilled", "random@expert"]);
    let rules = SpeedRules::new(SpeedConfig { target: 8, ..SpeedConfig::default() });
    let seats = Seated::new(&[&b[0], &b[1]]);
    for seed in 0..20 {
        assert_eq!(play_match(&rules, &seats, &MatchSeeds::of_deal(seed), &mut ()), play_match(&rules, &seats, &MatchSeeds::of_deal(seed), &mut ()));
    }
}

/// Win rate interval of the first bot over `games` seat-swapped matches.
fn first_bot_interval(specs: [&str; 2], games: u64) -> (f64, f64) {
    let entry: &dyn crate::games::GameEntry = &super::SPEED;
    let bots: Vec<BotSpec> = specs.iter().map(|s| BotSpec::parse(s).unwrap()).collect();
    let game = entry.build(&bots, &Settings::parse(&SPEED_FLAGS, &[]).unwrap()).unwrap();
    let cfg = crate::runner::RunConfig::distinct(games, 11, 2);
    let stats = crate::runner::run(game.as_match_game(), &cfg);
    assert_eq!(stats.capped, 0);
    let wins: u64 = stats.wins[0].iter().sum();
    crate::stats::wilson_interval(wins, stats.total_games(), crate::stats::Z_95)
}

#[test]
fn smart_beats_greedy_and_a_faster_preset_beats_a_slower_one() {
    let (low, _) = first_bot_interval(["smart@skilled", "greedy@skilled"], 40_000);
    assert!(low > 0.5, "smart against greedy at equal presets: interval starts at {low}");
    let (low, _) = first_bot_interval(["greedy@expert", "greedy@casual"], 2_000);
    assert!(low > 0.8, "expert against casual: interval starts at {low}");
}

#[test]
fn speed_stall_2_a_fruitless_pass_ends_real_deals_with_straight_ranks() {
    // With wrap=false and side piles of 5, about one deal in 3,000 between random bots
    // reaches a stall that no recycling can break; the checker asserts its outcome.
    let sets = ["speed.wrap=false".to_string(), "speed.side_pile_size=5".to_string()];
    let cfg = SpeedConfig::from_settings(&Settings::parse(&SPEED_FLAGS, &sets).unwrap());
    let b = bots(&["random@casual", "random@casual"]);
    let rules = SpeedRules::new(cfg);
    let seats = Seated::new(&[&b[0], &b[1]]);
    let found = (0..30_000u64).find(|&i| {
        let mut checker = InvariantChecker::new(cfg);
        let out = play_match(&rules, &seats, &MatchSeeds::of_deal(i), &mut checker);
        assert!(!out.capped);
        checker.endings[2] > 0
    });
    assert!(found.is_some(), "SPEED-STALL-2: no deadlocked deal in 30,000 matches");
}

/// Checks [`SpeedMoves`](super::moves::SpeedMoves) on every state a match passes through.
struct MovesCheck {
    cfg: SpeedConfig,
    strategies: Vec<Box<dyn super::strategies::SpeedStrategy>>,
    states: usize,
}

impl MovesCheck {
    fn check(&mut self, s: &SpeedState) {
        use crate::realtime::LegalMoves;
        self.states += 1;
        for p in 0..2 {
            // The rules text, card by card: plays in card order, pile 0 then 1, then the draw.
            let mut list = Vec::new();
            for card in s.players[p].hand.iter() {
                for j in 0..2 {
                    if s.centre[j].top.is_some_and(|t| super::rules::playable_on(&self.cfg, card, t)) {
                        list.push(SpeedAction::Play { card, pile: j as u8 });
                    }
                }
            }
            if s.players[p].hand_count() < HAND_LIMIT && !s.players[p].stock.is_empty() {
                list.push(SpeedAction::Draw);
            }
            let moves = super::moves::SpeedMoves::of(&self.cfg, s, p);
            assert_eq!(moves.iter().collect::<Vec<_>>(), list, "legal order, player {p}, {s:?}");
            assert_eq!(moves.count(), list.len());
            assert_eq!(moves.is_empty(), list.is_empty());
            for c in 0..52 {
                for pile in 0..2 {
                    let a = SpeedAction::Play { card: Card(c), pile };
                    assert_eq!(moves.contains(a), list.contains(&a), "{a:?}");
                }
            }
            assert_eq!(moves.contains(SpeedAction::Draw), list.contains(&SpeedAction::Draw));
            if list.is_empty() {
                continue;
            }
            let view = SpeedView::new(s, p, &self.cfg);
            for strategy in &self.strategies {
                let (mut r1, mut r2) = (rng_from(1), rng_from(1));
                assert_eq!(strategy.choose_moves(&view, &moves, &mut r1), strategy.choose(&view, &list, &mut r2), "player {p}, {s:?}");
            }
        }
    }
}

#[test]
fn bit_set_moves_are_the_listed_moves_and_strategies_choose_the_same_from_them() {
    let b = bots(&["random@expert", "smart@expert"]);
    let seats = Seated::new(&[&b[0], &b[1]]);
    for flags in [vec![], vec!["speed.wrap=false".to_string(), "speed.side_pile_size=5".to_string()]] {
        let cfg = SpeedConfig::from_settings(&Settings::parse(&SPEED_FLAGS, &flags).unwrap());
        let strategies = ["greedy", "smart"].map(|name| REGISTRY.iter().find(|r| r.info.name == name).unwrap().make_default()).into();
        let mut check = MovesCheck { cfg, strategies, states: 0 };
        for seed in 0..20 {
            play_match(&SpeedRules::new(cfg), &seats, &MatchSeeds::of_deal(seed), &mut EveryState(|s: &SpeedState| check.check(s)));
        }
        assert!(check.states > 1000, "{flags:?}: {} states", check.states);
    }
}
