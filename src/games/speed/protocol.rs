//! Speed in the bot protocol (docs/bot-protocol.md section 5.2): the player's view and
//! legal actions as JSON, and [`External`], the strategy that asks an external bot.

use super::rules::SpeedAction;
use super::state::HandMemory;
use super::strategies::SpeedStrategy;
use super::trace::describe;
use super::view::SpeedView;
use crate::cards::{Card, CardSet};
use crate::external::ExternalBot;
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// Never legal: what a faulted bot "chooses", so that the engine's legality check stops
/// the match.
const STOP: SpeedAction = SpeedAction::Play { card: Card(0), pile: u8::MAX };

fn names(cards: CardSet) -> Vec<String> {
    cards.iter().map(Card::name).collect()
}

/// The view as the protocol writes it.
pub fn view_json(view: &SpeedView) -> Value {
    let seat = view.seat();
    // Per seat `[seat 0, seat 1]`: `mine` is true at the viewer's seat.
    let per_seat = |f: &dyn Fn(bool) -> Value| -> [Value; 2] { [f(seat == 0), f(seat == 1)] };
    let piles: Vec<Value> = (0..2).map(|j| view.pile_top(j).map_or(Value::Null, |c| Value::from(c.name()))).collect();
    json!({
        "seat": seat,
        "hand": names(view.hand()),
        "hand_counts": per_seat(&|mine| view.hand_count(mine).into()),
        "in_flight": per_seat(&|mine| view.in_flight(mine).into()),
        "stock_counts": per_seat(&|mine| view.stock_count(mine).into()),
        "side_counts": [view.side_count(0), view.side_count(1)],
        "piles": piles,
        "pile_cards": [names(view.centre_cards(0)), names(view.centre_cards(1))],
        "shown": names(view.shown()),
        "recycles": view.recycles(),
        "recycled_since_landing": view.recycled_since_landing(),
        "totals": view.totals(),
        "drawing": per_seat(&|mine| view.hand_memory(mine).drawing().into()),
        "hand_exclusions": per_seat(&|mine| exclusions_json(view.hand_memory(mine), view.hand_count(mine))),
    })
}

/// A hand memory as the protocol writes it: per hand card, oldest first, the rank values
/// (1 = A .. 13 = K) it cannot be.
fn exclusions_json(memory: HandMemory, cards: u32) -> Value {
    (0..cards).map(|i| (1..=13u8).filter(|r| memory.slot(i) >> (r - 1) & 1 == 1).collect::<Vec<u8>>()).collect::<Vec<_>>().into()
}

/// One legal action as the protocol writes it (without its index).
pub fn action_json(a: SpeedAction) -> Value {
    let (_, mut fields, text) = describe(a, None);
    if a == SpeedAction::Draw {
        fields.as_object_mut().expect("an object").remove("card");
    }
    fields["text"] = json!(text);
    fields
}

