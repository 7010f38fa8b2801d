//! The public API: add a strategy of your own to any game and run it against the
//! built-in ones through the same runner, statistics, seating design and CSV as
//! `cardsim match`, without editing cardsim.
//!
//! Per game, a module holds what a strategy sees and answers: [`lopti`], [`spit`],
//! [`speed`] and [`nerts`] each give the player's `View` (never a hidden card), the
//! `Action` type and the `Strategy` trait to implement. A [`Custom`] wraps a factory of
//! such strategies; a [`Match`] seats built-in bots (by their `--bot` text) and custom
//! ones (by label), plays, and returns a [`Summary`]: the rows and the CSV bytes that
//! `cardsim match` prints and writes for the same inputs.
//!
//! Strategies are asked through `&self` from every worker thread at once, so a
//! strategy keeps no state between decisions; its randomness comes only from the `rng`
//! it is handed, which is its seat's own stream of the match. A strategy that draws
//! only from that `rng` gives the same figures for the same seed on any thread count.
//!
//! ```rust
//! use cardsim::api::{lopti, Custom, Match, SimRng};
//!
//! /// Plays the first legal action and keeps the dealt cards.
//! struct First;
//!
//! impl lopti::Strategy for First {
//!     fn swap(&self, _view: &lopti::View, _rng: &mut SimRng) -> Option<lopti::Swap> {
//!         None
//!     }
//!     fn act(&self, _view: &lopti::View, legal: &lopti::Actions, _rng: &mut SimRng) -> lopti::Action {
//!         legal[0]
//!     }
//! }
//!
//! let summary = Match::new("lopti")
//!     .bot("lowest")
//!     .custom("first", Custom::lopti(|| First))
//!     .games(200)
//!     .seed(7)
//!     .run()
//!     .unwrap();
//! let count = |bot: &str, column: &str| summary.value(bot, column).unwrap().parse::<u64>().unwrap();
//! let wins = count("lowest", "wins") + count("first", "wins");
//! // The matches nobody won: drawn, stopped at the cap, or stopped as a cycle.
//! let unwon = count("first", "draws") + count("first", "capped") + count("first", "cycled");
//! assert_eq!(wins + unwon, 200, "every match is won by one of them or by nobody");
//! ```

use crate::bot::{BotSpec, CUSTOM};
use crate::output::summary::csv_bytes;
use crate::table::Table;
use std::any::Any;
use std::sync::Arc;

pub use crate::external::channel::{Peer, PeerConn};
pub use crate::output::summary::SummaryRow;
pub use crate::rng::SimRng;
pub use crate::runner::SeatingDesign as Seating;

/// Lopti (turn-based): implement [`Strategy`](lopti::Strategy) (`swap` at setup, `act`
/// on turn; `give` and `rule_swap` have defaults) on a [`View`](lopti::View).
pub mod lopti {
    pub use crate::games::lopti::ranks::{is_special, rank_name, Rank, Ranks, SEVEN, TEN, THREE, TWO};
    pub use crate::games::lopti::rules::{Action, Actions};
    pub use crate::games::lopti::state::Swap;
    pub use crate::games::lopti::strategies::Strategy;
    pub use crate::games::lopti::view::View;
}

/// Spit (real time): implement [`Strategy`](spit::Strategy) (`choose` a move or stay
/// idle; the slap and pile choices have defaults) on a [`View`](spit::View).
pub mod spit {
    pub use crate::games::spit::rules::SpitAction as Action;
    pub use crate::games::spit::strategies::SpitStrategy as Strategy;
    pub use crate::games::spit::view::SpitView as View;
}

/// Speed (real time): implement [`Strategy`](speed::Strategy) on a [`View`](speed::View).
pub mod speed {
    pub use crate::games::speed::rules::SpeedAction as Action;
    pub use crate::games::speed::strategies::SpeedStrategy as Strategy;
    pub use crate::games::speed::view::SpeedView as View;
}

/// Nerts (real time): implement [`Strategy`](nerts::Strategy) on a [`View`](nerts::View).
pub mod nerts {
    pub use crate::games::nerts::rules::NertsAction as Action;
    pub use crate::games::nerts::strategies::NertsStrategy as Strategy;
    pub use crate::games::nerts::view::NertsView as View;
}

