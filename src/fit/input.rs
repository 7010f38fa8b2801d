//! Reading measured move times: one number per line, or a CSV file with a header whose
//! column is chosen by `--column NAME` (or its only column). Times are milliseconds.
//!
//! - Blank lines and lines starting with `#` are skipped.
//! - The first remaining line is a header if one of its fields is not a number.
//! - Without a header every line must hold one number; with one, every line must have
//!   the chosen column.
//! - Every time must be a finite number above 0; there must be at least [`MIN_TIMES`]
//!   and not all equal.
//!
//! An error is one line naming the file, the line and the field, e.g.
//! `times.csv: line 7, column 'ms': 'fast' is not a number`.

use crate::output::quote::{clip, clip_path};
use std::path::Path;

/// Fewest times accepted: three parameters need some data, and the ex-Gaussian's are
/// unstable below 40–50 (reaction-time.md §1.1), which the intervals will show.
pub const MIN_TIMES: usize = 20;

/// Times read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Times {
    /// The times in file order (ms).
    pub values: Vec<f64>,
    /// The column they came from, if the file has a header.
    pub column: Option<String>,
}

/// Reads the times of `path` (see the module docs); `column` names a header column.
pub fn read_times(path: &Path, column: Option<&str>) -> Result<Times, String> {
    let source = clip_path(path);
    let bytes = crate::tomlfile::read_bytes(path, &source, false)?;
    parse_times(&bytes, &source, column)
}

/// Parses the contents of a times file; `source` names it in errors. Field values and
/// column names quoted in errors are clipped ([`clip`]).
pub fn parse_times(bytes: &[u8], source: &str, column: Option<&str>) -> Result<Times, String> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).trim(csv::Trim::All).comment(Some(b'#')).from_reader(bytes);
    let mut header: Option<(Vec<String>, usize)> = None;
    let mut first = true;
    let mut values = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(String::new(), |p| format!("line {}: ", p.line()));
            format!("{source}: {line}{}", csv_reason(&e))
        })?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(str::is_empty) {
            continue;
        }
        if std::mem::take(&mut first) {
            let is_header = record.iter().any(|f| f.parse::<f64>().is_err());
            if is_header {
                let names: Vec<String> = record.iter().map(str::to_string).collect();
                let index = choose_column(&names, column).map_err(|e| format!("{source}: line {line}: {e}"))?;
                header = Some((names, index));
                continue;
            }
            if let Some(name) = column {
                return Err(format!("{source}: line {line}: --column {}: the file has no header line (its first line is numbers)", clip(name)));
            }
        }
        let (index, field) = match &header {
            Some((names, index)) => (*index, format!("column '{}'", clip(&names[*index]))),
            None => {
                if record.len() > 1 {
                    return Err(format!(
                        "{source}: line {line}: {} fields but no header; give the file a header line and choose a column with --column",
                        record.len()
                    ));
                }
                (0, "field 1".to_string())
            }
        };
        let Some(text) = record.get(index) else {
            return Err(format!("{source}: line {line}, {field}: missing (the line has {} field{})", record.len(), if record.len() == 1 { "" } else { "s" }));
        };
        values.push(parse_time(text).map_err(|e| format!("{source}: line {line}, {field}: {e}"))?);
    }
    let column = header.map(|(names, index)| names[index].clone());
    let from = column.as_ref().map_or(String::new(), |c| format!(" in column '{}'", clip(c)));
    if values.is_empty() {
        return Err(format!("{source}: no times found{from} (the file is empty or has only a header)"));
    }
    if values.len() < MIN_TIMES {
        return Err(format!("{source}: only {} times{from}; fitting needs at least {MIN_TIMES}", values.len()));
    }
    if values.iter().all(|&v| v == values[0]) {
        return Err(format!("{source}: all {} times{from} are {} ms; there is no spread to fit", values.len(), values[0]));
    }
    Ok(Times { values, column })
}

/// The index of the chosen column in a header.
fn choose_column(names: &[String], column: Option<&str>) -> Result<usize, String> {
    let list = names.iter().map(|n| format!("'{}'", clip(n))).collect::<Vec<_>>().join(", ");
    match column {
        Some(name) => names.iter().position(|n| n == name).ok_or_else(|| format!("--column {}: no such column in the header (columns: {list})", clip(name))),
        None if names.len() == 1 => Ok(0),
        None => Err(format!("the header has {} columns ({list}); choose one with --column NAME", names.len())),
    }
}

