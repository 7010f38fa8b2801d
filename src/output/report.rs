//! `cardsim report DIR`: one self-contained HTML page of a results folder, to open in
//! a browser without a network: the verdicts (any `verdict` column of its CSV files),
//! the charts, every CSV file as a table, and the manifest.
//!
//! The page reads only the files the folder's `manifest.toml` lists (plain names in
//! the folder; a missing one is an error), loads nothing: the charts are embedded as
//! `data:` images (an SVG shown as an image runs no script and fetches nothing), and
//! a Content-Security-Policy forbids every fetch but those. A small inline script
//! marks on the page (`<html data-charts-ok="N" data-charts-failed="M">`) how many
//! charts the browser drew, so a headless browser can check the page.

use super::format::Table;
use super::quote::clip_path;
use std::path::Path;

/// File name of the report in the results folder when no `--out` is given.
pub const DEFAULT_NAME: &str = "report.html";

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Standard base64 (RFC 4648, with padding).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A file's name and bytes.
type NamedFile = (String, Vec<u8>);

/// The files of the folder to show, by name and bytes, in the manifest's order, and the
/// manifest's text.
fn read_folder(dir: &Path) -> Result<(String, Vec<NamedFile>), String> {
    let shown = clip_path(dir);
    let manifest_path = dir.join("manifest.toml");
    if !manifest_path.is_file() {
        return Err(format!("report {shown}: not a results folder (no manifest.toml)"));
    }
    let manifest = crate::tomlfile::read_text(&manifest_path, &clip_path(&manifest_path))?;
    let table: toml::Table = toml::from_str(&manifest).map_err(|e| format!("{}: {}", clip_path(&manifest_path), e.message()))?;
    let listed = table.get("files").and_then(|f| f.as_array()).ok_or_else(|| format!("{}: no `files` list", clip_path(&manifest_path)))?;
    let mut files = Vec::new();
    for f in listed {
        let name = f.as_str().ok_or_else(|| format!("{}: `files` holds a value that is not a file name", clip_path(&manifest_path)))?;
        let plain = !name.is_empty() && !name.contains(['/', '\\']) && name != "." && name != "..";
        if !plain {
            return Err(format!("{}: `files` names {}, not a file of the folder", clip_path(&manifest_path), crate::output::clip(name)));
        }
        if name == "manifest.toml" || !(name.ends_with(".csv") || name.ends_with(".svg")) {
            continue;
        }
        let path = dir.join(name);
        let bytes = std::fs::read(&path).map_err(|e| format!("report {shown}: cannot read {name}, which manifest.toml lists: {e}"))?;
        files.push((name.to_string(), bytes));
    }
    Ok((manifest, files))
}

/// A CSV file as a table (every row as text).
fn csv_table(name: &str, bytes: &[u8]) -> Result<Table, String> {
    let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes);
    let header: Vec<String> = r.headers().map_err(|e| format!("{name}: {e}"))?.iter().map(String::from).collect();
    let mut rows = Vec::new();
    for rec in r.records() {
        rows.push(rec.map_err(|e| format!("{name}: {e}"))?.iter().map(String::from).collect());
    }
    Ok(Table { header, rows })
}

/// An HTML table of `t`'s columns `cols` (all when `None`).
fn html_table(t: &Table, cols: Option<&[usize]>) -> String {
    let all: Vec<usize> = (0..t.header.len()).collect();
    let cols = cols.unwrap_or(&all);
    let mut s = String::from("<div class=\"scroll\"><table>\n<thead><tr>");
    for &c in cols {
        s += &format!("<th>{}</th>", esc(&t.header[c]));
    }
    s += "</tr></thead>\n<tbody>\n";
    for r in &t.rows {
        s += "<tr>";
        for &c in cols {
            let v = r.get(c).map_or("", String::as_str);
            let num = v.parse::<f64>().is_ok();
            s += &format!("<td{}>{}</td>", if num { " class=\"n\"" } else { "" }, esc(v));
        }
        s += "</tr>\n";
    }
    s + "</tbody></table></div>\n"
}

