//! Elementary functions that give the same bits on every processor.
//!
//! `f64::exp`, `ln`, `log2` and `powf` call the C library, and glibc picks its code for
//! them when the program starts, by processor: on x86-64 a variant built with fused
//! multiply-add runs on processors that have FMA, another on those that do not. The two
//! round differently now and then: of 5,000,000 `exp` arguments in [-3, 1], 3,495 gave
//! results one unit in the last place apart (glibc 2.36, measured 2026-12-06 with
//! `GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA` against the default). A reaction time
//! drawn through such a function could then differ between two cluster nodes, and with
//! it a match, a shard and a merged study.
//!
//! Everything a simulation draws or decides with goes through these functions instead:
//! they are the `libm` crate's (ports of FreeBSD's and musl's code in plain Rust, with no
//! processor-dependent path on x86-64 or AArch64, and Rust never fuses a multiply and an
//! add on its own), so a value depends on its arguments alone. Statistics computed for
//! printing (intervals, ratings, fits) still use the standard library: a last-bit
//! difference there could change a printed digit only when the value lies exactly on a
//! rounding boundary.

/// `e^x`, the same bits on every processor.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// The natural logarithm, the same bits on every processor.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// The base-2 logarithm, the same bits on every processor.
#[inline]
pub fn log2(x: f64) -> f64 {
    libm::log2(x)
}

/// `x^y`, the same bits on every processor.
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Within a unit or two in the last place of the C library's functions, which are
    /// themselves accurate to about half a unit: these are the same functions, computed
    /// another way, not approximations of them.
    #[test]
    fn agree_with_the_standard_library_to_the_last_bits() {
        fn ulps(a: f64, b: f64) -> u64 {
            (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut worst = [0u64; 4];
        for _ in 0..200_000 {
            x = crate::rng::splitmix64(x);
            let u = (x >> 11) as f64 / (1u64 << 53) as f64;
            let (e, l) = (u * 40.0 - 20.0, u * 1e6 + 1e-9);
            worst[0] = worst[0].max(ulps(exp(e), e.exp()));
            worst[1] = worst[1].max(ulps(ln(l), l.ln()));
            worst[2] = worst[2].max(ulps(log2(l), l.log2()));
            worst[3] = worst[3].max(ulps(powf(l, u), l.powf(u)));
        }
        assert!(worst.iter().all(|&w| w <= 2), "largest differences in units in the last place (exp, ln, log2, pow): {worst:?}");
        assert_eq!((exp(0.0), ln(1.0), log2(8.0), powf(2.0, 10.0)), (1.0, 0.0, 3.0, 1024.0));
    }
}
