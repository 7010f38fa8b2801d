//! User input quoted in error messages: clipped to [`MAX_QUOTE`] characters with `…`,
//! control characters escaped, so that an error stays one short line whatever was typed
//! or read (a 50 MB value, a label with a newline).

use std::path::Path;

/// Most characters of user input an error message quotes.
pub const MAX_QUOTE: usize = 60;

/// Most characters of a whole error line (several quotes and the explanation); longer
/// lines are cut with `…` (a last safety net: every quote is clipped already).
pub const MAX_LINE: usize = 2000;

/// Pushes `c`, escaping a control character (`\n`, `\u{1b}`) so it cannot break the line.
fn push_visible(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else {
        out.push(c);
    }
}

/// `text` as quoted in an error: its first [`MAX_QUOTE`] characters, then `…` if it was
/// longer; control characters escaped.
pub fn clip(text: &str) -> String {
    clip_to(text, MAX_QUOTE)
}

/// `text` cut after `max` characters with `…`, control characters escaped.
pub fn clip_to(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        push_visible(&mut out, c);
    }
    out
}

/// A path as quoted in an error: its last [`MAX_QUOTE`] characters (the file name
/// matters most), after `…` if it was longer; control characters escaped.
pub fn clip_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    let n = text.chars().count();
    if n <= MAX_QUOTE {
        return clip(&text);
    }
    let mut out = String::from("…");
    for c in text.chars().skip(n - (MAX_QUOTE - 1)) {
        push_visible(&mut out, c);
    }
    out
}

/// Longest run of characters without a space kept whole in an error line: anything
/// longer is user input that escaped clipping, and is clipped to [`MAX_QUOTE`].
const MAX_TOKEN: usize = 200;

/// A whole error message made safe to print as one line: control characters escaped,
/// runs of more than 200 characters without a space clipped (keeping a path's end),
/// at most [`MAX_LINE`] characters in all. The last safety net behind the clipping
/// done where input is quoted.
pub fn one_line(message: &str) -> String {
    let tokens: Vec<String> = message
        .split(' ')
        .map(|t| if t.chars().count() <= MAX_TOKEN { t.to_string() } else if t.contains('/') { clip_path(Path::new(t)) } else { clip(t) })
        .collect();
    clip_to(&tokens.join(" "), MAX_LINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_clipped_with_an_ellipsis() {
        assert_eq!(clip("smart@expert"), "smart@expert");
        let long = "x".repeat(50_000_000);
        let c = clip(&long);
        assert_eq!(c.chars().count(), MAX_QUOTE + 1);
        assert!(c.ends_with('…'));
        assert_eq!(clip(&"é".repeat(61)).chars().count(), MAX_QUOTE + 1, "counts characters, not bytes");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(clip("a\nb\u{1b}[31m"), "a\\nb\\u{1b}[31m");
        assert!(!one_line("one\ntwo\r").contains(['\n', '\r']));
    }

    #[test]
    fn a_whole_line_is_tamed() {
        let long = "y".repeat(5000);
        let line = one_line(&format!("unknown thing '{long}' and \"{long} {long}\" in /a/{long}/b.csv"));
        assert!(line.chars().count() < 300 && line.ends_with("/b.csv"), "{line}");
        let spaced = "z ".repeat(5000);
        assert_eq!(one_line(&spaced).chars().count(), MAX_LINE + 1);
        assert_eq!(one_line("--set a=b: invalid value; valid values: 5|4"), "--set a=b: invalid value; valid values: 5|4");
    }

    #[test]
    fn paths_keep_their_end() {
        let p = format!("/{}/out.csv", "d".repeat(100));
        let c = clip_path(Path::new(&p));
        assert!(c.starts_with('…') && c.ends_with("/out.csv") && c.chars().count() == MAX_QUOTE, "{c}");
        assert_eq!(clip_path(Path::new("results/x.csv")), "results/x.csv");
    }
}
