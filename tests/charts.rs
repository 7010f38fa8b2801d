//! Charts of a results folder (`cardsim::output::charts`): every expected SVG from
//! small hand-written CSV files, byte-identical on a second draw, one-line errors.

use cardsim::output::charts::{draw, plot_folder};
mod common;

use std::path::PathBuf;

const SUMMARY: &str = "game,bots,bot,seat,games,wins\nspeed,a vs b,a,all,10,5\n";

const LENGTHS: &str = "cell,metric,value,matches\n1,rounds,1,50\n1,rounds,2,30\n1,rounds,3,20\n2,rounds,1,10\n2,rounds,2,60\n2,rounds,5,30\n";

const SWEEP: &str = "\
point,bot0.look.mu,figure,bot,value,se,ci_low,ci_high,diff,diff_se,diff_ci_low,diff_ci_high,p_value,change
1,250,seat0_edge,,-0.011000,0.012762,-0.036014,0.014014,0.000000,0.000000,0.000000,0.000000,1.000000,
1,250,rounds,,1.000000,0.000000,1.000000,1.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000
1,250,score,smart@skilled look.mu=250,0.550000,0.009192,0.531983,0.568017,0.000000,0.000000,0.000000,0.000000,1.000000,
1,250,score,greedy@skilled,0.450000,0.009192,0.431983,0.468017,0.000000,0.000000,0.000000,0.000000,1.000000,
2,300,seat0_edge,,-0.020000,0.012653,-0.044800,0.004800,-0.009000,0.009242,-0.027114,0.009114,0.330161,
2,300,rounds,,1.000000,0.000000,1.000000,1.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000
2,300,score,smart@skilled look.mu=300,0.476000,0.009430,0.457518,0.494482,-0.074000,0.010199,-0.093990,-0.054010,0.000000,
2,300,score,greedy@skilled,0.524000,0.009430,0.505518,0.542482,0.074000,0.010199,0.054010,0.093990,0.000000,
3,400,seat0_edge,,0.003500,0.011672,-0.019377,0.026377,0.014500,0.011685,-0.008402,0.037402,0.214641,
3,400,rounds,,1.000000,0.000000,1.000000,1.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000
3,400,score,smart@skilled look.mu=400,0.345500,0.009480,0.326919,0.364081,-0.204500,0.012245,-0.228499,-0.180501,0.000000,
3,400,score,greedy@skilled,0.654500,0.009480,0.635919,0.673081,0.204500,0.012245,0.180501,0.228499,0.000000,
";

/// Two swept parameters, the first categorical (a preset), the second numeric.
const SWEEP2: &str = "\
point,bot0.preset,spit.num_stockpiles,figure,bot,value,se,ci_low,ci_high,diff,diff_se,diff_ci_low,diff_ci_high,p_value,change
1,casual,2,seat0_edge,,0.01,0.01,-0.01,0.03,0,0,0,0,1,
1,casual,2,score,smart preset=casual,0.5,0.01,0.48,0.52,0,0,0,0,1,
1,casual,2,score,greedy,0.5,0.01,0.48,0.52,0,0,0,0,1,
2,expert,2,seat0_edge,,0.02,0.01,0.0,0.04,0.01,0.01,-0.01,0.03,0.3,
2,expert,2,score,smart preset=expert,0.6,0.01,0.58,0.62,0.1,0.01,0.08,0.12,0.0,
2,expert,2,score,greedy,0.4,0.01,0.38,0.42,-0.1,0.01,-0.12,-0.08,0.0,
3,casual,4,seat0_edge,,0.0,0.01,-0.02,0.02,-0.01,0.01,-0.03,0.01,0.3,
3,casual,4,score,smart preset=casual,0.52,0.01,0.5,0.54,0.02,0.01,0.0,0.04,0.05,
3,casual,4,score,greedy,0.48,0.01,0.46,0.5,-0.02,0.01,-0.04,0.0,0.05,
4,expert,4,seat0_edge,,0.0,0.01,-0.02,0.02,,,,,,
4,expert,4,score,smart preset=expert,0.62,0.01,0.6,0.64,,,,,,
4,expert,4,score,greedy,0.38,0.01,0.36,0.4,,,,,,
";

