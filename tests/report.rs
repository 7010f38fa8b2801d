//! `cardsim report DIR`: one self-contained HTML page per results folder. Every
//! committed folder of `results/` gets its page (written outside the folder), which holds
//! each chart and each CSV row of the folder and names nothing outside itself; then a
//! real headless browser (Debian's chromium) opens each page without a network and
//! must draw every chart with no console message, leaving a screenshot in the test's
//! output folder. Without chromium the browser half is SKIPPED with its reason.

use cardsim::output::quote::clip_path;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cardsim(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cardsim")).args(args).output().expect("run cardsim")
}

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The committed results folders (each with a manifest.toml).
fn committed() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("manifest.toml").is_file()).collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "results/ holds the committed studies");
    dirs
}

/// The files a manifest lists.
fn listed(dir: &Path) -> Vec<String> {
    let m: toml::Table = toml::from_str(&std::fs::read_to_string(dir.join("manifest.toml")).unwrap()).unwrap();
    m["files"].as_array().unwrap().iter().map(|f| f.as_str().unwrap().to_string()).collect()
}

fn listing(dir: &Path) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap()).map(|e| (e.file_name().to_string_lossy().into_owned(), e.metadata().unwrap().len())).collect();
    v.sort();
    v
}

/// Writes the page of every committed folder into the output folder; checks its
/// contents against the folder's files; returns (page, charts expected).
fn pages() -> Vec<(PathBuf, usize)> {
    let mut pages = Vec::new();
    for dir in committed() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let page = out_dir().join(format!("{name}.html"));
        let before = listing(&dir);
        let out = cardsim(&["report".as_ref(), dir.as_os_str(), "--out".as_ref(), page.as_os_str()]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(listing(&dir), before, "{name}: the results folder is left as it was");
        let html = std::fs::read_to_string(&page).unwrap();
        let files = listed(&dir);
        let svgs: Vec<&String> = files.iter().filter(|f| f.ends_with(".svg")).collect();
        assert_eq!(html.matches("<img class=\"chart\"").count(), svgs.len(), "{name}: one image per chart");
        for svg in &svgs {
            assert!(html.contains(&format!("<figcaption>{svg}</figcaption>")), "{name}: {svg}");
        }
        for csv in files.iter().filter(|f| f.ends_with(".csv")) {
            let rows = csv::Reader::from_path(dir.join(csv)).unwrap().records().count();
            assert!(html.contains(&format!("<h2>{csv} ({rows} rows)</h2>")), "{name}: {csv} with its {rows} rows");
        }
        let seed = toml::from_str::<toml::Table>(&std::fs::read_to_string(dir.join("manifest.toml")).unwrap()).unwrap()["seed"].as_integer().unwrap();
        assert!(html.contains(&format!("seed = {seed}")), "{name}: the manifest is on the page");
        // Self-contained: no address outside the page (the charts' SVG namespace is
        // inside their base64 data).
        for needle in ["http://", "https://", "src=\"/", "href=", "@import", "url("] {
            assert!(!html.contains(needle), "{name}: the page names {needle}");
        }
        pages.push((page, svgs.len()));
    }
    pages
}

/// The attribute `name` of the page's `<html>` element in a dumped DOM.
fn html_attr<'a>(dom: &'a str, name: &str) -> Option<&'a str> {
    let tag = &dom[dom.find("<html")?..];
    let tag = &tag[..tag.find('>')?];
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    tag[at..].split('"').next()
}

