//! The Rule Vote (lopti.md §14): what may be proposed, how the ballots are counted
//! (LOPTI-VOTE-4, LOPTI-VOTE-9, LOPTI-AMB-10) and who plays Rock-Paper-Scissors when the
//! vote ties (LOPTI-RPS-1, LOPTI-AMB-20, LOPTI-AMB-21).

use super::{BasicFlag, SessionFlags};
use crate::games::lopti::special::MAX_PARAMS;
use crate::runner::MAX_SEATS;
use arrayvec::ArrayVec;

/// What a Rule Vote may change (LOPTI-VOTE-2, LOPTI-VOTE-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Remove the special rule in force with this serial.
    Remove {
        /// The rule's serial in the session.
        serial: u16,
    },
    /// Change the parameters of the special rule in force with this serial.
    Modify {
        /// The rule's serial.
        serial: u16,
        /// The new parameters.
        params: [u8; MAX_PARAMS],
    },
    /// Bring back a rule removed by an earlier vote of this session (LOPTI-VOTE-7: only
    /// through a vote), with its maker and last parameters.
    Restore {
        /// The serial it had.
        serial: u16,
    },
    /// Change a basic rule for the rest of the session: flip one `lopti.*` flag.
    Basic {
        /// The flag.
        flag: BasicFlag,
    },
}

impl Change {
    /// `remove`, `modify`, `restore` or `basic`.
    pub fn kind(self) -> &'static str {
        match self {
            Change::Remove { .. } => "remove",
            Change::Modify { .. } => "modify",
            Change::Restore { .. } => "restore",
            Change::Basic { .. } => "basic",
        }
    }
    /// True for a proposal about a special rule (LOPTI-RPS-1's first case).
    pub fn about_special_rule(self) -> bool {
        !matches!(self, Change::Basic { .. })
    }
}

/// The kinds of change, in CSV order.
pub const CHANGE_KINDS: [&str; 4] = ["remove", "modify", "restore", "basic"];

/// When a passed change takes effect (LOPTI-VOTE-6: the proposer says so before the vote).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// At once, for the rest of this round (never undoing card actions already made).
    AtOnce,
    /// From the next round.
    NextRound,
}

/// A proposal put to the Rule Vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proposal {
    /// The change.
    pub change: Change,
    /// When it takes effect.
    pub timing: Timing,
}

/// One participant's ballot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ballot {
    /// Yes.
    Yes,
    /// No (a formal opposition).
    No,
    /// Abstains (counts as not yes, LOPTI-VOTE-9).
    Abstain,
    /// Not present (counts as not yes, LOPTI-VOTE-9).
    Absent,
}

impl Ballot {
    /// `yes`, `no`, `abstain`, `absent`.
    pub fn name(self) -> &'static str {
        match self {
            Ballot::Yes => "yes",
            Ballot::No => "no",
            Ballot::Abstain => "abstain",
            Ballot::Absent => "absent",
        }
    }
}

/// The count of a Rule Vote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// More than half of all participants said yes.
    Pass,
    /// A tie: settled by Rock-Paper-Scissors (LOPTI-VOTE-5).
    Tie,
    /// Otherwise.
    Fail,
}

/// How a tie is counted (LOPTI-AMB-10, flag `lopti.vote_count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieReading {
    /// Yes-votes against all N participants: a tie is yes = N/2 (default).
    AllParticipants,
    /// A tie is as many yes as no among those voting (the other reading).
    AmongVoters,
}

/// Counts `ballots` (one per participant, LOPTI-VOTE-4): pass if yes > N/2; a tie if yes
/// = N/2 (or, under [`TieReading::AmongVoters`], yes = no); fail otherwise (LOPTI-VOTE-9).
pub fn count(ballots: &[Ballot], reading: TieReading) -> Count {
    let n = ballots.len();
    let yes = ballots.iter().filter(|&&b| b == Ballot::Yes).count();
    let no = ballots.iter().filter(|&&b| b == Ballot::No).count();
    if 2 * yes > n {
        Count::Pass
    } else if match reading {
        TieReading::AllParticipants => 2 * yes == n,
        TieReading::AmongVoters => yes == no && yes > 0,
    } {
        Count::Tie
    } else {
        Count::Fail
    }
}

/// Who settles a tie (LOPTI-RPS-1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The change passes without Rock-Paper-Scissors (nobody defends, LOPTI-RPS-1,
    /// LOPTI-AMB-20, LOPTI-AMB-21).
    PassesUnopposed,
    /// The change fails without Rock-Paper-Scissors (`lopti.unopposed_tie=fails`).
    FailsUnopposed,
    /// The proposer plays against the defending side: one defender, or several who
    /// cannot agree on one (then a knockout, LOPTI-RPS-4).
    Rps {
        /// The defending side.
        defenders: ArrayVec<u8, MAX_SEATS>,
    },
}

