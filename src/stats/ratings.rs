//! Bradley–Terry ratings from pairwise outcomes, on the Elo scale, with 95% intervals.
//!
//! A multi-player match counts as one comparison between every pair of bots at its
//! table: the winner beats each other bot, a match without winner is half a win each
//! way, and a match a third bot won says nothing about the pair. Strengths are fitted
//! by Hunter's MM algorithm (2004); the intervals come from the observed Fisher
//! information of the log-strengths with their mean fixed at 0 (ratings are relative).
//! They treat every comparison as independent, which ignores the pairing of seatings
//! on one deal; where pairing cancels luck (design effect below 1) they are
//! conservative.

use statrs::distribution::{ContinuousCDF, Normal};

/// Elo points per natural-log unit of strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Pairwise results among `k` bots.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairwise {
    /// `wins[i][j]`: comparisons `i` won against `j` (halves for draws).
    pub wins: Vec<Vec<f64>>,
}

impl Pairwise {
    /// No comparisons among `k` bots.
    pub fn new(k: usize) -> Pairwise {
        Pairwise { wins: vec![vec![0.0; k]; k] }
    }

    /// Adds one table's results: `bots[s]` is the index of the bot at position `s`,
    /// `won[s]` the matches it won, `games` the matches played (all bots play every
    /// match of the table).
    pub fn add_table(&mut self, bots: &[usize], won: &[u64], games: u64) {
        let draws = games - won.iter().sum::<u64>();
        for (a, &i) in bots.iter().enumerate() {
            for (b, &j) in bots.iter().enumerate() {
                if a != b {
                    self.wins[i][j] += won[a] as f64 + draws as f64 / 2.0;
                }
            }
        }
    }
}

/// One bot's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo-scale rating; the bots' ratings average 0.
    pub elo: f64,
    /// Standard error of `elo`.
    pub se: f64,
}

impl Rating {
    /// The 95% interval.
    pub fn interval(&self) -> (f64, f64) {
        let z = Normal::standard().inverse_cdf(0.975);
        (self.elo - z * self.se, self.elo + z * self.se)
    }
}

/// Fits Bradley–Terry strengths to `p` (MM iterations until the log-strengths move less
/// than 1e-12, at most 100,000). A bot that never won or never lost gets an infinite
/// rating and an infinite SE. Errors when the comparisons do not connect every bot.
pub fn bradley_terry(p: &Pairwise) -> Result<Vec<Rating>, String> {
    let k = p.wins.len();
    let n = |i: usize, j: usize| p.wins[i][j] + p.wins[j][i];
    // Connected? (breadth-first over pairs that met)
    let mut seen = vec![false; k];
    let mut todo = vec![0];
    while let Some(i) = todo.pop() {
        if k == 0 || seen[i] {
            continue;
        }
        seen[i] = true;
        todo.extend((0..k).filter(|&j| j != i && n(i, j) > 0.0 && !seen[j]));
    }
    if k > 0 && seen.iter().any(|s| !s) {
        return Err("the tables do not connect every bot: no ratings".into());
    }
    let total_wins: Vec<f64> = (0..k).map(|i| p.wins[i].iter().sum()).collect();
    let total_losses: Vec<f64> = (0..k).map(|i| (0..k).map(|j| p.wins[j][i]).sum()).collect();
    let finite: Vec<bool> = (0..k).map(|i| total_wins[i] > 0.0 && total_losses[i] > 0.0).collect();
    let mut theta = vec![0.0f64; k];
    for _ in 0..100_000 {
        let mut next = theta.clone();
        for i in (0..k).filter(|&i| finite[i]) {
            let denom: f64 = (0..k).filter(|&j| j != i && finite[j]).map(|j| n(i, j) / (theta[i].exp() + theta[j].exp())).sum();
            let w: f64 = (0..k).filter(|&j| finite[j]).map(|j| p.wins[i][j]).sum();
            if denom > 0.0 && w > 0.0 {
                next[i] = (w / denom).ln();
            }
        }
        let mean = next.iter().zip(&finite).filter(|(_, f)| **f).map(|(t, _)| t).sum::<f64>() / finite.iter().filter(|f| **f).count().max(1) as f64;
        next.iter_mut().for_each(|t| *t -= mean);
        let moved = next.iter().zip(&theta).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        theta = next;
        if moved < 1e-12 {
            break;
        }
    }
    // Observed information of the finite log-strengths: a weighted graph Laplacian.
    let idx: Vec<usize> = (0..k).filter(|&i| finite[i]).collect();
    let m = idx.len();
    let mut info = vec![vec![0.0; m]; m];
    for (a, &i) in idx.iter().enumerate() {
        for (b, &j) in idx.iter().enumerate() {
            if a != b {
                let (pi, pj) = (theta[i].exp(), theta[j].exp());
                let w = n(i, j) * pi * pj / (pi + pj).powi(2);
                info[a][b] -= w;
                info[a][a] += w;
            }
        }
    }
    // Covariance with the mean fixed: the pseudo-inverse (L + J/m)^-1 - J/m.
    let shifted: Vec<Vec<f64>> = (0..m).map(|a| (0..m).map(|b| info[a][b] + 1.0 / m as f64).collect()).collect();
    let inv = invert(&shifted).ok_or("the ratings' information matrix is singular")?;
    let mut out = vec![Rating { elo: f64::INFINITY, se: f64::INFINITY }; k];
    for (a, &i) in idx.iter().enumerate() {
        let var = inv[a][a] - 1.0 / m as f64;
        out[i] = Rating { elo: theta[i] * ELO_PER_NAT, se: var.max(0.0).sqrt() * ELO_PER_NAT };
    }
    for i in (0..k).filter(|&i| !finite[i]) {
        out[i].elo = if total_wins[i] > 0.0 { f64::INFINITY } else { f64::NEG_INFINITY };
    }
    Ok(out)
}