const RATINGS: &str = "\
rank,bot,elo,elo_se,elo_ci_low,elo_ci_high,tables,games,wins
1,perfect,inf,inf,inf,inf,2,200,200
2,smart@skilled,35.20,10.00,15.60,54.80,2,200,120
3,greedy@skilled,-10.00,10.00,-29.60,9.60,2,200,70
4,random@skilled,-25.20,10.00,-44.80,-5.60,2,200,10
";

fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    list.iter().map(|(n, t)| (n.to_string(), t.as_bytes().to_vec())).collect()
}

fn names(out: &[(String, Vec<u8>)]) -> Vec<&str> {
    out.iter().map(|(n, _)| n.as_str()).collect()
}

fn text<'a>(out: &'a [(String, Vec<u8>)], name: &str) -> &'a str {
    let bytes = &out.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name}")).1;
    std::str::from_utf8(bytes).expect("UTF-8")
}

/// Looks like an SVG made by plotters' SVG backend: one root element, closed.
fn assert_svg(svg: &str, must_contain: &[&str]) {
    assert!(svg.starts_with("<svg "), "{}", &svg[..80.min(svg.len())]);
    assert!(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    for t in must_contain {
        assert!(svg.contains(t), "missing {t:?}");
    }
}

fn temp_dir(name: &str) -> common::Scratch {
    common::scratch("charts", name)
}

#[test]
fn a_sweep_folder_gives_sweep_differences_and_lengths_charts() {
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP), ("manifest.toml", "x = 1\n")])).unwrap();
    assert_eq!(names(&out), ["sweep.svg", "differences.svg", "lengths.svg"]);
    let sweep = text(&out, "sweep.svg");
    assert_svg(sweep, &["How does each bot&apos;s score change with bot0.look.mu? (win = 1, 95% interval)", "Does the first seat have an edge at each bot0.look.mu?", "bot0.look.mu (first swept parameter)", "bot 0: smart@skilled", "bot 1: greedy@skilled", "fair share 1/2"]);
    // A whole-number parameter: a tick at each value swept and nowhere else (in both panels).
    let big: Vec<String> = texts(sweep).into_iter().filter(|t| t.parse::<f64>().is_ok_and(|v| v > 2.0)).collect();
    assert_eq!(big, ["250", "300", "400", "250", "300", "400"]);
    assert_no_line_between_values(sweep);
    // One line per bot: the swept suffix is stripped from the label.
    assert!(!sweep.contains("look.mu=300"), "a bot split into one series per point");
    assert_svg(
        text(&out, "differences.svg"),
        &["Which points differ from point 1 (bot0.look.mu=250)? Paired difference on the same deals, 95% interval", "300 | seat 0 edge", "400 | bot 0: smart@skilled", "400 | bot 1: greedy@skilled", "bot0.look.mu | figure", "win = 1, as the score"],
    );
    assert_svg(text(&out, "lengths.svg"), &["How long are the matches in each cell? Distribution of rounds per match", ">\ncell 2: 300\n<", ">\ncell: bot0.look.mu\n<", "share of the cell"]);
}

#[test]
fn two_swept_parameters_and_categorical_values() {
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP2)])).unwrap();
    assert_eq!(names(&out), ["sweep.svg", "differences.svg", "lengths.svg"]);
    let sweep = text(&out, "sweep.svg");
    // Small multiples: one score panel per value of the second parameter, one series
    // per bot in each; the preset names label the x axis of each panel.
    assert_svg(sweep, &["bot 0: smart", "bot 1: greedy", ">\nspit.num_stockpiles=2\n<", ">\nspit.num_stockpiles=4\n<", ">\ncasual\n<", ">\nexpert\n<"]);
    let panels: Vec<String> = texts(sweep).into_iter().filter(|t| t.starts_with("Each bot's score by bot0.preset at ")).collect();
    assert_eq!(panels, ["Each bot's score by bot0.preset at spit.num_stockpiles=2 (win = 1, 95% interval)", "Each bot's score by bot0.preset at spit.num_stockpiles=4 (win = 1, 95% interval)"]);
    assert_eq!(texts(sweep).iter().filter(|t| t.starts_with("bot 0:")).count(), 1, "a bot is named once, not once per panel");
    assert_no_line_between_values(sweep);
    // Point 4 has no paired difference (another table size): left out and counted.
    let diff = text(&out, "differences.svg");
    assert_svg(diff, &["(3 not comparable, not shown)", "expert, 2 | bot 0: smart", "casual, 4 | seat 0 edge", "bot0.preset, spit.num_stockpiles | figure"]);
    assert!(!diff.contains("expert, 4 |"), "point 4 has no difference to show");
}

