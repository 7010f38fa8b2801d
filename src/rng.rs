//! Seed derivation and common random numbers (design notes section 3).
//!
//! Everything a match draws at random comes from one of three kinds of source, all
//! derived from the deal's seed through SplitMix64, so results never depend on thread
//! count, scheduling, or the order in which bots were listed:
//! - the **deal** (cards dealt, public random choices such as which middle card goes
//!   where, exact-tie breaks): [`MatchSeeds::deal_rng`] and [`MatchSeeds::chance_rng`];
//! - **hidden zones** (face-down cards revealed during play, draw piles):
//!   [`ChanceKey`], a stateless draw keyed by the deal, the zone and how many cards the
//!   zone still holds, so the k-th card turned from a zone is the same in every seating
//!   of the deal whatever happened elsewhere at the table;
//! - **players** (reaction times and a bot's own dice): one stream per seat,
//!   [`MatchSeeds::player_rng`], derived from the deal, the seat and the bot's rank
//!   among identical bots of the matchup (so two copies of one bot never share a
//!   stream, while the bot sitting in a seat inherits that seat's luck in every
//!   seating: the seat-swapped match replays the same cards *and* the same noise for
//!   the other bot).

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The one generator type used everywhere in simulations.
pub type SimRng = Pcg64Mcg;

/// Most seats a match may have (the runner's and the seeds' arrays): eight, for Nerts.
/// A game may set a lower limit of its own (Lopti: 5).
pub const MAX_SEATS: usize = 8;

/// SplitMix64 finaliser: a bijective mixing of 64 bits.
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Mixes a sequence of words into one seed, order-sensitive.
pub fn mix(words: &[u64]) -> u64 {
    words.iter().fold(0x6A09_E667_F3BC_C908, |acc, &w| splitmix64(acc ^ splitmix64(w)))
}

/// Seed of deal `deal` under master seed `master`. Every matchup and variant of an
/// experiment uses the same deals, so comparisons between them are paired.
pub fn deal_seed(master: u64, deal: u64) -> u64 {
    mix(&[master, deal])
}

/// A generator from a derived seed.
pub fn rng_from(seed: u64) -> SimRng {
    SimRng::seed_from_u64(seed)
}

/// Domain tags that keep the derived streams apart.
const TAG_DEAL: u64 = 0x6465_616C; // "deal"
const TAG_CHANCE: u64 = 0x6368_616E; // "chan"
const TAG_PLAYER: u64 = 0x706C_6179; // "play"
const TAG_HIDDEN: u64 = 0x6869_6464; // "hidd"
const TAG_BOT: u64 = 0x626F_7473; // "bots"

/// The seeds of one match: its deal, and one player stream per seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSeeds {
    /// Seed of the deal, common to every seating of the deal.
    pub deal: u64,
    /// Seed of each seat's player stream (reaction times, the bot's own dice).
    pub players: [u64; MAX_SEATS],
}

impl MatchSeeds {
    /// The seeds of deal `deal_seed` with, for each seat, the rank of the bot sitting
    /// there among the identical bots of the matchup (0 for a bot that has no twin).
    pub fn new(deal_seed: u64, twin_rank: &[usize]) -> MatchSeeds {
        let mut players = [0; MAX_SEATS];
        for (seat, (p, &rank)) in players.iter_mut().zip(twin_rank).enumerate() {
            *p = mix(&[deal_seed, TAG_PLAYER, seat as u64, rank as u64]);
        }
        MatchSeeds { deal: deal_seed, players }
    }
    /// The seeds of deal `deal_seed` when no two bots are identical (tests, tools).
    pub fn of_deal(deal_seed: u64) -> MatchSeeds {
        MatchSeeds::new(deal_seed, &[0; MAX_SEATS])
    }
    /// The generator that deals the cards (the same for every seating).
    pub fn deal_rng(&self) -> SimRng {
        rng_from(mix(&[self.deal, TAG_DEAL]))
    }
    /// A generator for public chance event `purpose` (e.g. a round number, or the
    /// engine's tie breaks), the same for every seating of the deal.
    pub fn chance_rng(&self, purpose: u64) -> SimRng {
        rng_from(mix(&[self.deal, TAG_CHANCE, purpose]))
    }
    /// Seat `seat`'s player stream.
    pub fn player_rng(&self, seat: usize) -> SimRng {
        rng_from(self.players[seat])
    }
    /// The seed an external bot in seat `seat` gets for its own dice (the bot protocol's
    /// `match_start`): derived from the seat's player stream without drawing from it, so
    /// the built-in bots' streams are untouched.
    pub fn bot_seed(&self, seat: usize) -> u64 {
        mix(&[self.players[seat], TAG_BOT])
    }
    /// The key of the deal's hidden zones.
    pub fn hidden(&self) -> ChanceKey {
        ChanceKey(mix(&[self.deal, TAG_HIDDEN]))
    }
}

/// Stateless, deal-keyed draws from hidden zones (the hidden-card trick of design notes
/// section 4 with common random numbers): which card is revealed depends only on the
/// key, the zone and the zone's remaining size, never on how many random numbers were
/// drawn elsewhere. A zone must only shrink between draws under one zone id (give a new
/// id, e.g. with a round number, when cards are added back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ChanceKey(pub u64);

impl ChanceKey {
    /// The key of a sub-zone, e.g. `key.zone(round).zone(seat)`.
    pub fn zone(self, id: u64) -> ChanceKey {
        ChanceKey(splitmix64(self.0 ^ splitmix64(id.wrapping_add(0x5A5A))))
    }
    /// A uniform index in `0..n` for the draw made when the zone holds `n` items.
    pub fn index(self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let h = splitmix64(self.0 ^ (n as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
        ((h as u128 * n as u128) >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_value() {
        // First output of SplitMix64 seeded with 0 (reference implementation by Vigna).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn derived_seeds_differ_by_every_component() {
        let base = deal_seed(1, 3);
        assert_ne!(base, deal_seed(2, 3));
        assert_ne!(base, deal_seed(1, 4));
        assert_eq!(base, deal_seed(1, 3));
        let s = MatchSeeds::new(base, &[0, 0]);
        assert_ne!(s.players[0], s.players[1], "seats have their own streams");
        let twin = MatchSeeds::new(base, &[0, 1]);
        assert_eq!(s.players[0], twin.players[0]);
        assert_ne!(s.players[1], twin.players[1], "a bot's twin gets another stream");
        assert_ne!(s.hidden().zone(0), s.hidden().zone(1));
    }

    #[test]
    fn chance_index_is_uniform_and_in_range() {
        let mut counts = [0u32; 7];
        for z in 0..70_000u64 {
            let i = ChanceKey(z).zone(3).index(7);
            counts[i as usize] += 1;
        }
        // Each cell expects 10,000; 5 standard deviations is about 480.
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
    }
}
