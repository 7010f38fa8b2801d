//! Lopti bots. Each sees only its player's [`View`]; adding one is a new file here and
//! one line in [`REGISTRY`].

mod burner;
mod lowest;
mod mcts;
mod random;

use super::ranks::{Rank, SEVEN, TEN, THREE, TWO};
use super::rules::{Action, Actions};
use super::state::Swap;
use super::view::View;
use crate::games::params::ParamValues;
use crate::games::StrategyInfo;
use crate::rng::SimRng;

pub use burner::Burner;
pub use lowest::Lowest;
pub use mcts::Mcts;
pub use random::Random;

/// A Lopti policy.
pub trait Strategy: Sync {
    /// The setup decision (LOPTI-SETUP-4): `None` keeps the deal, `Some` swaps one hand
    /// card for one face-up card.
    fn swap(&self, view: &View, rng: &mut SimRng) -> Option<Swap>;
    /// One of `legal` (never empty; in the order `cardsim legal lopti` prints).
    fn act(&self, view: &View, legal: &Actions, rng: &mut SimRng) -> Action;
    /// True if `swap`, `act`, `give` and `rule_swap` never use the generator and depend
    /// only on the view; a game among such bots that repeats a position is stopped (it
    /// would never end).
    fn deterministic(&self) -> bool {
        false
    }
    /// A special rule makes this player give one hand card away (LOPTI-MAKE-SIM-1 effects
    /// that leave the choice to the player): which one. `view.hand()` is not empty. The
    /// default gives its least useful card ([`least_useful`]).
    fn give(&self, view: &View, _rng: &mut SimRng) -> Rank {
        least_useful(view.hand())
    }
    /// A special rule lets this player swap one hand card with one of its face-up cards
    /// during play: which, if any. The default is the setup swap of the simple bots.
    fn rule_swap(&self, view: &View, _rng: &mut SimRng) -> Option<Swap> {
        strong_face_up_swap(view)
    }
}

/// The card a simple bot gives away: the lowest ordinary rank, the specials last (the
/// reverse of `late_value`).
pub fn least_useful(hand: super::ranks::Ranks) -> Rank {
    hand.ranks().min_by_key(|&r| late_value(r)).expect("a hand card to give")
}

/// Bot parameters that come from flags rather than from the strategy name.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// `lopti.mcts_iterations`.
    pub mcts_iterations: u32,
}

/// A strategy in the registry: its description and how to build it.
pub struct Registered {
    /// Name and one-line description.
    pub info: StrategyInfo,
    /// Builds the bot from the flags and its parameter values (in `info.params` order).
    pub build: fn(&Params, &ParamValues) -> Box<dyn Strategy>,
}

/// Every Lopti strategy, in the order `cardsim list` shows them.
pub static REGISTRY: [Registered; 4] = [random::ENTRY, lowest::ENTRY, burner::ENTRY, mcts::ENTRY];

/// Builds the strategy called `name` with its default parameters.
pub fn build(name: &str, params: &Params) -> Option<Box<dyn Strategy>> {
    REGISTRY.iter().find(|r| r.info.name == name).map(|r| (r.build)(params, &ParamValues::defaults(r.info.params)))
}

/// Builds the strategy of `bot` with its parameters, checked.
pub fn build_for(bot: &crate::bot::BotSpec, params: &Params) -> Result<Box<dyn Strategy>, String> {
    let r = REGISTRY.iter().find(|r| r.info.name == bot.strategy).ok_or_else(|| format!("--bot {}: unknown strategy", bot.label))?;
    Ok((r.build)(params, &ParamValues::resolve(&bot.label, r.info.params, &bot.params)?))
}

/// How useful a card is late in the round, when face-up cards are played: specials
/// above aces, the 10 and 2 best.
fn late_value(r: Rank) -> u8 {
    match r {
        TEN => 16,
        TWO => 15,
        SEVEN => 14,
        THREE => 13,
        _ => r,
    }
}

/// The setup swap of the simple bots: move the most useful hand card face-up in exchange
/// for the least useful face-up card, if that improves the face-up cards.
pub fn strong_face_up_swap(view: &View) -> Option<Swap> {
    let give = view.hand().ranks().max_by_key(|&r| late_value(r))?;
    let take = view.face_up().ranks().min_by_key(|&r| late_value(r))?;
    (late_value(give) > late_value(take)).then_some(Swap { hand: give, face_up: take })
}

/// Order in which the simple bots spend special cards when no ordinary play is legal.
const SPECIALS_CHEAPEST_FIRST: [Rank; 4] = [TWO, SEVEN, THREE, TEN];

