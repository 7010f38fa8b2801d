//! Lopti in the bot protocol (docs/bot-protocol.md section 5.4): the player's view, his
//! legal actions, setup swaps and gifts as JSON, and [`External`], the strategy that
//! asks an external bot.

use super::ranks::{rank_name, Rank};
use super::rules::{Action, Actions};
use super::state::Swap;
use super::strategies::{least_useful, strong_face_up_swap, Strategy};
use super::trace::pile_json;
use super::view::View;
use crate::external::{Answer, Decisions, ExternalBot};
use crate::rng::SimRng;
use serde_json::{json, Value};
use std::sync::Arc;

/// The decisions Lopti asks.
pub const DECISIONS: Decisions = Decisions { all: &["move", "swap", "give", "rule_swap"], optional: &["swap", "give", "rule_swap"] };

/// Never legal (no play has 0 cards): what a faulted bot "chooses", so that the round
/// loop's legality check stops the game.
const STOP: Action = Action::Play { rank: 0, count: 0 };

/// The view as the protocol writes it (field names as in `cardsim legal lopti` positions).
pub fn view_json(view: &View) -> Value {
    let n = view.players();
    let table: Vec<Value> = (0..n)
        .map(|s| view.seat_info(s))
        .map(|s| json!({"hand": s.hand, "known": s.known.names(), "face_up": s.face_up.names(), "face_down": s.face_down, "out": s.out, "picked_up": s.picked_up}))
        .collect();
    json!({
        "seat": view.seat(),
        "players": n,
        "current": view.current(),
        "setup": view.setup(),
        "swapped": (0..n as usize).filter(|&s| view.swapped() >> s & 1 == 1).collect::<Vec<_>>(),
        "hand": view.hand().names(),
        "face_up": view.face_up().names(),
        "face_down": view.face_down(),
        "pile": pile_json(view.pile()),
        "run3": view.run3(),
        "obligation": view.obligated(),
        "bonus": view.bonus(),
        "draw_owed": view.draw_owed(),
        "draw_pile": view.draw_pile(),
        "out_of_round": view.out_of_round().names(),
        "table": table,
    })
}

/// One legal action as the protocol writes it (without its index).
pub fn action_json(a: Action) -> Value {
    let text = a.to_string();
    match a {
        Action::Play { rank, count } => json!({"action": "play", "rank": rank_name(rank), "count": count, "text": text}),
        _ => json!({"action": text, "text": text}),
    }
}

/// The swap options of `view`: keep, then every distinct (hand rank, face-up rank) pair.
fn swaps(view: &View) -> Vec<Option<Swap>> {
    let face_up = view.face_up();
    let pairs = view.hand().ranks().flat_map(|hand| face_up.ranks().map(move |face_up| Some(Swap { hand, face_up })));
    std::iter::once(None).chain(pairs).collect()
}

fn swap_json(s: Option<Swap>) -> Value {
    match s {
        None => json!({"action": "keep", "text": "keep"}),
        Some(w) => json!({"action": "swap", "hand": rank_name(w.hand), "face_up": rank_name(w.face_up), "text": w.to_string()}),
    }
}

/// A Lopti strategy played by an external bot.
pub struct External(pub Arc<ExternalBot>);

impl External {
    /// Asks a swap decision, or gives the built-in default.
    fn swap_decision(&self, decision: &'static str, view: &View) -> Option<Swap> {
        if !self.0.plays(decision) {
            return strong_face_up_swap(view);
        }
        let options = swaps(view);
        match self.0.ask(decision, view_json(view), options.iter().map(|&s| swap_json(s)).collect(), false) {
            Answer::Index(i) => options[i],
            Answer::Idle | Answer::Stop => None,
        }
    }
}

