//! What `surflet analyze` measures and where: the noise (a stack, or a
//! reference port evaluated point by point) and the square slice of world
//! points it is sampled on, validated from the options and the config.

use rayon::prelude::*;
use serde_json::Value;

use super::args::{AnalyzeArgs, PlaneName};
use crate::any_field::FieldCalls;
use crate::eval::{self, FamilyOptions};
use crate::names::{Extra, NoiseName, Variant};
use crate::stack_args::{Resolved, one_noise};
use crate::units::{Ratio, short};
use surflet::dynamic::DynField;

/// Beyond 2^52 cells every f64 coordinate is a whole number and the slice
/// only samples lattice points (as render refuses too).
const MAX_CELLS: f64 = 4_503_599_627_370_496.0;

/// Rows evaluated per point-array call off the xy plane, which bounds the
/// coordinate buffers at 4 × 64 rows.
const BAND: usize = 64;

/// The slice's unit directions (entries past the dimension are 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub u: [f64; 4],
    pub v: [f64; 4],
}

impl Plane {
    fn is_xy(&self) -> bool {
        *self == PlaneName::Xy.plane(4)
    }
}

/// The noise being measured.
enum Job {
    /// A family noise or stack.
    Stack {
        field: Box<DynField>,
        resolved: Box<Resolved>,
    },
    /// A reference port, with the options it took.
    Reference {
        name: NoiseName,
        eval: Box<eval::NoiseFn>,
        variant: Option<Variant>,
    },
}

/// A validated analysis: the noise and the slice.
pub struct Slice {
    /// Samples a side.
    pub n: u32,
    /// The noise's dimension.
    pub dims: usize,
    /// World units per sample along u and v.
    pub scale: [Ratio; 2],
    /// The same before oversampling: `scale` times `oversample`.
    pub nominal: [Ratio; 2],
    /// Samples evaluated per nominal sample, along each side.
    pub oversample: u32,
    /// The world point of sample (0, 0).
    pub origin: [f64; 4],
    /// The directions of sample rows and columns.
    pub plane: Plane,
    /// Lattice cells per world unit.
    pub frequency: f64,
    plane_name: String,
    job: Job,
}

