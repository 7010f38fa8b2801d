//! Rock-Paper-Scissors tie-break (lopti.md §15, LOPTI-RPS-2..4): a match of exactly 30
//! decisive throws (tied throws do not count; 15-15 goes to sudden death on the next
//! decisive throw; all 30 are played and logged even after one side has 16), a knockout
//! of single decisive throws to pick a representative, and the RPS strategies.
//!
//! A harness limit, not a rule: after [`STALL`] tied throws in a row a match is settled by
//! a public coin from the session's chance stream (counted as `stalled`), so that two
//! strategies that keep showing the same sign cannot loop forever.

use crate::rng::SimRng;
use rand::RngExt;

/// Decisive throws in a tie-break match (LOPTI-RPS-2).
pub const DECISIVE_THROWS: u32 = 30;
/// Tied throws in a row after which a throw is settled by a coin (harness limit).
pub const STALL: u32 = 1000;

/// A sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    /// Rock beats scissors.
    Rock,
    /// Paper beats rock.
    Paper,
    /// Scissors beat paper.
    Scissors,
}

/// The three signs.
pub const SIGNS: [Sign; 3] = [Sign::Rock, Sign::Paper, Sign::Scissors];

impl Sign {
    /// The sign that beats this one.
    pub fn beaten_by(self) -> Sign {
        match self {
            Sign::Rock => Sign::Paper,
            Sign::Paper => Sign::Scissors,
            Sign::Scissors => Sign::Rock,
        }
    }
    /// True if `self` beats `other`.
    pub fn beats(self, other: Sign) -> bool {
        other.beaten_by() == self
    }
    /// `rock`, `paper` or `scissors`.
    pub fn name(self) -> &'static str {
        match self {
            Sign::Rock => "rock",
            Sign::Paper => "paper",
            Sign::Scissors => "scissors",
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// An RPS strategy: its next sign from the throws of the current match so far (its own
/// and the opponent's, tied throws included), with its own dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RpsStrategy {
    /// Each sign with probability 1/3: unbeatable and unexploitable.
    Uniform,
    /// Rock 1/2, paper 1/3, scissors 1/6: a player who likes rock.
    Biased,
    /// Cycles rock, paper, scissors from a random start, and restarts at random after a
    /// tied throw: predictable between ties.
    Pattern,
    /// Predicts the opponent's next sign from what followed its previous sign so far in
    /// the match (else from its overall counts), and plays what beats it; uniform for its
    /// first throw and on one throw in ten.
    Exploit,
}

/// RPS strategy names, for `--bot ...,rps=NAME`.
pub const RPS_STRATEGIES: [(&str, RpsStrategy, &str); 4] = [
    ("uniform", RpsStrategy::Uniform, "each sign 1/3"),
    ("biased", RpsStrategy::Biased, "rock 1/2, paper 1/3, scissors 1/6"),
    ("pattern", RpsStrategy::Pattern, "cycles rock, paper, scissors; restarts at random after a tie"),
    ("exploit", RpsStrategy::Exploit, "plays what beats the opponent's most likely next sign (1-step history), 10% uniform"),
];

impl RpsStrategy {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        RPS_STRATEGIES.iter().find(|(_, s, _)| *s == self).map(|(n, _, _)| *n).expect("every strategy is listed")
    }

    /// The next sign given the match so far.
    pub fn throw(self, mine: &[Sign], theirs: &[Sign], rng: &mut SimRng) -> Sign {
        let uniform = |rng: &mut SimRng| SIGNS[rng.random_range(0..3)];
        match self {
            RpsStrategy::Uniform => uniform(rng),
            RpsStrategy::Biased => match rng.random_range(0..6) {
                0..=2 => Sign::Rock,
                3 | 4 => Sign::Paper,
                _ => Sign::Scissors,
            },
            RpsStrategy::Pattern => match (mine.last(), theirs.last()) {
                (Some(&m), Some(&t)) if m != t => m.beaten_by(),
                _ => uniform(rng),
            },
            RpsStrategy::Exploit => {
                if theirs.is_empty() || rng.random_range(0..10) == 0 {
                    return uniform(rng);
                }
                let last = theirs[theirs.len() - 1];
                let mut after = [0u32; 3];
                let mut overall = [0u32; 3];
                for w in theirs.windows(2) {
                    if w[0] == last {
                        after[w[1].index()] += 1;
                    }
                }
                for s in theirs {
                    overall[s.index()] += 1;
                }
                let counts = if after.iter().sum::<u32>() >= 2 { after } else { overall };
                let best = *counts.iter().max().expect("three counts");
                let likely: Vec<Sign> = SIGNS.into_iter().filter(|s| counts[s.index()] == best).collect();
                likely[rng.random_range(0..likely.len())].beaten_by()
            }
        }
    }
}

