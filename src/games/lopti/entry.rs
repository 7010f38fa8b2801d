//! Lopti as the command line and the runner see it: [`LOPTI`] and the runnable game.

use super::config::{Rules, FLAGS};
use super::events::{NoObserver, Observer};
use super::round::{play_round, Dice};
use super::state::State;
use super::strategies::{self, Params, Strategy};
use super::trace::TraceObserver;
use crate::bot::BotSpec;
use crate::games::{check_bots, GameEntry, StrategyInfo, TracedGame};
use crate::rng::{MatchSeeds, SimRng};
use crate::runner::{MatchGame, MatchRecord, MetricDef, MAX_METRICS};
use crate::settings::{FlagDef, Settings};
use crate::trace::TraceSink;
use arrayvec::ArrayVec;

/// Most players at a Lopti table (LOPTI-DECK-1), Lopti's own limit below the runner's
/// `MAX_SEATS`.
pub const MAX_SEATS: usize = 5;

/// Per-game metrics, in [`MatchRecord::metrics`] order.
static METRICS: [MetricDef; 3] = [
    MetricDef { name: "turns", scale: 1, doc: "turns in the game (a turn is one player's turn, its bonus plays included)" },
    MetricDef { name: "pickups", scale: 1, doc: "times a player took the play pile" },
    MetricDef { name: "clears", scale: 1, doc: "times the play pile was cleared (10, four of a kind, four 3s)" },
];

/// The Lopti registry entry.
pub struct LoptiEntry;

/// Lopti, for `games::registry()`.
pub static LOPTI: LoptiEntry = LoptiEntry;

impl GameEntry for LoptiEntry {
    fn name(&self) -> &'static str {
        "lopti"
    }
    fn about(&self) -> &'static str {
        "shedding game with 2 (reset), 3 (pass on), 7 (play low) and 10 (clear); first player out wins"
    }
    fn players(&self) -> (usize, usize) {
        (2, MAX_SEATS)
    }
    fn real_time(&self) -> bool {
        false
    }
    fn flags(&self) -> &'static [FlagDef] {
        &FLAGS
    }
    fn strategies(&self) -> Vec<StrategyInfo> {
        strategies::REGISTRY.iter().map(|r| r.info).collect()
    }
    fn state_bytes(&self) -> usize {
        std::mem::size_of::<State>()
    }
    fn default_bots(&self) -> &'static [&'static str] {
        &["lowest", "burner", "random"]
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &METRICS
    }
    fn build_with(&self, bots: &[BotSpec], settings: &Settings, custom: &dyn Fn(usize) -> Option<Box<dyn std::any::Any>>) -> Result<Box<dyn TracedGame>, String> {
        check_bots(self, bots)?;
        Rules::check_table(settings, bots.len(), &bots.iter().map(|b| b.strategy.as_str()).collect::<Vec<_>>())?;
        let params = Params { mcts_iterations: settings.get_int("lopti.mcts_iterations") as u32 };
        let externals = crate::external::externals(bots, "lopti", settings, super::protocol::DECISIONS)?;
        let bots = bots
            .iter()
            .zip(&externals)
            .enumerate()
            .map(|(i, (b, x))| match x {
                Some(x) => Ok(Box::new(super::protocol::External(x.clone())) as Box<dyn Strategy>),
                None if b.strategy == crate::bot::CUSTOM => crate::games::custom_strategy::<dyn Strategy>(&b.label, i, custom),
                None => strategies::build_for(b, &params),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(crate::external::wrap(Box::new(LoptiGame { rules: Rules::from_settings(settings), bots }), externals))
    }
}

/// A Lopti match: bots and rules, ready to play deals.
pub struct LoptiGame {
    rules: Rules,
    bots: Vec<Box<dyn Strategy>>,
}

impl LoptiGame {
    /// A game of `bots` (in bot order) under `rules`, for bots the registry does not
    /// hold (tests).
    pub fn new(rules: Rules, bots: Vec<Box<dyn Strategy>>) -> LoptiGame {
        LoptiGame { rules, bots }
    }

    /// Plays one round with seat 0 dealing and playing first, telling `obs` everything.
    /// The cards come from the deal's seeds (the deck from `deal_rng`, every draw and
    /// reveal from the deal's hidden zones), the same in every seating of the deal; the
    /// bot in seat `s` rolls its own dice with `seeds.player_rng(s)`.
    pub fn run<O: Observer>(&self, seat_bots: &[usize], seeds: &MatchSeeds, obs: &mut O) -> MatchRecord {
        let n = self.bots.len();
        let mut state = State::deal(n as u8, 0, self.rules, seeds, obs);
        let bots: ArrayVec<&dyn Strategy, MAX_SEATS> = seat_bots.iter().map(|&b| &*self.bots[b]).collect();
        let mut dice: ArrayVec<SimRng, MAX_SEATS> = (0..n).map(|s| seeds.player_rng(s)).collect();
        let illegal = play_round(&mut state, &bots, Dice::Seats(&mut dice), obs).err();
        let mut metrics = [0; MAX_METRICS];
        metrics[0] = state.counters.turns as u64;
        metrics[1] = state.counters.pickups as u64;
        metrics[2] = state.counters.clears as u64;
        MatchRecord { winner: state.match_winner(), ending: state.ending(), metrics, actions: state.counters.turns as u64, illegal, ..MatchRecord::default() }
    }
}

impl MatchGame for LoptiGame {
    fn name(&self) -> &'static str {
        "lopti"
    }
    fn seats(&self) -> usize {
        self.bots.len()
    }
    fn metrics(&self) -> &'static [MetricDef] {
        &METRICS
    }
    fn play(&self, seat_bots: &[usize], seeds: &MatchSeeds) -> MatchRecord {
        self.run(seat_bots, seeds, &mut NoObserver)
    }
}