/// A strategy of your own for one game: a factory (`Send + Sync`, so it can be shared
/// between threads) that makes the strategy each time a [`Match`] is built.
///
/// ```rust
/// use cardsim::api::{spit, Custom, SimRng};
///
/// /// Plays the first legal action, never idle.
/// struct Eager;
/// impl spit::Strategy for Eager {
///     fn choose(&self, _view: &spit::View, legal: &[spit::Action], _rng: &mut SimRng) -> Option<spit::Action> {
///         legal.first().copied()
///     }
/// }
///
/// let eager = Custom::spit(|| Eager);
/// assert_eq!(eager.game(), "spit");
/// ```
#[derive(Clone)]
pub struct Custom {
    game: &'static str,
    make: Arc<dyn Fn() -> Box<dyn Any> + Send + Sync>,
}

impl Custom {
    /// `make` as a factory of boxed strategies of trait object type `S`, for `game`.
    fn of<S: ?Sized + 'static>(game: &'static str, make: impl Fn() -> Box<S> + Send + Sync + 'static) -> Custom {
        Custom { game, make: Arc::new(move || Box::new(make()) as Box<dyn Any>) }
    }

    /// A Lopti strategy made by `make` (see the example of the [module](self)).
    pub fn lopti<S: lopti::Strategy + 'static>(make: impl Fn() -> S + Send + Sync + 'static) -> Custom {
        Custom::of::<dyn lopti::Strategy>("lopti", move || Box::new(make()))
    }

    /// A Spit strategy made by `make` (see the example of [`Custom`]).
    pub fn spit<S: spit::Strategy + 'static>(make: impl Fn() -> S + Send + Sync + 'static) -> Custom {
        Custom::of::<dyn spit::Strategy>("spit", move || Box::new(make()))
    }

    /// A Speed strategy made by `make`.
    ///
    /// ```rust
    /// use cardsim::api::{speed, Custom, SimRng};
    /// struct First;
    /// impl speed::Strategy for First {
    ///     fn choose(&self, _: &speed::View, legal: &[speed::Action], _: &mut SimRng) -> Option<speed::Action> {
    ///         legal.first().copied()
    ///     }
    /// }
    /// assert_eq!(Custom::speed(|| First).game(), "speed");
    /// ```
    pub fn speed<S: speed::Strategy + 'static>(make: impl Fn() -> S + Send + Sync + 'static) -> Custom {
        Custom::of::<dyn speed::Strategy>("speed", move || Box::new(make()))
    }

    /// A Nerts strategy made by `make`.
    ///
    /// ```rust
    /// use cardsim::api::{nerts, Custom, SimRng};
    /// struct First;
    /// impl nerts::Strategy for First {
    ///     fn choose(&self, _: &nerts::View, legal: &[nerts::Action], _: &mut SimRng) -> Option<nerts::Action> {
    ///         legal.first().copied()
    ///     }
    /// }
    /// assert_eq!(Custom::nerts(|| First).game(), "nerts");
    /// ```
    pub fn nerts<S: nerts::Strategy + 'static>(make: impl Fn() -> S + Send + Sync + 'static) -> Custom {
        Custom::of::<dyn nerts::Strategy>("nerts", move || Box::new(make()))
    }

    /// The game the strategy plays.
    ///
    /// ```rust
    /// # use cardsim::api::{lopti, Custom, SimRng};
    /// # struct Keep;
    /// # impl lopti::Strategy for Keep {
    /// #     fn swap(&self, _: &lopti::View, _: &mut SimRng) -> Option<lopti::Swap> { None }
    /// #     fn act(&self, _: &lopti::View, legal: &lopti::Actions, _: &mut SimRng) -> lopti::Action { legal[0] }
    /// # }
    /// assert_eq!(Custom::lopti(|| Keep).game(), "lopti");
    /// ```
    pub fn game(&self) -> &'static str {
        self.game
    }
}

/// One bot of a [`Match`]: a `--bot` text, a custom strategy and its label, or an
/// in-process protocol peer and its label.
#[derive(Clone)]
enum Entrant {
    Spec(String),
    Custom(String, Custom),
    Peer(String, Arc<dyn Peer>),
}

