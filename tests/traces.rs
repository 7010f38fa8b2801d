//! Traces a program can replay alone (docs/trace-format.md): the `match_start` line,
//! the deal layouts, the `deal_end` seat, readable text, traces of experiment matchups,
//! and replays of Spit and Speed matches from their JSON Lines only.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

/// Runs `cardsim trace ARGS --format jsonl` and parses every line.
fn jsonl(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["trace"];
    all.extend(args);
    all.extend(["--format", "jsonl"]);
    let out = cardsim(&all);
    assert!(out.status.success(), "cardsim {all:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

fn of_kind<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

fn card(v: &Value) -> Option<String> {
    v.as_str().map(String::from)
}

fn u(v: &Value) -> u32 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}")) as u32
}

fn experiment_file() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/spit-variants.toml").to_string()
}

/// Checks a `match_start` event against what was asked for.
fn check_match_start(ms: &Value, game: &str, seed: u64, index: u64, per_deal: u64, seats: usize, flags: &[(&str, &str)]) {
    assert_eq!(ms["event"], "match_start");
    assert_eq!(ms["seat"], Value::Null);
    assert_eq!(ms["game"], game);
    assert_eq!(ms["seed"], seed);
    assert_eq!(ms["index"], index);
    assert_eq!(ms["deal"], index / per_deal, "match I is deal I / S");
    assert_eq!(ms["seating"], index % per_deal, "match I is seating I % S");
    let all = ms["flags"].as_object().expect("flags is an object");
    assert!(all.contains_key("sim.max_actions"), "every flag in force is listed: {all:?}");
    assert!(all.keys().filter(|k| *k != "sim.max_actions").all(|k| k.starts_with(&format!("{game}."))), "{all:?}");
    for (k, v) in flags {
        assert_eq!(all[*k], *v, "flag {k}");
    }
    let bots = ms["bots"].as_array().unwrap();
    let list = ms["seats"].as_array().unwrap();
    assert_eq!(list.len(), seats, "one entry per seat");
    let mut used = BTreeSet::new();
    for (s, e) in list.iter().enumerate() {
        assert_eq!(e["seat"], s as u64);
        let b = e["bot_index"].as_u64().unwrap() as usize;
        assert_eq!(e["bot"], bots[b], "bot_index indexes bots");
        used.insert(b);
    }
    assert_eq!(used.len(), seats, "every bot sits somewhere");
}

#[test]
fn match_start_is_the_first_jsonl_line_of_every_game() {
    let spit = jsonl(&["spit", "--bot", "smart@expert", "--bot", "random", "--seed", "11", "--index", "5", "--set", "spit.num_stockpiles=4"]);
    check_match_start(&spit[0], "spit", 11, 5, 2, 2, &[("spit.num_stockpiles", "4"), ("spit.allow_abort", "false")]);
    assert_eq!(spit[0]["seating_design"], "all");
    assert_eq!(spit[0]["matchup"], Value::Null, "no experiment");
    assert!(spit[1..].iter().all(|e| e["event"] != "match_start"), "only the first line");

    let speed = jsonl(&["speed", "--seed", "4", "--index", "3", "--no-swap", "--set", "speed.wrap=false"]);
    check_match_start(&speed[0], "speed", 4, 3, 1, 2, &[("speed.wrap", "false"), ("speed.side_pile_size", "10")]);
    assert_eq!(speed[0]["seating_design"], "one");
    assert_eq!(speed[0]["seats"][0]["bot_index"], 0, "--no-swap: bot i in seat i");

    let lopti = jsonl(&["lopti", "--bot", "random", "--bot", "lowest", "--bot", "burner", "--seed", "2", "--index", "7"]);
    check_match_start(&lopti[0], "lopti", 2, 7, 6, 3, &[("lopti.bonus_optional", "false")]);
    assert_eq!(lopti[0]["bots"], serde_json::json!(["burner", "lowest", "random"]), "sorted by label under --seating all");

    let rot = jsonl(&["lopti", "--bot", "random", "--bot", "lowest", "--bot", "burner", "--index", "4", "--seating", "rotations"]);
    check_match_start(&rot[0], "lopti", 1, 4, 3, 3, &[]);
    assert_eq!(rot[0]["seating_design"], "rotations");
}