/// The texts of an SVG, in drawing order, unescaped.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .map(|t| t.split_once('>').unwrap().1.split("</text>").next().unwrap().trim().replace("&apos;", "'").replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
        .collect()
}

/// The points of every `<polyline>` drawn in `colour` (`#RRGGBB`).
fn polylines(svg: &str, colour: &str) -> Vec<Vec<(f64, f64)>> {
    svg.lines()
        .filter(|l| l.starts_with("<polyline") && l.contains(&format!("stroke=\"{colour}\"")))
        .map(|l| {
            let pts = l.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
            pts.split_whitespace().map(|p| p.split_once(',').map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap())).unwrap()).collect()
        })
        .collect()
}

/// On a discrete axis every mark of a bot's colour is a bar or a cap: a segment that is
/// vertical or horizontal, never a line joining two values; and no band is shaded.
fn assert_no_line_between_values(svg: &str) {
    let lines = polylines(svg, "#1F77B4");
    assert!(!lines.is_empty(), "bot 0's marks are drawn in its colour");
    for pts in lines {
        assert_eq!(pts.len(), 2, "{pts:?}");
        assert!(pts[0].0 == pts[1].0 || pts[0].1 == pts[1].1, "a line between two values: {pts:?}");
    }
    assert!(!svg.contains("<polygon"), "no shaded band between values");
}

/// Two points of one boolean parameter.
const SWEEP_BOOL: &str = "\
point,spit.alternate_colors,figure,bot,value,se,ci_low,ci_high,diff,diff_se,diff_ci_low,diff_ci_high,p_value,change
1,true,seat0_edge,,0.01,0.01,-0.01,0.03,0,0,0,0,1,
1,true,score,smart,0.6,0.01,0.58,0.62,0,0,0,0,1,
1,true,score,greedy,0.4,0.01,0.38,0.42,0,0,0,0,1,
2,false,seat0_edge,,0.0,0.01,-0.02,0.02,-0.01,0.01,-0.03,0.01,0.3,
2,false,score,smart,0.5,0.01,0.48,0.52,-0.1,0.01,-0.12,-0.08,0.0,
2,false,score,greedy,0.5,0.01,0.48,0.52,0.1,0.01,0.08,0.12,0.0,
";

#[test]
fn a_true_false_parameter_has_exactly_the_ticks_false_and_true_and_no_line_between() {
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP_BOOL)])).unwrap();
    let sweep = text(&out, "sweep.svg");
    // The x tick labels of both panels: every text that is not a number, a title, a
    // legend entry or an axis description.
    let ticks: Vec<String> = texts(sweep).into_iter().filter(|t| t == "false" || t == "true" || t.parse::<f64>().is_ok_and(|v| v > 1.0)).collect();
    assert_eq!(ticks, ["false", "true", "false", "true"], "false first, then true, in each panel");
    assert_no_line_between_values(sweep);
}

/// A sweep over the number of players: 2 then 3 seats, so the fair share is 1/2 then 1/3.
const SWEEP_PLAYERS: &str = "\
point,players,figure,bot,value,se,ci_low,ci_high,diff,diff_se,diff_ci_low,diff_ci_high,p_value,change
1,2,seat0_edge,,0.01,0.01,-0.01,0.03,0,0,0,0,1,
1,2,score,a,0.5,0.01,0.48,0.52,0,0,0,0,1,
1,2,score,b,0.5,0.01,0.48,0.52,0,0,0,0,1,
2,3,seat0_edge,,0.02,0.01,0.0,0.04,0.01,0.01,-0.01,0.03,0.3,
2,3,score,a,0.4,0.01,0.38,0.42,,,,,,
2,3,score,b,0.3,0.01,0.28,0.32,,,,,,
2,3,score,c,0.3,0.01,0.28,0.32,,,,,,
";

