//! Positive fractions kept exact: `[view] scale` and `[animation] step`.

use crate::error::Error;
use crate::prelude_internal::*;

/// A positive step or scale `num/den`, kept as a fraction so that
/// `i * num / den` is rounded once: a scale of `1/3` puts pixel 3 exactly at
/// world coordinate 1, which the rounded decimal `0.333…` would miss.
///
/// ```
/// use surflet::document::Ratio;
/// let r = Ratio::parse("1/3").unwrap();
/// assert_eq!((r.num, r.den), (1.0, 3.0));
/// assert_eq!(3.0 * r.num / r.den, 1.0);
/// assert_eq!(r.to_string(), "1/3");
/// assert_eq!(Ratio::parse("0.25").unwrap().to_string(), "0.25");
/// assert!(Ratio::parse("-1").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// Numerator.
    pub num: f64,
    /// Denominator (1 for a decimal).
    pub den: f64,
}

impl Ratio {
    /// One.
    pub const ONE: Ratio = Ratio { num: 1.0, den: 1.0 };

    /// The value `num/den`.
    pub fn value(self) -> f64 {
        self.num / self.den
    }

    /// `self` with its denominator times `by`: the same ratio divided by
    /// `by`, exact whenever `den*by` is.
    pub fn divided(self, by: f64) -> Ratio {
        Ratio {
            num: self.num,
            den: self.den * by,
        }
    }

    /// Parses a positive decimal or a fraction like `1/64`. The error is an
    /// [`Error::Config`] with no key; its message quotes the text.
    pub fn parse(s: &str) -> Result<Ratio, Error> {
        let s = s.trim();
        let fail = |message: String| Error::Config {
            key: String::new(),
            message,
        };
        let number = |v: &str| -> Result<f64, Error> {
            match v.trim().parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
                Ok(_) => Err(fail(format!("{s:?} must be positive and finite"))),
                Err(_) => Err(fail(format!(
                    "{s:?} is not a number or a fraction like 1/64"
                ))),
            }
        };
        let r = match s.split_once('/') {
            Some((n, d)) => Ratio {
                num: number(n)?,
                den: number(d)?,
            },
            None => Ratio {
                num: number(s)?,
                den: 1.0,
            },
        };
        if r.value().is_finite() && r.value() > 0.0 {
            Ok(r)
        } else {
            Err(fail(format!("{s:?} is out of range")))
        }
    }
}

/// `NUM/DEN`, or the number alone when the denominator is 1; [`Ratio::parse`]
/// reads it back unchanged.
impl core::fmt::Display for Ratio {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.den == 1.0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}
