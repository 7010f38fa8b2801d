//! Special rules written in TOML (`cardsim session lopti --rules FILE`), checked by the
//! same [`validate`](super::validate) as the built-in ones: a rule that breaks
//! LOPTI-MAKE-3..8 is rejected when it is loaded, with a one-line error naming the file,
//! the rule, the hook and the rule ID.
//!
//! ```toml
//! [[rule]]
//! id = "ace_tax"
//! text = "After an ace, the next player draws one card."
//! [[rule.param]]
//! name = "cards"
//! default = 1
//! min = 1
//! max = 3
//! [[rule.hook]]
//! when = "after"
//! event = "PLAY"
//! if = [{ rank = ["A"] }]
//! do = [{ draw = { who = "next", cards = "cards" } }]
//! ```
//! The vocabulary is in `docs/lopti-sessions.md`.

use super::{Amount, Cond, Direction, Effect, Hook, ParamDef, RankSet, Role, RuleDef};
use crate::games::lopti::events::{HookEvent, When};
use crate::games::lopti::ranks::{parse_rank, Rank};
use crate::games::lopti::rules::ClearCause;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRoot {
    rule: Vec<FileRule>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRule {
    id: String,
    text: String,
    #[serde(default)]
    param: Vec<FileParam>,
    #[serde(default)]
    hook: Vec<FileHook>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileParam {
    name: String,
    default: FileNum,
    min: FileNum,
    max: FileNum,
    #[serde(default)]
    rank: bool,
    #[serde(default)]
    alternatives: Vec<FileNum>,
    #[serde(default)]
    doc: String,
}

/// A number, or a rank name for rank parameters.
#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum FileNum {
    Int(u8),
    Name(String),
}

/// A number or the name of one of the rule's parameters.
#[derive(Deserialize, Clone)]
#[serde(untagged)]
enum FileAmount {
    Int(u8),
    Param(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileHook {
    when: When,
    event: HookEvent,
    #[serde(default, rename = "if")]
    conds: Vec<FileCond>,
    #[serde(rename = "do")]
    effects: Vec<FileEffect>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum FileCond {
    Rank(Vec<FileNum>),
    RankParam(String),
    MinCount(FileAmount),
    Cause(String),
    RevealLegal(bool),
    DrawPileEmpty(bool),
    ActorIs(Role),
    EqualCounts { plays: FileAmount, min_cards: FileAmount },
    Straight { plays: FileAmount },
    VotePassed(bool),
    SeatIs(u8),
    ActorIsMaker(bool),
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum FileEffect {
    Draw { who: Role, cards: FileAmount },
    Give { who: Role, to: Direction, cards: FileAmount },
    PassAll { who: Role, dir: Direction },
    SwapOwn { who: Role },
    Clear(bool),
    SkipDraw { who: Role },
    SkipTurn { who: Role },
    ReturnPlay(bool),
    CancelClear(bool),
    CancelBonus(bool),
    CancelVote(bool),
    ChangeVoting(bool),
    Undo(bool),
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn rank_of(v: &FileNum) -> Result<Rank, String> {
    match v {
        FileNum::Name(s) => parse_rank(s).ok_or_else(|| format!("'{s}' is not a rank (2..10, J, Q, K, A)")),
        FileNum::Int(n) => parse_rank(&n.to_string()).ok_or_else(|| format!("{n} is not a rank (2..10, J, Q, K, A)")),
    }
}

fn number(v: &FileNum, rank: bool) -> Result<u8, String> {
    match (v, rank) {
        (_, true) => rank_of(v),
        (FileNum::Int(n), false) => Ok(*n),
        (FileNum::Name(s), false) => Err(format!("'{s}' is not a number")),
    }
}

fn amount(a: &FileAmount, params: &[ParamDef]) -> Result<Amount, String> {
    match a {
        FileAmount::Int(n) => Ok(Amount::Const(*n)),
        FileAmount::Param(name) => params
            .iter()
            .position(|p| p.name == name)
            .map(|i| Amount::Param(i as u8))
            .ok_or_else(|| format!("no parameter named '{name}'")),
    }
}

fn cause(s: &str) -> Result<ClearCause, String> {
    [ClearCause::Ten, ClearCause::FourOfAKind, ClearCause::ThreeRun, ClearCause::SpecialRule]
        .into_iter()
        .find(|c| c.name() == s)
        .ok_or_else(|| format!("unknown clear cause '{s}' (ten, four_of_a_kind, three_run, special_rule)"))
}

fn cond(c: &FileCond, params: &[ParamDef]) -> Result<Cond, String> {
    Ok(match c {
        FileCond::Rank(ranks) => {
            let mut set = 0u16;
            for r in ranks {
                set |= 1 << rank_of(r)?;
            }
            Cond::Rank(RankSet(set))
        }
        FileCond::RankParam(name) => match amount(&FileAmount::Param(name.clone()), params)? {
            Amount::Param(i) if params[i as usize].rank => Cond::RankParam(i),
            _ => return Err(format!("parameter '{name}' is not a rank parameter (rank = true)")),
        },
        FileCond::MinCount(a) => Cond::MinCount(amount(a, params)?),
        FileCond::Cause(s) => Cond::Cause(cause(s)?),
        FileCond::RevealLegal(b) => Cond::RevealLegal(*b),
        FileCond::DrawPileEmpty(b) => Cond::DrawPileEmpty(*b),
        FileCond::ActorIs(r) => Cond::ActorIs(*r),
        FileCond::EqualCounts { plays, min_cards } => Cond::EqualCounts { plays: amount(plays, params)?, min_cards: amount(min_cards, params)? },
        FileCond::Straight { plays } => Cond::Straight { plays: amount(plays, params)? },
        FileCond::VotePassed(b) => Cond::VotePassed(*b),
        FileCond::SeatIs(s) => Cond::SeatIs(*s),
        FileCond::ActorIsMaker(b) => {
            marker(*b, "actor_is_maker")?;
            Cond::ActorIsMaker
        }
    })
}

/// A `key = true` marker; `false` would mean nothing.
fn marker(b: bool, key: &str) -> Result<(), String> {
    if b { Ok(()) } else { Err(format!("{key} = false means nothing; leave it out")) }
}

fn effect(e: &FileEffect, params: &[ParamDef]) -> Result<Effect, String> {
    Ok(match e {
        FileEffect::Draw { who, cards } => Effect::Draw { who: *who, cards: amount(cards, params)? },
        FileEffect::Give { who, to, cards } => Effect::Give { who: *who, to: *to, cards: amount(cards, params)? },
        FileEffect::PassAll { who, dir } => Effect::PassAll { who: *who, dir: *dir },
        FileEffect::SwapOwn { who } => Effect::SwapOwn { who: *who },
        FileEffect::Clear(b) => {
            marker(*b, "clear")?;
            Effect::Clear
        }
        FileEffect::SkipDraw { who } => Effect::SkipDraw { who: *who },
        FileEffect::SkipTurn { who } => Effect::SkipTurn { who: *who },
        FileEffect::ReturnPlay(b) => {
            marker(*b, "return_play")?;
            Effect::ReturnPlay
        }
        FileEffect::CancelClear(b) => {
            marker(*b, "cancel_clear")?;
            Effect::CancelClear
        }
        FileEffect::CancelBonus(b) => {
            marker(*b, "cancel_bonus")?;
            Effect::CancelBonus
        }
        FileEffect::CancelVote(b) => {
            marker(*b, "cancel_vote")?;
            Effect::CancelVote
        }
        FileEffect::ChangeVoting(b) => {
            marker(*b, "change_voting")?;
            Effect::ChangeVoting
        }
        FileEffect::Undo(b) => {
            marker(*b, "undo")?;
            Effect::Undo
        }
    })
}

fn convert(r: FileRule) -> Result<RuleDef, String> {
    let at = |e: String| format!("rule {}: {e}", r.id);
    let mut params = Vec::new();
    for p in &r.param {
        let at_p = |e: String| at(format!("parameter {}: {e}", p.name));
        params.push(ParamDef {
            name: leak_str(p.name.clone()),
            default: number(&p.default, p.rank).map_err(at_p)?,
            min: number(&p.min, p.rank).map_err(at_p)?,
            max: number(&p.max, p.rank).map_err(at_p)?,
            rank: p.rank,
            alternatives: leak(p.alternatives.iter().map(|a| number(a, p.rank)).collect::<Result<Vec<_>, _>>().map_err(at_p)?),
            doc: leak_str(p.doc.clone()),
        });
    }
    let mut hooks = Vec::new();
    for (i, h) in r.hook.iter().enumerate() {
        let at_h = |e: String| at(format!("hook {}: {e}", i + 1));
        let conds = h.conds.iter().map(|c| cond(c, &params)).collect::<Result<Vec<_>, _>>().map_err(at_h)?;
        let effects = h.effects.iter().map(|e| effect(e, &params)).collect::<Result<Vec<_>, _>>().map_err(at_h)?;
        hooks.push(Hook { when: h.when, event: h.event, conds: leak(conds), effects: leak(effects) });
    }
    Ok(RuleDef { id: leak_str(r.id), text: leak_str(r.text), params: leak(params), hooks: leak(hooks) })
}

/// Reads the rules of a TOML file and validates each ([`super::validate`]). The rules
/// live for the rest of the program (a command reads its files once).
pub fn load(path: &Path) -> Result<Vec<&'static RuleDef>, String> {
    let root: FileRoot = crate::tomlfile::read(path)?;
    parse_rules(root).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads rules from TOML text (tests and tools); errors as [`load`]'s, without the file name.
pub fn parse(text: &str) -> Result<Vec<&'static RuleDef>, String> {
    let root: FileRoot = toml::from_str(text).map_err(|e| e.message().trim().replace('\n', " "))?;
    parse_rules(root)
}

fn parse_rules(root: FileRoot) -> Result<Vec<&'static RuleDef>, String> {
    let mut out = Vec::new();
    for r in root.rule {
        let def: &'static RuleDef = Box::leak(Box::new(convert(r)?));
        super::validate(def)?;
        out.push(def);
    }
    Ok(out)
}