#[test]
fn spit_deal_events_carry_both_layouts() {
    for (sets, slots) in [(vec![], 5usize), (vec!["--set", "spit.num_stockpiles=4"], 4)] {
        let mut args = vec!["spit", "--seed", "5", "--index", "2"];
        args.extend(&sets);
        let events = jsonl(&args);
        let deals = of_kind(&events, "deal");
        assert!(deals.len() > 1, "several rounds");
        for d in deals {
            let layouts = d["layouts"].as_array().expect("layouts");
            assert_eq!(layouts.len(), 2);
            for (p, l) in layouts.iter().enumerate() {
                assert_eq!(l["seat"], p as u64);
                let ls = l["slots"].as_array().unwrap();
                assert_eq!(ls.len(), slots, "one entry per stockpile slot");
                let stock: u32 = ls.iter().map(|x| u(&x["down"]) + x["up"].is_string() as u32).sum();
                for x in ls {
                    assert!(x["up"].is_string() || u(&x["down"]) == 0, "SPIT-SETUP-2: every dealt slot shows its top: {x}");
                }
                assert_eq!(stock + u(&l["spit"]), u(&d["holdings"][p]), "the layout holds the holding: {d}");
                if d["round"] == 1 {
                    for (k, x) in ls.iter().enumerate() {
                        assert_eq!(u(&x["down"]), k as u32, "SPIT-SETUP-2: slot k has k cards face-down");
                    }
                }
            }
        }
    }
}

#[test]
fn speed_deal_events_carry_hands_stocks_sides_and_middle() {
    let events = jsonl(&["speed", "--seed", "6", "--set", "speed.target=20", "--set", "speed.side_pile_size=5"]);
    let (deals, hands, openings) = (of_kind(&events, "deal"), of_kind(&events, "hands"), of_kind(&events, "opening"));
    assert!(deals.len() > 1, "several deals");
    assert_eq!((hands.len(), openings.len()), (deals.len(), deals.len()));
    for ((d, h), o) in deals.iter().zip(&hands).zip(&openings) {
        let stocks: Vec<u32> = (0..2).map(|p| u(&d["stocks"][p])).collect();
        let sides: u32 = (0..2).map(|j| u(&d["side_sizes"][j])).sum();
        assert_eq!(stocks.iter().sum::<u32>() + sides + 2, 52, "stocks, side piles and two middle cards: {d}");
        assert_eq!(d["side_sizes"], serde_json::json!([5, 5]));
        for p in 0..2 {
            let hand = h["hands"][p].as_array().unwrap().len() as u32;
            assert_eq!(hand, 5, "SPEED-SETUP-2");
            assert_eq!(u(&h["stocks"][p]), stocks[p] - hand, "stock after the hand was drawn");
        }
        let middle = o["middle"].as_array().expect("middle");
        assert!(middle.iter().all(Value::is_string), "{o}");
        assert_eq!(o["middle"], o["pile_tops"]);
        assert_eq!(d["pile_tops"], serde_json::json!([null, null]), "middle cards face-down before the opening");
    }
}

#[test]
fn speed_deal_end_seat_is_its_winner() {
    // A deal that ends without anyone going out: random bots, small side piles, no wrap.
    let mut stall_wins = 0;
    for index in 0..40 {
        let index = index.to_string();
        let events = jsonl(&["speed", "--bot", "random@expert", "--bot", "random@expert", "--seed", "736999", "--index", &index,
            "--set", "speed.side_pile_size=5", "--set", "speed.wrap=false", "--set", "speed.target=60"]);
        for e in of_kind(&events, "deal_end") {
            assert_eq!(e["seat"], e["winner"], "{e}");
            if e["reason"] != "went_out" && !e["winner"].is_null() {
                stall_wins += 1;
                let w = e["winner"].as_u64().unwrap() as usize;
                assert!(u(&e["cards_left"][w]) < u(&e["cards_left"][1 - w]), "fewer cards wins: {e}");
            }
        }
        if stall_wins > 0 {
            break;
        }
    }
    assert!(stall_wins > 0, "no deal ended in a stall with a winner");
}

