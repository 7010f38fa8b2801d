//! The bodies of the fuzz targets (`fuzz/`, run with cargo-fuzz; `tests/fuzz_smoke.rs`
//! runs each over a seed corpus and pseudo-random bytes). Each takes arbitrary bytes and
//! must never panic: a parser answers `Ok` or a one-line `Err`, and a game driven by the
//! bytes keeps its invariants after every event (the games' invariant checkers panic
//! when one breaks, which the fuzzer reports).
//!
//! The action targets seat byte-driven bots ([`Script`]) on the real engines: each
//! decision reads one byte, which mostly picks one of the legal actions, sometimes
//! stays idle, and sometimes replays an action offered earlier (often illegal by now).
//! The engines must refuse an illegal action, stop the match and report it as a bug of
//! that strategy ([`IllegalChoice`]) with the seat and the action index the script
//! itself counted. See `docs/fuzzing.md`.

use crate::bot::BotSpec;
use crate::experiment::run::Study;
use crate::experiment::Experiment;
use crate::games::{self, lopti, nerts, speed, spit};
use crate::realtime::{Bot, EngineEvent, EngineObserver, MatchObserver, Micros, RealtimeGame, Seated};
use crate::reaction::Preset;
use crate::rng::{MatchSeeds, SimRng};
use crate::runner::{IllegalChoice, SeatingDesign};
use crate::settings::{FlagDef, Settings};
use crate::table::Table;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Reads the fuzz input one byte at a time; past the end it reads `None`.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// Reads `data` from its start.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }
    /// The next byte, or 0 past the end.
    pub fn byte(&mut self) -> u8 {
        let Some((&b, rest)) = self.data.split_first() else { return 0 };
        self.data = rest;
        b
    }
    /// The next eight bytes as a little-endian number (missing bytes are 0).
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |x, i| x | (self.byte() as u64) << (8 * i))
    }
    /// The bytes not read yet.
    pub fn rest(self) -> &'a [u8] {
        self.data
    }
}

/// Rule flags drawn from the input: up to eight draws of a flag of `defs` and a value
/// (one of its listed values, or a small number), each kept only if the flags kept so
/// far with it still parse and `fits` accepts them; then `sim.max_actions` (1 to 2,048,
/// so a match stays short). Returns the assignments, which always parse.
pub fn draw_flags(defs: &'static [FlagDef], input: &mut Bytes, fits: impl Fn(&Settings) -> bool) -> Vec<String> {
    let mut sets: Vec<String> = Vec::new();
    let draws = input.byte() % 9;
    for _ in 0..draws {
        let def = &defs[input.byte() as usize % defs.len()];
        if def.key == "sim.max_actions" || sets.iter().any(|s| s.starts_with(&format!("{}=", def.key))) {
            continue;
        }
        let pick = input.byte();
        let value = match def.values() {
            Some(values) => values[pick as usize % values.len()].clone(),
            None => (pick % 32).to_string(),
        };
        sets.push(format!("{}={value}", def.key));
        if !Settings::parse(defs, &sets).is_ok_and(|s| fits(&s)) {
            sets.pop();
        }
    }
    let cap = 1 + (u16::from_le_bytes([input.byte(), input.byte()]) % 2048);
    sets.push(format!("sim.max_actions={cap}"));
    sets
}

/// The decisions of the byte-driven bots of one match: the input bytes, read one per
/// decision by every seat in turn, the actions offered so far, and the first illegal
/// action handed out.
pub struct Script<A> {
    bytes: Vec<u8>,
    read: usize,
    decisions: u64,
    offered: Vec<A>,
    /// The first action the script chose that it was not offered: (seat, the decision's
    /// index in the match counted from 0, the action).
    pub illegal: Option<(usize, u64, A)>,
}

impl<A: Copy + PartialEq> Script<A> {
    /// A script reading `bytes`, shared by every seat of a match.
    pub fn shared(bytes: &[u8]) -> Arc<Mutex<Script<A>>> {
        Arc::new(Mutex::new(Script { bytes: bytes.to_vec(), read: 0, decisions: 0, offered: Vec::new(), illegal: None }))
    }