/// A Speed strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl SpeedStrategy for External {
    fn choose(&self, view: &SpeedView, legal: &[SpeedAction], _: &mut SimRng) -> Option<SpeedAction> {
        self.0.choose_move(view_json(view), legal, action_json, STOP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::BotSpec;
    use crate::games::speed::config::{SpeedConfig, SPEED_FLAGS};
    use crate::games::speed::game::play_match;
    use crate::games::speed::state::SpeedState;
    use crate::games::speed::strategies::REGISTRY;
    use crate::games::speed::tests::EveryState;
    use crate::realtime::{build_bots, Seated};
    use crate::rng::{rng_from, MatchSeeds};
    use crate::settings::Settings;
    use rand::RngExt;
    use std::collections::BTreeSet;

    /// Checks, after every event, both players' protocol views against the full state.
    struct ViewCheck {
        cfg: SpeedConfig,
        checked: u64,
    }

    impl ViewCheck {
        fn check(&mut self, s: &SpeedState) {
            for me in 0..2 {
                let v = view_json(&SpeedView::new(s, me, &self.cfg));
                let keys: BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
                let fields = ["seat", "hand", "hand_counts", "in_flight", "stock_counts", "side_counts", "piles", "pile_cards", "shown", "recycles", "recycled_since_landing", "totals", "drawing", "hand_exclusions"];
                assert_eq!(keys, BTreeSet::from(fields), "the view's fields");
                let hand = &s.players[me].hand;
                assert_eq!(v["seat"], json!(me));
                assert_eq!(v["hand"], json!(hand.iter().map(Card::name).collect::<Vec<_>>()), "the own hand, in card order");
                assert_eq!(v["hand_counts"], json!(s.players.iter().map(|p| p.hand.len() + p.flying.is_some() as u32).collect::<Vec<_>>()), "hand sizes per seat, a card in flight counted");
                assert_eq!(v["piles"], json!(s.centre.iter().map(|p| p.top.map(Card::name)).collect::<Vec<_>>()), "the centre tops");
                assert_eq!(v["shown"], json!(s.shown.iter().map(Card::name).collect::<Vec<_>>()), "cards shown this deal");
                assert_eq!(v["totals"], json!(s.totals), "the match points before this deal");
                assert_eq!(v["in_flight"], json!(s.players.iter().map(|p| p.flying.is_some()).collect::<Vec<_>>()), "a card on its way, per seat");
                assert_eq!(v["stock_counts"], json!(s.players.iter().map(|p| p.stock.len()).collect::<Vec<_>>()), "stock sizes per seat");
                assert_eq!(v["side_counts"], json!(s.side.iter().map(|x| x.len()).collect::<Vec<_>>()), "side pile sizes");
                assert_eq!(v["pile_cards"], json!(s.centre.iter().map(|p| if p.top.is_some() { p.cards.iter().map(Card::name).collect() } else { Vec::new() }).collect::<Vec<_>>()), "every card of each face-up centre pile");
                assert_eq!((v["recycles"].clone(), v["recycled_since_landing"].clone()), (json!(s.recycles), json!(s.recycled_since_landing)), "the re-forming count and flag");
                assert_eq!(v["drawing"], json!(s.players.iter().map(|p| p.memory.drawing()).collect::<Vec<_>>()), "a draw started, per seat");
                for (p, pc) in s.players.iter().enumerate() {
                    let slots = v["hand_exclusions"][p].as_array().unwrap();
                    assert_eq!(slots.len() as u32, pc.hand_count(), "one entry per hand card");
                    for (i, ranks) in slots.iter().enumerate() {
                        let mask = ranks.as_array().unwrap().iter().fold(0u16, |m, r| m | 1 << (r.as_u64().unwrap() - 1));
                        assert_eq!(mask, pc.memory.slot(i as u32), "seat {p} slot {i}: the ranks it cannot be");
                    }
                }
                // No hidden card: every card named is the viewer's own hand card or one
                // shown in the centre; the opponent's hand, the stocks and the side piles
                // (everything else) never appear.
                let mut named = Vec::new();
                strings(&v, &mut named);
                for c in CardSet(CardSet::FULL.0 & !hand.0 & !s.shown.0).iter() {
                    assert!(!named.contains(&c.name()), "seat {me} sees {}, a card hidden from it", c.name());
                }
                self.checked += 1;
            }
        }
    }

    /// Every string in `v`.
    fn strings(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            Value::Object(m) => m.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }

    #[test]
    fn the_protocol_view_is_the_built_in_view_and_holds_no_hidden_card() {
        let names = ["random", "greedy", "smart"];
        let mut rng = rng_from(77);
        let mut checked = 0;
        for i in 0..150u64 {
            let pick = |rng: &mut crate::rng::SimRng, v: &[&'static str]| v[rng.random_range(0..v.len())];
            let sets = vec![
                format!("speed.side_pile_size={}", pick(&mut rng, &["10", "5"])),
                format!("speed.wrap={}", pick(&mut rng, &["true", "false"])),
                format!("speed.target={}", pick(&mut rng, &["0", "15"])),
            ];
            let cfg = SpeedConfig::from_settings(&Settings::parse(&SPEED_FLAGS, &sets).unwrap());
            let specs: Vec<BotSpec> = (0..2).map(|_| BotSpec::parse(pick(&mut rng, &names)).unwrap()).collect();
            let bots = build_bots(&specs, &REGISTRY).unwrap();
            let rules = super::super::rules::SpeedRules::new(cfg);
            let mut check = ViewCheck { cfg, checked: 0 };
            play_match(&rules, &Seated::new(&[&bots[0], &bots[1]]), &MatchSeeds::of_deal(i), &mut EveryState(|s: &SpeedState| check.check(s)));
            checked += check.checked;
        }
        assert!(checked > 20_000, "{checked} views checked");
    }

    /// What an in-process peer saw: the `totals` of each `move` view and the `points`
    /// and `winner` of each `match_end`, match by match.
    #[derive(Default)]
    struct Seen {
        totals: Vec<Vec<[u64; 2]>>,
        ends: Vec<(Value, Value)>,
    }

    /// Plays the first legal action and records what it saw into `seen`.
    struct Recorder(Arc<std::sync::Mutex<Seen>>);

    impl crate::api::PeerConn for Recorder {
        fn message(&mut self, line: &str) -> Result<Option<String>, String> {
            let m: Value = serde_json::from_str(line).unwrap();
            let mut seen = self.0.lock().unwrap();
            Ok(match m["type"].as_str().unwrap() {
                "hello" => Some(r#"{"type":"hello","protocol":1,"name":"first","version":"1"}"#.into()),
                "match_start" => {
                    seen.totals.push(Vec::new());
                    None
                }
                "decide" => {
                    let t = &m["view"]["totals"];
                    seen.totals.last_mut().unwrap().push([t[0].as_u64().unwrap(), t[1].as_u64().unwrap()]);
                    Some(r#"{"index":0}"#.into())
                }
                "match_end" => {
                    seen.ends.push((m["points"].clone(), m["winner"].clone()));
                    None
                }
                _ => None,
            })
        }
    }

    impl crate::api::Peer for Recorder {
        fn connect(&self) -> Result<Box<dyn crate::api::PeerConn>, String> {
            Ok(Box::new(Recorder(self.0.clone())))
        }
    }

    #[test]
    fn the_view_shows_the_match_points_before_each_deal_and_match_end_the_final_points() {
        let seen = Arc::new(std::sync::Mutex::new(Seen::default()));
        let m = crate::api::Match::new("speed").peer("first", Arc::new(Recorder(seen.clone()))).bot("greedy").set("speed.target=15");
        m.games(20).threads(1).seed(3).run().unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!((seen.totals.len(), seen.ends.len()), (20, 20), "every match starts and ends");
        let mut later_deals = 0;
        for (totals, (points, winner)) in seen.totals.iter().zip(&seen.ends) {
            let points: Vec<u64> = points.as_array().expect("match_end has points").iter().map(|p| p.as_u64().unwrap()).collect();
            let w = winner.as_u64().expect("a match to 15 has a winner") as usize;
            assert!(points[w] >= 15 && points[1 - w] < 15, "SPEED-SCORE-1: points {points:?}, winner {w}");
            assert_eq!(totals[0], [0, 0], "the first deal starts at 0");
            for pair in totals.windows(2) {
                assert!(pair[0][0] <= pair[1][0] && pair[0][1] <= pair[1][1], "the totals only grow: {pair:?}");
            }
            let last = totals.last().unwrap();
            assert!(last[0] <= points[0] && last[1] <= points[1] && last[w] < 15, "the last deal's totals {last:?} lead to {points:?}");
            later_deals += totals.iter().filter(|t| **t != [0, 0]).count();
        }
        assert!(later_deals > 0, "some decisions come after a scored deal");
        // A single-deal match (speed.target=0) still ends with the deal's points.
        let seen1 = Arc::new(std::sync::Mutex::new(Seen::default()));
        crate::api::Match::new("speed").peer("first", Arc::new(Recorder(seen1.clone()))).bot("greedy").games(10).threads(1).run().unwrap();
        for (points, winner) in &seen1.lock().unwrap().ends {
            let p: Vec<u64> = points.as_array().unwrap().iter().map(|p| p.as_u64().unwrap()).collect();
            match winner.as_u64() {
                Some(w) => assert_eq!(p[1 - w as usize], 0, "only the winner of the one deal scores: {p:?}"),
                None => assert_eq!(p, [0, 0], "a drawn deal scores nothing"),
            }
        }
    }
}