/// A match of built-in and custom bots, set up like `cardsim match` and run by
/// [`Match::run`]. Defaults as on the command line: 10,000 games, seed 1, the `all`
/// seating design, default rules, all cores.
///
/// ```rust
/// use cardsim::api::{Match, Seating};
///
/// let summary = Match::new("spit").bot("greedy@skilled").bot("smart@skilled").games(40).seed(3).threads(2).seating(Seating::All).run().unwrap();
/// let csv = String::from_utf8(summary.csv().unwrap()).unwrap();
/// assert_eq!(csv.lines().count(), 1 + summary.rows().len(), "a header and the rows");
/// assert_eq!(summary.value("greedy@skilled", "games"), Some("40"));
/// ```
#[derive(Clone)]
pub struct Match {
    game: String,
    bots: Vec<Entrant>,
    sets: Vec<String>,
    games: u64,
    seed: u64,
    threads: Option<usize>,
    seating: Seating,
    bot_timeout: Option<f64>,
}

impl Match {
    /// A match of `game` (`spit`, `speed`, `lopti` or `nerts`) with no bot yet (the
    /// game's default bots if none is added, as on the command line).
    ///
    /// ```rust
    /// let summary = cardsim::api::Match::new("lopti").games(30).run().unwrap();
    /// for bot in ["lowest", "burner", "random"] {
    ///     assert!(summary.value(bot, "wins").is_some(), "lopti's default bots play");
    /// }
    /// ```
    pub fn new(game: &str) -> Match {
        Match { game: game.to_string(), bots: Vec::new(), sets: Vec::new(), games: 10_000, seed: 1, threads: None, seating: Seating::All, bot_timeout: None }
    }

    /// Adds a bot as `--bot` takes it: `STRATEGY[@PRESET]`, a bot file, or
    /// `exec:PATH[,ARG...]`; its label is the text, as in `cardsim match`.
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("speed").bot("greedy@expert").bot("random").games(10).run().unwrap();
    /// assert!(s.value("greedy@expert", "wins").is_some());
    /// ```
    pub fn bot(mut self, spec: &str) -> Match {
        self.bots.push(Entrant::Spec(spec.to_string()));
        self
    }

    /// Adds a custom strategy labelled `label` (`LABEL@PRESET` gives a real-time bot
    /// that reaction preset, as `--bot` does; the default preset otherwise). Two
    /// different bots may not share a label; the same [`Custom`] (or a clone of it) added
    /// twice under one label gives identical copies, `LABEL#1` and `LABEL#2`, as a
    /// built-in bot given twice does.
    ///
    /// ```rust
    /// use cardsim::api::{spit, Custom, Match, SimRng};
    /// struct Eager;
    /// impl spit::Strategy for Eager {
    ///     fn choose(&self, _: &spit::View, legal: &[spit::Action], _: &mut SimRng) -> Option<spit::Action> {
    ///         legal.first().copied()
    ///     }
    /// }
    /// let s = Match::new("spit").custom("eager@expert", Custom::spit(|| Eager)).bot("greedy@expert").games(20).run().unwrap();
    /// assert_eq!(s.value("eager@expert", "games"), Some("20"));
    /// ```
    pub fn custom(mut self, label: &str, strategy: Custom) -> Match {
        self.bots.push(Entrant::Custom(label.to_string(), strategy));
        self
    }

    /// Adds an in-process bot that speaks the bot protocol (docs/bot-protocol.md)
    /// labelled `label` (`LABEL@PRESET` as for `exec:`): it is sent the protocol's
    /// lines, exactly as an `exec:` bot's process is, without a process. The Python
    /// package's strategies play through this. Two different peers may not share a label.
    ///
    /// ```rust
    /// use cardsim::api::{Match, Peer, PeerConn};
    /// /// Always the first legal action.
    /// struct First;
    /// impl PeerConn for First {
    ///     fn message(&mut self, line: &str) -> Result<Option<String>, String> {
    ///         Ok(if line.contains(r#""type":"hello""#) {
    ///             Some(r#"{"type":"hello","protocol":1,"name":"first","version":"1"}"#.into())
    ///         } else if line.contains(r#""type":"decide""#) {
    ///             Some(r#"{"index":0}"#.into())
    ///         } else {
    ///             None
    ///         })
    ///     }
    /// }
    /// struct Factory;
    /// impl Peer for Factory {
    ///     fn connect(&self) -> Result<Box<dyn PeerConn>, String> {
    ///         Ok(Box::new(First))
    ///     }
    /// }
    /// let s = Match::new("lopti").peer("first", std::sync::Arc::new(Factory)).bot("lowest").games(20).run().unwrap();
    /// assert_eq!(s.value("first", "games"), Some("20"));
    /// ```
    pub fn peer(mut self, label: &str, peer: Arc<dyn Peer>) -> Match {
        self.bots.push(Entrant::Peer(label.to_string(), peer));
        self
    }