#[test]
fn the_fair_share_is_drawn_only_where_it_holds() {
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP_PLAYERS)])).unwrap();
    let sweep = text(&out, "sweep.svg");
    assert_svg(sweep, &["fair share 1/n at each point"]);
    assert!(!texts(sweep).iter().any(|t| t.starts_with("fair share 1/2") || t.starts_with("fair share 1/3")), "no single fair share across player counts");
    // One short grey mark per player count, at 1/2 over x = 2 and at 1/3 over x = 3:
    // level segments, at two heights, not crossing into each other's column.
    let marks: Vec<Vec<(f64, f64)>> = polylines(sweep, "#969696").into_iter().filter(|p| p.len() == 2 && p[0].1 == p[1].1 && p[0].0 != p[1].0).collect();
    // (The plots are the left 660 pixels; the legend's keys are to their right.)
    let in_score_panel: Vec<&Vec<(f64, f64)>> = marks.iter().filter(|p| p[0].1 < 470.0 && p[1].0 < 660.0).collect();
    assert_eq!(in_score_panel.len(), 2, "{marks:?}");
    let (m2, m3) = (in_score_panel[0], in_score_panel[1]);
    assert!(m2[0].1.partial_cmp(&m3[0].1).is_some_and(|o| o.is_ne()), "two heights, neither NaN");
    assert!(m2[1].0 < m3[0].0, "the mark of 2 players ends before the mark of 3 begins");
    // SVG y grows downwards: 1/2 is above 1/3 on the page.
    let (y2, y3) = (m2[0].1, m3[0].1);
    assert!(y2 < y3, "1/2 above 1/3: {y2} {y3}");
}

#[test]
fn many_cells_get_one_lengths_panel_each_and_bins_have_round_widths() {
    let mut csv = String::from("cell,metric,value,matches\n");
    for cell in 1..=6 {
        for v in 0..200 {
            // Fractional values from 1.3 to 54.94: a raw width of 0.894, rounded to 1.
            csv += &format!("{cell},seconds,{:.3},{}\n", 1.3 + v as f64 * 0.2696 + cell as f64 * 0.001, 1 + v % 5);
        }
    }
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", &csv)])).unwrap();
    let svg = text(&out, "lengths.svg");
    let t = texts(svg);
    assert_eq!(t.iter().filter(|x| x.starts_with("cell ")).cloned().collect::<Vec<_>>(), (1..=6).map(|c| format!("cell {c}")).collect::<Vec<_>>(), "a panel per cell, named");
    assert!(t.iter().all(|x| !x.contains("bins of") || x.ends_with("bins of 1)")), "{t:?}");
    assert_eq!(t.iter().filter(|x| x.ends_with("bins of 1)")).count(), 6);
    // Every numeric label is round: at most 2 significant digits (a multiple of a
    // tick step of 1, 2 or 5 times a power of ten, up to 60 = 12 x 5).
    for x in t.iter().filter(|x| x.parse::<f64>().is_ok()) {
        let digits = x.trim_start_matches('-').replace('.', "");
        let significant = digits.trim_start_matches('0').trim_end_matches('0');
        assert!(significant.len() <= 2, "{x}");
    }
    // Four cells or fewer stay overlaid in one plot with a legend.
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS)])).unwrap();
    assert!(texts(text(&out, "lengths.svg")).contains(&"cell (table of the experiment)".to_string()));
}

#[test]
fn a_one_point_sweep_has_no_differences_chart() {
    let one: String = SWEEP.lines().filter(|l| l.starts_with("point") || l.starts_with("1,")).map(|l| format!("{l}\n")).collect();
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", &one)])).unwrap();
    assert_eq!(names(&out), ["sweep.svg", "lengths.svg"]);
}

