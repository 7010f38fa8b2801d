//! Records which commit of the code built this binary, for results manifests: the last
//! commit that changed the code (`src/`, `Cargo.toml`, `Cargo.lock`, `build.rs`), with
//! `-dirty` when the working tree changes any of it, or `unknown` without git.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    for path in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    // Git's own files, where they are: in a worktree `.git` is a file and they live in
    // the folder `git rev-parse --git-dir` names. Only the checked-out branch's ref (and
    // `packed-refs`, where a packed ref lives) is watched, not all of `refs/heads`: a
    // commit on another branch or worktree must not rebuild this one. A path that does
    // not exist would make Cargo rerun this script (and rebuild the crate) every time.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        let common = git(&["rev-parse", "--git-common-dir"]).unwrap_or_else(|| dir.clone());
        // A branch whose ref is only in `packed-refs` gets a file at its next commit:
        // then the whole folder is watched, as a path that does not exist cannot be.
        let branch = git(&["symbolic-ref", "-q", "HEAD"])
            .map(|r| format!("{common}/{r}"))
            .map(|r| if std::path::Path::new(&r).exists() { r } else { format!("{common}/refs/heads") });
        let paths = [Some(format!("{dir}/HEAD")), Some(format!("{dir}/index")), branch, Some(format!("{common}/packed-refs"))];
        for path in paths.into_iter().flatten() {
            if std::path::Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    const CODE: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];
    let commit = git(&[&["log", "-1", "--format=%H", "--"][..], &CODE[..]].concat()).filter(|c| !c.is_empty());
    let dirty = git(&[&["status", "--porcelain", "--"][..], &CODE[..]].concat()).is_some_and(|s| !s.is_empty());
    let text = match commit {
        Some(c) if dirty => format!("{c}-dirty"),
        Some(c) => c,
        None => "unknown".into(),
    };
    println!("cargo:rustc-env=CARDSIM_CODE_COMMIT={text}");
}
