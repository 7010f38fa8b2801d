//! Special rules as plugins (lopti.md §13, LOPTI-MAKE-SIM-1).
//!
//! A special rule is data: hooks, each `(when, event, conditions, effects)`. Conditions
//! read roles and the state (never a seat as such, LOPTI-MAKE-5); effects are drawn from
//! a small vocabulary of actions the engine knows how to *add* (draw, give a card, pass
//! cards round, swap a hand card with a face-up card, clear the pile). The vocabulary
//! also names the things a table might ask for that a rule may not do (skip a draw, skip
//! a turn, take a play back, cancel a clear or a bonus play, block a vote, undo an
//! action): [`validate`] rejects a rule that uses them, or that targets a seat or its
//! maker, hooks an event in a way that could loop or stop a player going out, with an
//! error naming the rule, the hook and the rule ID it breaks (LOPTI-MAKE-3..8). What
//! passes validation can only add actions: the engine runs the effects through its rule
//! primitives ([`State::rule_draw`](super::state::State::rule_draw) and friends), fires
//! `before` hooks on events that then happen anyway, and stops hook chains at
//! `lopti.hook_depth` (default 8).
//!
//! - [`catalog`]: the built-in rules;
//! - [`file`](mod@file): rules read from TOML files (checked by the same [`validate`]);
//! - [`run`]: [`run::Ruled`], the observer that runs the hooks of the rules in force.

pub mod catalog;
pub mod file;
pub mod run;

use super::events::{HookEvent, When};
use super::ranks::{rank_name, Rank, RANKS};
use super::rules::ClearCause;
use serde::Deserialize;

/// Most parameters a rule has.
pub const MAX_PARAMS: usize = 3;
/// Most special rules in force at once.
pub const MAX_RULES: usize = 16;
/// Default limit on nested hooks (LOPTI-MAKE-SIM-1: "default depth 8").
pub const DEFAULT_HOOK_DEPTH: u8 = 8;

/// Who an effect concerns, or which role a condition asks about. Everything is a game
/// role relative to the event or the round (LOPTI-MAKE-5); [`Role::Seat`] and
/// [`Role::Maker`] exist only to be rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The player the event concerns (who plays, draws, clears, takes the pile, goes out;
    /// the proposer of a Rule Vote).
    Actor,
    /// The next active player clockwise after the actor.
    Next,
    /// The active player just before the actor.
    Previous,
    /// Every active player but the actor, clockwise from the next.
    EveryOther,
    /// Every active player, clockwise from the actor.
    Everyone,
    /// The round's dealer.
    Dealer,
    /// The winner of the previous round.
    LastWinner,
    /// The player who must answer a 3.
    Obligated,
    /// The player on turn.
    OnTurn,
    /// A fixed seat: a person, not a role (rejected, LOPTI-MAKE-5).
    Seat(u8),
    /// The rule's own maker: a person, not a role (rejected, LOPTI-MAKE-5).
    Maker,
}

impl Role {
    /// The name in rule files.
    pub fn name(self) -> String {
        match self {
            Role::Actor => "actor".into(),
            Role::Next => "next".into(),
            Role::Previous => "previous".into(),
            Role::EveryOther => "every_other".into(),
            Role::Everyone => "everyone".into(),
            Role::Dealer => "dealer".into(),
            Role::LastWinner => "last_winner".into(),
            Role::Obligated => "obligated".into(),
            Role::OnTurn => "on_turn".into(),
            Role::Seat(s) => format!("seat {s}"),
            Role::Maker => "maker".into(),
        }
    }
    /// True for a role that names a single player of the round (for `actor_is`).
    fn is_round_role(self) -> bool {
        matches!(self, Role::Dealer | Role::LastWinner | Role::Obligated | Role::OnTurn)
    }
}

/// Which way a card is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// To the next active player clockwise ("to the left").
    Next,
    /// To the active player before ("to the right").
    Previous,
}

/// A number in a rule: a constant or one of the rule's parameters (by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// A fixed number.
    Const(u8),
    /// Parameter `i` of the rule.
    Param(u8),
}

impl Amount {
    /// The value under `params`.
    pub fn value(self, params: &[u8; MAX_PARAMS]) -> u8 {
        match self {
            Amount::Const(v) => v,
            Amount::Param(i) => params[i as usize],
        }
    }
}