#[test]
fn spit_text_collect_line_is_readable() {
    let out = cardsim(&["trace", "spit", "--seed", "3", "--index", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let collects: Vec<&str> = text.lines().filter(|l| l.contains(" collect ")).collect();
    assert!(!collects.is_empty());
    for l in collects {
        assert!(!l.contains("Some(") && !l.contains("None"), "{l}");
        assert!(l.contains("(P0 took ") && l.contains(", P1 took "), "{l}");
    }
    // A single-pile round: one player takes the pile, the other none.
    let mut none_seen = false;
    for index in 0..20 {
        let out = cardsim(&["trace", "spit", "--bot", "random@novice", "--bot", "smart@expert", "--seed", "9", "--index", &index.to_string()]);
        let text = String::from_utf8(out.stdout).unwrap();
        for l in text.lines().filter(|l| l.contains(" collect ")) {
            assert!(!l.contains("Some(") && !l.contains("None"), "{l}");
            none_seen |= l.contains("took none");
        }
        if none_seen {
            break;
        }
    }
    assert!(none_seen, "no single-pile collection found");
}

#[test]
fn trace_of_an_experiment_matchup_uses_its_seed_and_flags() {
    let file = experiment_file();
    let events = jsonl(&["--experiment", &file, "--matchup", "2", "--index", "5"]);
    let ms = &events[0];
    check_match_start(ms, "spit", 3, 5, 2, 2, &[("spit.num_stockpiles", "4")]);
    assert_eq!(ms["matchup"], 2);
    assert_eq!(ms["bots"], serde_json::json!(["smart@expert", "smart@skilled"]));
    assert_eq!(of_kind(&events, "deal")[0]["layouts"][0]["slots"].as_array().unwrap().len(), 4);
    // The same match as tracing the game directly with the experiment's bots, seed and flags.
    let direct = jsonl(&["spit", "--bot", "smart@expert", "--bot", "smart@skilled", "--seed", "3", "--index", "5", "--set", "spit.num_stockpiles=4"]);
    assert_eq!(events[1..], direct[1..]);
    let mut ms_direct = direct[0].clone();
    ms_direct["matchup"] = serde_json::json!(2);
    assert_eq!(*ms, ms_direct);
}

#[test]
fn experiment_trace_rejects_a_matchup_out_of_range() {
    let file = experiment_file();
    for m in ["0", "9", "100"] {
        let out = cardsim(&["trace", "--experiment", &file, "--matchup", m]);
        assert_eq!(out.status.code(), Some(2), "--matchup {m}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(&format!("--matchup {m}")) && err.contains("1 to 8"), "{err}");
        assert!(out.stdout.is_empty(), "no trace written");
    }
}

/// One Spit player as a replayer sees him: per slot the face-down count and the
/// face-up card, the spit cards, and the card in his hand.
#[derive(Clone, Debug, Default)]
struct SpitSeat {
    down: Vec<u32>,
    up: Vec<Option<String>>,
    spit: u32,
    flying: Option<String>,
}

impl SpitSeat {
    fn stock(&self) -> u32 {
        self.down.iter().sum::<u32>() + self.up.iter().filter(|c| c.is_some()).count() as u32 + self.flying.is_some() as u32
    }
}

/// The slot a play or fill lifts its card from.
fn source(e: &Value) -> usize {
    if e["action"] == "fill" { e["from"].as_u64().unwrap() as usize } else { e["slot"].as_u64().unwrap() as usize }
}

/// Replays a Spit match from its JSON Lines alone and checks every event against the
/// reconstructed layout; returns the number of events checked.
fn replay_spit(events: &[Value]) -> usize {
    let mut seats: [SpitSeat; 2] = Default::default();
    let mut piles = [0u32; 2];
    let mut tops: [Option<String>; 2] = [None, None];
    for e in &events[1..] {
        let kind = e["event"].as_str().unwrap();
        let p = e["seat"].as_u64().map(|s| s as usize);
        match kind {
            "deal" => {
                piles = [0, 0];
                tops = [None, None];
                for (q, l) in e["layouts"].as_array().unwrap().iter().enumerate() {
                    let slots = l["slots"].as_array().unwrap();
                    seats[q] = SpitSeat { down: slots.iter().map(|x| u(&x["down"])).collect(), up: slots.iter().map(|x| card(&x["up"])).collect(), spit: u(&l["spit"]), flying: None };
                    assert_eq!(seats[q].stock() + seats[q].spit, u(&e["holdings"][q]), "{e}");
                }
            }
            "opening" => {
                for q in 0..2 {
                    if seats[q].spit > 0 {
                        seats[q].spit -= 1;
                        piles[q] = 1;
                        tops[q] = Some(card(&e["pile_tops"][q]).expect("the opening names the card turned"));
                    }
                }
            }
            "start" => {
                let me = &mut seats[p.unwrap()];
                if e["action"] == "flip" {
                    let k = e["slot"].as_u64().unwrap() as usize;
                    assert!(me.up[k].is_none() && me.down[k] > 0, "flip of a face-down top: {e}");
                } else {
                    let k = source(e);
                    assert!(me.flying.is_none(), "one card in hand: {e}");
                    assert_eq!(card(&e["card"]), me.up[k], "the card lifted is the slot's top: {e}");
                    me.flying = me.up[k].take();
                }
            }
            "play" => {
                let me = &mut seats[p.unwrap()];
                assert_eq!(card(&e["card"]), me.flying.take(), "{e}");
                let j = e["pile"].as_u64().unwrap() as usize;
                piles[j] += 1;
                tops[j] = card(&e["card"]);
            }
            "flip" => {
                let me = &mut seats[p.unwrap()];
                let k = e["slot"].as_u64().unwrap() as usize;
                assert!(me.up[k].is_none() && me.down[k] > 0, "{e}");
                me.down[k] -= 1;
                me.up[k] = Some(card(&e["card"]).expect("a flip names the card revealed"));
            }
            "fill" => {
                let me = &mut seats[p.unwrap()];
                let to = e["to"].as_u64().unwrap() as usize;
                assert!(me.up[to].is_none() && me.down[to] == 0, "fill onto an empty slot: {e}");
                assert_eq!(card(&e["card"]), me.flying, "{e}");
                me.up[to] = me.flying.take();
            }
            "reject" | "abort" => assert_eq!(card(&e["card"]), seats[p.unwrap()].flying, "{e}"),
            "return" | "cancel" => {
                let me = &mut seats[p.unwrap()];
                if e["action"] != "flip" {
                    let k = source(e);
                    assert_eq!(card(&e["card"]), me.flying, "{e}");
                    assert!(me.up[k].is_none(), "{e}");
                    me.up[k] = me.flying.take();
                }
            }
            "spit" => {
                for s in e["spits"].as_array().unwrap() {
                    let (q, j) = (s["seat"].as_u64().unwrap() as usize, s["pile"].as_u64().unwrap() as usize);
                    assert!(seats[q].spit > 0, "{e}");
                    seats[q].spit -= 1;
                    piles[j] += 1;
                    tops[j] = Some(card(&s["card"]).expect("a spit names the card revealed"));
                }
                assert_eq!([u(&e["spit_cards"][0]), u(&e["spit_cards"][1])], [seats[0].spit, seats[1].spit], "{e}");
            }
            "round_end" => {
                assert!(seats.iter().all(|s| s.flying.is_none()), "cards in flight are called off first: {e}");
                match e["reason"].as_str().unwrap() {
                    "went_out" => assert_eq!(seats[p.unwrap()].stock(), 0, "{e}"),
                    _ => assert!(seats.iter().all(|s| s.spit == 0), "{e}"),
                }
            }
            "collect" => {
                for q in 0..2 {
                    let took = e["took"][q].as_u64().map_or(0, |j| piles[j as usize]);
                    assert_eq!(u(&e["holdings"][q]), seats[q].stock() + seats[q].spit + took, "{e}");
                }
            }
            "stall" | "slap" | "give_away" | "scores" | "match_end" | "liveness_violation" => {}
            other => panic!("undocumented Spit event {other}"),
        }
        assert_eq!([u(&e["pile_sizes"][0]), u(&e["pile_sizes"][1])], piles, "pile sizes after {e}");
        for j in 0..2 {
            if !e["pile_tops"][j].is_null() {
                assert_eq!(card(&e["pile_tops"][j]), tops[j], "pile top after {e}");
            }
        }
    }
    events.len()
}

#[test]
fn spit_replays_from_its_jsonl_alone() {
    let runs: [&[&str]; 7] = [
        &["spit", "--seed", "1", "--index", "0"],
        &["spit", "--bot", "search@expert,rollouts=2", "--bot", "smart@expert", "--seed", "8"],
        &["spit", "--bot", "random@novice", "--bot", "smart@expert", "--seed", "9", "--index", "3"],
        &["spit", "--bot", "greedy@casual", "--bot", "smart@skilled", "--seed", "2", "--index", "1", "--set", "spit.num_stockpiles=4", "--set", "spit.short_deal=pilewise"],
        &["spit", "--bot", "random@expert", "--bot", "greedy@expert", "--seed", "4", "--set", "spit.stall_spit_target=any"],
        &["spit", "--seed", "5", "--index", "1", "--set", "spit.allow_abort=true", "--set", "spit.round_end_allocation=first_out_chooses"],
        &["spit", "--seed", "6", "--set", "spit.scoring=points", "--set", "spit.points_round_mode=fresh_deal"],
    ];
    let mut kinds = BTreeSet::new();
    for args in runs {
        let events = jsonl(args);
        assert!(replay_spit(&events) > 10, "{args:?}");
        kinds.extend(events.iter().map(|e| e["event"].as_str().unwrap().to_string()));
    }
    for k in ["deal", "opening", "start", "play", "flip", "fill", "spit", "round_end", "collect", "return", "abort", "slap", "give_away", "cancel"] {
        assert!(kinds.contains(k), "the replays never met a {k} event");
    }
}

/// Replays a Speed match from its JSON Lines alone: hands, stock sizes, side piles and
/// centre piles, checked against every event.
fn replay_speed(events: &[Value]) {
    let mut hands: [BTreeSet<String>; 2] = Default::default();
    let mut stocks = [0u32; 2];
    let mut flying: [Option<String>; 2] = [None, None];
    let mut sides = [0u32; 2];
    let mut piles = [0u32; 2];
    let mut tops: [Option<String>; 2] = [None, None];
    for e in &events[1..] {
        let p = e["seat"].as_u64().map(|s| s as usize);
        match e["event"].as_str().unwrap() {
            "deal" => {
                hands = Default::default();
                stocks = [u(&e["stocks"][0]), u(&e["stocks"][1])];
                sides = [u(&e["side_sizes"][0]), u(&e["side_sizes"][1])];
                piles = [1, 1];
                tops = [None, None];
                assert_eq!(stocks[0] + stocks[1] + sides[0] + sides[1] + 2, 52, "{e}");
            }
            "hands" => {
                for q in 0..2 {
                    hands[q] = e["hands"][q].as_array().unwrap().iter().map(|c| card(c).unwrap()).collect();
                    stocks[q] -= hands[q].len() as u32;
                    assert_eq!(u(&e["stocks"][q]), stocks[q], "{e}");
                }
            }
            "opening" => tops = [card(&e["middle"][0]), card(&e["middle"][1])],
            "start" => {
                let q = p.unwrap();
                if e["action"] == "play" {
                    let c = card(&e["card"]).unwrap();
                    assert!(hands[q].remove(&c), "plays a card of the hand: {e}");
                    flying[q] = Some(c);
                } else {
                    assert!(stocks[q] > 0 && hands[q].len() < 5 && flying[q].is_none(), "SPEED-PLAY-2: {e}");
                }
            }
            "play" => {
                let q = p.unwrap();
                assert_eq!(card(&e["card"]), flying[q].take(), "{e}");
                let j = e["pile"].as_u64().unwrap() as usize;
                piles[j] += 1;
                tops[j] = card(&e["card"]);
            }
            "draw" => {
                let q = p.unwrap();
                let c = card(&e["card"]).expect("a draw names the card revealed");
                assert!(hands[q].insert(c), "{e}");
                stocks[q] -= 1;
            }
            "reject" => assert_eq!(card(&e["card"]), flying[p.unwrap()], "{e}"),
            "return" | "cancel" => {
                let q = p.unwrap();
                if e["action"] == "play" {
                    assert_eq!(card(&e["card"]), flying[q], "{e}");
                    hands[q].insert(flying[q].take().unwrap());
                }
            }
            "flip" => {
                let turned: Vec<Option<String>> = (0..2).map(|j| card(&e["turned"][j])).collect();
                let n_turned = turned.iter().filter(|c| c.is_some()).count() as u32;
                let after = [u(&e["side_sizes"][0]), u(&e["side_sizes"][1])];
                if e["recycled"] == true {
                    assert_eq!(sides, [0, 0], "re-formed only when both side piles are empty: {e}");
                    assert_eq!(after[0] + after[1] + n_turned, piles[0] + piles[1] - 2, "every centre card but the tops: {e}");
                    piles = [1, 1];
                } else {
                    for j in 0..2 {
                        assert_eq!(after[j] + turned[j].is_some() as u32, sides[j], "{e}");
                    }
                }
                for j in 0..2 {
                    if let Some(c) = &turned[j] {
                        piles[j] += 1;
                        tops[j] = Some(c.clone());
                    }
                }
                assert!(n_turned > 0, "a flip turns a card: {e}");
                sides = after;
            }
            "deal_end" => {
                let left: Vec<u32> = (0..2).map(|q| hands[q].len() as u32 + stocks[q] + flying[q].is_some() as u32).collect();
                assert_eq!([u(&e["cards_left"][0]), u(&e["cards_left"][1])], [left[0], left[1]], "{e}");
                assert_eq!(e["seat"], e["winner"], "{e}");
            }
            "stall" | "match_end" | "liveness_violation" => {}
            other => panic!("undocumented Speed event {other}"),
        }
        assert_eq!([u(&e["pile_sizes"][0]), u(&e["pile_sizes"][1])], piles, "pile sizes after {e}");
        assert_eq!([u(&e["side_sizes"][0]), u(&e["side_sizes"][1])], sides, "side sizes after {e}");
        assert_eq!([card(&e["pile_tops"][0]), card(&e["pile_tops"][1])], tops, "pile tops after {e}");
    }
}

#[test]
fn speed_replays_from_its_jsonl_alone() {
    replay_speed(&jsonl(&["speed", "--seed", "2"]));
    replay_speed(&jsonl(&["speed", "--bot", "search@expert,rollouts=2", "--bot", "smart@expert", "--seed", "8"]));
    replay_speed(&jsonl(&["speed", "--seed", "3", "--index", "1", "--set", "speed.target=15", "--set", "speed.score_counts=hand_and_stock"]));
    replay_speed(&jsonl(&["speed", "--bot", "random@expert", "--bot", "random@expert", "--seed", "736999", "--set", "speed.side_pile_size=5",
        "--set", "speed.wrap=false", "--set", "speed.target=60"]));
}