impl Slice {
    /// Checks the options; every error is a usage error.
    pub fn new(args: &AnalyzeArgs) -> Result<Slice, String> {
        if args.stack.save_config.is_some() {
            return Err("--save-config does not apply to analyze".into());
        }
        let origin_len = args.origin.as_ref().map_or(0, Vec::len);
        let name = one_noise("NAME", args.name, args.stack.noise())?;
        let (job, dims, frequency, view) = match name {
            Some((name, _)) if name.family().is_none() => {
                let (job, dims, frequency) = reference(args, name, origin_len)?;
                (job, dims, frequency, Default::default())
            }
            name => {
                if args.variant.is_some() {
                    return Err(
                        "--variant applies only to opensimplex2-java and opensimplex2s-java".into(),
                    );
                }
                let noise = name.and_then(|(n, from)| Some((n.family()?, from)));
                let resolved = args.stack.resolve(noise)?;
                let view = resolved.doc.clone().unwrap_or_default().view;
                let keys = resolved.axis_keys();
                let needed = [
                    2,
                    origin_len,
                    if view.z.is_some() { 3 } else { 0 },
                    if view.w.is_some() { 4 } else { 0 },
                ]
                .into_iter()
                .chain(keys.iter().map(|k| k.len))
                .max()
                .unwrap_or(2);
                let dims = match args.dims.or(view.dims).map(usize::from) {
                    Some(d) if keys.iter().any(|k| k.len != d) => {
                        let k = keys
                            .iter()
                            .find(|k| k.len != d)
                            .expect("a key that differs");
                        return Err(format!(
                            "{} has {} values but the noise is {d}D",
                            k.source(),
                            k.len
                        ));
                    }
                    Some(d) if d < needed => {
                        return Err(format!("--dims {d} is too few: the options need {needed}D"));
                    }
                    Some(d) => d,
                    None => needed,
                };
                if !(2..=4).contains(&dims) {
                    return Err(format!(
                        "the noise has {dims} dimensions; analyze takes 2 to 4"
                    ));
                }
                // An antialiased stack without a footprint fades by the
                // slice's sample before any oversampling.
                let on = args.antialias || view.antialias == Some(true);
                let aa = resolved.at_pixel(slice_scale(args, &view)?, on);
                let field = crate::stack_field::resolved(&aa, dims)?;
                let frequency = resolved.stack.frequency;
                let job = Job::Stack {
                    field: Box::new(field),
                    resolved: Box::new(resolved),
                };
                (job, dims, frequency, view)
            }
        };

        let mut origin = [0.0; 4];
        match args.origin.as_deref() {
            Some(o) if o.len() < 2 || o.len() > dims => {
                return Err(format!(
                    "--origin takes 2 to {dims} values (X,Y first), got {}",
                    o.len()
                ));
            }
            Some(o) => origin[..o.len()].copy_from_slice(o),
            None => {
                origin[..2].copy_from_slice(&view.origin.unwrap_or([0.0; 2]));
                origin[2] = view.z.unwrap_or(0.0);
                origin[3] = view.w.unwrap_or(0.0);
            }
        }
        let nominal = slice_scale(args, &view)?;
        let k = args.oversample.unwrap_or(1);
        let n = args.size.unwrap_or(512);
        if u64::from(n) * u64::from(k) > u64::from(super::args::MAX_SIZE) {
            return Err(format!(
                "--oversample {k} at --size {n} is {} samples a side; the most is {}",
                u64::from(n) * u64::from(k),
                super::args::MAX_SIZE
            ));
        }
        let scale = nominal.map(|r| r.divided(f64::from(k)));
        let (plane, plane_name) = match (&args.plane_u, &args.plane_v) {
            (Some(u), Some(v)) => (given_plane(u, v, dims)?, "given".to_string()),
            _ => {
                let p = args.plane.unwrap_or(PlaneName::Xy);
                let name = match p {
                    PlaneName::Xy => "xy",
                    PlaneName::Diagonal => "diagonal",
                };
                (p.plane(dims), name.to_string())
            }
        };
        let slice = Slice {
            n: n * k,
            dims,
            scale,
            nominal,
            oversample: k,
            origin,
            plane,
            frequency,
            plane_name,
            job,
        };
        slice.check_reach()?;
        Ok(slice)
    }

    /// The Nyquist frequency of the nominal sample (its larger side), in
    /// cycles per world unit.
    pub fn nyquist(&self) -> f64 {
        0.5 / self.nominal[0].value().max(self.nominal[1].value())
    }

    /// Checks that every sampled coordinate is finite and, in lattice cells,
    /// below 2^52; the corners of the slice bound them.
    fn check_reach(&self) -> Result<(), String> {
        let n = u64::from(self.n);
        let mut far = 0.0f64;
        for (i, j) in [(0, 0), (n, 0), (0, n), (n, n)] {
            let p = self.point(i, j);
            for &c in &p[..self.dims] {
                if !c.is_finite() {
                    return Err(
                        "the sampled coordinates overflow; use a smaller --origin or --scale"
                            .into(),
                    );
                }
                far = far.max(c.abs() * self.frequency);
            }
        }
        if far.is_nan() || far >= MAX_CELLS {
            return Err(format!(
                "the slice reaches {far:e} lattice cells from the origin; past 2^52 cells \
                 every sample lies on a lattice point. Use a smaller --frequency, --scale or \
                 --origin (frequency {})",
                short(self.frequency)
            ));
        }
        Ok(())
    }

    /// The world point of sample (i, j).
    #[inline]
    fn point(&self, i: u64, j: u64) -> [f64; 4] {
        let [a, b] = self.scale;
        let s = (i as f64 * a.num) / a.den;
        let t = (j as f64 * b.num) / b.den;
        std::array::from_fn(|k| self.origin[k] + self.plane.u[k] * s + self.plane.v[k] * t)
    }