impl Strategy for External {
    fn swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        self.swap_decision("swap", view)
    }
    fn act(&self, view: &View, legal: &Actions, _: &mut SimRng) -> Action {
        let actions = legal.iter().map(|&a| action_json(a)).collect();
        match self.0.ask("move", view_json(view), actions, false) {
            Answer::Index(i) => legal[i],
            Answer::Idle | Answer::Stop => STOP,
        }
    }
    fn give(&self, view: &View, _: &mut SimRng) -> Rank {
        if !self.0.plays("give") {
            return least_useful(view.hand());
        }
        let ranks: Vec<Rank> = view.hand().ranks().collect();
        let options = ranks.iter().map(|&r| json!({"action": "give", "rank": rank_name(r), "text": format!("give {}", rank_name(r))})).collect();
        match self.0.ask("give", view_json(view), options, false) {
            Answer::Index(i) => ranks[i],
            Answer::Idle | Answer::Stop => least_useful(view.hand()),
        }
    }
    fn rule_swap(&self, view: &View, _: &mut SimRng) -> Option<Swap> {
        self.swap_decision("rule_swap", view)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lopti::config::Rules;
    use crate::games::lopti::entry::LoptiGame;
    use crate::games::lopti::events::{Event, Observer};
    use crate::games::lopti::pile::Pile;
    use crate::games::lopti::ranks::{parse_rank, Ranks};
    use crate::games::lopti::state::State;
    use crate::games::lopti::strategies::{build, Params};
    use crate::games::lopti::view::SeatInfo;
    use crate::rng::{rng_from, MatchSeeds};
    use rand::RngExt;

    /// Every position of a round, after each event.
    #[derive(Default)]
    struct Positions(Vec<State>);

    impl Observer for Positions {
        fn event(&mut self, state: &State, _: Event) {
            self.0.push(*state);
        }
    }

    fn ranks(v: &Value) -> Ranks {
        let mut out = Ranks::EMPTY;
        for name in v.as_array().expect("a list of ranks") {
            out.add(parse_rank(name.as_str().expect("a rank name")).expect("a rank"), 1);
        }
        out
    }

    fn int(v: &Value) -> u8 {
        v.as_u64().expect("an integer") as u8
    }

    /// Reads the view back from its JSON, written independently of `view_json` from
    /// docs/bot-protocol.md section 5.4, and checks every fact against `view` (the rules
    /// come in the hello's flags, not here).
    fn check_decoded(j: &Value, view: &View) {
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = ["seat", "players", "current", "setup", "swapped", "hand", "face_up", "face_down", "pile", "run3", "obligation", "bonus", "draw_owed", "draw_pile", "out_of_round", "table"];
        expected.sort();
        assert_eq!(keys, expected, "the view's fields");
        let mut pile = Pile::default();
        for play in j["pile"].as_array().unwrap() {
            let r = ranks(play);
            let rank = r.ranks().next().expect("a play has cards");
            assert_eq!(r.count(rank) as u32, r.len(), "a play is of one rank");
            pile.push(rank, r.len() as u8);
        }
        assert_eq!(&pile, view.pile(), "pile");
        let table = j["table"].as_array().unwrap();
        assert_eq!(table.len(), view.players() as usize, "a table entry per seat");
        for (s, t) in table.iter().enumerate() {
            assert_eq!(t.as_object().unwrap().len(), 6, "a seat's public facts");
            let info = SeatInfo { hand: int(&t["hand"]), known: ranks(&t["known"]), face_up: ranks(&t["face_up"]), face_down: int(&t["face_down"]), out: t["out"].as_bool().unwrap(), picked_up: t["picked_up"].as_bool().unwrap() };
            assert_eq!(info, view.seat_info(s as u8), "seat {s}'s public facts");
        }
        let swapped = j["swapped"].as_array().unwrap().iter().fold(0, |m, s| m | 1 << int(s));
        assert_eq!(
            (int(&j["seat"]), int(&j["players"]), int(&j["current"]), j["setup"].as_bool().unwrap(), swapped),
            (view.seat(), view.players(), view.current(), view.setup(), view.swapped())
        );
        assert_eq!((ranks(&j["hand"]), ranks(&j["face_up"]), int(&j["face_down"])), (view.hand(), view.face_up(), view.face_down()));
        assert_eq!(
            (int(&j["run3"]), j["obligation"].as_bool().unwrap(), j["bonus"].as_bool().unwrap(), j["draw_owed"].as_bool().unwrap()),
            (view.run3(), view.obligated(), view.bonus(), view.draw_owed())
        );
        assert_eq!((int(&j["draw_pile"]), ranks(&j["out_of_round"])), (view.draw_pile(), view.out_of_round()));
    }

    /// `s` with every card hidden from `seat` dealt again at random: the draw pile, the
    /// other players' hand cards nobody has seen, and every face-down card (his own too),
    /// each zone keeping its size.
    fn redeal_hidden(s: &State, seat: usize, rng: &mut crate::rng::SimRng) -> State {
        let mut t = *s;
        let mut pool = t.draw;
        let n = t.n as usize;
        for o in 0..n {
            let p = &mut t.players[o];
            if o != seat {
                let mut unseen = p.hand;
                unseen.remove_all(p.known);
                pool.add_all(unseen);
                p.hand = p.known;
            }
            pool.add_all(p.face_down);
        }
        t.draw = pool.take_random_n(s.draw.len(), rng);
        for o in 0..n {
            let p = &mut t.players[o];
            if o != seat {
                let mut unseen = s.players[o].hand;
                unseen.remove_all(s.players[o].known);
                p.hand.add_all(pool.take_random_n(unseen.len(), rng));
            }
            p.face_down = pool.take_random_n(s.players[o].face_down.len(), rng);
        }
        assert_eq!(pool, Ranks::EMPTY);
        t
    }

    #[test]
    fn the_protocol_view_is_the_built_in_view_and_holds_no_hidden_card() {
        let names = ["random", "lowest", "burner"];
        let mut rng = rng_from(99);
        let (mut checked, mut changed) = (0u64, 0u64);
        for d in 0..160u64 {
            let n = 2 + (d % 4) as usize;
            let bots = (0..n).map(|_| build(names[rng.random_range(0..3)], &Params { mcts_iterations: 10 }).unwrap()).collect();
            let game = LoptiGame::new(Rules::default(), bots);
            let mut seen = Positions::default();
            let seats: Vec<usize> = (0..n).collect();
            game.run(&seats, &MatchSeeds::of_deal(d), &mut seen);
            for s in seen.0.iter().step_by(3) {
                for seat in 0..n {
                    let view = s.view(seat as u8);
                    let j = view_json(&view);
                    check_decoded(&j, &view);
                    let other = redeal_hidden(s, seat, &mut rng);
                    changed += (other.draw != s.draw || (0..n).any(|o| other.players[o] != s.players[o])) as u64;
                    assert_eq!(view_json(&other.view(seat as u8)), j, "seat {seat}'s view depends on no card hidden from it");
                    checked += 1;
                }
            }
        }
        assert!(checked > 20_000 && changed > checked / 2, "{checked} views, {changed} with hidden cards dealt differently");
    }
}
