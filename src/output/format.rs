//! Exports of a summary table (a header and rows of printed values, the same table the
//! CSV writer gets) as CSV, JSON or a GitHub Markdown table, and the `--csv`, `--json`,
//! `--markdown` options of every command that prints a summary (`match`, `sprt`,
//! `balance`, `session`, `legal`).
//!
//! Every format is rendered from one in-memory table, so a column added to a summary
//! appears in all of them with the same value:
//!
//! - CSV: the header, then one record per row (the csv crate quotes where needed).
//! - JSON: an array of objects, one per row, keyed by column in header order. A column
//!   whose non-empty values are all numbers (or `inf`, `-inf`, `NaN`) holds JSON
//!   numbers; `true`/`false` columns hold booleans; any other column holds strings.
//!   An empty value is `null`; JSON has no infinity, so `inf`, `-inf` and `NaN` stay
//!   the strings printed in the CSV.
//! - Markdown: a GitHub table; numeric columns right-aligned, `|` escaped as `\|`,
//!   line breaks as `<br>`.

use super::sink::OutputPath;
use super::summary::SummaryRow;
use clap::Args;
use serde_json::{Number, Value};
use std::path::{Path, PathBuf};

/// A table of printed values: column names and rows of the same length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column names, in order.
    pub header: Vec<String>,
    /// Rows of values as printed (an empty string where a figure does not apply).
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The table of summary rows as [`super::summary::one_table`]: every column of
    /// every row's header, each value under its own column name (empty where a row's
    /// table, e.g. of another player count or game in one study, has no such column).
    pub fn from_rows(rows: &[SummaryRow]) -> Table {
        let (header, rows) = super::summary::one_table(rows);
        Table { header, rows }
    }

    /// CSV bytes: the header, then every row.
    pub fn csv(&self) -> Result<Vec<u8>, String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&self.header).map_err(|e| format!("CSV: {e}"))?;
        for r in &self.rows {
            w.write_record(r).map_err(|e| format!("CSV: {e}"))?;
        }
        w.into_inner().map_err(|e| format!("CSV: {e}"))
    }

    /// The kind of each column, from its non-empty values.
    fn kinds(&self) -> Vec<Kind> {
        (0..self.header.len())
            .map(|c| {
                let mut values = self.rows.iter().map(|r| r[c].as_str()).filter(|v| !v.is_empty()).peekable();
                if values.peek().is_none() {
                    Kind::Text
                } else if values.clone().all(|v| v == "true" || v == "false") {
                    Kind::Bool
                } else if values.all(is_number) {
                    Kind::Number
                } else {
                    Kind::Text
                }
            })
            .collect()
    }

    /// JSON bytes: the array of row objects (see the module text for the types), one
    /// object per line, keys in column order, with a final line break.
    pub fn json(&self) -> Result<Vec<u8>, String> {
        let kinds = self.kinds();
        let mut out = String::from("[");
        for (i, r) in self.rows.iter().enumerate() {
            out += if i == 0 { "\n  {" } else { ",\n  {" };
            for (c, ((h, v), k)) in self.header.iter().zip(r).zip(&kinds).enumerate() {
                if c > 0 {
                    out += ", ";
                }
                out += &json_text(h)?;
                out += ": ";
                out += &json_text(&typed(v, *k))?;
            }
            out += "}";
        }
        out += if self.rows.is_empty() { "]\n" } else { "\n]\n" };
        Ok(out.into_bytes())
    }

    /// A GitHub Markdown table.
    pub fn markdown(&self) -> Vec<u8> {
        let cell = |s: &str| s.replace('\\', "\\\\").replace('|', "\\|").replace("\r\n", "<br>").replace(['\n', '\r'], "<br>");
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut text = line(self.header.iter().map(|h| cell(h)).collect());
        text += &line(self.kinds().iter().map(|k| if *k == Kind::Number { "---:".to_string() } else { "---".to_string() }).collect());
        for r in &self.rows {
            text += &line(r.iter().map(|v| cell(v)).collect());
        }
        text.into_bytes()
    }

    /// The bytes of the table in `format`.
    pub fn render(&self, format: Format) -> Result<Vec<u8>, String> {
        match format {
            Format::Csv => self.csv(),
            Format::Json => self.json(),
            Format::Markdown => Ok(self.markdown()),
        }
    }
}

/// Compact JSON text of a key or a typed cell.
fn json_text<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| format!("JSON: {e}"))
}

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Number,
    Bool,
    Text,
}

/// True for a number as cardsim prints one (also `inf`, `-inf`, `NaN`).
fn is_number(v: &str) -> bool {
    v.parse::<f64>().is_ok() && !v.starts_with('+') && v.trim() == v
}

/// A value of a column of kind `k` as JSON.
fn typed(v: &str, k: Kind) -> Value {
    if v.is_empty() {
        return Value::Null;
    }
    match k {
        Kind::Bool => Value::Bool(v == "true"),
        Kind::Number => {
            if let Ok(u) = v.parse::<u64>() {
                Value::Number(u.into())
            } else if let Ok(i) = v.parse::<i64>() {
                Value::Number(i.into())
            } else {
                v.parse::<f64>().ok().and_then(Number::from_f64).map_or_else(|| Value::String(v.to_string()), Value::Number)
            }
        }
        Kind::Text => Value::String(v.to_string()),
    }
}

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values.
    Csv,
    /// An array of objects.
    Json,
    /// A GitHub Markdown table.
    Markdown,
}

