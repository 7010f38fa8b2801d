//! Random deals with random flags at 2, 4, 6 and 8 players, on the [`Sim`] event loop:
//! every player picks uniformly among his legal actions, actions land after random
//! delays (races, exact ties and tie windows happen), partners' locks, stalls, resets
//! and the call are handled as the engine will. The invariants (NERTS-INV-1..9) are
//! checked after every event, and every deal must end (NERTS-STUCK-5) or reach the cap.

use super::*;
use crate::games::nerts::config::seconds_to_micros;
use crate::games::nerts::config::{JokerIdentity, PartnershipMode, Partnerships, RotateWhen, ShortPacket, SlipSources, TiePolicy, TIE_WINDOWS};
use crate::games::nerts::rules::{seat_scores, DealEnd, NERTS_MAX_ACTIONS};
use crate::rng::{rng_from, MatchSeeds};

/// Flags drawn at random, each value equally likely.
pub(super) fn random_cfg(rng: &mut SimRng) -> NertsConfig {
    let mut pick = |n: usize| rng.random_range(0..n);
    NertsConfig {
        flip_count: [3, 1][pick(2)],
        short_packet: [ShortPacket::Merge, ShortPacket::Flip][pick(2)],
        rotate_when: [RotateWhen::StuckOnly, RotateWhen::AnyTime][pick(2)],
        global_reset_rotate: pick(2) == 0,
        max_global_resets: [None, Some(1)][pick(2)],
        tie_window: seconds_to_micros(TIE_WINDOWS[pick(TIE_WINDOWS.len())]),
        tie_policy: [TiePolicy::BothKeep, TiePolicy::FirstOnly][pick(2)],
        slip_under_sources: [SlipSources::WasteAndNerts, SlipSources::WasteOnly][pick(2)],
        partial_stack_moves: pick(2) == 0,
        jokers_per_deck: pick(3) as u8,
        joker_identity: [JokerIdentity::Permanent, JokerIdentity::UntilUncovered][pick(2)],
        partnerships: [Partnerships::Auto, Partnerships::None, Partnerships::Pairs][pick(3)],
        partnership_mode: [PartnershipMode::SharedLayout, PartnershipMode::SeparateLayoutsSummed][pick(2)],
        ..NertsConfig::default()
    }
}

/// Counters over many deals.
#[derive(Debug, Default)]
struct Tally {
    deals: u32,
    shared: u32,
    capped: u32,
    capped_shared: u32,
    called: u32,
    stuck_after_reset: u32,
    reset_limit: u32,
    resets: u64,
    landed: u64,
    rejected: u64,
    ties: u64,
    checks: u64,
    max_legal: usize,
    not_stuck_proofs: u64,
    standard_checks: u64,
    teams: u32,
    jokers: u32,
}

/// Plays `deals` random deals at `n` players and checks how each one ended.
fn play_many(n: usize, deals: u32, cap: u64) -> Tally {
    let mut t = Tally::default();
    let mut flags = rng_from(1000 + n as u64);
    for g in 0..deals {
        let cfg = random_cfg(&mut flags);
        let r = NertsRules::new(cfg);
        let s = NertsState::deal_of_match(&cfg, n, &MatchSeeds::of_deal(g as u64 * 16 + n as u64), 1);
        let mut sim = Sim::new(r, s);
        sim.chk.dealt(&s).unwrap();
        let mut rng = rng_from(g as u64 ^ 0x5EED ^ (n as u64) << 40);
        let ended = sim.run_random(&mut rng, cap);
        t.deals += 1;
        t.resets += sim.resets as u64;
        t.landed += sim.landed;
        t.rejected += sim.rejected;
        t.ties += sim.ties;
        t.checks += sim.chk.checks;
        t.max_legal = t.max_legal.max(sim.max_legal);
        t.not_stuck_proofs += sim.not_stuck_proofs;
        t.standard_checks += sim.standard_checks;
        t.teams += (s.teams < s.players) as u32;
        t.jokers += (cfg.jokers_per_deck > 0) as u32;
        let shared = s.n_layouts < s.players;
        t.shared += shared as u32;
        match ended {
            Ended::Capped if shared => t.capped_shared += 1,
            Ended::Capped => t.capped += 1,
            Ended::Deal => {
                assert!(sim.hands.iter().all(|h| *h == Hand::Idle), "NERTS-RT-8: every card in mid-air landed before scoring");
                let scores = seat_scores(&sim.s);
                for p in 0..n {
                    let q = (0..n).find(|&q| sim.s.team_of_seat(q) == sim.s.team_of_seat(p)).unwrap();
                    assert_eq!(scores[p], scores[q], "NERTS-PART-2: partners share a score");
                }
                match r.deal_end(&sim.s).expect("a deal that ended has a reason") {
                    DealEnd::Called(p) => {
                        t.called += 1;
                        assert_eq!(sim.s.layout(p).nerts_len, 0, "NERTS-END-1: seat {p} called with Nerts cards left");
                    }
                    DealEnd::StuckAfterReset => {
                        t.stuck_after_reset += 1;
                        assert!(sim.resets > 0 && !sim.s.progress_since_reset, "NERTS-STUCK-5: the end needs a reset and no progress since");
                        assert!((0..n).all(|p| r.stuck(&sim.s, p)), "NERTS-END-2: everyone is stuck at the end");
                    }
                    DealEnd::ResetLimit => {
                        t.reset_limit += 1;
                        assert_eq!(cfg.max_global_resets, Some(1));
                        assert!((0..n).all(|p| r.stuck(&sim.s, p)), "NERTS-END-2: everyone is stuck at the end");
                    }
                }
            }
        }
    }
    t
}

#[test]
fn random_deals_keep_every_invariant_and_end_at_2_4_6_8_players() {
    let mut all = Tally::default();
    for (n, deals) in [(2, 2000), (4, 1500), (6, 1000), (8, 800)] {
        let t = play_many(n, deals, 20_000);
        eprintln!("{n} players: {t:?}");
        assert!(t.checks > t.landed, "{n} players: invariants checked after every event");
        assert_eq!(t.capped, 0, "NERTS-STUCK-5: {n} players: random deals without a shared layout always end");
        // Two random partners on one layout can block each other for good: whenever one
        // decides, the other's aimless stack move holds the pile his progress needs
        // (NERTS-PART-3). The layout is not stuck, so no reset comes; the cap ends it.
        assert!(t.capped_shared * 20 <= t.shared.max(1), "{n} players: {} of {} shared-layout deals capped", t.capped_shared, t.shared);
        assert!(t.rejected > 0 && t.ties > 0, "NERTS-RT-5, NERTS-RT-6: races are lost and tied at {n} players");
        assert!(t.jokers > 0 && (n < 4 || t.teams > 0), "random flags include Jokers and partnerships");
        assert!(t.called > 0 && t.max_legal <= NERTS_MAX_ACTIONS);
        assert!(t.standard_checks > 10_000, "{n} players: the standard-card list was compared with the general one {} times", t.standard_checks);
        assert!(t.not_stuck_proofs > 100, "the legal list's proof of not being stuck was checked {} times", t.not_stuck_proofs);
        all.stuck_after_reset += t.stuck_after_reset;
        all.reset_limit += t.reset_limit;
        all.resets += t.resets;
    }
    assert!(all.stuck_after_reset > 0 && all.reset_limit > 0 && all.resets > 0, "deals also end by NERTS-STUCK-5: {all:?}");
}