/// A set of ranks, one bit per rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankSet(pub u16);

impl RankSet {
    /// True if `r` is in the set.
    pub fn has(self, r: Rank) -> bool {
        self.0 & (1 << r) != 0
    }
    /// The ranks' names, e.g. `2|7`.
    pub fn names(self) -> String {
        (0..RANKS as Rank).filter(|&r| self.has(r)).map(rank_name).collect::<Vec<_>>().join("|")
    }
}

/// A condition of a hook (all of a hook's conditions must hold). Conditions read the
/// event, roles and the public state (LOPTI-MAKE-5, LOPTI-MAKE-SIM-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// The event's card (played, drawn, revealed; the hand card of a swap) is one of these ranks.
    Rank(RankSet),
    /// The event's card is the rank given by parameter `i`.
    RankParam(u8),
    /// At least this many cards were played, taken or cleared.
    MinCount(Amount),
    /// The pile was cleared this way.
    Cause(ClearCause),
    /// The revealed face-down card was legal (`true`) or not.
    RevealLegal(bool),
    /// The draw pile is empty (`true`) or not, after the event.
    DrawPileEmpty(bool),
    /// The event's player holds this role (dealer, last winner, obligated, on turn).
    ActorIs(Role),
    /// The play and the plays just below it, `plays` in all, have the same number of
    /// cards, at least `min_cards` each ("three equal plays in a row").
    EqualCounts {
        /// Plays in the row, the event's play included.
        plays: Amount,
        /// Cards each play has at least.
        min_cards: Amount,
    },
    /// The play and the plays just below it, `plays` in all, rise one rank at a time
    /// (e.g. 5, 6, 7), the event's play on top.
    Straight {
        /// Plays in the row, the event's play included.
        plays: Amount,
    },
    /// The Rule Vote passed (`true`) or not.
    VotePassed(bool),
    /// A fixed seat holds the event (rejected: a person, not a role, LOPTI-MAKE-5).
    SeatIs(u8),
    /// The rule's maker holds the event (rejected, LOPTI-MAKE-5).
    ActorIsMaker,
}

/// What a hook does. The first five add actions; the rest are what a table might ask of
/// a rule but a rule may not do, and [`validate`] rejects them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Each `who` draws `cards` cards, while any are left (a `DRAW` event each).
    Draw {
        /// Who draws.
        who: Role,
        /// How many cards each.
        cards: Amount,
    },
    /// Each `who`, clockwise from the actor, gives `cards` hand cards of its choice one by
    /// one to its neighbour in `to` (never its last card).
    Give {
        /// Who gives.
        who: Role,
        /// To whom.
        to: Direction,
        /// How many cards each.
        cards: Amount,
    },
    /// Every `who` at once passes one hand card of its choice to its neighbour in `dir`:
    /// all choose, then all cards move (never a player's last card).
    PassAll {
        /// Who passes.
        who: Role,
        /// Which way.
        dir: Direction,
    },
    /// Each `who` may swap one hand card with one of its own face-up cards (its choice).
    SwapOwn {
        /// Who may swap.
        who: Role,
    },
    /// The pile is cleared (an added clear condition, LOPTI-MAKE-8, LOPTI-CLEAR-2 (5)):
    /// the player who made the play gets the bonus play.
    Clear,
    /// `who` skips its draw (rejected: prevents a basic event, LOPTI-MAKE-3).
    SkipDraw {
        /// Who would skip it.
        who: Role,
    },
    /// `who` skips its turn (rejected, LOPTI-MAKE-3).
    SkipTurn {
        /// Who would skip it.
        who: Role,
    },
    /// The play goes back to its player's hand (rejected: replaces a basic event, LOPTI-MAKE-3).
    ReturnPlay,
    /// The clear does not happen (rejected, LOPTI-MAKE-8).
    CancelClear,
    /// The clearing player gets no bonus play (rejected, LOPTI-MAKE-8).
    CancelBonus,
    /// The Rule Vote is not held (rejected, LOPTI-MAKE-4, LOPTI-VOTE-8).
    CancelVote,
    /// The voting procedure or the RPS tie-break changes (rejected, LOPTI-VOTE-8).
    ChangeVoting,
    /// The last completed action is undone (rejected: retroactive, LOPTI-MAKE-4).
    Undo,
}