    /// Seat `seat`'s choice among `legal`: a byte below 224 picks a legal action, 224
    /// to 239 stays idle (`None`), 240 and above replays an action offered earlier, legal
    /// or not. Past the end of the bytes the bot stays idle. `fallback` is what a bot that
    /// must act does instead of staying idle (Lopti), `None` for a real-time bot.
    pub fn choose(&mut self, seat: usize, legal: &[A], fallback: Option<A>) -> Option<A> {
        let index = self.decisions;
        self.decisions += 1;
        let Some(&b) = self.bytes.get(self.read) else { return fallback };
        self.read += 1;
        let chosen = match b {
            0..=223 => Some(legal[b as usize % legal.len()]),
            224..=239 => fallback,
            _ => self.offered.get(b as usize % self.offered.len().max(1)).copied().or(fallback),
        };
        if self.offered.len() < 64 {
            self.offered.extend(legal.iter().take(64 - self.offered.len()));
        } else {
            self.offered[index as usize % 64] = legal[0];
        }
        if let Some(a) = chosen.filter(|a| !legal.contains(a)) {
            self.illegal.get_or_insert((seat, index, a));
        }
        chosen
    }

    /// The next byte for a decision that is not a move (a pile to slap, a swap), or 0.
    pub fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.read).copied().unwrap_or(0);
        self.read += 1;
        b
    }
}

/// A byte-driven bot of a game whose actions are `A`, for seat `seat`.
pub struct Scripted<A> {
    script: Arc<Mutex<Script<A>>>,
    seat: usize,
}

