//! `--csv`, `--json` and `--markdown` of every command that prints a summary (`match`,
//! `sprt`, `balance`, `session`, `legal`): the three files hold the same table, value for
//! value; and the shell completions and man pages generated from the options.

use cardsim::output::quote::clip_path;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cardsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("exports").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The CSV's header and rows.
fn read_csv(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_reader(bytes);
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r.records().map(|rec| rec.unwrap().iter().map(String::from).collect()).collect();
    (header, rows)
}

/// The cells of a GitHub Markdown table, unescaped (`\|`, `\\`, `<br>`).
fn read_markdown(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let inner = line.strip_prefix("| ").and_then(|l| l.strip_suffix(" |")).unwrap_or_else(|| panic!("not a table line: {line}"));
            let mut cells = vec![String::new()];
            let mut chars = inner.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => cells.last_mut().unwrap().push(chars.next().unwrap()),
                    '|' => {
                        let last = cells.last_mut().unwrap();
                        assert_eq!(last.pop(), Some(' '), "{line}");
                        cells.push(String::new());
                        assert_eq!(chars.next(), Some(' '), "{line}");
                    }
                    c => cells.last_mut().unwrap().push(c),
                }
            }
            cells.into_iter().map(|c| c.replace("<br>", "\n")).collect()
        })
        .collect()
}

/// Checks that the JSON and Markdown exports hold the CSV's table: the same columns in
/// the same order, the same rows, each JSON value the CSV's (a number equal to the
/// CSV's number, `null` for an empty value, a string or boolean as printed).
fn same_table(csv: &[u8], json: &[u8], markdown: &[u8]) -> usize {
    let (header, rows) = read_csv(csv);
    assert!(!rows.is_empty());
    let text = String::from_utf8(json.to_vec()).unwrap();
    let values: serde_json::Value = serde_json::from_str(&text).unwrap();
    let objects = values.as_array().unwrap();
    assert_eq!(objects.len(), rows.len());
    for (line, (obj, row)) in text.lines().skip(1).zip(objects.iter().zip(&rows)) {
        let obj = obj.as_object().unwrap();
        assert_eq!(obj.len(), header.len());
        // Keys in column order: each key appears in the row's line after the one before.
        let mut at = 0;
        for (h, v) in header.iter().zip(row) {
            let key = format!("\"{h}\": ");
            at += line[at..].find(&key).unwrap_or_else(|| panic!("{h} out of order in {line}"));
            let j = &obj[h];
            match j {
                serde_json::Value::Null => assert_eq!(v, "", "{h}"),
                serde_json::Value::Number(n) => assert_eq!(n.as_f64().unwrap(), v.parse::<f64>().unwrap(), "{h}: {v}"),
                serde_json::Value::String(s) => assert_eq!(s, v, "{h}"),
                serde_json::Value::Bool(b) => assert_eq!(b.to_string(), *v, "{h}"),
                other => panic!("{h}: {other}"),
            }
        }
    }
    let md = read_markdown(std::str::from_utf8(markdown).unwrap());
    assert_eq!(md[0], header);
    assert!(md[1].iter().all(|c| c == "---" || c == "---:"), "{:?}", md[1]);
    assert_eq!(md[2..], rows[..]);
    rows.len()
}

/// Runs `args` with every export to a file, and again with each export on standard
/// output (the text for people then on standard error): the files agree with each
/// other and with what standard output got.
fn check_command(name: &str, args: &[&str]) -> (Vec<String>, Vec<Vec<String>>) {
    let d = dir(name);
    let (csv, json, md) = (d.join("t.csv"), d.join("t.json"), d.join("t.md"));
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--csv", csv.to_str().unwrap(), "--json", json.to_str().unwrap(), "--markdown", md.to_str().unwrap()]);
    let printed = ok(&cardsim(&all));
    for f in [&csv, &json, &md] {
        assert!(printed.contains(&format!("wrote {}", clip_path(f))), "{printed}");
    }
    let (c, j, m) = (std::fs::read(&csv).unwrap(), std::fs::read(&json).unwrap(), std::fs::read(&md).unwrap());
    same_table(&c, &j, &m);
    for (flag, bytes) in [("--csv", &c), ("--json", &j), ("--markdown", &m)] {
        let mut one: Vec<&str> = args.to_vec();
        one.extend([flag, "-"]);
        let out = cardsim(&one);
        assert_eq!(&ok(&out).into_bytes(), bytes, "{name} {flag} -: standard output is the file");
        assert!(!out.stderr.is_empty(), "{name} {flag} -: the text for people goes to standard error");
    }
    read_csv(&c)
}