/// Opens `page` in headless chromium, writing a screenshot to `shot`, and returns the
/// browser's output (the DOM on stdout, its log on stderr). Headless chromium now and
/// then never exits after it has written both: each attempt is run under `timeout`
/// (a hang is the browser's, not the page's), and a page gets three attempts.
fn open_in_browser(browser: &Path, page: &Path, shot: &Path, profile: &Path) -> Output {
    let mut hangs = 0;
    loop {
        let out = Command::new("timeout")
            .args(["--kill-after=10", "120"])
            .arg(browser)
            .args(["--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--enable-logging=stderr", "--v=0", "--window-size=1280,1800"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--screenshot={}", shot.display()))
            .arg("--dump-dom")
            .arg(format!("file://{}", page.display()))
            .output()
            .expect("run chromium under timeout");
        // 124: timed out and stopped; 137: killed after the grace period.
        let hung = matches!(out.status.code(), Some(124) | Some(137)) || out.status.code().is_none();
        if !hung {
            return out;
        }
        hangs += 1;
        eprintln!("{}: chromium did not exit within 120 s (attempt {hangs} of 3)", page.display());
        assert!(hangs < 3, "{}: chromium hung three times", page.display());
        let _ = std::fs::remove_dir_all(profile);
        let _ = std::fs::remove_file(shot);
    }
}

fn chromium() -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|p| p.join("chromium")).find(|p| p.is_file()))
}

#[test]
fn every_committed_folder_has_a_page_that_chromium_opens_and_draws() {
    let pages = pages();
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: the browser check: no chromium on PATH (as root: apt-get install -y chromium); the pages were checked as text only");
        return;
    };
    // A few browsers at a time: each mostly waits for its own start-up.
    let results: Vec<(PathBuf, usize, Output, PathBuf)> = std::thread::scope(|s| {
        let handles: Vec<_> = pages
            .chunks(pages.len().div_ceil(6))
            .map(|chunk| {
                let browser = &browser;
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|(page, charts)| {
                            let shot = page.with_extension("png");
                            let _ = std::fs::remove_file(&shot);
                            let profile = page.with_extension("profile");
                            let out = open_in_browser(browser, page, &shot, &profile);
                            let _ = std::fs::remove_dir_all(&profile);
                            (page.clone(), *charts, out, shot)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    for (page, charts, out, shot) in results {
        let dom = String::from_utf8_lossy(&out.stdout);
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}: chromium failed: {log}", page.display());
        assert_eq!(html_attr(&dom, "data-charts-ok"), Some(charts.to_string().as_str()), "{}: every chart drawn", page.display());
        assert_eq!(html_attr(&dom, "data-charts-failed"), Some("0"), "{}", page.display());
        assert_eq!(html_attr(&dom, "data-script-error"), None, "{}", page.display());
        let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
        assert!(console.is_empty(), "{}: console messages: {console:?}", page.display());
        let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("{}: no screenshot: {e}", shot.display()));
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{}", shot.display());
        eprintln!("{}: {charts} charts drawn, screenshot {}", page.display(), shot.display());
    }
}

#[test]
fn the_default_page_goes_into_the_folder_and_never_over_an_input() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/lopti-first-player");
    let dir = out_dir().join("copy");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in listed(&src).iter().chain([&"manifest.toml".to_string()]) {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let out = cardsim(&["report".as_ref(), dir.as_os_str()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The path as messages show it: clipped to its end when long (a deep checkout).
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("wrote {}", clip_path(&dir.join("report.html"))));
    let first = std::fs::read(dir.join("report.html")).unwrap();
    // Again: the page is replaced (it is not an input) and is the same bytes.
    assert!(cardsim(&["report".as_ref(), dir.as_os_str()]).status.success());
    assert_eq!(std::fs::read(dir.join("report.html")).unwrap(), first, "the page depends only on the folder");
    let summary = std::fs::read(dir.join("summary.csv")).unwrap();
    let out = cardsim(&["report".as_ref(), dir.as_os_str(), "--out".as_ref(), dir.join("summary.csv").as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not overwriting an input"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(dir.join("summary.csv")).unwrap(), summary);
    // A folder without a manifest, or with a listed file missing: one line, no page.
    std::fs::remove_file(dir.join("lengths.svg")).unwrap();
    std::fs::remove_file(dir.join("report.html")).unwrap();
    let out = cardsim(&["report".as_ref(), dir.as_os_str()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("cannot read lengths.svg, which manifest.toml lists") && err.trim_end().lines().count() == 1, "{err}");
    assert!(!dir.join("report.html").exists(), "nothing written");
    let out = cardsim(&["report".as_ref(), out_dir().as_os_str(), "--out".as_ref(), "-".as_ref()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a results folder (no manifest.toml)"));
}