impl<A> Scripted<A> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Script<A>> {
        self.script.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl spit::strategies::SpitStrategy for Scripted<spit::rules::SpitAction> {
    fn choose(&self, _: &spit::view::SpitView, legal: &[spit::rules::SpitAction], _: &mut SimRng) -> Option<spit::rules::SpitAction> {
        self.lock().choose(self.seat, legal, None)
    }
    fn slap_target(&self, _: &spit::view::SpitView, _: &mut SimRng) -> usize {
        self.lock().byte() as usize
    }
    fn spit_target(&self, _: &spit::view::SpitView, _: &mut SimRng) -> usize {
        self.lock().byte() as usize
    }
    fn give_away(&self, _: &spit::view::SpitView, _: &mut SimRng) -> usize {
        self.lock().byte() as usize
    }
}

impl speed::strategies::SpeedStrategy for Scripted<speed::rules::SpeedAction> {
    fn choose(&self, _: &speed::view::SpeedView, legal: &[speed::rules::SpeedAction], _: &mut SimRng) -> Option<speed::rules::SpeedAction> {
        self.lock().choose(self.seat, legal, None)
    }
}

impl nerts::strategies::NertsStrategy for Scripted<nerts::rules::NertsAction> {
    fn choose(&self, _: &nerts::view::NertsView, legal: &[nerts::rules::NertsAction], _: &mut SimRng) -> Option<nerts::rules::NertsAction> {
        self.lock().choose(self.seat, legal, None)
    }
}

impl lopti::strategies::Strategy for Scripted<lopti::rules::Action> {
    fn swap(&self, view: &lopti::view::View, _: &mut SimRng) -> Option<lopti::state::Swap> {
        let mut script = self.lock();
        let (hand, face_up): (Vec<_>, Vec<_>) = (view.hand().ranks().collect(), view.face_up().ranks().collect());
        let (h, f) = (script.byte() as usize, script.byte() as usize);
        (h % 2 == 1 && !hand.is_empty() && !face_up.is_empty()).then(|| lopti::state::Swap { hand: hand[h / 2 % hand.len()], face_up: face_up[f % face_up.len()] })
    }
    fn act(&self, _: &lopti::view::View, legal: &lopti::rules::Actions, _: &mut SimRng) -> lopti::rules::Action {
        let legal: Vec<lopti::rules::Action> = legal.iter().copied().collect();
        self.lock().choose(self.seat, &legal, Some(legal[0])).unwrap_or(legal[0])
    }
}

/// A game's invariant checker with the engine's liveness reports held back: a built-in
/// strategy must not sit idle with a progress action (SPIT-RT-9, which the checkers
/// assert), but a byte-driven bot may; the engine then ends the round, capped.
struct Lenient<C>(C);

impl<S, A, C: EngineObserver<S, A>> EngineObserver<S, A> for Lenient<C> {
    fn on_event(&mut self, time: Micros, event: EngineEvent<A>, state: &S) {
        if !matches!(event, EngineEvent::LivenessViolation { .. }) {
            self.0.on_event(time, event, state);
        }
    }
}

impl<S, A, E, C: MatchObserver<S, A, E>> MatchObserver<S, A, E> for Lenient<C> {
    fn on_match_event(&mut self, time: Micros, event: E, state: &S) {
        self.0.on_match_event(time, event, state);
    }
}

/// Checks that the engine's report of an illegal choice is the one the script made:
/// the same seat, action index and action (as the engine prints it), or none at all.
fn same_report<A>(engine: Option<IllegalChoice>, script: &Script<A>, text: impl Fn(&A) -> String) {
    let expected = script.illegal.as_ref().map(|(seat, index, a)| IllegalChoice::new(*seat, *index, text(a)));
    assert_eq!(engine, expected, "the engine reports exactly the script's first illegal choice");
}

/// A real-time match of game `G` set up from the input: players (within the game's
/// range), flags ([`draw_flags`]), a deal seed and each seat's reaction preset; then
/// the byte-driven bots of `make`. Returns `None` when the flags do not fit the table.
fn realtime_setup<G: RealtimeGame>(input: &mut Bytes) -> Option<(G::Config, usize, MatchSeeds, Vec<Preset>)> {
    let (lo, hi) = G::PLAYERS;
    let players = lo + input.byte() as usize % (hi - lo + 1);
    let sets = draw_flags(G::flags(), input, |s| G::config(s, players).is_ok());
    let cfg = G::config(&Settings::parse(G::flags(), &sets).ok()?, players).ok()?;
    let seeds = MatchSeeds::of_deal(input.u64());
    let presets = (0..players).map(|_| crate::reaction::presets::ALL_PRESETS[input.byte() as usize % crate::reaction::presets::ALL_PRESETS.len()]).collect();
    Some((cfg, players, seeds, presets))
}

/// Byte-driven bots (boxed as the game's strategy type by `boxed`) for `presets`.
fn scripted_bots<A, S: ?Sized>(script: &Arc<Mutex<Script<A>>>, presets: &[Preset], boxed: impl Fn(Scripted<A>) -> Box<S>) -> Vec<Bot<S>> {
    presets.iter().enumerate().map(|(seat, p)| Bot { strategy: boxed(Scripted { script: script.clone(), seat }), reaction: p.model() }).collect()
}

/// Fuzz body `spit_actions`: a Spit match from the input (flags, deal, presets) played
/// by byte-driven bots on the real engine, the Spit invariants checked after every event.
/// Returns the engine's report of an illegal choice, if the bots made one.
pub fn spit_actions(data: &[u8]) -> Option<IllegalChoice> {
    let mut input = Bytes::new(data);
    let (cfg, _, seeds, presets) = realtime_setup::<spit::Spit>(&mut input)?;
    let script = Script::shared(input.rest());
    let bots = scripted_bots(&script, &presets, |b| Box::new(b) as Box<dyn spit::strategies::SpitStrategy>);
    let seated: Seated<_> = bots.iter().collect();
    let rules = spit::rules::SpitRules { cfg };
    let out = spit::game::play_match(&rules, &seated, &seeds, &mut Lenient(spit::invariants::InvariantChecker::new(cfg)));
    same_report(out.counts.illegal, &script.lock().unwrap_or_else(|e| e.into_inner()), |a| format!("{a:?}"));
    out.counts.illegal
}

/// Fuzz body `speed_actions`: as [`spit_actions`], for Speed.
pub fn speed_actions(data: &[u8]) -> Option<IllegalChoice> {
    let mut input = Bytes::new(data);
    let (cfg, _, seeds, presets) = realtime_setup::<speed::Speed>(&mut input)?;
    let script = Script::shared(input.rest());
    let bots = scripted_bots(&script, &presets, |b| Box::new(b) as Box<dyn speed::strategies::SpeedStrategy>);
    let seated: Seated<_> = bots.iter().collect();
    let rules = speed::rules::SpeedRules::new(cfg);
    let out = speed::game::play_match(&rules, &seated, &seeds, &mut Lenient(speed::invariants::InvariantChecker::new(cfg)));
    same_report(out.counts.illegal, &script.lock().unwrap_or_else(|e| e.into_inner()), |a| format!("{a:?}"));
    out.counts.illegal
}

/// Fuzz body `nerts_actions`: as [`spit_actions`], for Nerts at 2 to 8 players, every
/// event checked by the Nerts match checker.
pub fn nerts_actions(data: &[u8]) -> Option<IllegalChoice> {
    let mut input = Bytes::new(data);
    let (cfg, _, seeds, presets) = realtime_setup::<nerts::Nerts>(&mut input)?;
    let script = Script::shared(input.rest());
    let bots = scripted_bots(&script, &presets, |b| Box::new(b) as Box<dyn nerts::strategies::NertsStrategy>);
    let seated: Seated<_> = bots.iter().collect();
    let rules = nerts::rules::NertsRules::new(cfg);
    let out = nerts::game::play_match(&rules, &seated, &seeds, &mut Lenient(nerts::checker::MatchChecker::new(rules)));
    same_report(out.counts.illegal, &script.lock().unwrap_or_else(|e| e.into_inner()), |a| format!("{a:?}"));
    out.counts.illegal
}

/// Fuzz body `lopti_actions`: a Lopti round of 2 to 5 players with flags, deal and
/// starter from the input, played by byte-driven bots through the engine's round loop,
/// the Lopti invariants checked at every event.
pub fn lopti_actions(data: &[u8]) -> Option<IllegalChoice> {
    let mut input = Bytes::new(data);
    let n = 2 + input.byte() % 4;
    let strategies = vec!["random"; n as usize];
    let sets = draw_flags(&lopti::config::FLAGS, &mut input, |s| lopti::config::Rules::check_table(s, n as usize, &strategies).is_ok());
    let Ok(settings) = Settings::parse(&lopti::config::FLAGS, &sets) else { return None };
    let rules = lopti::config::Rules::from_settings(&settings);
    let starter = input.byte() % n;
    let seeds = MatchSeeds::of_deal(input.u64());
    let script = Script::shared(input.rest());
    let bots: Vec<Scripted<lopti::rules::Action>> = (0..n as usize).map(|seat| Scripted { script: script.clone(), seat }).collect();
    let seated: Vec<&dyn lopti::strategies::Strategy> = bots.iter().map(|b| b as &dyn lopti::strategies::Strategy).collect();
    let mut checker = lopti::invariants::InvariantChecker::default();
    let mut state = lopti::state::State::deal(n, starter, rules, &seeds, &mut checker);
    let mut dice: Vec<SimRng> = (0..n as usize).map(|s| seeds.player_rng(s)).collect();
    let illegal = lopti::round::play_round(&mut state, &seated, lopti::round::Dice::Seats(&mut dice), &mut checker).err();
    if let Some(e) = checker.error {
        panic!("{e}");
    }
    assert!(state.phase == lopti::state::Phase::Over, "the round ended, was capped or stopped");
    // Lopti's action index is the turn (a decision with one legal action is not asked).
    let script = script.lock().unwrap_or_else(|e| e.into_inner());
    let expected = script.illegal.map(|(seat, _, a)| IllegalChoice::new(seat, state.counters.turns as u64, a));
    assert_eq!(illegal, expected, "the engine reports exactly the script's first illegal choice");
    assert!(illegal.is_none_or(|_| state.capped), "a round stopped by an illegal choice is capped");
    illegal
}

/// Fuzz body `experiment_file`: the input as an experiment file
/// ([`Experiment::parse`]) and, if it parses, every table built as `cardsim run` does
/// before playing ([`Study::new`]). Nothing is played.
pub fn experiment_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(exp) = Experiment::parse(text, Path::new("experiments/fuzz.toml")) {
        let games = exp.games;
        let _ = Study::new(exp, games);
    }
}

