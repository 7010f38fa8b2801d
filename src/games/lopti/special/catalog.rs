//! The built-in special rules: rules a real table might make, each a plugin of hooks
//! (LOPTI-MAKE-SIM-1), and examples of rules the engine rejects.
//!
//! Rules a program cannot play (say a word, make a gesture, talk in a voice) are not in
//! the catalog: every effect here is a card action the engine can carry out.

use super::{Amount, Cond, Direction, Effect, Hook, ParamDef, RankSet, Role, RuleDef};
use crate::games::lopti::events::{HookEvent as E, When};
use crate::games::lopti::ranks::{SEVEN, TEN, TWO};
use crate::games::lopti::rules::ClearCause;

const fn cards(doc: &'static str) -> ParamDef {
    ParamDef { name: "cards", default: 1, min: 1, max: 3, rank: false, alternatives: &[1, 2], doc }
}

const P0: Amount = Amount::Param(0);
const P1: Amount = Amount::Param(1);

/// After a clear, the clearer gives hand cards to the next player.
pub static CLEAR_GIFT: RuleDef = RuleDef {
    id: "clear_gift",
    text: "After a clear, the player who cleared gives one hand card of its choice to the next player.",
    params: &[cards("cards given")],
    hooks: &[Hook { when: When::After, event: E::Clear, conds: &[], effects: &[Effect::Give { who: Role::Actor, to: Direction::Next, cards: P0 }] }],
};

/// After a pick-up, the taker draws more.
pub static PICKUP_EXTRA_DRAW: RuleDef = RuleDef {
    id: "pickup_extra_draw",
    text: "After a pick-up, the player who took the pile draws one more card if any are left.",
    params: &[cards("cards drawn")],
    hooks: &[Hook { when: When::After, event: E::Pickup, conds: &[], effects: &[Effect::Draw { who: Role::Actor, cards: P0 }] }],
};

/// After a 2, its player may swap a hand card for a face-up card.
pub static TWO_SWAP: RuleDef = RuleDef {
    id: "two_swap",
    text: "After a 2, its player may swap one hand card with one of its own face-up cards.",
    params: &[ParamDef { name: "rank", default: TWO, min: 0, max: 12, rank: true, alternatives: &[TWO, SEVEN], doc: "the rank whose play allows the swap" }],
    hooks: &[Hook { when: When::After, event: E::Play, conds: &[Cond::RankParam(0)], effects: &[Effect::SwapOwn { who: Role::Actor }] }],
};

/// After a four-of-a-kind clear, the next player draws.
pub static QUAD_PUNISH: RuleDef = RuleDef {
    id: "quad_punish",
    text: "After a four-of-a-kind clear, the next player draws one card.",
    params: &[cards("cards drawn")],
    hooks: &[Hook {
        when: When::After,
        event: E::Clear,
        conds: &[Cond::Cause(ClearCause::FourOfAKind)],
        effects: &[Effect::Draw { who: Role::Next, cards: P0 }],
    }],
};

/// A face-up takeover makes everyone else draw.
pub static TAKEOVER_TAX: RuleDef = RuleDef {
    id: "takeover_tax",
    text: "When a player takes its face-up cards into hand, every other player draws one card.",
    params: &[cards("cards each other player draws")],
    hooks: &[Hook { when: When::After, event: E::FaceupTakeover, conds: &[], effects: &[Effect::Draw { who: Role::EveryOther, cards: P0 }] }],
};

/// Three plays in a row with the same number of cards clear the pile.
pub static EQUAL_CLEAR: RuleDef = RuleDef {
    id: "equal_clear",
    text: "Three equal plays in a row (the same number of cards, at least two each, one play after another) clear the pile; the player of the third gets the bonus play.",
    params: &[
        ParamDef { name: "plays", default: 3, min: 2, max: 4, rank: false, alternatives: &[3, 4], doc: "plays in the row" },
        ParamDef { name: "min_cards", default: 2, min: 1, max: 3, rank: false, alternatives: &[1, 2], doc: "cards each play has at least" },
    ],
    hooks: &[Hook { when: When::After, event: E::Play, conds: &[Cond::EqualCounts { plays: P0, min_cards: P1 }], effects: &[Effect::Clear] }],
};

/// Three plays rising one rank at a time clear the pile.
pub static STRAIGHT_CLEAR: RuleDef = RuleDef {
    id: "straight_clear",
    text: "Three plays in a row that rise one rank at a time (e.g. 4, 5, 6) clear the pile; the player of the last gets the bonus play.",
    params: &[ParamDef { name: "plays", default: 3, min: 2, max: 5, rank: false, alternatives: &[3, 4], doc: "plays in the row" }],
    hooks: &[Hook { when: When::After, event: E::Play, conds: &[Cond::Straight { plays: P0 }], effects: &[Effect::Clear] }],
};

