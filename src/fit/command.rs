//! `cardsim fit-rt TIMES.csv [--out PATH.toml] [--column NAME] [--strategy S] [--game G]
//! [--preset P]`: fits both families, prints the fits and, with `--out`, writes a bot
//! file for the better one by AIC (docs/fit-rt.md).

use super::botfile::{check_loads, look_toml, nearest_preset, preset_play_mean, BotPlan};
use super::families::{Moments, FAMILIES};
use super::input::{read_times, Times};
use super::mle::{fit, Fit};
use super::pace::{measure, nearest_in_play, pace_text, preset_paces, Pace, PACE_MATCHES, PACE_SEED};
use super::profile::{Bound, CHI2_1_95};
use super::Family;
use crate::games;
use crate::output::console::Console;
use crate::output::quote::{clip, clip_to};
use crate::output::OutputPath;
use crate::reaction::Preset;
use clap::Args;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What the measured times stand for, for `fit-rt --help`.
const MODEL_HELP: &str = "\
What the times stand for: each time is one whole card play, from the moment the table
changed to the card landing, i.e. cardsim's whole action time: look + scan + Hick
decision + movement - overlap. The bot file makes a play take exactly the fitted time:
the movement is a constant (the base preset's Fitts time for a play, scaled down if the
person is faster than that), the look is the fitted distribution less that constant, and
scan, Hick, overlap, motor noise, misses and fumbles are 0 because the person's times
already contain them. Slaps and stall recognition, which move times do not measure, keep
the base preset's simple reaction time.

Fits: maximum likelihood (Nelder-Mead on log / logit-transformed parameters from
moment-based starting values). Intervals: profile likelihood 95% (the values where twice
the drop of the log-likelihood, maximised over the other parameters, stays within
3.841); a bound that reaches a parameter's edge is printed as that edge. The
Kolmogorov-Smirnov p-value is approximate, and too large, because the parameters were
estimated from the same times.

Pace in play: after the fit, the bot of the better fit and the strategy at each human
preset play 40 mirror matches each (seed 1, the matches `cardsim trace GAME --bot B
--bot B --seed 1 --index I` shows); the mean time from the start of a landed card play
to its landing, with a 95% interval over matches, is printed per bot, and the base
preset by default is the one nearest in play. More in docs/fit-rt.md.";

/// Arguments of `cardsim fit-rt`.
#[derive(Args, Debug)]
#[command(after_long_help = MODEL_HELP)]
pub struct FitRtArgs {
    /// Measured move times in milliseconds: one number per line, or a CSV file with a
    /// header line (blank lines and lines starting with # are skipped). At least 20.
    #[arg(value_name = "TIMES.csv")]
    pub times: PathBuf,
    /// Write a bot file for the better fit (by AIC) here; it must end in .toml and its
    /// folder must exist. Use it with `cardsim match GAME --bot PATH.toml`.
    #[arg(long, value_name = "PATH.toml")]
    pub out: Option<PathBuf>,
    /// The CSV column holding the times (needed when the header has several columns).
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
    /// Strategy of the written bot. Default: the strategy of the game's first default
    /// bot (`smart` for spit and speed, `balanced` for nerts).
    #[arg(long, value_name = "S")]
    pub strategy: Option<String>,
    /// Game of the written bot: a real-time game (spit, speed, nerts).
    #[arg(long, value_name = "G", default_value = "spit")]
    pub game: String,
    /// Base preset of the written bot, for what move times do not measure (slaps, stall
    /// recognition, returns) and for the movement part of a play. Default: the human
    /// preset (novice to expert) whose pace in play is nearest the fitted bot's (both
    /// measured in mirror matches, printed).
    #[arg(long, value_name = "P")]
    pub preset: Option<String>,
}