/// Fuzz body `bot_file`: the input as a bot file ([`BotSpec::from_text`]) and, if it
/// loads, one short match of its game with the bot in every seat (so its reaction times
/// are drawn); and as a Lopti special-rule file ([`lopti::special::file::parse`]).
pub fn bot_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(bot) = BotSpec::from_text(text, Path::new("strategies/fuzz.toml")) {
        let game = bot.game.clone().unwrap_or_default();
        if let Ok(table) = games::find(&game).and_then(|entry| Table::new(entry, vec![bot.clone(), bot], &["sim.max_actions=300".to_string()], SeatingDesign::One)) {
            if let Ok(built) = table.build() {
                built.as_match_game().play(&[0, 1], &MatchSeeds::of_deal(1));
            }
        }
    }
    let _ = lopti::special::file::parse(text);
}

/// Fuzz body `cli_values`: the first byte picks a game; each following line of the
/// input is a `--set KEY=VALUE` (with a `=`) or a `--bot` spec (without). Checks them as
/// `cardsim match` does ([`Settings::parse`], [`Table::parse`], building the game), each
/// line as a Lopti session bot ([`lopti::session::command::parse_bot`]), and as a
/// `--shard K/N`.
pub fn cli_values(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let registry = games::registry();
    let entry = registry[first as usize % registry.len()];
    let (sets, bots): (Vec<String>, Vec<String>) = text.lines().map(str::to_string).partition(|l| l.contains('='));
    // Bot files are the bot_file target's; here a spec naming one is left out.
    let bots: Vec<String> = bots.into_iter().filter(|b| !b.ends_with(".toml")).collect();
    let _ = Settings::parse(entry.flags(), &sets);
    let seating = [SeatingDesign::All, SeatingDesign::Rotations, SeatingDesign::One][first as usize / 64 % 3];
    if let Ok(table) = Table::parse(entry.name(), &bots, &sets, seating) {
        let _ = table.build();
    }
    let params = lopti::strategies::Params { mcts_iterations: 10 };
    let session = Settings::parse(&lopti::session::SESSION_FLAGS, &[]).expect("the defaults parse");
    for line in text.lines() {
        let _ = BotSpec::parse(line);
        let _ = lopti::session::command::parse_bot(line, &params, &session, 3, crate::external::DEFAULT_TIMEOUT_MS);
        let _ = crate::experiment::run::Shard::parse(line);
    }
}

