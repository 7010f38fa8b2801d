//! Shell completions and man pages generated from the command-line definitions
//! (`cardsim completions SHELL`, `cardsim man [--dir DIR]`), so they always match
//! `--help`.

use clap::Command;

/// The shells `cardsim completions` writes a script for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    /// bash (source it, or put it in `~/.local/share/bash-completion/completions/cardsim`).
    Bash,
    /// zsh (put it as `_cardsim` in a folder of `$fpath`).
    Zsh,
    /// fish (put it in `~/.config/fish/completions/cardsim.fish`).
    Fish,
}

/// The completion script of `cmd` for `shell`.
pub fn completions(mut cmd: Command, shell: Shell) -> Vec<u8> {
    let name = cmd.get_name().to_string();
    let mut out = Vec::new();
    match shell {
        Shell::Bash => clap_complete::generate(clap_complete::Shell::Bash, &mut cmd, name, &mut out),
        Shell::Zsh => clap_complete::generate(clap_complete::Shell::Zsh, &mut cmd, name, &mut out),
        Shell::Fish => clap_complete::generate(clap_complete::Shell::Fish, &mut cmd, name, &mut out),
    }
    out
}

/// The man page of `cmd` alone (section 1): its options and the list of its commands.
pub fn man_page(cmd: Command) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out).map_err(|e| format!("man page: {e}"))?;
    Ok(out)
}

/// Every man page of `cmd`: `NAME.1` for the program and `NAME-COMMAND.1` for each of
/// its visible commands (file name and bytes, the program's first).
pub fn man_pages(cmd: Command) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut cmd = cmd;
    cmd.build();
    let name = cmd.get_name().to_string();
    let mut pages = vec![(format!("{name}.1"), man_page(cmd.clone())?)];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set() && s.get_name() != "help") {
        let full = format!("{name}-{}", sub.get_name());
        let page = sub.clone().name(full.clone()).bin_name(full.clone());
        pages.push((format!("{full}.1"), man_page(page)?));
    }
    Ok(pages)
}