/// Runs `fit-rt`: every check of the arguments and the output folder comes before the
/// fit, and nothing is written on an error. Printing goes through [`Console`], so a
/// closed standard output (`| head`) still writes the bot file.
pub fn run(a: FitRtArgs) -> Result<(), String> {
    let output = a.out.as_deref().map(check_out).transpose()?;
    if let Some(o) = &output {
        o.refuse_input(&a.times)?;
    }
    let entry = games::find(&a.game).map_err(|e| format!("--game: {e}"))?;
    if !entry.real_time() {
        return Err(format!("--game {}: {} is turn-based; fitted bots are for real-time games", a.game, entry.name()));
    }
    let strategy = match &a.strategy {
        Some(s) => s.clone(),
        None => default_strategy(entry.default_bots()),
    };
    let known: Vec<&str> = entry.strategies().iter().map(|s| s.name).collect();
    if !known.contains(&strategy.as_str()) {
        return Err(format!("--strategy {}: unknown strategy for {}; known strategies: {}", clip(&strategy), entry.name(), known.join(", ")));
    }
    let preset = a.preset.as_deref().map(Preset::parse).transpose().map_err(|e| format!("--preset: {e}"))?;
    let source = a.times.display().to_string();
    let times = read_times(&a.times, a.column.as_deref())?;
    let fits: Vec<Fit> = FAMILIES.iter().map(|&f| fit(f, &times.values)).collect();
    let mut console = Console::stdout();
    let _ = console.write_all(report(&source, &times, &fits).as_bytes());
    let label = a.out.as_deref().and_then(|o| o.file_stem()).and_then(|s| s.to_str()).unwrap_or("fitted").to_string();
    let played = BotPlan::new(better(&fits), entry.name(), &strategy, preset, &label).and_then(|plan| in_play(entry, plan));
    let played = match (played, &a.out) {
        (Ok(p), _) => p,
        (Err(e), Some(_)) => return Err(e),
        (Err(e), None) => {
            let _ = writeln!(console, "\nNo pace in play: {e}");
            return console.finish();
        }
    };
    let _ = console.write_all(played.text().as_bytes());
    if let (Some(out), Some(output)) = (&a.out, output) {
        let text = played.plan.toml(&provenance(&source, &times, &fits, &played));
        check_loads(&text)?;
        output.write(text.as_bytes())?;
        let _ = console.write_all(written(out, &played.plan).as_bytes());
    }
    console.finish()
}

/// A fitted bot and the human presets, measured in play.
pub struct Played {
    /// The bot, its base preset the nearest in play unless `--preset` chose it.
    pub plan: BotPlan,
    /// Its pace in play.
    pub pace: Pace,
    /// The human presets of its strategy, slowest first, with their paces in play.
    pub presets: Vec<(Preset, Pace)>,
    /// The preset nearest in pace by the reference situation ([`nearest_preset`]).
    pub by_reference: Preset,
}

/// Measures `plan`'s bot and the human presets of its strategy in play
/// ([`super::pace`]). When the base preset is chosen by pace, it becomes the preset
/// nearest to the bot's pace in play; if that is not the preset the bot was first
/// measured with (the nearest by the reference situation), the bot is rebuilt on it and
/// measured again, so the printed pace is that of the bot written.
pub fn in_play(entry: &'static dyn games::GameEntry, mut plan: BotPlan) -> Result<Played, String> {
    let by_reference = nearest_preset(plan.family.mean(&plan.params));
    let presets = preset_paces(entry, &plan.strategy)?;
    let mut pace = measure(entry, &check_loads(&plan.toml(&[]))?)?;
    if plan.preset_by_pace {
        let nearest = nearest_in_play(&presets, pace.mean);
        if nearest != plan.preset {
            plan = BotPlan { preset_by_pace: true, ..plan.with_preset(nearest)? };
            pace = measure(entry, &check_loads(&plan.toml(&[]))?)?;
        }
    }
    Ok(Played { plan, pace, presets, by_reference })
}

impl Played {
    /// The strategy at preset `p`, as a `--bot` text.
    fn preset_bot(&self, p: Preset) -> String {
        format!("{}@{}", self.plan.strategy, p.name())
    }

