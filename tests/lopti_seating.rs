//! Lopti results do not depend on the order the bots are listed in, every seating of a
//! deal sees the same cards, and each deal is played under every seat order (the
//! built binary, as a user runs it).

use std::process::Command;

fn cardsim(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("the binary runs");
    assert!(out.status.success(), "cardsim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Every order of `items` (Heap's algorithm).
fn permutations(items: &[&'static str]) -> Vec<Vec<&'static str>> {
    fn heap(k: usize, a: &mut Vec<&'static str>, out: &mut Vec<Vec<&'static str>>) {
        if k <= 1 {
            out.push(a.clone());
            return;
        }
        for i in 0..k {
            heap(k - 1, a, out);
            a.swap(if k.is_multiple_of(2) { i } else { 0 }, k - 1);
        }
    }
    let mut out = Vec::new();
    heap(items.len(), &mut items.to_vec(), &mut out);
    out
}

/// The CSV of `cardsim match lopti` with `bots` in this order.
fn csv(bots: &[&str], games: u64, tag: &str) -> String {
    let path = std::env::temp_dir().join(format!("cardsim-lopti-seating-{}-{tag}.csv", std::process::id()));
    let path_text = path.to_str().unwrap().to_string();
    let games = games.to_string();
    let mut args = vec!["match", "lopti", "--games", &games, "--seed", "4", "--quiet", "--csv", &path_text];
    for b in bots {
        args.extend(["--bot", b]);
    }
    cardsim(&args);
    let text = std::fs::read_to_string(&path).expect("the CSV was written");
    std::fs::remove_file(&path).ok();
    text
}

/// Every order of `bots` gives the same CSV, byte for byte, and every deal was played
/// `per_deal` times (once per seat order) by each bot.
fn check_order_invariance(bots: &[&'static str], games: u64, per_deal: u64) {
    let orders = permutations(bots);
    let first = csv(&orders[0], games, &format!("{}-0", bots.len()));
    for (k, order) in orders.iter().enumerate().skip(1) {
        let other = csv(order, games, &format!("{}-{k}", bots.len()));
        assert!(other == first, "--bot order {order:?} changes the CSV:\n{first}\n---\n{other}");
    }
    let mut lines = first.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let (bot, seat, after, g, deals) = (col("bot"), col("seat"), col("after"), col("games"), col("deals"));
    let mut rows = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        if f[bot] != "any" && f[seat] == "all" && f[after].is_empty() {
            rows += 1;
            let (g, d): (u64, u64) = (f[g].parse().unwrap(), f[deals].parse().unwrap());
            assert_eq!((g, d * per_deal), (games, games), "{}: {g} matches over {d} deals: {per_deal} per deal", f[bot]);
        }
    }
    assert_eq!(rows, bots.len(), "one summary row per bot");
}

#[test]
fn three_player_results_do_not_depend_on_the_bot_order() {
    check_order_invariance(&["lowest", "burner", "random"], 600, 6);
}

#[test]
fn four_player_results_do_not_depend_on_the_bot_order() {
    check_order_invariance(&["lowest", "burner", "random", "lowest"], 2400, 24);
}

/// `(kind, seat, detail)` of the chance events in a JSON Lines trace: the deal, every
/// card drawn, every face-down card revealed.
fn chance_events(trace: &str) -> (Vec<String>, Vec<String>, Vec<Vec<String>>) {
    let (mut dealt, mut drawn, mut revealed) = (Vec::new(), Vec::new(), vec![Vec::new(); 5]);
    for line in trace.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str().unwrap() {
            "deal" => dealt.push(format!("{} {} {} {}", v["seat"], v["hand"], v["face_up"], v["face_down"])),
            "draw" => drawn.push(v["rank"].to_string()),
            "reveal" => revealed[v["seat"].as_u64().unwrap() as usize].push(v["rank"].to_string()),
            _ => {}
        }
    }
    (dealt, drawn, revealed)
}

fn prefix_agree(a: &[String], b: &[String]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

#[test]
fn the_seatings_of_a_deal_deal_draw_and_reveal_the_same_cards() {
    // Matches 0..6 are the six seatings of deal 0; 6..12 those of deal 1.
    let bots = ["--bot", "lowest", "--bot", "burner", "--bot", "random"];
    let mut compared = 0;
    for deal in 0..2 {
        let traces: Vec<_> = (0..6)
            .map(|k| {
                let index = (deal * 6 + k).to_string();
                let mut args = vec!["trace", "lopti", "--seed", "4", "--index", &index, "--format", "jsonl"];
                args.extend(bots);
                chance_events(&cardsim(&args))
            })
            .collect();
        let (dealt, drawn, revealed) = &traces[0];
        for (k, (d, dr, rv)) in traces.iter().enumerate().skip(1) {
            assert_eq!(d, dealt, "deal {deal}, seating {k}: the same cards dealt to each seat");
            assert!(prefix_agree(dr, drawn), "deal {deal}, seating {k}: the k-th card drawn is the same: {dr:?} vs {drawn:?}");
            for seat in 0..3 {
                assert!(prefix_agree(&rv[seat], &revealed[seat]), "deal {deal}, seating {k}: seat {seat} reveals the same cards");
            }
            compared += dr.len().min(drawn.len());
        }
    }
    assert!(compared > 50, "the seatings draw enough cards to compare ({compared})");
}