#[test]
fn ratings_are_drawn_best_first_and_infinite_ones_named_in_the_title() {
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("ratings.csv", RATINGS)])).unwrap();
    assert_eq!(names(&out), ["lengths.svg", "ratings.svg"]);
    assert!(text(&out, "lengths.svg").contains(">\ncell 2\n<"));
    let svg = text(&out, "ratings.svg");
    assert_svg(svg, &["Which bot is strongest, by how much? Elo rating", "95% interval", "not shown, infinite: perfect +inf", "random@skilled"]);
    // Best at the top: its label comes first in the drawing order of the y labels,
    // which plotters writes bottom to top.
    let (smart, random) = (svg.find(">\nsmart@skilled\n<").unwrap(), svg.find(">\nrandom@skilled\n<").unwrap());
    assert!(random < smart, "the weakest bot is the lowest row");
    // Only infinite ratings: an empty chart that says why.
    let only = "rank,bot,elo,elo_se,elo_ci_low,elo_ci_high,tables,games,wins\n1,a,inf,inf,inf,inf,1,10,10\n2,b,-inf,inf,-inf,-inf,1,10,0\n";
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("ratings.csv", only)])).unwrap();
    assert_svg(text(&out, "ratings.svg"), &["not shown, infinite: a +inf, b -inf"]);
}

#[test]
fn the_same_input_gives_the_same_bytes_whatever_the_file_order() {
    let list = [("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP), ("ratings.csv", RATINGS)];
    let a = draw(&files(&list)).unwrap();
    let b = draw(&files(&list)).unwrap();
    assert_eq!(a, b);
    let mut reversed = list;
    reversed.reverse();
    assert_eq!(a, draw(&files(&reversed)).unwrap());
    assert_eq!(names(&a), ["sweep.svg", "differences.svg", "lengths.svg", "ratings.svg"]);
}

#[test]
fn lengths_with_many_values_use_at_most_sixty_bins() {
    let mut csv = String::from("cell,metric,value,matches\n");
    for v in 0..1000 {
        csv += &format!("1,turns,{},{}\n", 10 + v * 3, 1 + v % 7);
    }
    csv += "2,turns,17,5\n";
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", &csv)])).unwrap();
    let svg = text(&out, "lengths.svg");
    assert_svg(svg, &["Distribution of turns per match", "bins of 50"]);
    // An outline per cell: 2 points per bin plus the two ends; bins of a round width
    // from a multiple of it, so about 60 (10 to 3007 in bins of 50 from 0: 61).
    let outline = svg.lines().filter(|l| l.starts_with("<polyline")).map(|l| l.matches(',').count()).max().unwrap();
    assert_eq!(outline, 2 * 61 + 2, "{outline} points");
    // Empty lengths (a game without a length metric) still draw, with a note.
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", "cell,metric,value,matches\n")])).unwrap();
    assert_svg(text(&out, "lengths.svg"), &["(no lengths recorded)"]);
}

#[test]
fn bad_input_is_a_one_line_error_naming_the_file_and_line() {
    let err = |list: &[(&str, &str)]| draw(&files(list)).unwrap_err();
    assert_eq!(err(&[("summary.csv", SUMMARY)]), "not a cardsim results folder (no lengths.csv)");
    assert_eq!(err(&[("lengths.csv", LENGTHS)]), "not a cardsim results folder (no summary.csv)");
    let bad_value = SWEEP.replacen("0.476000", "abc", 1);
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", &bad_value)]), "sweep.csv: line 8: value: `abc` is not a number");
    let short = SWEEP.replacen("2,300,rounds,,", "2,300,", 1);
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", &short)]), "sweep.csv: line 7: 12 fields where the header has 14");
    let no_column = SWEEP.replacen("ci_low,ci_high", "lo,hi", 1);
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", &no_column)]), "sweep.csv: line 1: no column `ci_low`");
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", "cell,metric,value,matches\n1,rounds,x,3\n")]), "lengths.csv: line 2: value: `x` is not a number");
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", "cell,metric,value,matches\n1,rounds,3,-1\n")]), "lengths.csv: line 2: matches: `-1` is not a whole number");
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", "")]), "lengths.csv: line 1: empty file (no header)");
    assert_eq!(err(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("ratings.csv", "rank,bot,elo\n1,a,1\n")]), "ratings.csv: line 1: no column `elo_ci_low`");
    assert_eq!(
        err(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("ratings.csv", &RATINGS.replacen("35.20", "NaN", 1))]),
        "ratings.csv: line 3: elo: NaN is not a number"
    );
}