/// When a player goes out, the others pass a card to the left.
pub static OUT_PASS_LEFT: RuleDef = RuleDef {
    id: "out_pass_left",
    text: "When a player goes out, every remaining player passes one hand card of its choice to the left (the next player clockwise).",
    params: &[],
    hooks: &[Hook { when: When::After, event: E::PlayerOut, conds: &[], effects: &[Effect::PassAll { who: Role::Everyone, dir: Direction::Next }] }],
};

/// The dealer draws before each of its turns.
pub static DEALER_DRAW: RuleDef = RuleDef {
    id: "dealer_draw",
    text: "Before each of the dealer's turns, the dealer draws one card if any are left.",
    params: &[cards("cards drawn")],
    hooks: &[Hook {
        when: When::Before,
        event: E::TurnStart,
        conds: &[Cond::ActorIs(Role::Dealer)],
        effects: &[Effect::Draw { who: Role::Actor, cards: P0 }],
    }],
};

/// A face-down 10 makes everyone else draw.
pub static REVEAL_TAX: RuleDef = RuleDef {
    id: "reveal_tax",
    text: "When a face-down card is turned over and it is a 10, every other player draws one card.",
    params: &[ParamDef { name: "rank", default: TEN, min: 0, max: 12, rank: true, alternatives: &[TEN, TWO], doc: "the rank that taxes the table" }],
    hooks: &[Hook {
        when: When::After,
        event: E::FacedownReveal,
        conds: &[Cond::RankParam(0)],
        effects: &[Effect::Draw { who: Role::EveryOther, cards: Amount::Const(1) }],
    }],
};

/// Whoever draws the last card gives one away.
pub static LAST_CARD_GIFT: RuleDef = RuleDef {
    id: "last_card_gift",
    text: "The player who draws the last card of the draw pile gives one hand card of its choice to the next player.",
    params: &[],
    hooks: &[Hook {
        when: When::After,
        event: E::Draw,
        conds: &[Cond::DrawPileEmpty(true)],
        effects: &[Effect::Give { who: Role::Actor, to: Direction::Next, cards: Amount::Const(1) }],
    }],
};

/// A swap costs a card.
pub static SWAP_FEE: RuleDef = RuleDef {
    id: "swap_fee",
    text: "A player who swaps a hand card with a face-up card draws one card.",
    params: &[cards("cards drawn")],
    hooks: &[Hook { when: When::After, event: E::Swap, conds: &[], effects: &[Effect::Draw { who: Role::Actor, cards: P0 }] }],
};

/// The last winner starts with a card more.
pub static WINNER_HANDICAP: RuleDef = RuleDef {
    id: "winner_handicap",
    text: "After the deal, the winner of the previous round draws one card.",
    params: &[cards("cards drawn")],
    hooks: &[Hook {
        when: When::After,
        event: E::Deal,
        conds: &[Cond::ActorIs(Role::LastWinner)],
        effects: &[Effect::Draw { who: Role::Actor, cards: P0 }],
    }],
};

/// A failed proposal costs its proposer a card.
pub static FAILED_VOTE_DRAW: RuleDef = RuleDef {
    id: "failed_vote_draw",
    text: "The player who proposed a Rule Vote that does not pass draws one card.",
    params: &[cards("cards drawn")],
    hooks: &[Hook {
        when: When::After,
        event: E::RuleVote,
        conds: &[Cond::VotePassed(false)],
        effects: &[Effect::Draw { who: Role::Actor, cards: P0 }],
    }],
};

/// Before a big pick-up, the player before draws.
pub static BIG_PICKUP_SHARED: RuleDef = RuleDef {
    id: "big_pickup_shared",
    text: "Before a player takes a pile of six or more cards, the player before him draws one card.",
    params: &[ParamDef { name: "pile", default: 6, min: 2, max: 20, rank: false, alternatives: &[6, 10], doc: "smallest pile that counts" }],
    hooks: &[Hook {
        when: When::Before,
        event: E::Pickup,
        conds: &[Cond::MinCount(P0)],
        effects: &[Effect::Draw { who: Role::Previous, cards: Amount::Const(1) }],
    }],
};

/// After a bonus play, its player may swap a hand card for a face-up card.
pub static BONUS_SWAP: RuleDef = RuleDef {
    id: "bonus_swap",
    text: "After a bonus play, its player may swap one hand card with one of its own face-up cards.",
    params: &[],
    hooks: &[Hook { when: When::After, event: E::BonusPlay, conds: &[], effects: &[Effect::SwapOwn { who: Role::Actor }] }],
};

