//! What an external bot can do wrong (docs/bot-protocol.md section 7). A fault stops
//! the match; the match record carries it in its [`crate::runner::IllegalChoice`]
//! (with the offending line in `action`), and the run fails with one line.

/// A bot fault, small and `Copy` so that a match record can carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Fault {
    /// The program could not be started (the line holds the system's reason).
    CannotStart,
    /// Its output ended while an answer was due (the line says how it exited).
    Exited,
    /// No full line within the timeout, in milliseconds.
    TimedOut {
        /// The timeout in force.
        ms: u64,
    },
    /// A line that is not one JSON object.
    NotJson,
    /// A line longer than [`super::process::MAX_LINE`].
    TooLong,
    /// The hello answer lacks a required field or has the wrong type.
    BadHello,
    /// The hello answer names another protocol version.
    WrongVersion,
    /// The hello answer's `games` does not list the game.
    DoesNotPlay,
    /// The hello answer's `plays` names a decision that is not optional in this game.
    UnknownDecision,
    /// An answer without an integer `index`.
    NoIndex,
    /// `{"index": null}` where staying idle is not allowed.
    IdleNotAllowed,
    /// An index that is not one of the offered ones.
    OutOfRange {
        /// How many actions were offered.
        offered: u32,
    },
    /// An in-process bot failed while handling a line (the line holds its exception).
    Raised,
}

impl Fault {
    /// What went wrong, in words, to follow "bot 'LABEL' (seat S)".
    pub fn describe(self) -> String {
        match self {
            Fault::CannotStart => "could not be started".into(),
            Fault::Exited => "exited (its output ended) while an answer was due".into(),
            Fault::TimedOut { ms } => format!("timed out: no answer line within {} (--bot-timeout)", seconds(ms)),
            Fault::NotJson => "wrote a line that is not one JSON object".into(),
            Fault::TooLong => format!("wrote a line longer than {} bytes", super::process::MAX_LINE),
            Fault::BadHello => "broke the protocol: its hello needs \"type\": \"hello\", \"protocol\": 1, a string \"name\" and a string \"version\"".into(),
            Fault::WrongVersion => "speaks another protocol version (cardsim speaks 1)".into(),
            Fault::DoesNotPlay => "does not play this game (its hello's \"games\" leaves it out)".into(),
            Fault::UnknownDecision => "broke the protocol: its hello's \"plays\" names a decision that is not optional in this game".into(),
            Fault::NoIndex => "broke the protocol: an answer needs an integer \"index\"".into(),
            Fault::IdleNotAllowed => "broke the protocol: \"index\": null (stay idle) is allowed only in a move of a real-time game".into(),
            Fault::Raised => "raised an exception".into(),
            Fault::OutOfRange { offered } => format!("answered an index out of range (0 to {} were offered)", offered.saturating_sub(1)),
        }
    }
}

/// Milliseconds as seconds for people: `10 s`, `0.5 s`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) { format!("{} s", ms / 1000) } else { format!("{} s", ms as f64 / 1000.0) }
}