/// One throw of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throw {
    /// The first player's sign (the proposer's side in a tie-break).
    pub a: Sign,
    /// The second player's.
    pub b: Sign,
}

impl Throw {
    /// True if one sign beats the other.
    pub fn decisive(self) -> bool {
        self.a != self.b
    }
}

/// A finished RPS match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// Every throw, tied ones included (LOPTI-RPS-3: all are logged).
    pub throws: Vec<Throw>,
    /// Decisive throws won by the first player and by the second.
    pub score: (u32, u32),
    /// The first player won.
    pub a_won: bool,
    /// 15-15 after 30 decisive throws: decided by the next decisive throw.
    pub sudden_death: bool,
    /// A throw was settled by the coin after [`STALL`] ties in a row.
    pub stalled: bool,
}

/// The next sign of a player `W` (which player is asking), from his own throws and the
/// other's so far: `throw(who, mine, theirs)`.
pub type ThrowFn<'a, W> = dyn FnMut(W, &[Sign], &[Sign]) -> Sign + 'a;

/// Throws until one is decisive; returns it (or a coin after [`STALL`] ties) and whether
/// the coin was needed. `throw(first, mine, theirs)` is the next sign of the first player
/// (`first` true) or of the second, from its own throws and the other's so far.
fn decisive_throw(throw: &mut ThrowFn<'_, bool>, throws: &mut Vec<Throw>, coin: &mut SimRng) -> (bool, bool) {
    for _ in 0..STALL {
        let mine: Vec<Sign> = throws.iter().map(|t| t.a).collect();
        let theirs: Vec<Sign> = throws.iter().map(|t| t.b).collect();
        let a = throw(true, &mine, &theirs);
        let t = Throw { a, b: throw(false, &theirs, &mine) };
        throws.push(t);
        if t.decisive() {
            return (t.a.beats(t.b), false);
        }
    }
    (coin.random_bool(0.5), true)
}

/// A tie-break match (LOPTI-RPS-2): exactly 30 decisive throws, more wins take it, 15-15
/// goes to sudden death. Player `a` uses strategy `a.0` with dice `a.1`.
pub fn play_match(a: (RpsStrategy, &mut SimRng), b: (RpsStrategy, &mut SimRng), coin: &mut SimRng) -> Match {
    let (sa, ra) = a;
    let (sb, rb) = b;
    play_match_with(&mut |first, mine, theirs| if first { sa.throw(mine, theirs, ra) } else { sb.throw(mine, theirs, rb) }, coin)
}

/// [`play_match`] with the throws of `throw(first, mine, theirs)`: the next sign of the
/// first player (`first` true) or of the second, from its own throws and the other's.
pub fn play_match_with(throw: &mut ThrowFn<'_, bool>, coin: &mut SimRng) -> Match {
    let mut throws = Vec::with_capacity(48);
    let (mut wa, mut wb, mut stalled) = (0, 0, false);
    while wa + wb < DECISIVE_THROWS {
        let (a_won, coin_used) = decisive_throw(throw, &mut throws, coin);
        stalled |= coin_used;
        if a_won { wa += 1 } else { wb += 1 }
    }
    let sudden_death = wa == wb;
    if sudden_death {
        let (a_won, coin_used) = decisive_throw(throw, &mut throws, coin);
        stalled |= coin_used;
        if a_won { wa += 1 } else { wb += 1 }
    }
    Match { throws, score: (wa, wb), a_won: wa > wb, sudden_death, stalled }
}

