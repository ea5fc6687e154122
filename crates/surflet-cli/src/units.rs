//! Parsers for the numbers the command line and the config file share:
//! image sizes, positive fractions kept exact, finite numbers and seeds.

/// An image size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// Parses a size as every subcommand takes it: `N`, `WxH` or `WxHxD`
/// (`x`, `X` or `×` between the numbers), each at least 1. What one number
/// means (a square, or N per axis) is the subcommand's to say.
pub fn parse_extent(s: &str) -> Result<Vec<u32>, String> {
    let s = s.trim();
    let parts: Vec<&str> = s.split(['x', 'X', '×']).map(str::trim).collect();
    if parts.len() > 3 {
        return Err(format!(
            "{s:?} is not a size: expected N, WxH or WxHxD (like 512x256)"
        ));
    }
    let names = ["width", "height", "depth"];
    parts
        .iter()
        .zip(names)
        .map(|(v, what)| match v.parse::<u64>() {
            Ok(0) => Err(format!("the {what} must be at least 1")),
            Ok(n) => u32::try_from(n)
                .map_err(|_| format!("the {what} {n} is too large (at most {})", u32::MAX)),
            Err(_) => Err(format!(
                "{s:?} is not a size: expected N, WxH or WxHxD (like 512x256)"
            )),
        })
        .collect()
}

/// `--scale`'s values as one per axis: one value for both, or `SX,SY`;
/// `None` where the flag was not given.
pub fn scale_pair(scale: Option<&[Ratio]>) -> Result<Option<[Ratio; 2]>, String> {
    match scale {
        None => Ok(None),
        Some(&[s]) => Ok(Some([s, s])),
        Some(&[sx, sy]) => Ok(Some([sx, sy])),
        Some(s) => Err(format!(
            "--scale takes one value or two (SX,SY), got {}",
            s.len()
        )),
    }
}

/// Parses `WIDTHxHEIGHT` or one number for a square.
pub fn parse_size(s: &str) -> Result<Size, String> {
    match parse_extent(s)?[..] {
        [side] => Ok(Size {
            width: side,
            height: side,
        }),
        [width, height] => Ok(Size { width, height }),
        _ => Err(format!(
            "{:?} has three sides; an image is WIDTHxHEIGHT, or one number for a square",
            s.trim()
        )),
    }
}

pub use surflet::document::Ratio;

/// Parses a positive decimal or a fraction like `1/64`.
pub fn parse_ratio(s: &str) -> Result<Ratio, String> {
    Ratio::parse(s).map_err(|e| e.to_string())
}

/// A number for messages, without float noise: 0.30000000000000004 → 0.3.
pub fn short(v: f64) -> String {
    let s = format!("{v:.9}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Parses a period in lattice cells; the library checks its range, naming
/// the axis.
pub fn parse_period(s: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("{:?} is not a period (a positive integer)", s.trim()))
}

/// Parses a finite number (negative numbers included).
pub fn parse_finite(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(format!("{:?} is not finite", s.trim())),
        Err(_) => Err(format!("{:?} is not a number", s.trim())),
    }
}

/// Parses a seed: any integer from -2^63 to 2^64-1, decimal or `0x` hex. A
/// negative seed `n` means the u64 with the same two's-complement bits,
/// `2^64 + n`, so `-1` and `18446744073709551615` are the same seed (as `n
/// as u64` in Rust and `(long) n` in Java).
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => u128::from_str_radix(hex, 16),
        None => digits.parse::<u128>(),
    }
    .map_err(|_| format!("{t:?} is not a seed: expected an integer"))?;
    let range = || format!("the seed {t} is out of range: seeds are integers from -2^63 to 2^64-1");
    if negative {
        if magnitude > 1 << 63 {
            return Err(range());
        }
        Ok((magnitude as u64).wrapping_neg())
    } else {
        u64::try_from(magnitude).map_err(|_| range())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        let s = |w, h| Size {
            width: w,
            height: h,
        };
        assert_eq!(parse_size("512x256"), Ok(s(512, 256)));
        assert_eq!(parse_size(" 64 X 32 "), Ok(s(64, 32)));
        assert_eq!(parse_size("100"), Ok(s(100, 100)));
        assert!(parse_size("0x5").unwrap_err().contains("width"));
        assert!(parse_size("5x0").unwrap_err().contains("height"));
        assert!(
            parse_size("5000000000x1")
                .unwrap_err()
                .contains("too large")
        );
        assert!(parse_size("axb").is_err());
        assert!(parse_size("-5x5").is_err());
        assert!(parse_size("4x4x4").unwrap_err().contains("three"));
        assert_eq!(parse_extent("8x4x2"), Ok(vec![8, 4, 2]));
        assert_eq!(parse_extent("8"), Ok(vec![8]));
        assert!(parse_extent("8x4x2x1").is_err());
        assert!(parse_extent("8x0x2").unwrap_err().contains("height"));
    }

    #[test]
    fn ratios() {
        let r = parse_ratio("1/3").unwrap();
        assert_eq!((r.num, r.den), (1.0, 3.0));
        assert_eq!(parse_ratio("0.25").unwrap().value(), 0.25);
        assert_eq!(parse_ratio("1/64").unwrap().divided(2.0).den, 128.0);
        for bad in ["0", "-1", "1/0", "inf", "x", "1/", "1e308/1e-308"] {
            assert!(parse_ratio(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_take_every_integer_from_minus_2_63_to_2_64_minus_1() {
        assert_eq!(parse_seed("0"), Ok(0));
        assert_eq!(parse_seed("-1"), Ok(u64::MAX));
        assert_eq!(parse_seed("-5"), Ok(-5i64 as u64));
        assert_eq!(parse_seed("-9223372036854775808"), Ok(1 << 63));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_seed("0xff"), Ok(255));
        assert_eq!(parse_seed("+7"), Ok(7));
        for bad in [
            "-9223372036854775809",
            "18446744073709551616",
            "1.5",
            "x",
            "",
        ] {
            let e = parse_seed(bad).unwrap_err();
            assert!(e.contains("seed"), "{bad}: {e}");
        }
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(0.1 + 0.2), "0.3");
        assert_eq!(short(2.0), "2");
        assert_eq!(short(0.03125), "0.03125");
    }
}