#[test]
fn plot_folder_writes_each_chart_atomically_and_names_the_folder_in_errors() {
    let dir = temp_dir("folder");
    for (n, t) in [("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP)] {
        std::fs::write(dir.join(n), t).unwrap();
    }
    let paths = plot_folder(&dir).unwrap();
    assert_eq!(paths, ["sweep.svg", "differences.svg", "lengths.svg"].map(|n| dir.join(n)));
    let expected = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP)])).unwrap();
    for (name, bytes) in &expected {
        assert_eq!(&std::fs::read(dir.join(name)).unwrap(), bytes, "{name}");
    }
    let leftovers: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with('.')).collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // Rewriting replaces the files with the same bytes.
    assert_eq!(plot_folder(&dir).unwrap(), paths);

    std::fs::write(dir.join("sweep.csv"), SWEEP.replacen("0.476000", "abc", 1)).unwrap();
    assert_eq!(plot_folder(&dir).unwrap_err(), format!("{}: line 8: value: `abc` is not a number", dir.join("sweep.csv").display()));
    std::fs::remove_file(dir.join("lengths.csv")).unwrap();
    assert_eq!(plot_folder(&dir).unwrap_err(), format!("{}: not a cardsim results folder (no lengths.csv)", dir.display()));
    assert_eq!(plot_folder(&dir.join("missing")).unwrap_err(), format!("{}: not a folder", dir.join("missing").display()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Plots a real results folder: `CARDSIM_CHARTS_DIR=results/x cargo test --test charts -- --ignored`.
#[test]
#[ignore]
fn plot_a_real_results_folder() {
    let dir = PathBuf::from(std::env::var("CARDSIM_CHARTS_DIR").expect("set CARDSIM_CHARTS_DIR"));
    for p in plot_folder(&dir).unwrap() {
        println!("wrote {}", p.display());
    }
}


#[test]
fn long_names_on_the_x_axis_are_turned_so_none_covers_another() {
    // A swept `set`: the baseline (no flag, shown as `(none)`) and six long flag texts.
    let mut csv = String::from("point,set,figure,bot,value,se,ci_low,ci_high,diff,diff_se,diff_ci_low,diff_ci_high,p_value,change\n");
    let values = ["", "spit.num_stockpiles=4", "spit.alternate_colors=true", "spit.round_end_allocation=first_out_chooses", "spit.stall_spit_target=any", "spit.play_target=own", "spit.scoring=points"];
    for (i, v) in values.iter().enumerate() {
        let d = if i == 0 { "0,0,0,0,1," } else { "0.01,0.01,-0.01,0.03,0.3," };
        csv += &format!("{},{v},seat0_edge,,0.01,0.01,-0.01,0.03,{d}\n{},{v},score,a,0.5,0.01,0.48,0.52,{d}\n{},{v},score,b,0.5,0.01,0.48,0.52,{d}\n", i + 1, i + 1, i + 1);
    }
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", &csv)])).unwrap();
    let sweep = text(&out, "sweep.svg");
    // Each name once per panel, each in a text element turned a quarter (reading down).
    // (A name past 40 characters is cut, with an ellipsis.)
    for name in ["(none)", "spit.num_stockpiles=4", "spit.round_end_allocation=first_out_cho…", "spit.scoring=points"] {
        let texts: Vec<&str> = sweep.split("<text").skip(1).filter(|t| t.split_once('>').unwrap().1.trim_start().starts_with(&format!("{name}\n"))).collect();
        assert_eq!(texts.len(), 2, "{name}: once in each panel");
        assert!(texts.iter().all(|t| t.contains("transform=\"rotate(90,")), "{name} is turned");
    }
    // Short names stay level.
    let out = draw(&files(&[("summary.csv", SUMMARY), ("lengths.csv", LENGTHS), ("sweep.csv", SWEEP_BOOL)])).unwrap();
    assert!(!text(&out, "sweep.svg").contains("rotate(90,"));
}