fn col<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    &row[header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"))]
}

#[test]
fn match_exports_hold_the_summary_table() {
    let (header, rows) = check_command("match", &["match", "spit", "--games", "200", "--quiet", "--seed", "4"]);
    // The table is the summary: the bots' pooled rows and the seat rows (2 + 4 + 2).
    assert_eq!(rows.len(), 8);
    assert_eq!(col(&header, &rows[0], "games"), "200");
    let wins: u64 = rows.iter().filter(|r| col(&header, r, "seat") == "all").map(|r| col(&header, r, "wins").parse::<u64>().unwrap()).sum();
    assert_eq!(wins + col(&header, &rows[0], "draws").parse::<u64>().unwrap(), 200, "every match won by one bot or drawn");
}

#[test]
fn sprt_exports_one_row_per_batch_and_its_counts() {
    let (header, rows) = check_command("sprt", &["sprt", "spit", "--bot", "greedy@expert", "--bot", "greedy@expert", "--elo0", "-5", "--elo1", "5", "--max-games", "600"]);
    assert_eq!(rows.len(), 2, "300 deals: batches of 256 and 44");
    let last = rows.last().unwrap();
    assert_eq!((col(&header, last, "batch"), col(&header, last, "games"), col(&header, last, "deals"), col(&header, last, "verdict")), ("2", "600", "300", "no decision"));
    let pairs: Vec<f64> = ["ll", "ld", "wl", "dd", "wd", "ww"].iter().map(|p| col(&header, last, &format!("pairs_{p}")).parse::<f64>().unwrap()).collect();
    assert_eq!(pairs.iter().sum::<f64>(), 300.0, "the pair counts add up to the deals");
    // The score from the counts: A's share of the two seatings of each deal.
    let score: f64 = pairs.iter().zip([0.0, 0.25, 0.5, 0.5, 0.75, 1.0]).map(|(c, s)| c * s).sum::<f64>() / 300.0;
    assert!((col(&header, last, "score").parse::<f64>().unwrap() - score).abs() < 1e-6);
    assert!(rows[..rows.len() - 1].iter().all(|r| col(&header, r, "verdict") == "continue"));
}

#[test]
fn balance_exports_the_paired_comparisons() {
    let (header, rows) = check_command("balance", &["balance", "spit", "--vary", "spit.num_stockpiles=5,4", "--games", "100", "--quiet"]);
    assert_eq!(header[..2], ["point", "spit.num_stockpiles"]);
    let figures: Vec<&str> = rows.iter().filter(|r| r[0] == "2").map(|r| col(&header, r, "figure")).collect();
    assert_eq!(figures[0], "seat0_edge");
    assert!(rows.iter().filter(|r| r[0] == "1").all(|r| col(&header, r, "diff").is_empty() || col(&header, r, "diff").parse::<f64>().unwrap() == 0.0));
}

#[test]
fn session_exports_its_statistics() {
    check_command("session", &["session", "lopti", "--sessions", "12", "--rounds", "3", "--quiet"]);
}