/// One knockout match: two players, one decisive throw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnockoutMatch {
    /// The two seats.
    pub players: (u8, u8),
    /// Throws until the decisive one.
    pub throws: Vec<Throw>,
    /// The winner.
    pub winner: u8,
}

/// A knockout (LOPTI-RPS-4): the members are put in a random bracket from `chance` (the
/// table's public chance); each round pairs them in bracket order, an odd one out gets a
/// bye; one decisive throw per match. Returns the winner and the matches.
pub fn knockout(members: &[u8], strategy: impl Fn(u8) -> RpsStrategy, dice: &mut [SimRng], chance: &mut SimRng) -> (u8, Vec<KnockoutMatch>) {
    knockout_with(members, &mut |seat, mine, theirs| strategy(seat).throw(mine, theirs, &mut dice[seat as usize]), chance)
}

/// [`knockout`] with the throws of `throw(seat, mine, theirs)`.
pub fn knockout_with(members: &[u8], throw: &mut ThrowFn<'_, u8>, chance: &mut SimRng) -> (u8, Vec<KnockoutMatch>) {
    let mut alive: Vec<u8> = members.to_vec();
    for i in (1..alive.len()).rev() {
        alive.swap(i, chance.random_range(0..=i));
    }
    let mut matches = Vec::new();
    while alive.len() > 1 {
        let mut next = Vec::with_capacity(alive.len().div_ceil(2));
        for pair in alive.chunks(2) {
            if let [x, y] = *pair {
                let mut throws = Vec::new();
                let (x_won, _) = decisive_throw(&mut |first, mine, theirs| throw(if first { x } else { y }, mine, theirs), &mut throws, chance);
                let winner = if x_won { x } else { y };
                matches.push(KnockoutMatch { players: (x, y), throws, winner });
                next.push(winner);
            } else {
                next.push(pair[0]);
            }
        }
        alive = next;
    }
    (alive[0], matches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from;

    fn many(a: RpsStrategy, b: RpsStrategy, n: u64) -> (f64, Vec<Match>) {
        let mut won = 0;
        let mut all = Vec::new();
        for i in 0..n {
            let (mut ra, mut rb, mut coin) = (rng_from(i), rng_from(i + 1_000_000), rng_from(i + 2_000_000));
            let m = play_match((a, &mut ra), (b, &mut rb), &mut coin);
            won += m.a_won as u32;
            all.push(m);
        }
        (won as f64 / n as f64, all)
    }

    #[test]
    fn exactly_thirty_decisive_throws_ties_do_not_count_lopti_rps_2() {
        let (_, matches) = many(RpsStrategy::Uniform, RpsStrategy::Biased, 2000);
        let mut sudden = 0;
        for m in &matches {
            let decisive = m.throws.iter().filter(|t| t.decisive()).count() as u32;
            let (wa, wb) = m.score;
            assert_eq!(wa + wb, decisive, "LOPTI-RPS-2: only decisive throws count");
            if m.sudden_death {
                sudden += 1;
                assert_eq!(decisive, 31, "LOPTI-RPS-2: 15-15, then the next decisive throw");
                assert_eq!(wa.abs_diff(wb), 1);
            } else {
                assert_eq!(decisive, 30, "LOPTI-RPS-2: exactly 30 decisive throws");
            }
            assert!(m.throws.last().unwrap().decisive(), "the match ends on a decisive throw");
            assert_eq!(m.a_won, wa > wb, "LOPTI-RPS-2: more decisive wins take the match");
            assert!(!m.stalled);
        }
        // P(15-15) = C(30,15) / 2^30 = 0.1445 for evenly matched players.
        let (_, even) = many(RpsStrategy::Uniform, RpsStrategy::Uniform, 4000);
        let share = even.iter().filter(|m| m.sudden_death).count() as f64 / 4000.0;
        assert!((share - 0.1445).abs() < 0.02, "sudden death share {share}");
        assert!(sudden > 0);
    }

    #[test]
    fn all_thirty_throws_are_played_after_sixteen_lopti_rps_3() {
        let (_, matches) = many(RpsStrategy::Exploit, RpsStrategy::Pattern, 500);
        let early = matches.iter().filter(|m| m.score.0 >= 16 || m.score.1 >= 16).count();
        assert!(early > 400, "most matches are decided before the 30th throw");
        assert!(matches.iter().all(|m| m.throws.iter().filter(|t| t.decisive()).count() >= 30), "LOPTI-RPS-3: all 30 decisive throws are played and logged");
    }

    #[test]
    fn seventeen_thirteen_and_sudden_death_lopti_ex_34() {
        // LOPTI-EX-34: a 17-13 lead after 30 decisive throws wins; 15-15 goes on to the
        // next decisive throw.
        let found = many(RpsStrategy::Uniform, RpsStrategy::Uniform, 3000).1;
        let m = found.iter().find(|m| m.score == (17, 13)).expect("a 17-13 match");
        assert!(m.a_won && !m.sudden_death, "LOPTI-EX-34: the proposer leads 17-13: the change passes");
        let m = found.iter().find(|m| m.sudden_death).expect("a 15-15 match");
        assert!(m.score == (16, 15) || m.score == (15, 16), "LOPTI-EX-34: 15-15, then sudden death");
    }

    #[test]
    fn uniform_is_even_and_exploit_beats_the_predictable() {
        let (uu, _) = many(RpsStrategy::Uniform, RpsStrategy::Uniform, 4000);
        assert!((uu - 0.5).abs() < 0.03, "uniform vs uniform {uu}");
        let (eu, _) = many(RpsStrategy::Exploit, RpsStrategy::Uniform, 3000);
        assert!((eu - 0.5).abs() < 0.04, "nothing to exploit in uniform play: {eu}");
        let (ep, _) = many(RpsStrategy::Exploit, RpsStrategy::Pattern, 1000);
        assert!(ep > 0.9, "exploit vs pattern {ep}");
        let (eb, _) = many(RpsStrategy::Exploit, RpsStrategy::Biased, 1000);
        assert!(eb > 0.8, "exploit vs biased {eb}");
        let (ub, _) = many(RpsStrategy::Uniform, RpsStrategy::Biased, 3000);
        assert!((ub - 0.5).abs() < 0.04, "a bias does not help against uniform play: {ub}");
        let (ee, _) = many(RpsStrategy::Exploit, RpsStrategy::Exploit, 500);
        assert!((0.35..0.65).contains(&ee), "two exploiters {ee}");
        let (pp, m) = many(RpsStrategy::Pattern, RpsStrategy::Pattern, 500);
        assert!((0.35..0.65).contains(&pp) && m.iter().all(|m| !m.stalled), "two patterns do not tie forever");
    }

    #[test]
    fn knockout_one_decisive_throw_per_match_random_bracket_lopti_rps_4() {
        let mut dice: Vec<SimRng> = (0..5).map(rng_from).collect();
        let mut winners = [0u32; 5];
        let mut first_pairs = std::collections::HashSet::new();
        for i in 0..3000 {
            let mut chance = rng_from(10_000 + i);
            let (w, matches) = knockout(&[0, 2, 3, 4], |_| RpsStrategy::Uniform, &mut dice, &mut chance);
            assert_eq!(matches.len(), 3, "LOPTI-RPS-4: 4 players, 3 matches");
            for m in &matches {
                assert!(m.throws.last().unwrap().decisive() && m.throws[..m.throws.len() - 1].iter().all(|t| !t.decisive()), "one decisive throw");
            }
            first_pairs.insert(matches[0].players);
            winners[w as usize] += 1;
            let (w3, m3) = knockout(&[1, 2, 4], |_| RpsStrategy::Uniform, &mut dice, &mut chance);
            assert_eq!(m3.len(), 2, "three players: one bye, two matches");
            assert!([1, 2, 4].contains(&w3));
        }
        assert_eq!(winners[1], 0);
        assert!(winners.iter().enumerate().filter(|&(s, _)| s != 1).all(|(_, &c)| c.abs_diff(750) < 120), "{winners:?}");
        assert!(first_pairs.len() >= 6, "LOPTI-RPS-4: the bracket is random: {first_pairs:?}");
        let (w, m) = knockout(&[3], |_| RpsStrategy::Uniform, &mut dice, &mut rng_from(1));
        assert_eq!((w, m.len()), (3, 0), "a side of one is its own representative");
    }
}