    /// The printed section on the pace in play.
    pub fn text(&self) -> String {
        let game = &self.plan.game;
        let mut o = String::new();
        let _ = writeln!(
            o,
            "\nPace in play: the time from the start of a card play to its landing, mean over the plays that landed, in {PACE_MATCHES} mirror matches of {game} per bot (against copies of itself, seed {PACE_SEED}); 95% interval over matches:"
        );
        let _ = writeln!(o, "  {:<22} {}", format!("fitted bot '{}'", clip(&self.plan.label)), pace_text(&self.pace));
        for (p, pace) in &self.presets {
            let _ = writeln!(o, "  {:<22} {}", self.preset_bot(*p), pace_text(pace));
        }
        let _ = writeln!(o, "{}", self.nearest_sentence());
        let _ = writeln!(o, "Any match of it: cardsim trace {game} --bot BOT --bot BOT --seed {PACE_SEED} --index I --format jsonl (I from 0 to {}).", PACE_MATCHES - 1);
        o
    }

    /// The sentence on the nearest preset in play and by the reference situation.
    pub fn nearest_sentence(&self) -> String {
        let in_play = nearest_in_play(&self.presets, self.pace.mean);
        let at = |p: Preset| self.presets.iter().find(|x| x.0 == p).map_or(f64::NAN, |x| x.1.mean);
        let reference = if self.by_reference == in_play {
            "the same as by the reference situation (5 cards, 1 move)".to_string()
        } else {
            format!(
                "by the reference situation (5 cards, 1 move) it would be {} ({:.0} ms against the fit's mean {:.0} ms), which plays at {:.2} ms in play",
                self.by_reference.name(),
                preset_play_mean(self.by_reference),
                self.plan.family.mean(&self.plan.params),
                at(self.by_reference)
            )
        };
        format!("Nearest preset in play: {} ({:.2} ms against the fitted bot's {:.2} ms); {reference}.", in_play.name(), at(in_play), self.pace.mean)
    }
}

/// The strategy of the first default bot (`smart@skilled` → `smart`).
pub fn default_strategy(default_bots: &[&str]) -> String {
    default_bots.first().map_or("greedy", |b| b.split('@').next().unwrap_or(b)).to_string()
}

/// `--out` must name a `.toml` file that can be written ([`OutputPath::check`]: its
/// folder exists, it is not a folder or a read-only file).
fn check_out(out: &Path) -> Result<OutputPath, String> {
    if out.extension().and_then(|e| e.to_str()) != Some("toml") {
        return Err(format!("--out {}: a bot file must end in .toml", crate::output::clip_path(out)));
    }
    OutputPath::check("--out", out)
}

/// AIC differences below this do not tell two fits apart (Burnham and Anderson's rule
/// of thumb: a model within 2 of the best has substantial support).
pub const AIC_MEANINGFUL: f64 = 2.0;

/// The sentence on the families' AICs: "Better fit by AIC: F (AIC d below the G's)"
/// only when the lower AIC is lower by at least [`AIC_MEANINGFUL`] and its fit is not
/// degenerate ([`Fit::degenerate`]: e.g. tau at its boundary 0);
/// otherwise a sentence that says why there is no verdict.
pub fn aic_sentence(fits: &[Fit]) -> String {
    let best = better(fits);
    let others: Vec<&Fit> = fits.iter().filter(|f| f.family != best.family).collect();
    let gaps = others.iter().map(|f| format!("{:.2} below the {}'s", f.aic - best.aic, f.family.name())).collect::<Vec<_>>().join(", ");
    if best.degenerate {
        format!("No verdict by AIC: the {} has the lower AIC ({gaps}), but its fit is degenerate ({}).", best.family.name(), best.notes.join("; "))
    } else if others.iter().any(|f| f.aic - best.aic < AIC_MEANINGFUL) {
        format!("No better fit by AIC: the {}'s AIC is {gaps}, less than {AIC_MEANINGFUL}, which does not tell the families apart.", best.family.name())
    } else {
        format!("Better fit by AIC: {} (AIC {gaps})", best.family.name())
    }
}

/// The fit with the lower AIC (the first on a tie).
pub fn better(fits: &[Fit]) -> &Fit {
    fits.iter().min_by(|a, b| a.aic.total_cmp(&b.aic)).expect("at least one fit")
}