#[test]
fn legal_exports_the_actions() {
    let d = dir("legal-position");
    let pos = d.join("pos.json");
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lopti.md")).unwrap();
    // The first JSON position of the docs (a ```json block with a "hand").
    let block = example.split("```json").skip(1).map(|b| b.split("```").next().unwrap()).find(|b| b.contains("\"hand\"")).expect("a position in docs/lopti.md");
    std::fs::write(&pos, block).unwrap();
    let lines = ok(&cardsim(&["legal", "lopti", "--position", pos.to_str().unwrap()]));
    let (header, rows) = check_command("legal", &["legal", "lopti", "--position", pos.to_str().unwrap()]);
    assert_eq!(header, ["action", "kind", "rank", "count"]);
    let printed: Vec<&str> = lines.lines().collect();
    assert_eq!(rows.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), printed, "one row per line printed");
    for r in &rows {
        match r[1].as_str() {
            "play" => assert_eq!(r[0], format!("play {} x{}", r[2], r[3])),
            kind => assert_eq!((r[0].as_str(), r[2].as_str(), r[3].as_str()), (kind, "", "")),
        }
    }
    // An export over the position is refused before anything is written.
    let out = cardsim(&["legal", "lopti", "--position", pos.to_str().unwrap(), "--json", pos.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not overwriting an input"));
    assert_eq!(std::fs::read_to_string(&pos).unwrap(), block);
}

#[test]
fn two_exports_on_standard_output_are_refused() {
    let out = cardsim(&["match", "spit", "--games", "2", "--csv", "-", "--json", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("at most one of them may be standard output"), "{err}");
    assert!(out.stdout.is_empty());
}

/// Every visible command of `cardsim --help`.
fn commands() -> Vec<String> {
    let help = ok(&cardsim(&["--help"]));
    let block = help.split("Commands:").nth(1).unwrap().split("Options:").next().unwrap();
    let names: Vec<String> = block.lines().filter(|l| l.starts_with("  ") && !l.starts_with("   ")).filter_map(|l| l.split_whitespace().next()).filter(|n| *n != "help").map(String::from).collect();
    assert!(names.len() > 10 && names.contains(&"report".to_string()) && names.contains(&"man".to_string()), "{names:?}");
    names
}

#[test]
fn completion_scripts_parse_and_name_every_command() {
    let cmds = commands();
    for shell in ["bash", "zsh", "fish"] {
        let script = ok(&cardsim(&["completions", shell]));
        for c in &cmds {
            assert!(script.contains(c.as_str()), "{shell}: {c} missing");
        }
        let path = dir(&format!("completions-{shell}")).join("script");
        std::fs::write(&path, &script).unwrap();
        match Command::new(shell).arg("-n").arg(&path).output() {
            Ok(out) => assert!(out.status.success(), "{shell} -n: {}", String::from_utf8_lossy(&out.stderr)),
            Err(_) => eprintln!("SKIPPED: {shell} is not installed, so its script is only checked for the command names"),
        }
    }
    // bash must be here: its script is always syntax-checked.
    assert!(Command::new("bash").arg("--version").output().is_ok_and(|o| o.status.success()));
    let out = cardsim(&["completions", "powershell"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn man_pages_render_and_cover_every_command() {
    let cmds = commands();
    let page = ok(&cardsim(&["man"]));
    assert!(page.contains(".TH cardsim 1"), "a section 1 page");
    let d = dir("man");
    let listed = ok(&cardsim(&["man", "--dir", d.to_str().unwrap()]));
    let mut files: Vec<String> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    let mut want: Vec<String> = cmds.iter().map(|c| format!("cardsim-{c}.1")).chain(["cardsim.1".to_string()]).collect();
    want.sort();
    assert_eq!(files, want);
    assert_eq!(listed.lines().count(), want.len(), "{listed}");
    assert_eq!(std::fs::read_to_string(d.join("cardsim.1")).unwrap(), page, "the printed page is the folder's first");
    for c in &cmds {
        // roff writes a hyphen as `\-`.
        assert!(page.contains(&format!("cardsim\\-{}", c.replace('-', "\\-"))), "{c} missing from cardsim.1");
    }
    let report = std::fs::read_to_string(d.join("cardsim-report.1")).unwrap();
    assert!(report.contains("self\\-contained HTML") || report.contains("self-contained HTML"), "the page holds the command's help");
    // Rendered by man(1) where it is installed.
    match Command::new("man").arg("-l").arg(d.join("cardsim-match.1")).env("MANPAGER", "cat").env("MANWIDTH", "100").output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("--games") && text.contains("--json"), "{text}");
        }
        Ok(out) => panic!("man -l failed: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => eprintln!("SKIPPED: man is not installed; the pages are only checked for the commands"),
    }
    let out = cardsim(&["man", "--dir", d.join("missing").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