/// One time in milliseconds: a finite number above 0.
fn parse_time(text: &str) -> Result<f64, String> {
    if text.is_empty() {
        return Err("empty field, expected a time in ms".to_string());
    }
    let v: f64 = text.parse().map_err(|_| format!("'{}' is not a number", clip(text)))?;
    if !v.is_finite() {
        return Err(format!("'{}' is not a finite time", clip(text)));
    }
    if v <= 0.0 {
        return Err(format!("{} is not a positive time (move times are milliseconds above 0)", clip(text)));
    }
    Ok(v)
}

/// A CSV reading error without its position (given separately).
fn csv_reason(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not valid UTF-8 text".to_string(),
        csv::ErrorKind::Io(io) => format!("cannot read: {io}"),
        _ => e.to_string().replace('\n', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(n: usize) -> String {
        (0..n).map(|i| format!("{}\n", 400 + 7 * i)).collect()
    }

    fn parse(text: &str, column: Option<&str>) -> Result<Times, String> {
        parse_times(text.as_bytes(), "t.csv", column)
    }

    #[test]
    fn fit_input_plain_numbers_with_blank_and_comment_lines() {
        let text = format!("# measured 2024\n\n{}  \n", numbers(25));
        let t = parse(&text, None).unwrap();
        assert_eq!((t.values.len(), t.values[0], t.column), (25, 400.0, None));
    }

    #[test]
    fn fit_input_csv_with_a_header() {
        let rows: String = (0..30).map(|i| format!("{i},{}.5,spit\n", 500 + i)).collect();
        let t = parse(&format!("trial, ms ,game\n{rows}"), Some("ms")).unwrap();
        assert_eq!((t.values.len(), t.values[1], t.column.as_deref()), (30, 501.5, Some("ms")));
        // One column with a header needs no --column.
        let t = parse(&format!("rt\n{}", numbers(20)), None).unwrap();
        assert_eq!(t.column.as_deref(), Some("rt"));
    }

    #[test]
    fn fit_input_errors_name_file_line_and_field() {
        let cases: Vec<(String, Option<&str>, &str)> = vec![
            (format!("{}fast\n", numbers(5)), None, "t.csv: line 6, field 1: 'fast' is not a number"),
            (format!("{}-3\n", numbers(21)), None, "t.csv: line 22, field 1: -3 is not a positive time (move times are milliseconds above 0)"),
            (format!("{}0\n", numbers(21)), None, "t.csv: line 22, field 1: 0 is not a positive time (move times are milliseconds above 0)"),
            (format!("{}inf\n", numbers(21)), None, "t.csv: line 22, field 1: 'inf' is not a finite time"),
            (format!("{}NaN\n", numbers(21)), None, "t.csv: line 22, field 1: 'NaN' is not a finite time"),
            ("a,ms\n1,400\n2,\n".to_string(), Some("ms"), "t.csv: line 3, column 'ms': empty field, expected a time in ms"),
            ("a,ms\n1,400\n2\n".to_string(), Some("ms"), "t.csv: line 3, column 'ms': missing (the line has 1 field)"),
            ("a,ms\n1,400\n".to_string(), Some("rt"), "t.csv: line 1: --column rt: no such column in the header (columns: 'a', 'ms')"),
            ("a,ms\n1,400\n".to_string(), None, "t.csv: line 1: the header has 2 columns ('a', 'ms'); choose one with --column NAME"),
            (numbers(25), Some("ms"), "t.csv: line 1: --column ms: the file has no header line (its first line is numbers)"),
            (format!("{}1,2\n", numbers(3)), None, "t.csv: line 4: 2 fields but no header; give the file a header line and choose a column with --column"),
            (String::new(), None, "t.csv: no times found (the file is empty or has only a header)"),
            ("ms\n".to_string(), None, "t.csv: no times found in column 'ms' (the file is empty or has only a header)"),
            (numbers(19), None, "t.csv: only 19 times; fitting needs at least 20"),
            ("500\n".repeat(30), None, "t.csv: all 30 times are 500 ms; there is no spread to fit"),
        ];
        for (text, column, want) in cases {
            assert_eq!(parse(&text, column).unwrap_err(), want, "{text:?}");
        }
        let e = read_times(Path::new("/no/such/times.csv"), None).unwrap_err();
        assert!(e.starts_with("/no/such/times.csv: cannot read: "), "{e}");
        let long = "x".repeat(10_000);
        let e = parse(&format!("{long}\n"), None).unwrap_err();
        assert!(e.starts_with("t.csv: no times found in column 'xxx") && e.chars().count() < 200, "{e}");
        let e = parse(&format!("{}{long}\n", numbers(3)), None).unwrap_err();
        assert!(e.starts_with("t.csv: line 4, field 1: 'xxx") && e.contains("…' is not a number"), "{e}");
        let e = parse_times(b"ms\n\xff\xfe\n", "t.csv", None).unwrap_err();
        assert_eq!(e, "t.csv: line 2: not valid UTF-8 text");
    }
}