/// One hook of a rule (LOPTI-MAKE-SIM-1 `(when, event, condition, effect)`).
#[derive(Clone, Copy, Debug)]
pub struct Hook {
    /// Before or after the event.
    pub when: When,
    /// The event.
    pub event: HookEvent,
    /// Conditions, all of which must hold.
    pub conds: &'static [Cond],
    /// Effects, in order.
    pub effects: &'static [Effect],
}

/// A parameter of a rule.
#[derive(Clone, Copy, Debug)]
pub struct ParamDef {
    /// Name, e.g. `cards`.
    pub name: &'static str,
    /// Default value.
    pub default: u8,
    /// Smallest value.
    pub min: u8,
    /// Largest value.
    pub max: u8,
    /// The value is a rank (0 = `2` .. 12 = `A`), shown and given by name.
    pub rank: bool,
    /// Values a Rule Vote may propose changing it to (the meta strategies' choices).
    pub alternatives: &'static [u8],
    /// One line.
    pub doc: &'static str,
}

impl ParamDef {
    /// A value as shown: a number, or a rank name.
    pub fn show(&self, v: u8) -> String {
        if self.rank { rank_name(v).to_string() } else { v.to_string() }
    }
}

/// A special rule: an id, what it says, its parameters and its hooks.
#[derive(Debug)]
pub struct RuleDef {
    /// Short id, e.g. `clear_gift` (lower case, digits, `_`).
    pub id: &'static str,
    /// What the rule says, as a table would announce it.
    pub text: &'static str,
    /// Parameters, at most [`MAX_PARAMS`].
    pub params: &'static [ParamDef],
    /// Hooks.
    pub hooks: &'static [Hook],
}

impl RuleDef {
    /// The default parameters.
    pub fn defaults(&self) -> [u8; MAX_PARAMS] {
        let mut p = [0; MAX_PARAMS];
        for (v, d) in p.iter_mut().zip(self.params) {
            *v = d.default;
        }
        p
    }
    /// The rule with parameters, e.g. `pickup_extra_draw(cards=2)`.
    pub fn show(&self, params: &[u8; MAX_PARAMS]) -> String {
        if self.params.is_empty() {
            return self.id.to_string();
        }
        let ps: Vec<String> = self.params.iter().zip(params).map(|(d, &v)| format!("{}={}", d.name, d.show(v))).collect();
        format!("{}({})", self.id, ps.join(","))
    }
    /// Checks parameter values against their ranges.
    pub fn check_params(&self, params: &[u8; MAX_PARAMS]) -> Result<(), String> {
        for (d, &v) in self.params.iter().zip(params) {
            if v < d.min || v > d.max {
                return Err(format!("rule {}: parameter {} = {} is outside {}..={}", self.id, d.name, d.show(v), d.show(d.min), d.show(d.max)));
            }
        }
        Ok(())
    }
}

/// The event an effect causes, if it can be hooked: an effect that causes the very event
/// its hook listens to would run forever (LOPTI-MAKE-4).
fn caused_event(e: &Effect) -> Option<HookEvent> {
    match e {
        Effect::Draw { .. } => Some(HookEvent::Draw),
        Effect::SwapOwn { .. } => Some(HookEvent::Swap),
        Effect::Clear => Some(HookEvent::Clear),
        _ => None,
    }
}

/// True if the effect may hand a card to the event's own player.
fn may_feed_actor(e: &Effect) -> bool {
    match *e {
        Effect::Draw { who, .. } => matches!(who, Role::Actor | Role::Everyone | Role::OnTurn),
        Effect::Give { who, to, .. } => matches!(
            (who, to),
            (Role::Previous, Direction::Next) | (Role::Next, Direction::Previous) | (Role::EveryOther | Role::Everyone, _)
        ),
        Effect::PassAll { .. } => true,
        _ => false,
    }
}

/// True if the effect hands a card to the event's own player by naming him.
fn feeds_actor_by_name(e: &Effect) -> bool {
    match *e {
        Effect::Draw { who, .. } => matches!(who, Role::Actor | Role::OnTurn),
        Effect::Give { who, to, .. } => matches!((who, to), (Role::Previous, Direction::Next) | (Role::Next, Direction::Previous)),
        _ => false,
    }
}