    /// Sets a rule or simulation flag, `KEY=VALUE` as `--set` takes it.
    ///
    /// ```rust
    /// let summary = cardsim::api::Match::new("lopti").bot("lowest").bot("burner").set("lopti.bonus_optional=true").games(20).run().unwrap();
    /// assert!(summary.csv_text().contains("lopti.bonus_optional=true"));
    /// ```
    pub fn set(mut self, flag: &str) -> Match {
        self.sets.push(flag.to_string());
        self
    }

    /// Matches to play (rounded up to whole deals, as `--games`).
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("lopti").bot("lowest").bot("burner").games(7).run().unwrap();
    /// assert_eq!(s.value("lowest", "games"), Some("8"), "4 deals, each played in both seat orders");
    /// ```
    pub fn games(mut self, games: u64) -> Match {
        self.games = games;
        self
    }

    /// The master seed (`--seed`): the same seed gives the same bytes.
    ///
    /// ```rust
    /// let run = |seed| cardsim::api::Match::new("lopti").bot("random").bot("burner").games(50).seed(seed).run().unwrap().csv_text();
    /// assert_eq!(run(9), run(9));
    /// assert_ne!(run(9), run(10));
    /// ```
    pub fn seed(mut self, seed: u64) -> Match {
        self.seed = seed;
        self
    }

    /// Worker threads (`--threads`, default all cores); the figures do not depend on it.
    ///
    /// ```rust
    /// let run = |threads| cardsim::api::Match::new("lopti").bot("random").bot("lowest").games(60).threads(threads).run().unwrap().csv_text();
    /// assert_eq!(run(1), run(2));
    /// ```
    pub fn threads(mut self, threads: usize) -> Match {
        self.threads = Some(threads);
        self
    }

    /// The seating design (`--seating`).
    ///
    /// ```rust
    /// use cardsim::api::{Match, Seating};
    /// let s = Match::new("lopti").bot("lowest").bot("burner").games(20).seating(Seating::One).run().unwrap();
    /// assert_eq!(s.value("lowest", "seat"), Some("all"));
    /// assert_eq!(s.value("lowest", "deals"), Some("20"), "one seating per deal");
    /// ```
    pub fn seating(mut self, seating: Seating) -> Match {
        self.seating = seating;
        self
    }

    /// Seconds an external bot (`exec:`) or an in-process one ([`Match::peer`]) may take
    /// for one answer (`--bot-timeout`, 0.001 to 3600; default 10). An in-process bot
    /// cannot be interrupted: an answer that comes back later than this is a time-out
    /// fault, as for a process (a [`Peer`] whose [`Peer::timed`] is false is exempt).
    ///
    /// ```rust
    /// let err = cardsim::api::Match::new("lopti").bot("lowest").bot("random").bot_timeout(0.0).run().err().unwrap();
    /// assert!(err.contains("--bot-timeout 0"), "{err}");
    /// ```
    pub fn bot_timeout(mut self, seconds: f64) -> Match {
        self.bot_timeout = Some(seconds);
        self
    }