/// Gauss–Jordan inverse with partial pivoting; `None` if singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a.iter().enumerate().map(|(i, r)| r.iter().copied().chain((0..n).map(|j| (i == j) as u8 as f64)).collect()).collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        let d = m[c][c];
        m[c].iter_mut().for_each(|x| *x /= d);
        for r in 0..n {
            if r != c {
                let f = m[r][c];
                if f != 0.0 {
                    let pivot = m[c].clone();
                    m[r].iter_mut().zip(&pivot).for_each(|(x, y)| *x -= f * y);
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bots_match_the_logistic_elo_and_its_binomial_interval() {
        // 60 wins of 100: strength ratio 1.5, Elo = 400 log10(1.5) = 70.44; each rating is
        // half of it. Information of the difference: 100 * 0.6 * 0.4 = 24, so the SE of
        // the difference is 1 / sqrt(24) nats and each rating's SE is half (hand computed).
        let mut p = Pairwise::new(2);
        p.add_table(&[0, 1], &[60, 40], 100);
        let r = bradley_terry(&p).unwrap();
        assert!((r[0].elo - 35.218).abs() < 1e-3 && (r[1].elo + 35.218).abs() < 1e-3, "{r:?}");
        let se = 0.5 / 24f64.sqrt() * ELO_PER_NAT;
        assert!((r[0].se - se).abs() < 1e-9, "{} vs {se}", r[0].se);
        // The 95% interval: 1.959964 SEs each side (normal tables), not 1.645.
        let (lo, hi) = r[0].interval();
        assert!((hi - r[0].elo - 1.959_964 * se).abs() < 1e-5 && (r[0].elo - lo - 1.959_964 * se).abs() < 1e-5, "[{lo}, {hi}]");
    }

    #[test]
    fn three_players_a_table_count_every_pair_and_draws_as_halves() {
        let mut p = Pairwise::new(3);
        // 10 matches: bot 0 won 5, bot 1 won 3, bot 2 won 1, one without winner.
        p.add_table(&[0, 1, 2], &[5, 3, 1], 10);
        assert_eq!(p.wins[0][1], 5.5);
        assert_eq!(p.wins[1][0], 3.5);
        assert_eq!(p.wins[2][0], 1.5);
        let r = bradley_terry(&p).unwrap();
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
        assert!((r.iter().map(|x| x.elo).sum::<f64>()).abs() < 1e-9, "ratings average 0");
    }

    #[test]
    fn a_known_strength_ladder_is_recovered() {
        // Expected results under strengths 1, 2, 4 (each pair 1,000 comparisons): the
        // fit returns log-strengths ln 1, ln 2, ln 4 less their mean.
        let s = [1.0f64, 2.0, 4.0];
        let mut p = Pairwise::new(3);
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    p.wins[i][j] = 1000.0 * s[i] / (s[i] + s[j]);
                }
            }
        }
        let r = bradley_terry(&p).unwrap();
        let mean = s.iter().map(|x| x.ln()).sum::<f64>() / 3.0;
        for i in 0..3 {
            assert!((r[i].elo - (s[i].ln() - mean) * ELO_PER_NAT).abs() < 1e-6, "{r:?}");
        }
    }

    #[test]
    fn unconnected_and_unbeaten_bots() {
        let mut p = Pairwise::new(4);
        p.add_table(&[0, 1], &[3, 2], 5);
        p.add_table(&[2, 3], &[3, 2], 5);
        assert!(bradley_terry(&p).unwrap_err().contains("connect"));
        let mut p = Pairwise::new(3);
        p.add_table(&[0, 1], &[5, 5], 10);
        p.add_table(&[0, 2], &[10, 0], 10);
        let r = bradley_terry(&p).unwrap();
        assert_eq!(r[2].elo, f64::NEG_INFINITY);
        assert!(r[0].elo.is_finite() && (r[0].elo - r[1].elo).abs() < 1e-9);
    }
}