    /// The name of what is measured, for titles.
    pub fn label(&self) -> String {
        let noise = match &self.job {
            Job::Stack { resolved, .. } if resolved.graph.is_some() => "a graph".to_string(),
            Job::Stack { resolved, .. } => {
                let s = &resolved.stack;
                let mut label = s.noise.name().to_string();
                if let Some(f) = &s.fractal {
                    label += &format!(" {} x{}", f.kind.name(), f.octaves);
                }
                if s.warp.is_some() {
                    label += " warped";
                }
                label
            }
            Job::Reference { name, .. } => name.name().to_string(),
        };
        format!("{noise}, {}D, {} slice", self.dims, self.plane_name)
    }

    /// The stack as a config holds it, for the family (a graph as its
    /// `[graph]` table); null otherwise.
    pub fn stack_json(&self) -> Value {
        match &self.job {
            Job::Stack { resolved, .. } => match &resolved.graph {
                Some(g) => g.to_json_value().unwrap_or(Value::Null),
                None => serde_json::to_value(&resolved.stack).unwrap_or(Value::Null),
            },
            Job::Reference { .. } => Value::Null,
        }
    }

    /// The OpenSimplex2 ports' lattice orientation.
    pub fn variant(&self) -> Option<Variant> {
        match &self.job {
            Job::Reference { variant, .. } => *variant,
            Job::Stack { .. } => None,
        }
    }

    /// The n×n values, row-major (u fastest), in f64.
    pub fn evaluate(&self) -> Result<Vec<f64>, String> {
        let n = self.n as usize;
        let mut out = vec![0.0; n * n];
        match &self.job {
            Job::Stack { field, .. } if self.plane.is_xy() => {
                // The grid call, with render's axes: the same bits as its
                // pixels.
                let xs: Vec<f64> = (0..n as u64).map(|i| self.point(i, 0)[0]).collect();
                let ys: Vec<f64> = (0..n as u64).map(|j| self.point(0, j)[1]).collect();
                let (z, w) = ([self.origin[2]], [self.origin[3]]);
                field
                    .fill_grid([&xs, &ys, &z, &w], &mut out, None)
                    .map_err(|e| e.to_string())?;
            }
            Job::Stack { field, .. } => {
                for (band, chunk) in out.chunks_mut(BAND * n).enumerate() {
                    let rows = chunk.len() / n;
                    let mut coords: [Vec<f64>; 4] =
                        std::array::from_fn(|_| Vec::with_capacity(rows * n));
                    for r in 0..rows {
                        let j = (band * BAND + r) as u64;
                        for i in 0..n as u64 {
                            let p = self.point(i, j);
                            for (c, v) in coords.iter_mut().zip(p) {
                                c.push(v);
                            }
                        }
                    }
                    let [x, y, z, w] = &coords;
                    field
                        .fill_points([x, y, z, w], chunk)
                        .map_err(|e| e.to_string())?;
                    if crate::imaging::output::interrupted() {
                        return Err("interrupted".into());
                    }
                }
            }
            Job::Reference { name, eval, .. } => {
                let angle = name.extra() == Extra::Angle;
                let f = self.frequency;
                out.par_chunks_mut(n).enumerate().for_each(|(j, row)| {
                    let mut input = [0.0; 5];
                    for (i, v) in row.iter_mut().enumerate() {
                        let p = self.point(i as u64, j as u64);
                        for k in 0..self.dims {
                            input[k] = p[k] * f;
                        }
                        // srdnoise23's rotation angle: 0, the unrotated
                        // gradients.
                        let columns = self.dims + usize::from(angle);
                        *v = eval.eval(&input[..columns]).value;
                    }
                });
            }
        }
        Ok(out)
    }
}