/// The verdict rows of a table: the rows with a non-empty column whose name contains
/// `verdict`, shown with the columns that say what a row is about.
fn verdicts(t: &Table) -> Option<String> {
    const ABOUT: [&str; 6] = ["point", "cell", "label", "figure", "bot", "seat"];
    let verdict: Vec<usize> = (0..t.header.len()).filter(|&c| t.header[c].contains("verdict")).collect();
    if verdict.is_empty() {
        return None;
    }
    let mut cols: Vec<usize> = (0..t.header.len()).filter(|&c| ABOUT.contains(&t.header[c].as_str())).collect();
    cols.extend(&verdict);
    let rows: Vec<Vec<String>> = t.rows.iter().filter(|r| verdict.iter().any(|&c| r.get(c).is_some_and(|v| !v.is_empty()))).cloned().collect();
    (!rows.is_empty()).then(|| html_table(&Table { header: t.header.clone(), rows }, Some(&cols)))
}

/// The page's check: counts the charts the browser decoded and marks the result on the
/// `<html>` element; any script error is marked too.
const SCRIPT: &str = r#"window.addEventListener("error", function (e) { document.documentElement.dataset.scriptError = String(e.message); });
window.addEventListener("load", function () {
  var ok = 0, failed = 0;
  document.querySelectorAll("img.chart").forEach(function (img) {
    if (img.complete && img.naturalWidth > 0) { ok += 1; } else { failed += 1; }
  });
  document.documentElement.dataset.chartsOk = String(ok);
  document.documentElement.dataset.chartsFailed = String(failed);
  document.getElementById("status").textContent = ok + " of " + (ok + failed) + " charts drawn";
});"#;

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #ddd;padding:2px 6px;white-space:nowrap}th{background:#f3f3f3;position:sticky;top:0}\
td.n{text-align:right;font-variant-numeric:tabular-nums}.scroll{overflow:auto;max-height:32em;border:1px solid #eee}img.chart{max-width:100%;display:block;margin:0.5em 0}\
pre{background:#f7f7f7;padding:0.7em;overflow:auto}#status{color:#666}";

/// The HTML page of the folder `dir`.
pub fn render(dir: &Path) -> Result<Vec<u8>, String> {
    let (manifest, files) = read_folder(dir)?;
    let title = toml::from_str::<toml::Table>(&manifest).ok().and_then(|t| t.get("experiment").and_then(|v| v.as_str().map(str::to_string))).unwrap_or_else(|| clip_path(dir));
    let mut tables = Vec::new();
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".csv")) {
        tables.push((name, csv_table(name, bytes)?));
    }
    let mut body = format!("<h1>cardsim results: {}</h1>\n<p id=\"status\">charts not checked (scripts off)</p>\n", esc(&title));
    let verdict_html: Vec<String> = tables.iter().filter_map(|(name, t)| verdicts(t).map(|h| format!("<h3>{}</h3>\n{h}", esc(name)))).collect();
    if !verdict_html.is_empty() {
        body += "<h2>Verdicts</h2>\n";
        body += &verdict_html.concat();
    }
    let charts: Vec<&(String, Vec<u8>)> = files.iter().filter(|(n, _)| n.ends_with(".svg")).collect();
    if !charts.is_empty() {
        body += "<h2>Charts</h2>\n";
        for (name, bytes) in charts {
            body += &format!("<figure><img class=\"chart\" alt=\"{n}\" src=\"data:image/svg+xml;base64,{}\"><figcaption>{n}</figcaption></figure>\n", base64(bytes), n = esc(name));
        }
    }
    for (name, t) in &tables {
        body += &format!("<h2>{} ({} rows)</h2>\n{}", esc(name), t.rows.len(), html_table(t, None));
    }
    body += &format!("<h2>manifest.toml</h2>\n<pre>{}</pre>\n", esc(&manifest));
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
<title>{}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(&title)
    );
    Ok(page.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_of_the_rfc_4648_examples() {
        let cases = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")];
        for (plain, coded) in cases {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain}");
        }
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }

    #[test]
    fn verdict_rows_keep_the_columns_that_name_them() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let t = Table { header: s(&["point", "value", "verdict"]), rows: vec![s(&["1", "0.5", ""]), s(&["2", "0.7", "seat 0 favoured"])] };
        let html = verdicts(&t).unwrap();
        assert!(html.contains("<td class=\"n\">2</td><td>seat 0 favoured</td>"), "{html}");
        assert!(!html.contains("0.7") && !html.contains(">1<"), "{html}");
        assert_eq!(verdicts(&Table { header: s(&["a"]), rows: vec![s(&["1"])] }), None);
    }
}