/// Decimals to print a family's parameters with (ms to 0.01, log-scale to 1e-4).
fn decimals(family: Family) -> [usize; 3] {
    match family {
        Family::ExGaussian => [2, 2, 2],
        Family::ShiftedLognormal => [2, 4, 4],
    }
}

/// What the parameters of a family mean.
fn described(family: Family) -> &'static str {
    match family {
        Family::ExGaussian => "Normal(mu, sigma) + Exponential(mean tau); all in ms",
        Family::ShiftedLognormal => "shift + exp(Normal(mu, sigma)); shift in ms, mu and sigma of ln(time - shift) in ms",
    }
}

/// The printed report of the fits.
pub fn report(source: &str, times: &Times, fits: &[Fit]) -> String {
    let xs = &times.values;
    let m = Moments::of(xs);
    let mut sorted = xs.clone();
    sorted.sort_by(f64::total_cmp);
    let median = if sorted.len() % 2 == 1 { sorted[sorted.len() / 2] } else { 0.5 * (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) };
    let column = times.column.as_ref().map_or(String::new(), |c| format!(", column '{c}'"));
    let mut o = String::new();
    let _ = writeln!(o, "{} move times (ms) from {source}{column}", xs.len());
    let _ = writeln!(o, "  mean {:.2}, sd {:.2}, min {:.2}, median {:.2}, max {:.2}", m.mean, m.sd, m.min, median, m.max);
    for f in fits {
        let _ = writeln!(o, "\n{}: {}", f.family.name(), described(f.family));
        let _ = writeln!(o, "  {:<8} {:>12}  {:>26}", "", "estimate", "95% interval");
        for (i, name) in f.family.param_names().iter().enumerate() {
            let d = decimals(f.family)[i];
            let interval = format!("[{}, {}]", bound_text(f.ci[i].low, d), bound_text(f.ci[i].high, d));
            let _ = writeln!(o, "  {name:<8} {:>12.d$}  {interval:>26}", f.params[i]);
        }
        let _ = writeln!(o, "  log-likelihood {:.3}, AIC {:.3}", f.log_likelihood, f.aic);
        let _ = writeln!(o, "  Kolmogorov-Smirnov D = {:.4}, p = {:.3} (approximate; see below)", f.ks.d, f.ks.p);
        for note in &f.notes {
            let _ = writeln!(o, "  note: {note}");
        }
    }
    let _ = writeln!(o, "\n{}", aic_sentence(fits));
    let _ = writeln!(o, "Intervals: profile likelihood 95% (twice the log-likelihood drop, maximised over the other parameters, within {CHI2_1_95:.3}); \"(edge)\" marks a bound at the edge of the parameter's range.");
    let _ = writeln!(
        o,
        "KS p-values are approximate: the parameters were estimated from the same times, which makes p too large (conservative){}.",
        if xs.len() < super::ks::ASYMPTOTIC_FROM { "; below 140 times twice the exact one-sided p" } else { "; Kolmogorov's asymptotic distribution" }
    );
    o
}

/// One end of a printed interval with `d` decimals: an edge of the range is marked
/// `(edge)`, a side without a crossing is `none`.
fn bound_text(b: Bound, d: usize) -> String {
    match b {
        Bound::At(v) => format!("{v:.d$}"),
        Bound::Edge(v) => format!("{v:.d$} (edge)"),
        Bound::Open => "none".to_string(),
    }
}