/// The reference port `name` with the options it takes, its dimension and
/// frequency.
fn reference(
    args: &AnalyzeArgs,
    name: NoiseName,
    origin_len: usize,
) -> Result<(Job, usize, f64), String> {
    let os2 = name.is_opensimplex2();
    if args.variant.is_some() && !os2 {
        return Err(format!(
            "--variant applies only to opensimplex2-java and opensimplex2s-java; {name} has no \
             variants"
        ));
    }
    let stack = &args.stack;
    let flag = [
        (stack.seed().is_some() && !os2, "--seed"),
        (stack.period().is_some(), "--period"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
    .or(stack.first_given(&["noise", "seed", "frequency", "period"]));
    if let Some(flag) = flag {
        return Err(format!(
            "{flag} applies only to the surflet family and its stacks; {name} is a reference \
             port with fixed behaviour (--frequency{} apply)",
            if os2 { ", --seed and --variant" } else { "" }
        ));
    }
    if name.extra() == Extra::Periods {
        return Err(format!(
            "{name} takes a period with every point; analyze noise1234, or a family noise \
             with --period"
        ));
    }
    let range = name.dims();
    let dims = match args.dims.map(usize::from) {
        Some(d) => d,
        None => 2.max(*range.start()).max(origin_len),
    };
    if !range.contains(&dims) {
        return Err(format!(
            "{name} has no {dims}D form; it is {}D{}",
            range.start(),
            if range.start() == range.end() {
                String::new()
            } else {
                format!(" to {}D", range.end())
            }
        ));
    }
    let frequency = args.stack.frequency().unwrap_or(1.0);
    if !(frequency.is_finite() && frequency > 0.0) {
        return Err(format!(
            "--frequency must be positive and finite, got {frequency}"
        ));
    }
    let options = FamilyOptions {
        seed: args.stack.seed().unwrap_or(0),
        variant: args.variant,
        ..FamilyOptions::default()
    };
    let eval = eval::NoiseFn::new(name, dims, &options)?;
    let variant = os2.then(|| args.variant.or_else(|| Variant::default_for(dims)));
    Ok((
        Job::Reference {
            name,
            eval: Box::new(eval),
            variant: variant.flatten(),
        },
        dims,
        frequency,
    ))
}

/// The plane of --plane-u and --plane-v, normalised, if they are `dims`
/// numbers each, non-zero and perpendicular.
fn given_plane(u: &[f64], v: &[f64], dims: usize) -> Result<Plane, String> {
    let unit = |x: &[f64], flag: &str| -> Result<[f64; 4], String> {
        if x.len() != dims {
            return Err(format!(
                "{flag} takes {dims} numbers (the noise is {dims}D), got {}",
                x.len()
            ));
        }
        let len = x.iter().map(|c| c * c).sum::<f64>().sqrt();
        if !(len.is_finite() && len > 0.0) {
            return Err(format!("{flag} must be a non-zero, finite direction"));
        }
        let mut out = [0.0; 4];
        for (o, c) in out.iter_mut().zip(x) {
            *o = c / len;
        }
        Ok(out)
    };
    let (u, v) = (unit(u, "--plane-u")?, unit(v, "--plane-v")?);
    let dot: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
    // A skewed plane would stretch the spectrum along one direction and
    // read as anisotropy that the noise does not have.
    if dot.abs() > 1e-9 {
        return Err(format!(
            "--plane-u and --plane-v must be perpendicular (their normalised dot product is {})",
            short(dot)
        ));
    }
    Ok(Plane { u, v })
}

/// The plane's unit directions in `dims` dimensions.
impl PlaneName {
    fn plane(self, dims: usize) -> Plane {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let s6 = 1.0 / 6f64.sqrt();
        let (u, v) = match (self, dims) {
            (PlaneName::Xy, _) => ([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]),
            (PlaneName::Diagonal, 2) => ([h, h, 0.0, 0.0], [-h, h, 0.0, 0.0]),
            (PlaneName::Diagonal, 3) => ([h, -h, 0.0, 0.0], [s6, s6, -2.0 * s6, 0.0]),
            (PlaneName::Diagonal, _) => ([0.5, -0.5, 0.5, -0.5], [0.5, 0.5, -0.5, -0.5]),
        };
        Plane { u, v }
    }
}

/// `--scale`, or the config's, or a quarter unit.
fn slice_scale(args: &AnalyzeArgs, view: &crate::document::View) -> Result<[Ratio; 2], String> {
    Ok(crate::units::scale_pair(args.scale.as_deref())?
        .unwrap_or_else(|| view.scale.unwrap_or([Ratio { num: 1.0, den: 4.0 }; 2])))
}