/// Every built-in rule, in the order `cardsim session lopti --list-rules` shows them.
pub static BUILT_IN: [&RuleDef; 16] = [
    &CLEAR_GIFT,
    &PICKUP_EXTRA_DRAW,
    &TWO_SWAP,
    &QUAD_PUNISH,
    &TAKEOVER_TAX,
    &EQUAL_CLEAR,
    &STRAIGHT_CLEAR,
    &OUT_PASS_LEFT,
    &DEALER_DRAW,
    &REVEAL_TAX,
    &LAST_CARD_GIFT,
    &SWAP_FEE,
    &WINNER_HANDICAP,
    &FAILED_VOTE_DRAW,
    &BIG_PICKUP_SHARED,
    &BONUS_SWAP,
];

/// "An 8 makes the next player skip its draw": stops a basic event (rejected, LOPTI-MAKE-3).
pub static EIGHT_SKIPS_DRAW: RuleDef = RuleDef {
    id: "eight_skips_draw",
    text: "An 8 makes the next player skip its draw.",
    params: &[],
    hooks: &[Hook {
        when: When::After,
        event: E::Play,
        conds: &[Cond::Rank(RankSet(1 << 6))],
        effects: &[Effect::SkipDraw { who: Role::Next }],
    }],
};

/// Rules a table might propose that the engine rejects, with the rule ID each breaks.
pub static REJECTED: [(&RuleDef, &str); 9] = [
    (&EIGHT_SKIPS_DRAW, "LOPTI-MAKE-3"),
    (
        &RuleDef {
            id: "ace_skips_turn",
            text: "After an ace, the next player skips its turn.",
            params: &[],
            hooks: &[Hook { when: When::After, event: E::Play, conds: &[Cond::Rank(RankSet(1 << 12))], effects: &[Effect::SkipTurn { who: Role::Next }] }],
        },
        "LOPTI-MAKE-3",
    ),
    (
        &RuleDef {
            id: "no_bonus_after_ten",
            text: "A clear by a 10 gives no bonus play.",
            params: &[],
            hooks: &[Hook { when: When::After, event: E::Clear, conds: &[Cond::Cause(ClearCause::Ten)], effects: &[Effect::CancelBonus] }],
        },
        "LOPTI-MAKE-8",
    ),
    (
        &RuleDef {
            id: "sevens_block_clears",
            text: "A 7 under the pile stops any clear.",
            params: &[],
            hooks: &[Hook { when: When::Before, event: E::Clear, conds: &[], effects: &[Effect::CancelClear] }],
        },
        "LOPTI-MAKE-8",
    ),
    (
        &RuleDef {
            id: "dealer_vetoes_votes",
            text: "The dealer may cancel the Rule Vote.",
            params: &[],
            hooks: &[Hook { when: When::Before, event: E::RuleVote, conds: &[], effects: &[Effect::CancelVote] }],
        },
        "LOPTI-MAKE-4",
    ),
    (
        &RuleDef {
            id: "seat_two_draws",
            text: "The player in seat 2 draws after every clear.",
            params: &[],
            hooks: &[Hook { when: When::After, event: E::Clear, conds: &[], effects: &[Effect::Draw { who: Role::Seat(2), cards: Amount::Const(1) }] }],
        },
        "LOPTI-MAKE-5",
    ),
    (
        &RuleDef {
            id: "maker_immunity",
            text: "The rule's maker never draws after a pick-up of someone else's 7.",
            params: &[],
            hooks: &[Hook { when: When::After, event: E::Pickup, conds: &[Cond::ActorIsMaker], effects: &[Effect::Draw { who: Role::Next, cards: Amount::Const(1) }] }],
        },
        "LOPTI-MAKE-5",
    ),
    (
        &RuleDef {
            id: "draw_chain",
            text: "Whoever draws a card draws another.",
            params: &[],
            hooks: &[Hook { when: When::After, event: E::Draw, conds: &[], effects: &[Effect::Draw { who: Role::Actor, cards: Amount::Const(1) }] }],
        },
        "LOPTI-MAKE-4",
    ),
    (
        &RuleDef {
            id: "winner_keeps_playing",
            text: "A player who goes out draws a card and plays on.",
            params: &[],
            hooks: &[Hook { when: When::Before, event: E::PlayerOut, conds: &[], effects: &[Effect::Draw { who: Role::Actor, cards: Amount::Const(1) }] }],
        },
        "LOPTI-MAKE-4",
    ),
];
