//! The histogram against independent computations: hand-computed moments, sorted
//! vectors of random values (exact nearest-rank percentiles), merges in every order,
//! and tampered saved forms.

use super::*;
use crate::rng::rng_from;
use rand::RngExt;

/// Nearest-rank percentile of a sorted, non-empty slice (the definition, computed
/// directly).
fn exact_percentile(sorted: &[u64], p: f64) -> u64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

fn filled(values: &[u64]) -> Histogram {
    let mut h = Histogram::new();
    values.iter().for_each(|&v| h.add(v));
    h
}

#[test]
fn hand_computed_moments_and_percentiles() {
    let h = filled(&[2, 4, 4, 4, 5, 5, 7, 9]);
    assert_eq!(h.count(), 8);
    assert_eq!(h.mean(), 5.0);
    // Σ(x−5)² = 9+1+1+1+0+0+4+16 = 32; 32/7 = 4.571428...
    assert!((h.sd() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    assert_eq!(h.percentile(50.0), 4); // rank 4 of 8
    assert_eq!(h.percentile(90.0), 9); // rank ceil(7.2) = 8
    assert_eq!(h.percentile(62.5), 5); // rank 5
    assert_eq!(h.max(), 9);
    assert_eq!(h.counts().collect::<Vec<_>>(), [(2, 1), (4, 3), (5, 2), (7, 1), (9, 1)]);
}

#[test]
fn the_layout_tiles_every_u64_with_stated_widths() {
    assert_eq!(BUCKETS, 67_584);
    assert_eq!(bucket_range(0), (0, 0));
    assert_eq!(bucket_range(BUCKETS - 1).1, u64::MAX);
    assert_eq!(bucket_of(u64::MAX), BUCKETS - 1);
    assert_eq!((bucket_of(EXACT - 1), bucket_of(EXACT)), (EXACT as u32 - 1, EXACT as u32));
    assert_eq!(bucket_range(EXACT as u32), (16_384, 16_399), "the first wide bucket is 16 wide");
    for b in 0..BUCKETS {
        let (low, high) = bucket_range(b);
        assert!(low <= high);
        assert_eq!((bucket_of(low), bucket_of(high)), (b, b), "bucket {b} = [{low}, {high}]");
        if b + 1 < BUCKETS {
            assert_eq!(bucket_range(b + 1).0, high + 1, "bucket {} starts where {b} ends", b + 1);
        }
        if (b as u64) < EXACT {
            assert_eq!(low, high, "exact below EXACT");
        } else {
            // Width at most low / 1024: the middle is within low / 2048 of any member.
            assert!((high - low + 1) * SUB <= low, "bucket {b} = [{low}, {high}] too wide");
        }
    }
}

/// Values from several shapes: small integers (exact), a millisecond clock over
/// 10-1000 s, log-uniform up to 2^40, and a few extremes.
fn random_values(seed: u64, n: usize) -> Vec<u64> {
    let mut rng = rng_from(seed);
    (0..n)
        .map(|i| match i % 4 {
            0 => rng.random_range(0..300u64),
            1 => rng.random_range(10_000..1_000_000u64),
            2 => {
                let bits = rng.random_range(0..40u32);
                rng.random_range(0..=(1u64 << bits))
            }
            _ => [0, 1, EXACT - 1, EXACT, EXACT + 1, u32::MAX as u64][rng.random_range(0..6usize)],
        })
        .collect()
}

#[test]
fn percentiles_are_within_the_stated_error_of_sorted_values() {
    for (seed, n) in [(1, 1), (2, 7), (3, 1000), (4, 100_000)] {
        let values = random_values(seed, n);
        let h = filled(&values);
        let mut sorted = values.clone();
        sorted.sort_unstable();
        for p in [0.0, 0.1, 1.0, 10.0, 25.0, 50.0, 62.5, 90.0, 99.0, 99.9, 100.0] {
            let (got, want) = (h.percentile(p), exact_percentile(&sorted, p));
            if want < EXACT {
                assert_eq!(got, want, "p{p} of {n} values below the exact bound");
            } else {
                assert!(got.abs_diff(want) as f64 <= want as f64 / 2048.0, "p{p} of {n}: {got} against {want}");
            }
            assert!((sorted[0]..=sorted[n - 1]).contains(&got), "p{p} {got} outside the observed range");
        }
        // Mean, SD and maximum from exact sums: the raw values' own.
        assert_eq!(h.max(), sorted[n - 1]);
        assert_eq!(h.count(), n as u64);
        assert_eq!(h.sum() as u128, values.iter().map(|&v| v as u128).sum::<u128>());
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / n as f64;
        assert!((h.mean() - mean).abs() <= 1e-9 * mean.max(1.0), "mean {} against {mean}", h.mean());
        if n > 1 {
            let var = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            assert!((h.sd() - var.sqrt()).abs() <= 1e-9 * var.sqrt(), "sd {} against {}", h.sd(), var.sqrt());
        }
        // The listed counts cover every observation, ascending, each bucket's value.
        let counts: Vec<(u64, u64)> = h.counts().collect();
        assert_eq!(counts.iter().map(|c| c.1).sum::<u64>(), n as u64);
        assert!(counts.windows(2).all(|w| w[0].0 < w[1].0));
        for &(v, c) in &counts {
            let (low, high) = bucket_range(bucket_of(v));
            assert_eq!(sorted.iter().filter(|&&x| (low..=high).contains(&x)).count() as u64, c, "count of the bucket of {v}");
        }
    }
}

#[test]
fn small_integers_are_counted_exactly() {
    let values: Vec<u64> = random_values(5, 20_000).into_iter().map(|v| v % EXACT).collect();
    let h = filled(&values);
    let mut want = std::collections::BTreeMap::new();
    values.iter().for_each(|&v| *want.entry(v).or_insert(0u64) += 1);
    assert_eq!(h.counts().collect::<Vec<_>>(), want.into_iter().collect::<Vec<_>>());
}

#[test]
fn merging_in_any_order_equals_adding_everything_to_one() {
    let values = random_values(6, 30_000);
    let all = filled(&values);
    let parts: Vec<Histogram> = values.chunks(7_001).map(filled).collect();
    let mut forward = Histogram::new();
    parts.iter().for_each(|p| forward.merge(p));
    let mut backward = Histogram::new();
    parts.iter().rev().for_each(|p| backward.merge(p));
    let (mut left, mut right) = (parts[0].clone(), parts[3].clone());
    left.merge(&parts[1]);
    right.merge(&parts[2]);
    right.merge(&parts[4]);
    left.merge(&right);
    let json = serde_json::to_string(&all).unwrap();
    for h in [forward, backward, left] {
        assert_eq!(h, all);
        assert_eq!(serde_json::to_string(&h).unwrap(), json, "byte-identical when saved");
    }
}

#[test]
fn buffered_observations_count_like_direct_ones() {
    let values: Vec<u64> = (0..100u64).map(|v| v * 7919 % 50_000).collect();
    let direct = filled(&values);
    let mut buffered = Histogram::new();
    buffered.reserve(60);
    values.iter().for_each(|&v| buffered.add(v)); // 60 into the reserved room, then settled
    assert_eq!(buffered, direct);
    assert_eq!(buffered.counts().collect::<Vec<_>>(), direct.counts().collect::<Vec<_>>());
    assert_eq!((buffered.percentile(50.0), buffered.max()), (direct.percentile(50.0), direct.max()));
    assert_eq!(serde_json::to_string(&buffered).unwrap(), serde_json::to_string(&direct).unwrap());
    let mut merged = Histogram::new();
    merged.merge(&buffered);
    assert_eq!(merged, direct);
    let mut reserved = Histogram::new();
    reserved.reserve(100);
    values.iter().for_each(|&v| reserved.add(v));
    assert_eq!(reserved.pending.len(), 100, "all buffered in the reserved room");
    reserved.settle();
    assert!(reserved.pending.is_empty() && reserved.pending.capacity() >= 100, "settling keeps the room");
    assert_eq!(reserved.buckets, direct.settled().into_owned());
}

#[test]
fn memory_is_bounded_by_the_layout_not_the_observations() {
    // A millisecond clock over 20 s to 1000 s: at most 6 octaves of 1,024 buckets, and
    // 10^6 observations fill no more buckets than the layout has there.
    let mut rng = rng_from(7);
    let mut h = Histogram::new();
    let mut sizes = Vec::new();
    for k in 0..1_000_000u64 {
        h.add(rng.random_range(20_000..1_000_000u64));
        if k == 9_999 || k == 999_999 {
            h.settle();
            sizes.push(h.buckets.len());
        }
    }
    let span = (bucket_of(20_000)..=bucket_of(999_999)).count();
    assert!(span <= 6 * SUB as usize, "{span} buckets span the range");
    assert!(sizes[1] <= span, "{} buckets used of {span}", sizes[1]);
    assert!(h.pending.capacity() <= UNRESERVED_ROOM, "the unreserved buffer stays bounded");
    assert_eq!(sizes[1], span, "10^6 uniform values reach every bucket of the range");
}

#[test]
fn empty_histogram_is_all_zero_and_saves_as_zeros() {
    let h = Histogram::new();
    assert_eq!((h.mean(), h.sd(), h.percentile(50.0), h.max(), h.count()), (0.0, 0.0, 0, 0, 0));
    let json = serde_json::to_string(&h).unwrap();
    assert_eq!(json, r#"{"layout":[14,10],"n":0,"sum":0,"sum_sq":0,"min":0,"max":0,"buckets":[]}"#);
    assert_eq!(serde_json::from_str::<Histogram>(&json).unwrap(), h);
}

#[test]
fn a_saved_histogram_reads_back_equal() {
    let h = filled(&random_values(8, 5_000));
    let back: Histogram = serde_json::from_str(&serde_json::to_string(&h).unwrap()).unwrap();
    assert_eq!(back, h);
    assert_eq!((back.percentile(99.0), back.sd()), (h.percentile(99.0), h.sd()));
}

#[test]
fn tampered_saved_histograms_are_refused_naming_the_field() {
    let h = filled(&[3, 5, 5, 20_000, 70_000]);
    // The example of docs/statistics.md.
    let doc = r#"{"layout":[14,10],"n":5,"sum":90013,"sum_sq":5300000059,"min":3,"max":70000,"buckets":[[3,1],[5,2],[16610,1],[18501,1]]}"#;
    assert_eq!(serde_json::to_string(&h).unwrap(), doc);
    let good = serde_json::to_value(h).unwrap();
    let tamper = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        serde_json::from_value::<Histogram>(v).unwrap_err().to_string()
    };
    let cases: [(&str, &Corruption); 12] = [
        ("`layout`", &|v| v["layout"][1] = 9.into()),
        ("`buckets` names bucket 67584", &|v| v["buckets"][3][0] = BUCKETS.into()),
        ("strictly ascending", &|v| v["buckets"].as_array_mut().unwrap().swap(0, 1)),
        ("count of 0", &|v| v["buckets"][0][1] = 0.into()),
        ("`buckets` hold 6 observations but `n` is 5", &|v| v["buckets"][1][1] = 3.into()),
        ("`buckets` hold 5 observations but `n` is 6", &|v| v["n"] = 6.into()),
        ("more than 2^64", &|v| v["buckets"][1][1] = u64::MAX.into()),
        ("`min` 4", &|v| v["min"] = 4.into()),
        ("`max` 69000", &|v| v["max"] = 69_000.into()),
        ("`sum` 1", &|v| v["sum"] = 1.into()),
        ("`sum_sq` 2", &|v| v["sum_sq"] = 2.into()),
        ("no observations", &|v| {
            v["n"] = 0.into();
            v["buckets"] = serde_json::json!([]);
        }),
    ];
    for (want, f) in cases {
        let err = tamper(f);
        assert!(err.starts_with("histogram: ") && err.contains(want), "{want:?} not in {err:?}");
        assert!(!err.contains('\n'), "one line: {err}");
    }
    // Sums that fit the buckets one by one but not each other: 20,000 and 20,010 share
    // a bucket; a sum of 2 × 20,010 with a sum of squares of 2 × 20,000² has no variance.
    let mut v = serde_json::to_value(filled(&[20_000, 20_010])).unwrap();
    v["sum"] = 40_020.into();
    v["sum_sq"] = 800_000_000u64.into();
    let err = serde_json::from_value::<Histogram>(v).unwrap_err().to_string();
    assert!(err.contains("give no variance"), "{err}");
}

#[test]
fn adding_bucket_lists_in_place_equals_a_map_of_counts() {
    let mut rng = rng_from(9);
    for round in 0..200 {
        let list = |rng: &mut crate::rng::SimRng, n: usize| {
            let mut m = std::collections::BTreeMap::new();
            for _ in 0..n {
                *m.entry(rng.random_range(0..60u32)).or_insert(0u64) += rng.random_range(1..5u64);
            }
            m
        };
        let (a, b) = (list(&mut rng, round % 17), list(&mut rng, round % 23));
        let mut want = a.clone();
        b.iter().for_each(|(&k, &c)| *want.entry(k).or_insert(0) += c);
        let mut got: Vec<(u32, u64)> = a.into_iter().collect();
        let capacity = got.capacity();
        let covered = b.keys().all(|k| got.iter().any(|g| g.0 == *k));
        add_into(&mut got, b.into_iter().collect::<Vec<_>>().into_iter());
        assert_eq!(got, want.into_iter().collect::<Vec<_>>());
        if covered {
            assert_eq!(got.capacity(), capacity, "no growth when every bucket is there");
        }
    }
}

/// A change made to a histogram's JSON to corrupt it.
type Corruption = dyn Fn(&mut serde_json::Value);