/// The roles an effect names.
fn effect_roles(e: &Effect) -> Option<Role> {
    match *e {
        Effect::Draw { who, .. } | Effect::Give { who, .. } | Effect::PassAll { who, .. } | Effect::SwapOwn { who } => Some(who),
        Effect::SkipDraw { who } | Effect::SkipTurn { who } => Some(who),
        _ => None,
    }
}

/// The amounts an effect or condition uses.
fn amounts_of_effect(e: &Effect) -> Vec<Amount> {
    match *e {
        Effect::Draw { cards, .. } | Effect::Give { cards, .. } => vec![cards],
        _ => vec![],
    }
}

fn amounts_of_cond(c: &Cond) -> Vec<Amount> {
    match *c {
        Cond::MinCount(a) => vec![a],
        Cond::EqualCounts { plays, min_cards } => vec![plays, min_cards],
        Cond::Straight { plays } => vec![plays],
        Cond::RankParam(i) => vec![Amount::Param(i)],
        _ => vec![],
    }
}

/// Events that have a card rank for a condition to read (`before` a draw or a reveal the
/// card is still hidden).
fn has_rank(when: When, ev: HookEvent) -> bool {
    match ev {
        HookEvent::Play | HookEvent::BonusPlay | HookEvent::Swap => true,
        HookEvent::Draw | HookEvent::FacedownReveal => when == When::After,
        _ => false,
    }
}

/// Checks a rule against LOPTI-MAKE-3..8 and LOPTI-MAKE-SIM-1 and against the
/// vocabulary's own limits. The error names the rule, the hook and the rule ID broken.
pub fn validate(def: &RuleDef) -> Result<(), String> {
    let id = def.id;
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
        return Err(format!("rule '{id}': the id must be lower-case letters, digits and '_'"));
    }
    if def.text.trim().is_empty() {
        return Err(format!("rule {id}: the rule must say what it does (LOPTI-MAKE-2: the complete rule is announced)"));
    }
    if def.params.len() > MAX_PARAMS {
        return Err(format!("rule {id}: at most {MAX_PARAMS} parameters"));
    }
    for (i, p) in def.params.iter().enumerate() {
        if def.params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("rule {id}: parameter {} is defined twice", p.name));
        }
        if p.min > p.max || p.default < p.min || p.default > p.max || (p.rank && p.max as usize >= RANKS) {
            return Err(format!("rule {id}: parameter {}: default {} is not within {}..={}", p.name, p.default, p.min, p.max));
        }
        if let Some(&a) = p.alternatives.iter().find(|&&a| a < p.min || a > p.max) {
            return Err(format!("rule {id}: parameter {}: alternative {a} is not within {}..={}", p.name, p.min, p.max));
        }
        if !p.rank && p.max > 4 && p.name == "cards" {
            return Err(format!("rule {id}: parameter cards: at most 4 cards at a time"));
        }
    }
    if def.hooks.is_empty() {
        return Err(format!("rule {id}: no hooks: a special rule adds actions before or after events (LOPTI-MAKE-SIM-1)"));
    }
    for (i, h) in def.hooks.iter().enumerate() {
        let at = format!("rule {id}: hook {} ({} {})", i + 1, h.when.name(), h.event.name());
        if h.effects.is_empty() {
            return Err(format!("{at}: no effect"));
        }
        if (h.when, h.event) == (When::Before, HookEvent::Deal) {
            return Err(format!("{at}: nothing has been dealt before DEAL, so there is nothing to add actions to (LOPTI-MAKE-SIM-1); hook after DEAL"));
        }
        if (h.when, h.event) == (When::After, HookEvent::RoundEnd) {
            return Err(format!("{at}: after ROUND_END the round is over; a rule may not reach back into it (LOPTI-MAKE-4: no retroactive rules)"));
        }
        for a in h.conds.iter().flat_map(amounts_of_cond).chain(h.effects.iter().flat_map(amounts_of_effect)) {
            if let Amount::Param(p) = a {
                if p as usize >= def.params.len() {
                    return Err(format!("{at}: refers to parameter {} but the rule has {}", p + 1, def.params.len()));
                }
            }
        }
        for c in h.conds {
            check_cond(&at, h, c)?;
        }
        for e in h.effects {
            check_effect(&at, h, e)?;
        }
    }
    Ok(())
}