/// The comment lines at the top of a written bot file.
fn provenance(source: &str, times: &Times, fits: &[Fit], played: &Played) -> Vec<String> {
    let plan = &played.plan;
    let best = better(fits);
    // Control characters escaped, so no comment line can break.
    let source = clip_to(source, 500);
    let column = times.column.as_ref().map_or(String::new(), |c| format!(", column '{}'", clip(c)));
    let params: Vec<String> = best.family.param_names().iter().zip(best.params).map(|(n, v)| format!("{n} {v:.4}")).collect();
    let aics: Vec<String> = fits.iter().map(|f| format!("{} {:.2}", f.family.name(), f.aic)).collect();
    vec![
        format!("Fitted by `cardsim fit-rt` to {} move times (ms) from {source}{column}.", times.values.len()),
        format!("Written from the {} fit ({}), the lower AIC; AIC: {}. {}", best.family.name(), params.join(", "), aics.join(", "), aic_sentence(fits)),
        format!(
            "A card play takes exactly that time: a constant movement of {:.3} ms plus a look of the fitted distribution less it.",
            plan.motor
        ),
        "Scan, Hick, overlap, motor noise, misses and fumbles are 0 (the measured times contain them);".to_string(),
        format!("slaps and stall recognition keep the {} preset's simple reaction time. See docs/fit-rt.md.", plan.preset.name()),
        format!(
            "Pace in play ({PACE_MATCHES} mirror matches from seed {PACE_SEED}, start to landing of a landed card play): {}; {}.",
            pace_text(&played.pace),
            played.presets.iter().map(|(p, pace)| format!("{} {:.2} ms", played.preset_bot(*p), pace.mean)).collect::<Vec<_>>().join(", ")
        ),
        played.nearest_sentence(),
    ]
}

/// The lines printed after writing a bot file.
fn written(out: &Path, plan: &BotPlan) -> String {
    let why = if plan.preset_by_pace {
        " (nearest in pace in play)".to_string()
    } else {
        String::new()
    };
    let scaled = if plan.motor_scale < 1.0 { format!(", its movements scaled by {:.3} to fit the person's fastest times", plan.motor_scale) } else { String::new() };
    format!(
        "\nwrote {}: {} bot '{}', strategy {}, preset {}{why}\n  a card play takes the fitted {}: a constant {:.2} ms movement{scaled}, plus the look {}\n",
        out.display(),
        plan.game,
        plan.label,
        plan.strategy,
        plan.preset.name(),
        plan.family.name(),
        plan.motor,
        look_toml(&plan.look)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_default_strategy_is_the_first_default_bot() {
        assert_eq!(default_strategy(&["smart@skilled", "greedy@skilled"]), "smart");
        assert_eq!(default_strategy(&["balanced@skilled"]), "balanced");
        assert_eq!(default_strategy(games::find("spit").unwrap().default_bots()), "smart");
    }

    #[test]
    fn fit_aic_gaps_below_two_and_degenerate_fits_get_no_verdict() {
        use crate::reaction::Dist;
        let mut rng = crate::rng::rng_from(3);
        let xs: Vec<f64> = (0..400).map(|_| Dist::ExGaussian { mu: 400.0, sigma: 40.0, tau: 120.0, floor: 0.0 }.sample(&mut rng)).collect();
        let mut fits: Vec<Fit> = FAMILIES.iter().map(|&f| fit(f, &xs)).collect();
        let (eg, ln) = (fits.iter().position(|f| f.family == Family::ExGaussian).unwrap(), fits.iter().position(|f| f.family == Family::ShiftedLognormal).unwrap());
        fits[eg].aic = 1000.0;
        fits[ln].aic = 1001.98;
        assert_eq!(aic_sentence(&fits), "No better fit by AIC: the ex-Gaussian's AIC is 1.98 below the shifted lognormal's, less than 2, which does not tell the families apart.");
        fits[ln].aic = 1002.5;
        assert_eq!(aic_sentence(&fits), "Better fit by AIC: ex-Gaussian (AIC 2.50 below the shifted lognormal's)");
        fits[eg].degenerate = true;
        fits[eg].notes = vec!["tau is near its boundary 0".into()];
        assert!(aic_sentence(&fits).starts_with("No verdict by AIC: the ex-Gaussian has the lower AIC (2.50 below the shifted lognormal's), but its fit is degenerate (tau is near its boundary 0"), "{}", aic_sentence(&fits));
    }

    #[test]
    fn fit_out_must_be_a_toml_file_in_an_existing_folder() {
        assert!(check_out(Path::new("/no/such/dir/x.toml")).unwrap_err().contains("folder /no/such/dir does not exist"));
        assert!(check_out(Path::new("x.csv")).unwrap_err().contains("must end in .toml"));
        assert!(check_out(&std::env::temp_dir().join("x.toml")).is_ok());
        assert!(check_out(&std::env::temp_dir()).unwrap_err().contains("must end in .toml"));
    }
}