impl TracedGame for LoptiGame {
    fn trace(&self, seat_bots: &[usize], seeds: &MatchSeeds, sink: &mut dyn TraceSink) -> MatchRecord {
        self.run(seat_bots, seeds, &mut TraceObserver::new(sink))
    }
    fn as_match_game(&self) -> &dyn MatchGame {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::VecSink;
    use std::collections::BTreeSet;

    fn game(bots: &[&str], sets: &[&str]) -> Box<dyn TracedGame> {
        let bots: Vec<BotSpec> = bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect();
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        LOPTI.build(&bots, &Settings::parse(&FLAGS, &sets).unwrap()).unwrap()
    }

    #[test]
    fn trace_is_the_same_game_and_logs_every_hookable_event_lopti_make_sim_1() {
        let g = game(&["random", "lowest", "burner"], &["lopti.play_for_rankings=true", "lopti.bonus_optional=true"]);
        let mut kinds = BTreeSet::new();
        for d in 0..30u64 {
            let mut sink = VecSink::default();
            let traced = g.trace(&[0, 1, 2], &crate::rng::MatchSeeds::of_deal(d), &mut sink);
            assert_eq!(traced, g.play(&[0, 1, 2], &crate::rng::MatchSeeds::of_deal(d)), "the trace plays the same game as the runner");
            assert_eq!(sink.0.last().map(|e| e.kind), Some("end"));
            let turns = sink.0.iter().filter(|e| e.kind == "turn").count() as u64;
            assert_eq!(turns, traced.metrics[0], "one turn event per counted turn");
            kinds.extend(sink.0.iter().map(|e| e.kind));
        }
        // DEAL SWAP TURN_START PLAY(+BONUS_PLAY) PICKUP DRAW CLEAR FACEUP_TAKEOVER FACEDOWN_REVEAL PLAYER_OUT ROUND_END
        for k in ["deal", "swap", "turn", "play", "bonus", "pickup", "draw", "clear", "takeover", "reveal", "out", "end", "obligation"] {
            assert!(kinds.contains(k), "LOPTI-MAKE-SIM-1: the engine emits `{k}` events for a session layer to hook");
        }
    }

    #[test]
    fn build_rejects_bad_bots_and_reads_the_flags() {
        let bots = |names: &[&str]| names.iter().map(|b| BotSpec::parse(b).unwrap()).collect::<Vec<_>>();
        let s = Settings::parse(&FLAGS, &[]).unwrap();
        assert!(LOPTI.build(&bots(&["lowest"]), &s).is_err(), "LOPTI-DECK-1: at least 2 players");
        assert!(LOPTI.build(&bots(&["lowest"; 6]), &s).is_err(), "LOPTI-DECK-1: at most 5 players");
        let e = LOPTI.build(&bots(&["lowest", "clever"]), &s).err().unwrap();
        assert!(e.contains("unknown strategy 'clever'") && e.contains("random, lowest, burner, mcts"), "{e}");
        let g = game(&["lowest", "burner", "random", "lowest", "burner"], &[]);
        assert_eq!((g.seats(), g.metrics().len()), (5, 3));
    }

    /// The `end` event of a traced match and its record.
    fn traced_end(g: &dyn TracedGame, seats: &[usize], deal: u64) -> (serde_json::Map<String, serde_json::Value>, MatchRecord) {
        let mut sink = VecSink::default();
        let rec = g.trace(seats, &crate::rng::MatchSeeds::of_deal(deal), &mut sink);
        let end = sink.0.pop().expect("events");
        assert_eq!(end.kind, "end");
        (end.detail, rec)
    }

    #[test]
    fn endings_agree_between_the_record_and_the_trace_end_event() {
        use crate::runner::Ending;
        use serde_json::json;
        let fields = ["winner", "capped", "cycled", "turns", "pickups", "clears", "finish", "ending", "repeat_of"];
        let g = game(&["lowest", "lowest"], &[]);
        let mut cycled = 0;
        for deal in 0..400 {
            let (end, rec) = traced_end(&*g, &[0, 1], deal);
            assert!(fields.iter().all(|f| end.contains_key(*f)), "end event fields: {end:?}");
            assert_eq!(end["turns"], json!(rec.metrics[0]));
            match rec.ending {
                Ending::Cycled => {
                    cycled += 1;
                    assert_eq!(rec.winner, None, "a cycled match has no winner");
                    assert_eq!((&end["ending"], &end["cycled"], &end["capped"], &end["winner"]), (&json!("cycled"), &json!(true), &json!(false), &json!(null)));
                    assert!(end["repeat_of"].as_u64().unwrap() < rec.metrics[0], "the repeated turn comes before");
                }
                Ending::Finished => {
                    assert!(rec.winner.is_some());
                    assert_eq!((&end["ending"], &end["cycled"], &end["capped"], &end["repeat_of"]), (&json!("finished"), &json!(false), &json!(false), &json!(null)));
                    assert_eq!(end["winner"], json!(rec.winner));
                }
                Ending::Capped => panic!("deal {deal}: capped"),
            }
        }
        assert!(cycled > 0, "some lowest-vs-lowest deals cycle");
        // Capped, even after a player went out (play_for_rankings): no winner either.
        let g = game(&["random", "random", "random"], &["sim.max_actions=100", "lopti.play_for_rankings=true"]);
        let mut capped_after_out = 0;
        for deal in 0..200 {
            let (end, rec) = traced_end(&*g, &[0, 1, 2], deal);
            if rec.ending == Ending::Capped {
                assert_eq!(rec.winner, None);
                assert_eq!((&end["ending"], &end["capped"], &end["cycled"], &end["winner"]), (&json!("capped"), &json!(true), &json!(false), &json!(null)));
                capped_after_out += !end["finish"].as_array().unwrap().is_empty() as u32;
            }
        }
        assert!(capped_after_out > 0, "some capped games had a player out already");
    }

    #[test]
    fn records_are_reproducible_and_rotations_share_the_deal() {
        let g = game(&["lowest", "mcts"], &["lopti.mcts_iterations=20"]);
        let a = g.play(&[0, 1], &crate::rng::MatchSeeds::of_deal(77));
        assert_eq!(a, g.play(&[0, 1], &crate::rng::MatchSeeds::of_deal(77)), "same seeds, same record");
        assert!(a.ending == crate::runner::Ending::Finished && a.winner.is_some());
    }
}