/// Who defends in a tie on `change` proposed by `proposer` (LOPTI-RPS-1):
/// - about a special rule: its maker, if present and not in favour; else the rule's
///   supporters (those who voted no) choose a defender among them; nobody willing: the
///   change passes. When the maker proposed the change to his own rule, his rule's other
///   supporters defend (LOPTI-AMB-21; `lopti.own_rule_tie=passes` lets it pass instead);
/// - about a basic rule: the first player who formally opposed it, clockwise from the
///   proposer; nobody: the change passes (LOPTI-AMB-20; `lopti.unopposed_tie=fails`: it fails).
pub fn tie_break(change: Change, maker: Option<u8>, proposer: u8, ballots: &[Ballot], flags: &SessionFlags) -> TieBreak {
    let n = ballots.len() as u8;
    let clockwise = (1..n).map(|k| (proposer + k) % n);
    let opposed: ArrayVec<u8, MAX_SEATS> = clockwise.clone().filter(|&s| ballots[s as usize] == Ballot::No).collect();
    if change.about_special_rule() {
        if let Some(m) = maker.filter(|&m| m != proposer && ballots[m as usize] != Ballot::Yes && ballots[m as usize] != Ballot::Absent) {
            return TieBreak::Rps { defenders: [m].into_iter().collect() };
        }
        if maker == Some(proposer) && !flags.own_rule_supporters_defend {
            return TieBreak::PassesUnopposed;
        }
        if opposed.is_empty() {
            return TieBreak::PassesUnopposed;
        }
        TieBreak::Rps { defenders: opposed }
    } else {
        match opposed.first() {
            Some(&first) => TieBreak::Rps { defenders: [first].into_iter().collect() },
            None if flags.unopposed_tie_passes => TieBreak::PassesUnopposed,
            None => TieBreak::FailsUnopposed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Ballot::{Abstain, Absent, No, Yes};

    #[test]
    fn counting_against_all_participants_lopti_ex_33_lopti_vote_9() {
        let all = TieReading::AllParticipants;
        assert_eq!(count(&[Yes, Yes, Yes, No, No], all), Count::Pass, "LOPTI-EX-33: 3 of 5 pass");
        assert_eq!(count(&[Yes, Yes, No, No, No], all), Count::Fail, "LOPTI-EX-33: 2 of 5 fail (the vote is used up)");
        assert_eq!(count(&[Yes, Yes, No, No], all), Count::Tie, "LOPTI-EX-33: 2 of 4 tie: RPS");
        assert_eq!(count(&[Yes, Yes, No, Absent], all), Count::Tie, "LOPTI-EX-33: one absent, 2 yes is still 4/2");
        assert_eq!(count(&[Yes, Yes, Abstain, Abstain], all), Count::Tie, "LOPTI-VOTE-9: abstentions count as not yes");
        assert_eq!(count(&[Yes, Abstain, Absent], all), Count::Fail, "LOPTI-VOTE-9: odd N never ties");
        assert_eq!(count(&[Yes, Yes, No], all), Count::Pass, "LOPTI-VOTE-4: more than half of all participants");
        let among = TieReading::AmongVoters;
        assert_eq!(count(&[Yes, Yes, No, Absent], among), Count::Fail, "LOPTI-AMB-10 (other reading): 2 yes 1 no fails");
        assert_eq!(count(&[Yes, No, Abstain, Abstain], among), Count::Tie);
        assert_eq!(count(&[Yes, Yes, Yes, No], among), Count::Pass);
    }

    fn flags() -> SessionFlags {
        SessionFlags::default()
    }

    #[test]
    fn who_defends_in_a_tie_lopti_rps_1() {
        let remove = Change::Remove { serial: 1 };
        // Proposer 0, maker 2 against: proposer vs maker.
        let b = [Yes, Yes, No, No];
        assert_eq!(tie_break(remove, Some(2), 0, &b, &flags()), TieBreak::Rps { defenders: [2].into_iter().collect() }, "LOPTI-RPS-1: the proposer against the maker");
        // The maker voted yes (he does not defend): the supporters (no-voters) choose.
        let b = [Yes, No, Yes, No];
        assert_eq!(tie_break(remove, Some(2), 0, &b, &flags()), TieBreak::Rps { defenders: [1, 3].into_iter().collect() }, "LOPTI-RPS-1: supporters choose a defender");
        // Maker absent, nobody defends: the change passes without RPS.
        let b = [Yes, Yes, Absent, Abstain];
        assert_eq!(tie_break(remove, Some(2), 0, &b, &flags()), TieBreak::PassesUnopposed, "LOPTI-RPS-1: nobody defends, it passes");
        // The maker proposes a change to his own rule: the other supporters defend (AMB-21).
        let b = [Yes, No, Yes, Abstain];
        assert_eq!(tie_break(Change::Modify { serial: 1, params: [2, 0, 0] }, Some(0), 0, &b, &flags()), TieBreak::Rps { defenders: [1].into_iter().collect() });
        let passes = SessionFlags { own_rule_supporters_defend: false, ..flags() };
        assert_eq!(tie_break(Change::Modify { serial: 1, params: [2, 0, 0] }, Some(0), 0, &b, &passes), TieBreak::PassesUnopposed);
        // A basic rule: the first to oppose formally, clockwise from the proposer.
        let basic = Change::Basic { flag: BasicFlag::SevenFree };
        let b = [No, Yes, Yes, No];
        assert_eq!(tie_break(basic, None, 1, &b, &flags()), TieBreak::Rps { defenders: [3].into_iter().collect() }, "LOPTI-RPS-1: the first player who formally opposed it");
        let b = [Abstain, Yes, Yes, Abstain];
        assert_eq!(tie_break(basic, None, 1, &b, &flags()), TieBreak::PassesUnopposed, "LOPTI-AMB-20");
        let fails = SessionFlags { unopposed_tie_passes: false, ..flags() };
        assert_eq!(tie_break(basic, None, 1, &b, &fails), TieBreak::FailsUnopposed);
    }
}
