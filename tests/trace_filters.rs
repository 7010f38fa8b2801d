//! `cardsim trace --deal K --seat S` (docs/trace-format.md): the lines kept are exactly
//! those of the full trace that the filter's definition selects; a Nerts stock flip names
//! the cards it turned (NERTS-STOCK-1); a match end names a seat, not a team, in a game
//! without teams.

use serde_json::Value;
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

fn ok(args: &[&str]) -> String {
    let out = cardsim(args);
    assert!(out.status.success(), "cardsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A Nerts match of three deals (2 players, to 60 points).
const NERTS: [&str; 8] = ["trace", "nerts", "--players", "2", "--bot", "lazy", "--set", "nerts.target=60"];

fn with(extra: &[&'static str]) -> Vec<&'static str> {
    NERTS.iter().copied().chain(extra.iter().copied()).collect()
}

/// The lines of the full trace `--deal deal --seat seat` keeps, by the definition:
/// deal K runs from the K-th `deal` event (from 0) to the next; a seat keeps its events,
/// those with no seat and the table's `deal`, `deal_end`, `round_end`; `match_start` and
/// `match_end` always.
fn expected(full: &str, deal: Option<u64>, seat: Option<u64>) -> String {
    let mut deals = 0u64;
    let mut out = String::new();
    for line in full.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let kind = v["event"].as_str().unwrap();
        if kind == "deal" {
            deals += 1;
        }
        let always = kind == "match_start" || kind == "match_end";
        let in_deal = deal.is_none_or(|k| always || deals == k + 1);
        let in_seat = seat.is_none_or(|s| v["seat"].is_null() || v["seat"].as_u64() == Some(s) || ["deal", "deal_end", "round_end"].contains(&kind) || always);
        if in_deal && in_seat {
            out += line;
            out.push('\n');
        }
    }
    out
}

#[test]
fn deal_and_seat_keep_exactly_the_lines_they_name() {
    let full = ok(&with(&["--format", "jsonl"]));
    let deals = full.lines().filter(|l| l.contains("\"event\":\"deal\"")).count();
    assert_eq!(deals, 3, "the match has three deals");
    for (deal, seat) in [(Some(0), None), (Some(2), None), (None, Some(1)), (Some(1), Some(0))] {
        let mut args = with(&["--format", "jsonl"]);
        let (d, s) = (deal.map(|d: u64| d.to_string()), seat.map(|s: u64| s.to_string()));
        if let Some(d) = &d {
            args.extend(["--deal", d.as_str()]);
        }
        if let Some(s) = &s {
            args.extend(["--seat", s.as_str()]);
        }
        let got = ok(&args);
        let want = expected(&full, deal, seat);
        assert_eq!(got, want, "--deal {deal:?} --seat {seat:?}");
        assert!(got.len() < full.len() && got.lines().count() > 2, "a filter keeps a part: {} of {} bytes", got.len(), full.len());
    }
    // The text format is filtered alike: one line per JSON line kept.
    let text = ok(&with(&["--deal", "1"]));
    let lines = text.lines().filter(|l| !l.starts_with("    ")).count();
    assert_eq!(lines, expected(&full, Some(1), None).lines().count());
}

#[test]
fn a_deal_or_seat_past_the_match_is_a_one_line_error() {
    let out = cardsim(&with(&["--deal", "3"]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(err.trim_end(), "error: --deal 3: match 0 has 3 deal(s), 0 to 2");
    let out = cardsim(&with(&["--seat", "2"]));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), "error: --seat 2: this table has seats 0 to 1");
    assert!(out.stdout.is_empty(), "refused before the match");
}

#[test]
fn a_stock_flip_names_the_cards_it_turned() {
    let full = ok(&with(&["--format", "jsonl"]));
    let events: Vec<Value> = full.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // Per layout: the stock as dealt (top first), and whether anything but a flip has
    // touched it since the deal (a recycle, rotation or reset re-forms it).
    let mut stock: Vec<Vec<String>> = Vec::new();
    let mut turned_so_far: Vec<usize> = Vec::new();
    let mut untouched: Vec<bool> = Vec::new();
    let mut checked = 0;
    for e in &events {
        match e["event"].as_str().unwrap() {
            "deal" => {
                stock = e["layouts"].as_array().unwrap().iter().map(|l| l["stock"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()).collect();
                turned_so_far = vec![0; stock.len()];
                untouched = vec![true; stock.len()];
            }
            "recycle" | "rotate" => untouched[e["seat"].as_u64().unwrap() as usize] = false,
            "reset" => untouched.iter_mut().for_each(|u| *u = false),
            "flip3" => {
                let d = e["seat"].as_u64().unwrap() as usize;
                let turned: Vec<String> = e["turned"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
                assert!((1..=3).contains(&turned.len()), "{e}");
                if untouched[d] {
                    // NERTS-STOCK-1: the next packet from the top, the deepest card on top.
                    let from = turned_so_far[d];
                    let to = (from + 3).min(stock[d].len());
                    assert_eq!(turned, stock[d][from..to], "{e}");
                    turned_so_far[d] = to;
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    assert!(checked >= 6, "{checked} flips checked against the dealt stocks");
    // The text line names them too.
    let text = ok(&NERTS);
    assert!(text.lines().any(|l| l.contains("flip3") && l.contains("from the stock: ")), "text lines name the cards");
}

#[test]
fn a_match_without_teams_is_won_by_a_seat_and_with_teams_by_a_team() {
    let text = ok(&NERTS);
    let end = text.lines().last().unwrap();
    assert!(end.contains("match_end") && !end.contains("team"), "{end}");
    let winner = serde_json::from_str::<Value>(ok(&with(&["--format", "jsonl"])).lines().last().unwrap()).unwrap()["winner_team"].as_u64().unwrap();
    assert!(end.contains(&format!("P{winner} wins")), "{end}");
    let pairs = ok(&["trace", "nerts", "--players", "4", "--bot", "lazy", "--set", "nerts.target=3", "--set", "nerts.partnerships=pairs"]);
    let end = pairs.lines().last().unwrap();
    assert!(end.contains("team 0 (seats [0, 1]) wins") || end.contains("team 1 (seats [2, 3]) wins"), "{end}");
}

/// A session of three rounds (3 players), traced.
const SESSION: [&str; 12] = ["session", "lopti", "--bot", "lowest", "--bot", "burner", "--bot", "random", "--rounds", "3", "--trace-index", "0"];

#[test]
fn session_traces_take_round_and_seat_filters() {
    let jsonl = |extra: &[&str]| ok(&SESSION.iter().copied().chain(["--format", "jsonl"]).chain(extra.iter().copied()).collect::<Vec<_>>());
    let full = jsonl(&[]);
    // By the definition: round K runs from the K-th `round_start` (K from 1) to the
    // next; a seat keeps its events, those with no seat and the table's; the session's
    // start and end always.
    let table = ["session_start", "round_start", "round_end", "rule_made", "remove", "vote_result", "rule", "session_end"];
    let expected = |round: Option<u64>, seat: Option<u64>| {
        let mut rounds = 0u64;
        let mut out = String::new();
        for line in full.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let kind = v["event"].as_str().unwrap();
            if kind == "round_start" {
                rounds += 1;
            }
            let always = kind == "session_start" || kind == "session_end";
            let in_round = round.is_none_or(|k| always || rounds == k);
            let in_seat = match (seat, v["seat"].as_u64()) {
                (Some(s), Some(at)) => at == s || table.contains(&kind),
                _ => true,
            };
            if in_round && in_seat {
                out += line;
                out.push('\n');
            }
        }
        out
    };
    for (round, seat) in [(Some(2), None), (None, Some(1)), (Some(3), Some(0))] {
        let (r, s) = (round.map(|k: u64| k.to_string()), seat.map(|k: u64| k.to_string()));
        let mut extra = Vec::new();
        if let Some(r) = &r {
            extra.extend(["--round", r.as_str()]);
        }
        if let Some(s) = &s {
            extra.extend(["--seat", s.as_str()]);
        }
        let got = jsonl(&extra);
        assert_eq!(got, expected(round, seat), "--round {r:?} --seat {s:?}");
        assert!(got.lines().count() < full.lines().count(), "the filter drops lines");
    }
    // Out-of-range filters are one-line errors naming the flag.
    for (extra, says) in [(["--round", "4"], "--round 4: session 0 played 3 round(s)"), (["--seat", "3"], "--seat 3: this table has seats 0 to 2"), (["--round", "0"], "rounds are counted from 1")] {
        let out = cardsim(&SESSION.iter().copied().chain(extra).collect::<Vec<_>>());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
    }
    let out = cardsim(&["session", "lopti", "--round", "1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--round filters a trace: give --trace-index I"));
}