/// Fuzz body `lopti_position`: the input as a Lopti position ([`lopti::position::parse_position`],
/// what `cardsim legal lopti` reads); if it parses, its legal actions as that command
/// lists them ([`lopti::position::legal_lines`]). (A position describes only the acting
/// player, not a whole game, so it is not played on: `State::determinize` expects the
/// view of a real game, where every card is somewhere.)
pub fn lopti_position(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(state) = lopti::position::parse_position(text) else { return };
    let lines: Vec<String> = state.view(0).legal_actions().iter().map(|a| a.to_string()).collect();
    assert!(!lines.is_empty(), "a valid position has a legal action");
    assert_eq!(lopti::position::legal_lines(text).as_deref(), Ok(&lines[..]), "legal lists the parsed position's actions");
}

/// A fuzz body: runs one input, panicking on a defect.
pub type FuzzBody = fn(&[u8]);

/// Every fuzz body by target name, for the smoke test and the fuzz crate.
pub const TARGETS: [(&str, FuzzBody); 8] = [
    ("experiment_file", experiment_file),
    ("bot_file", bot_file),
    ("cli_values", cli_values),
    ("lopti_position", lopti_position),
    ("spit_actions", |d| { let _ = spit_actions(d); }),
    ("speed_actions", |d| { let _ = speed_actions(d); }),
    ("lopti_actions", |d| { let _ = lopti_actions(d); }),
    ("nerts_actions", |d| { let _ = nerts_actions(d); }),
];