fn check_cond(at: &str, h: &Hook, c: &Cond) -> Result<(), String> {
    let only = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("{at}: the condition '{what}' does not apply to {}", h.event.name())) };
    match *c {
        Cond::SeatIs(s) => Err(format!(
            "{at}: the condition names seat {s}: rules target conditions and roles, never a person (LOPTI-MAKE-5; LOPTI-MAKE-SIM-1: conditions never read seat identity as such)"
        )),
        Cond::ActorIsMaker | Cond::ActorIs(Role::Maker) => Err(format!(
            "{at}: the condition picks out the rule's maker, a person rather than a role (LOPTI-MAKE-5)"
        )),
        Cond::ActorIs(Role::Seat(s)) => Err(format!("{at}: the condition names seat {s}, a person rather than a role (LOPTI-MAKE-5)")),
        Cond::ActorIs(r) if !r.is_round_role() => {
            Err(format!("{at}: 'actor is {}' is always or never true; use dealer, last_winner, obligated or on_turn", r.name()))
        }
        Cond::ActorIs(_) => Ok(()),
        Cond::Rank(_) | Cond::RankParam(_) => {
            if matches!(h.event, HookEvent::Draw | HookEvent::FacedownReveal) && h.when == When::Before {
                Err(format!("{at}: the card is still hidden before {}: a condition may read only what the table can see (LOPTI-MAKE-SIM-1)", h.event.name()))
            } else {
                only(has_rank(h.when, h.event), "rank")
            }
        }
        Cond::MinCount(_) => only(
            matches!(h.event, HookEvent::Play | HookEvent::BonusPlay | HookEvent::Pickup | HookEvent::Clear | HookEvent::FaceupTakeover),
            "min_count",
        ),
        Cond::Cause(_) => only(h.event == HookEvent::Clear, "cause"),
        Cond::RevealLegal(_) => only(h.event == HookEvent::FacedownReveal && h.when == When::After, "reveal_legal"),
        Cond::DrawPileEmpty(_) => Ok(()),
        Cond::EqualCounts { .. } | Cond::Straight { .. } => only(
            matches!(h.event, HookEvent::Play | HookEvent::BonusPlay) && h.when == When::After,
            "a row of plays (after PLAY)",
        ),
        Cond::VotePassed(_) => only(h.event == HookEvent::RuleVote && h.when == When::After, "vote_passed"),
    }
}

fn check_effect(at: &str, h: &Hook, e: &Effect) -> Result<(), String> {
    match e {
        Effect::SkipDraw { .. } => {
            return Err(format!("{at}: skipping a draw prevents a basic event; a special rule may only add actions before or after basic events, never prevent or replace one (LOPTI-MAKE-3)"))
        }
        Effect::SkipTurn { .. } => {
            return Err(format!("{at}: skipping a turn prevents a basic event; a special rule may only add actions (LOPTI-MAKE-3)"))
        }
        Effect::ReturnPlay => return Err(format!("{at}: taking a play back replaces a basic event (LOPTI-MAKE-3)")),
        Effect::CancelClear => {
            return Err(format!("{at}: a special rule may add clear conditions but never stop a clear (LOPTI-MAKE-8, LOPTI-CLEAR-3)"))
        }
        Effect::CancelBonus => {
            return Err(format!("{at}: a special rule may never stop the clearing player's bonus play (LOPTI-MAKE-8, LOPTI-CLEAR-3)"))
        }
        Effect::CancelVote => {
            return Err(format!("{at}: a rule must not block voting (LOPTI-MAKE-4); no rule can change the voting procedure (LOPTI-VOTE-8)"))
        }
        Effect::ChangeVoting => {
            return Err(format!("{at}: neither the voting procedure nor Rock-Paper-Scissors can be changed by any rule or vote (LOPTI-VOTE-8)"))
        }
        Effect::Undo => {
            return Err(format!("{at}: a rule must not work retroactively (LOPTI-MAKE-4; LOPTI-MAKE-SIM-1: effects may not change past events)"))
        }
        Effect::Clear if (h.when, h.event) != (When::After, HookEvent::Play) && (h.when, h.event) != (When::After, HookEvent::BonusPlay) => {
            return Err(format!(
                "{at}: an added clear condition is checked after a play, and the player who made it gets the bonus play (LOPTI-MAKE-8, LOPTI-CLEAR-1); hook after PLAY"
            ))
        }
        _ => {}
    }
    match effect_roles(e) {
        Some(Role::Seat(s)) => return Err(format!("{at}: the effect names seat {s}: rules target roles, never a person (LOPTI-MAKE-5)")),
        Some(Role::Maker) => return Err(format!("{at}: the effect targets the rule's maker, a person rather than a role (LOPTI-MAKE-5)")),
        _ => {}
    }
    if caused_event(e) == Some(h.event) {
        return Err(format!(
            "{at}: the effect causes another {} event, which would set this hook off again without end (LOPTI-MAKE-4: no endless loops)",
            h.event.name()
        ));
    }
    if h.event == HookEvent::PlayerOut && feeds_actor_by_name(e) {
        return Err(format!("{at}: giving cards to the player who goes out would stop him going out (LOPTI-MAKE-4: a rule must not block winning)"));
    }
    if h.when == When::Before && matches!(h.event, HookEvent::FaceupTakeover | HookEvent::FacedownReveal) && may_feed_actor(e) {
        return Err(format!(
            "{at}: {} needs the player's empty hand; giving him cards just before it would replace that basic event (LOPTI-MAKE-3)",
            h.event.name()
        ));
    }
    if let Effect::Draw { cards, .. } | Effect::Give { cards, .. } = e {
        if *cards == Amount::Const(0) {
            return Err(format!("{at}: an effect of 0 cards does nothing"));
        }
    }
    Ok(())
}