/// The `lowest` policy: the lowest ordinary rank it may play, all such cards; else the
/// first special rank it may play at all in the order 2, 7, 3, 10, with as few of its
/// cards as the rules allow (two 2s on a single 2, LOPTI-2-3, even when a single 7 is
/// legal); else reveal a face-down card; else take the pile. It never declines a bonus
/// play.
fn lowest_choice(legal: &Actions) -> Action {
    let plays = legal.plays();
    if let Some((rank, _)) = plays.ordinary().first() {
        let (_, count) = plays.of_rank(rank).last().expect("a play of that rank");
        return Action::Play { rank, count };
    }
    for special in SPECIALS_CHEAPEST_FIRST {
        if let Some((rank, count)) = plays.of_rank(special).first() {
            return Action::Play { rank, count };
        }
    }
    // No play is legal (every rank is ordinary or special), so the legal actions are
    // among `blind`, `pickup` and `pass`, in that order: the first one is `blind` if
    // legal, else `pickup` if legal.
    legal[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lopti::tests::table;
    use crate::rng::rng_from;

    fn decide(bot: &dyn Strategy, view: &View) -> String {
        bot.act(view, &view.legal_actions(), &mut rng_from(1)).to_string()
    }

    #[test]
    fn random_is_uniform_over_the_legal_lines_and_the_ten_setup_options() {
        let t = table(2).pile("8").hand(0, "9 9 K 2").down(1, "4").start();
        let view = t.st.view(0);
        let legal = view.legal_actions();
        let mut rng = rng_from(3);
        let mut counts = vec![0u32; legal.len()];
        for _ in 0..60_000 {
            let a = Random.act(&view, &legal, &mut rng);
            counts[legal.iter().position(|&l| l == a).unwrap()] += 1;
        }
        let expected = 60_000 / legal.len() as u32;
        assert!(counts.iter().all(|&c| c.abs_diff(expected) < expected / 20), "{counts:?} over {legal:?}");
        let mut setup = table(2).hand(0, "4 9 A").up(0, "K 5 8").down(0, "2 2 2").down(1, "4").start();
        setup.st.phase = crate::games::lopti::state::Phase::Setup;
        let view = setup.st.view(0);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..50_000 {
            *seen.entry(Random.swap(&view, &mut rng)).or_insert(0u32) += 1;
        }
        assert_eq!(seen.len(), 10, "no swap and nine distinct swaps");
        assert!(seen.values().all(|&c| c.abs_diff(5_000) < 400), "{seen:?}");
    }

    #[test]
    fn lowest_sheds_low_ordinary_cards_and_saves_specials() {
        let t = table(2).pile("5").hand(0, "2 7 9 9 K").down(1, "4").start();
        assert_eq!(decide(&Lowest, &t.st.view(0)), "play 9 x2");
        let t = table(2).pile("K").hand(0, "2 7 9 10").down(1, "4").start();
        assert_eq!(decide(&Lowest, &t.st.view(0)), "play 2 x1", "a special only when no ordinary play is legal");
        // LOPTI-2-3: on a single 2 a play of 2s needs two cards ("if equal, more",
        // LOPTI-PLAY-2). The first special rank it may play at all, in the order 2, 7,
        // 3, 10, with as few cards as legal: two 2s, not the single 7 that was legal too.
        let t = table(2).pile("K|2").hand(0, "2 2 7").down(1, "4").start();
        let legal = t.st.view(0).legal_actions();
        assert!(legal.iter().any(|a| a.to_string() == "play 7 x1") && !legal.iter().any(|a| a.to_string() == "play 2 x1"), "{legal:?}");
        assert_eq!(decide(&Lowest, &t.st.view(0)), "play 2 x2", "the first special rank it may play, not a single special");
        let t = table(2).pile("K").run3(1).obliged(0).hand(0, "9").down(1, "4").start();
        assert_eq!(decide(&Lowest, &t.st.view(0)), "pickup");
    }

    #[test]
    fn burner_clears_when_it_can() {
        let t = table(2).pile("5|6 6").hand(0, "6 6 10 8").down(1, "4").start();
        assert_eq!(decide(&Burner, &t.st.view(0)), "play 6 x2", "completing four before spending a 10");
        let t = table(2).pile("5").hand(0, "10 8").down(1, "4").start();
        assert_eq!(decide(&Burner, &t.st.view(0)), "play 10 x1");
        let t = table(2).pile("5").hand(0, "8 9").down(1, "4").start();
        assert_eq!(decide(&Burner, &t.st.view(0)), "play 8 x1", "otherwise like lowest");
    }

    #[test]
    fn mcts_takes_the_winning_play_and_swaps() {
        let bot = Mcts::new(100);
        let t = table(2).pile("8").hand(0, "9").hand(1, "5 6 A").down(1, "4 4 4").draw("J J").start();
        assert_eq!(decide(&bot, &t.st.view(0)), "play 9 x1", "going out beats taking the pile");
        let mut s = table(2).hand(0, "4 9 A").up(0, "K 5 8").down(0, "2 2 2").hand(1, "6 6 6").up(1, "7 7 7").down(1, "J J J").start();
        s.st.phase = crate::games::lopti::state::Phase::Setup;
        let swap = bot.swap(&s.st.view(0), &mut rng_from(4));
        assert!(swap.is_none_or(|w| s.st.players[0].hand.count(w.hand) > 0 && s.st.players[0].face_up.count(w.face_up) > 0));
        // A special rule (winner_handicap, swap_fee) can give a hand more than three cards
        // before the swaps: 1 + 6 x 3 options.
        let mut s = table(2).hand(0, "4 5 6 8 9 J").up(0, "K Q A").down(0, "2 2 2").hand(1, "6 6 6").up(1, "7 7 7").down(1, "J J J").start();
        s.st.phase = crate::games::lopti::state::Phase::Setup;
        let swap = bot.swap(&s.st.view(0), &mut rng_from(4));
        assert!(swap.is_none_or(|w| s.st.players[0].hand.count(w.hand) > 0 && s.st.players[0].face_up.count(w.face_up) > 0));
    }
}