/// The export options of a command that prints a summary. Each writes the whole table
/// in its format to PATH at the end (checked before any work; see
/// [`crate::output::sink`]); `-` is standard output, and the text for people then goes
/// to standard error.
#[derive(Args, Debug, Clone, Default)]
pub struct ExportArgs {
    /// Write the summary as CSV to PATH (`-`: standard output). Checked before the
    /// first match: a missing folder, a folder, a read-only file are errors; a file is
    /// replaced atomically (through a symlink: its target), a pipe or device is written
    /// directly.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,
    /// Write the summary as JSON to PATH (`-`: standard output): an array of objects,
    /// one per CSV row, with the same columns; numbers as numbers, empty values null.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write the summary as a GitHub Markdown table to PATH (`-`: standard output),
    /// the same columns and values as the CSV.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
}

/// Checked export paths, written at the end by [`Exports::write`].
#[derive(Debug, Default)]
pub struct Exports {
    outs: Vec<(Format, OutputPath)>,
}

impl ExportArgs {
    /// Checks every path given (before any work). At most one may be standard output.
    pub fn check(&self) -> Result<Exports, String> {
        let mut outs = Vec::new();
        for (format, flag, path) in [(Format::Csv, "--csv", &self.csv), (Format::Json, "--json", &self.json), (Format::Markdown, "--markdown", &self.markdown)] {
            if let Some(p) = path {
                outs.push((format, OutputPath::check(flag, p)?));
            }
        }
        if outs.iter().filter(|(_, o)| o.is_stdout()).count() > 1 {
            return Err("--csv, --json, --markdown: at most one of them may be standard output (-)".into());
        }
        Ok(Exports { outs })
    }
}

impl Exports {
    /// True if one export goes to standard output (the text for people then goes to
    /// standard error).
    pub fn takes_stdout(&self) -> bool {
        self.outs.iter().any(|(_, o)| o.is_stdout())
    }

    /// Refuses an export that is the file `input` (see [`OutputPath::refuse_input`]).
    pub fn refuse_input(&self, input: &Path) -> Result<(), String> {
        self.outs.iter().try_for_each(|(_, o)| o.refuse_input(input))
    }

    /// Renders `table` in every format asked for, then writes each file whole; names
    /// each file written on `out` (`wrote PATH`).
    pub fn write(&self, table: &Table, out: &mut dyn std::io::Write) -> Result<(), String> {
        let rendered: Vec<Vec<u8>> = self.outs.iter().map(|(f, _)| table.render(*f)).collect::<Result<_, _>>()?;
        for ((_, o), bytes) in self.outs.iter().zip(rendered) {
            o.write(&bytes)?;
            if !o.is_stdout() {
                let _ = writeln!(out, "wrote {}", o.shown());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        Table {
            header: s(&["bot", "games", "score", "elo", "flag", "note"]),
            rows: vec![s(&["smart@expert", "10", "0.500000", "inf", "true", "a|b"]), s(&["greedy", "12", "", "-3.25", "false", "line\nbreak"])],
        }
    }

    #[test]
    fn json_types_each_column_from_its_values() {
        let bytes = table().json().unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        let want = serde_json::json!([
            {"bot": "smart@expert", "games": 10, "score": 0.5, "elo": "inf", "flag": true, "note": "a|b"},
            {"bot": "greedy", "games": 12, "score": null, "elo": -3.25, "flag": false, "note": "line\nbreak"},
        ]);
        assert_eq!(v, want);
        // Keys in header order, one row per line.
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.lines().nth(1), Some(r#"  {"bot": "smart@expert", "games": 10, "score": 0.5, "elo": "inf", "flag": true, "note": "a|b"},"#));
        assert_eq!(text.lines().count(), 4);
        assert_eq!(Table { header: vec!["a".into()], rows: Vec::new() }.json().unwrap(), b"[]\n");
    }

    #[test]
    fn markdown_escapes_pipes_and_breaks_and_right_aligns_numbers() {
        let md = String::from_utf8(table().markdown()).unwrap();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| bot | games | score | elo | flag | note |");
        assert_eq!(lines[1], "| --- | ---: | ---: | ---: | --- | --- |");
        assert_eq!(lines[2], "| smart@expert | 10 | 0.500000 | inf | true | a\\|b |");
        assert_eq!(lines[3], "| greedy | 12 |  | -3.25 | false | line<br>break |");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn a_column_with_one_word_is_text() {
        let t = Table { header: vec!["seat".into()], rows: vec![vec!["0".into()], vec!["all".into()]] };
        assert_eq!(serde_json::from_slice::<Value>(&t.json().unwrap()).unwrap(), serde_json::json!([{"seat": "0"}, {"seat": "all"}]));
    }

    #[test]
    fn from_rows_pads_narrower_rows() {
        let a = SummaryRow { header: vec!["x".into(), "y".into()], values: vec!["1".into(), "2".into()] };
        let b = SummaryRow { header: vec!["x".into()], values: vec!["3".into()] };
        let t = Table::from_rows(&[b, a]);
        assert_eq!(t.header, ["x", "y"]);
        assert_eq!(t.rows, [vec!["3".to_string(), String::new()], vec!["1".to_string(), "2".to_string()]]);
    }
}