/// The rules a session may draw on: the built-in catalog and any rules read from files,
/// each validated.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The rules, by index.
    pub rules: Vec<&'static RuleDef>,
}

impl Catalog {
    /// The built-in rules ([`catalog::BUILT_IN`]).
    pub fn built_in() -> Catalog {
        Catalog { rules: catalog::BUILT_IN.to_vec() }
    }
    /// Adds a rule after validating it; an id already in the catalog is an error.
    pub fn add(&mut self, def: &'static RuleDef) -> Result<(), String> {
        validate(def)?;
        if self.rules.iter().any(|r| r.id == def.id) {
            return Err(format!("rule {}: a rule with this id is already in the catalog", def.id));
        }
        if self.rules.len() >= u8::MAX as usize {
            return Err("too many rules in the catalog".into());
        }
        self.rules.push(def);
        Ok(())
    }
    /// The index of the rule `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.rules.iter().position(|r| r.id == id)
    }
}

/// A special rule in force in a session (LOPTI-MAKE-SIM-1 `id`, `maker_seat`, `created_round`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InForce {
    /// Index of the rule in the session's [`Catalog`].
    pub rule: u8,
    /// Its parameters (fixed while a round is played, LOPTI-MAKE-6).
    pub params: [u8; MAX_PARAMS],
    /// The seat of the player who made it (for the statistics; no condition may read it).
    pub maker: u8,
    /// The round after which it was made (it applies from the end of the next deal).
    pub created_round: u16,
    /// Number of the rule within the session (1, 2, ...), also for a rule that came back.
    pub serial: u16,
}

/// The special rules in force for one round and the round's roles.
#[derive(Clone, Debug)]
pub struct RuleBook {
    /// The session's catalog.
    pub catalog: std::sync::Arc<Catalog>,
    /// Rules in force, in the order they were made (their hooks act in this order).
    pub rules: arrayvec::ArrayVec<InForce, MAX_RULES>,
    /// The round's dealer.
    pub dealer: u8,
    /// The previous round's winner.
    pub last_winner: Option<u8>,
    /// Hook nesting limit (`lopti.hook_depth`).
    pub max_depth: u8,
}

impl RuleBook {
    /// No rules in force.
    pub fn empty(catalog: std::sync::Arc<Catalog>) -> RuleBook {
        RuleBook { catalog, rules: arrayvec::ArrayVec::new(), dealer: 0, last_winner: None, max_depth: DEFAULT_HOOK_DEPTH }
    }
    /// The definition of rule `r` in force.
    pub fn def(&self, r: &InForce) -> &'static RuleDef {
        self.catalog.rules[r.rule as usize]
    }
}

#[cfg(test)]
mod tests;
