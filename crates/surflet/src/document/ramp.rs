//! Colour ramps: `[pixels] ramp` and `surflet render --ramp`.

use crate::error::Error;
use crate::prelude_internal::*;

/// One ramp stop: a position in `[0, 1]` and an sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    /// Where the colour sits.
    pub at: f64,
    /// Red, green, blue, 0 to 255.
    pub rgb: [u8; 3],
}

/// A piecewise-linear colour ramp over `[0, 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ramp {
    name: String,
    stops: Vec<Stop>,
}

/// The built-in terrain ramp, after the coloured heightmap of Perlin's
/// improved-noise article: deep water, shallow water, sand, grass, forest,
/// rock and snow. Half the range is water, and a doubled position makes the
/// coastline sharp. The bands suit single noise layers: about 15% rock and
/// 5% snow for simplex noise, whose values spread widest.
const TERRAIN: [(f64, u32); 14] = [
    (0.00, 0x0a1a4a), // deep water
    (0.35, 0x143c7a),
    (0.48, 0x3f86c4), // shallow water
    (0.50, 0x6fb0d8),
    (0.50, 0xdccb8f), // sand
    (0.53, 0xcdb97c),
    (0.545, 0x6aa84f), // grass
    (0.62, 0x3f8a2e),
    (0.64, 0x2c6a27), // forest
    (0.72, 0x1f4a1c),
    (0.75, 0x6e6253), // rock
    (0.84, 0x9d948b),
    (0.86, 0xeef1f5), // snow
    (1.00, 0xffffff),
];

impl Ramp {
    /// The terrain ramp.
    pub fn terrain() -> Ramp {
        Ramp {
            name: "terrain".into(),
            stops: TERRAIN
                .iter()
                .map(|&(at, c)| Stop {
                    at,
                    rgb: [(c >> 16) as u8, (c >> 8) as u8, c as u8],
                })
                .collect(),
        }
    }

    /// Black to white.
    pub fn gray() -> Ramp {
        Ramp {
            name: "gray".into(),
            stops: vec![
                Stop {
                    at: 0.0,
                    rgb: [0; 3],
                },
                Stop {
                    at: 1.0,
                    rgb: [255; 3],
                },
            ],
        }
    }

    /// Parses `terrain`, `gray` (or `grey`), or `POS:#RRGGBB,...`.
    pub fn parse(s: &str) -> Result<Ramp, Error> {
        Ramp::parse_text(s).map_err(|message| Error::Config {
            key: String::new(),
            message,
        })
    }

    fn parse_text(s: &str) -> Result<Ramp, String> {
        let s = s.trim();
        match s {
            "terrain" => return Ok(Ramp::terrain()),
            "gray" | "grey" => return Ok(Ramp::gray()),
            _ => {}
        }
        if !s.contains(':') {
            return Err(format!(
                "unknown ramp {s:?}: expected terrain, gray, or stops like 0:#000000,1:#ffffff"
            ));
        }
        let mut stops = Vec::new();
        for part in s.split(',') {
            let part = part.trim();
            let (at, colour) = part
                .split_once(':')
                .ok_or_else(|| format!("ramp stop {part:?} is not POS:#RRGGBB"))?;
            let at: f64 = at
                .trim()
                .parse()
                .map_err(|_| format!("ramp stop {part:?}: {:?} is not a number", at.trim()))?;
            if !(0.0..=1.0).contains(&at) {
                return Err(format!(
                    "ramp stop {part:?}: the position must be in [0, 1]"
                ));
            }
            if let Some(prev) = stops.last().map(|s: &Stop| s.at)
                && at < prev
            {
                return Err(format!(
                    "ramp stop {part:?}: positions must not decrease ({at} after {prev})"
                ));
            }
            let rgb = parse_colour(colour.trim())
                .ok_or_else(|| format!("ramp stop {part:?}: {colour:?} is not #RRGGBB or #RGB"))?;
            stops.push(Stop { at, rgb });
        }
        if stops.len() < 2 {
            return Err("a ramp needs at least two stops".into());
        }
        Ok(Ramp {
            name: "custom".into(),
            stops,
        })
    }

    /// The colour at `t`, each channel in `[0, 255]` and not yet rounded.
    ///
    /// `t` is clamped to `[0, 1]` first; below the first stop or above the
    /// last, the end colours hold. Between two stops the sRGB channels are
    /// interpolated linearly; where two stops share a position the colour
    /// jumps there.
    pub fn colour(&self, t: f64) -> [f64; 3] {
        let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
        let stops = &self.stops;
        // The first stop strictly after t; t sits between it and the one
        // before, so a shared position resolves to the later colour.
        let k = stops.partition_point(|s| s.at <= t);
        let rgb = |s: &Stop| s.rgb.map(f64::from);
        if k == 0 {
            return rgb(&stops[0]);
        }
        if k == stops.len() {
            return rgb(&stops[k - 1]);
        }
        let (a, b) = (&stops[k - 1], &stops[k]);
        let f = (t - a.at) / (b.at - a.at);
        let (ca, cb) = (rgb(a), rgb(b));
        array_of(|c| ca[c] + (cb[c] - ca[c]) * f)
    }

    /// The colour at `t` in 8 bits: each channel rounded.
    pub fn rgb8(&self, t: f64) -> [u8; 3] {
        self.colour(t).map(|c| c.round() as u8)
    }

    /// The colour at `t` in 16 bits: each channel `round(c / 255 · 65535)`.
    pub fn rgb16(&self, t: f64) -> [u16; 3] {
        self.colour(t).map(|c| (c / 255.0 * 65535.0).round() as u16)
    }
}

impl core::fmt::Display for Ramp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name)
    }
}

/// Parses `#RRGGBB` or `#RGB` (the `#` is optional).
fn parse_colour(s: &str) -> Option<[u8; 3]> {
    let hex = s.strip_prefix('#').unwrap_or(s);
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = u32::from_str_radix(hex, 16).ok()?;
    match hex.len() {
        6 => Some([(v >> 16) as u8, (v >> 8) as u8, v as u8]),
        3 => Some([(v >> 8) & 15, (v >> 4) & 15, v & 15].map(|d| (d * 17) as u8)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_stops() {
        let r = Ramp::parse("0:#000000, 0.5:#ff0000,0.5:#00ff00,1:#fff").unwrap();
        assert_eq!(r.rgb8(0.0), [0, 0, 0]);
        assert_eq!(r.rgb8(0.25), [128, 0, 0]);
        assert_eq!(r.rgb8(0.4999), [255, 0, 0]);
        assert_eq!(r.rgb8(0.5), [0, 255, 0]);
        assert_eq!(r.rgb8(1.0), [255, 255, 255]);
        assert_eq!(r.rgb8(7.0), [255, 255, 255]);
        assert_eq!(r.rgb16(1.0), [65535; 3]);
    }

    #[test]
    fn bad_ramps() {
        for bad in [
            "rainbow",
            "0:#000000",
            "0:#000000,1:#12345",
            "0.5:#000000,0.2:#ffffff",
            "0:#000000,1.5:#ffffff",
            "0:#000000,x:#ffffff",
            "0:#000000,1:#gg0000",
            "0:#000000,1:#+12345",
        ] {
            assert!(Ramp::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn terrain_is_ordered() {
        let r = Ramp::terrain();
        assert!(r.stops.windows(2).all(|w| w[0].at <= w[1].at));
        assert_eq!(r.stops[0].at, 0.0);
    }
}