    /// Plays the matches and returns their summary, or a one-line error naming what is
    /// wrong (an unknown game, strategy or flag, a custom strategy of another game, a
    /// strategy that chose an action it was not offered, ...).
    ///
    /// ```rust
    /// let err = cardsim::api::Match::new("lopti").bot("lowest").bot("clever").run().err().unwrap();
    /// assert!(err.contains("unknown strategy 'clever'"), "{err}");
    /// ```
    pub fn run(&self) -> Result<Summary, String> {
        crate::cli::check_count("--games", self.games, 1, crate::cli::MAX_GAMES)?;
        let entry = crate::games::find(&self.game)?;
        let texts: Vec<String> = if self.bots.is_empty() { entry.default_bots().iter().map(|s| s.to_string()).collect() } else { Vec::new() };
        let mut specs = texts.iter().map(|t| BotSpec::parse(t)).collect::<Result<Vec<_>, _>>()?;
        for b in &self.bots {
            specs.push(match b {
                Entrant::Spec(text) => BotSpec::parse(text)?,
                Entrant::Custom(label, c) => {
                    let other = |e: &Entrant| matches!(e, Entrant::Custom(l, d) if l == label && !Arc::ptr_eq(&c.make, &d.make));
                    if self.bots.iter().any(other) {
                        return Err(format!("custom bot {}: two different strategies share this label; give one another label", crate::output::clip(label)));
                    }
                    if c.game != entry.name() {
                        return Err(format!("--bot {}: a {} strategy cannot play {}", crate::output::clip(label), c.game, entry.name()));
                    }
                    let mut spec = BotSpec::parse(label).map_err(|e| e.replace("--bot", "custom bot"))?;
                    if spec.is_external() || spec.source.is_some() {
                        return Err(format!("custom bot {}: a label, not a bot file or exec: command", crate::output::clip(label)));
                    }
                    spec.strategy = CUSTOM.to_string();
                    spec
                }
                Entrant::Peer(label, peer) => {
                    let other = |e: &Entrant| matches!(e, Entrant::Peer(l, q) if l == label && !Arc::ptr_eq(peer, q));
                    if self.bots.iter().any(other) {
                        return Err(format!("in-process bot {}: two different bots share this label; give one another label", crate::output::clip(label)));
                    }
                    BotSpec::peer(label, peer.clone())?
                }
            });
        }
        let mut table = Table::new(entry, specs, &self.sets, self.seating)?;
        table.set_bot_timeout(self.bot_timeout)?;
        // Bot i of the table is entrant table_of[i] as given.
        let custom = |i: usize| match self.bots.get(table.table_of[i]) {
            Some(Entrant::Custom(_, c)) => Some((c.make)()),
            _ => None,
        };
        let game = entry.build_with(&table.bots, &table.settings, &custom)?;
        let cfg = table.run_config(self.games, self.seed, true);
        let (pool, _) = crate::cli::thread_pool(self.threads)?;
        let stats = pool.install(|| crate::runner::run(game.as_match_game(), &cfg));
        let labels = table.labels();
        stats.check_strategies(&labels, cfg.seed, &table.trace_command(cfg.seed))?;
        let rows = table.summary_rows(cfg.seed, &stats, game.metrics());
        Ok(Summary { rows })
    }
}

/// The figures of a [`Match`]: one row per bot, as `cardsim match --csv` writes them.
pub struct Summary {
    rows: Vec<SummaryRow>,
}

impl Summary {
    /// The rows as `cardsim match --csv` writes them: per bot (in seating order, sorted by
    /// label under [`Seating::All`]) a pooled row (`seat` = `all`) and one per seat; with
    /// 3+ players one per bot and the bot before it (`after`); then per seat a row pooled
    /// over the bots (`bot` = `any`). docs/statistics.md explains the columns.
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("lopti").bot("lowest").bot("random").games(20).run().unwrap();
    /// assert_eq!(s.rows()[0].header, s.rows()[1].header, "every row has the same columns");
    /// ```
    pub fn rows(&self) -> &[SummaryRow] {
        &self.rows
    }

    /// The value in column `column` of the pooled row (every seat) of the bot labelled
    /// `bot`, if both exist.
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("lopti").bot("lowest").bot("random").games(20).run().unwrap();
    /// assert_eq!(s.value("random", "bot"), Some("random"));
    /// assert_eq!(s.value("random", "no such column"), None);
    /// ```
    pub fn value(&self, bot: &str, column: &str) -> Option<&str> {
        let row = self.rows.iter().find(|r| cell(r, "bot") == Some(bot) && cell(r, "seat") == Some("all") && cell(r, "after") == Some(""))?;
        cell(row, column)
    }

    /// The CSV bytes `cardsim match --csv` writes for the same inputs.
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("lopti").bot("lowest").bot("random").games(20).run().unwrap();
    /// let csv = s.csv().unwrap();
    /// assert!(csv.starts_with(b"game,bots,flags,seed,seating,bot,"));
    /// ```
    pub fn csv(&self) -> Result<Vec<u8>, String> {
        csv_bytes(&self.rows)
    }

    /// [`Summary::csv`] as text.
    ///
    /// ```rust
    /// let s = cardsim::api::Match::new("lopti").bot("lowest").bot("random").games(20).run().unwrap();
    /// assert_eq!(s.csv_text().lines().count(), 1 + s.rows().len());
    /// ```
    pub fn csv_text(&self) -> String {
        String::from_utf8(self.csv().expect("summary rows serialise")).expect("CSV of UTF-8 rows")
    }
}

/// The value of `row` in column `column`, if it has one.
fn cell<'r>(row: &'r SummaryRow, column: &str) -> Option<&'r str> {
    row.header.iter().position(|h| h == column).map(|i| row.values[i].as_str())
}
