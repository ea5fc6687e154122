//! `DynField::points` (what `DynField::noise` is without the `dynamic-noise`
//! feature, as in the command line's build) gives the bits of the batch
//! engine behind `DynField::new`: point arrays in both layouts and grid
//! windows, values, gradients and bounds, every family noise in 1D–4D (with
//! a period where the kind has one) and the N-D noises in 5D–8D, `f32` and
//! `f64`.

use surflet::dynamic::{DynField, GradientOut, Points, Region};
use surflet::nd::{NdKind, NoiseNd};
use surflet::{Field, Float, Noise, NoiseKind};

/// Fills and grids `a` and `b` alike in precision `F` and asserts the same
/// bits.
fn same<F: Float>(a: &DynField, b: &DynField, what: &str) {
    let d = a.dims();
    let n = 37;
    let points: Vec<F> = (0..n * d)
        .map(|i| F::from_f64(((i * 7919) % 1013) as f64 * 0.0137 - 6.1))
        .collect();
    let run = |f: &DynField| {
        let mut v = vec![F::ZERO; n];
        let mut g = vec![F::ZERO; n * d];
        f.fill(
            Points::Interleaved(&points),
            &mut v,
            Some(GradientOut::Interleaved(&mut g)),
        )
        .unwrap();
        let axes: Vec<Vec<F>> = (0..d)
            .map(|a| (0..n).map(|i| points[i * d + a]).collect())
            .collect();
        let axes: Vec<&[F]> = axes.iter().map(|c| &c[..]).collect();
        let mut w = vec![F::ZERO; n];
        f.fill(Points::Axes(&axes), &mut w, None).unwrap();
        let shape: Vec<usize> = (0..d).map(|a| if a < 2 { 19 } else { 2 }).collect();
        let len: usize = shape.iter().product();
        let (origin, step) = (vec![F::from_f64(-3.3); d], vec![F::from_f64(0.173); d]);
        let start = vec![5usize; d];
        let region = Region::Window {
            origin: &origin,
            step: &step,
            start: &start,
            shape: &shape,
        };
        let mut gv = vec![F::ZERO; len];
        let mut gg = vec![F::ZERO; len * d];
        let bounds = f
            .grid(region, &mut gv, Some(GradientOut::Interleaved(&mut gg)))
            .unwrap();
        let bits = |s: &[F]| s.iter().map(|x| x.to_f64().to_bits()).collect::<Vec<_>>();
        (
            bits(&v),
            bits(&g),
            bits(&w),
            bits(&gv),
            bits(&gg),
            bits(&[bounds.min, bounds.max]),
        )
    };
    assert!(run(a) == run(b), "{what}: by point and batch differ");
}

fn both(a: DynField, b: DynField, what: &str) {
    same::<f32>(&a, &b, &format!("{what}, f32"));
    same::<f64>(&a, &b, &format!("{what}, f64"));
}

fn family<const D: usize>() {
    for kind in NoiseKind::ALL {
        let n = Noise::<D>::new(kind, 11);
        let what = format!("{kind} {D}D");
        both(DynField::points(n), DynField::new(n), &what);
        if kind.periodic_dims().contains(&D) {
            let p = n.with_period([6; D]).unwrap();
            both(
                DynField::points(p),
                DynField::new(p),
                &format!("{what}, period 6"),
            );
        }
    }
}

#[test]
fn point_by_point_erasure_is_the_batch_engine() {
    family::<1>();
    family::<2>();
    family::<3>();
    family::<4>();
    fn nd<const D: usize>() {
        for kind in [NdKind::Value, NdKind::Perlin, NdKind::Simplex] {
            let n = NoiseNd::<D>::new(kind, 3);
            both(
                DynField::points(n),
                DynField::new(n),
                &format!("{kind:?} {D}D"),
            );
        }
    }
    nd::<5>();
    nd::<8>();
}

/// The point-by-point erasure checks the lengths as the batch engine does.
#[test]
fn point_by_point_erasure_checks_lengths() {
    let f = DynField::points(Noise::<2>::new(NoiseKind::Perlin, 1));
    let mut out = [0.0f32; 3];
    assert!(
        f.fill(Points::Interleaved(&[0.5f32; 5]), &mut out, None)
            .is_err()
    );
    let mut g = [0.0f32; 5];
    let r = f.fill(
        Points::Interleaved(&[0.5f32; 6]),
        &mut out,
        Some((&mut g[..]).into()),
    );
    assert!(r.is_err());
    assert_eq!(
        f.range(),
        Field::range(&Noise::<2>::new(NoiseKind::Perlin, 1))
    );
}
