//! The C API called as C calls it (raw pointers, status codes), checked
//! against the Rust library, and the committed header against cbindgen's.

use std::ffi::{CStr, CString};
use std::ptr::{null, null_mut};

use surflet::prelude::*;
use surflet_c::*;

/// A handle that frees itself.
struct Handle(*mut SurfletField);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: made by one of the constructors, freed once.
        unsafe { surflet_field_free(self.0) };
    }
}

fn last_error() -> String {
    // SAFETY: valid until the next failure on this thread.
    unsafe { CStr::from_ptr(surflet_last_error()) }
        .to_str()
        .unwrap()
        .to_string()
}

fn made(status: SurfletStatus, f: *mut SurfletField) -> Handle {
    assert_eq!(status, SurfletStatus::Ok, "{}", last_error());
    assert!(!f.is_null());
    Handle(f)
}

fn noise(name: &str, seed: u64, dims: u32) -> Handle {
    let name = CString::new(name).unwrap();
    let mut f = null_mut();
    // SAFETY: valid arguments.
    made(
        unsafe { surflet_noise_new(name.as_ptr(), seed, dims, &mut f) },
        f,
    )
}

fn config(text: &str, dims: u32) -> Handle {
    let text = CString::new(text).unwrap();
    let mut f = null_mut();
    // SAFETY: valid arguments.
    made(
        unsafe { surflet_config_new(text.as_ptr(), dims, &mut f) },
        f,
    )
}

fn expr(text: &str, dims: u32) -> Handle {
    let text = CString::new(text).unwrap();
    let mut f = null_mut();
    // SAFETY: valid arguments.
    made(unsafe { surflet_expr_new(text.as_ptr(), dims, &mut f) }, f)
}

/// Points spread over a few cells, with negative and large coordinates.
fn points<const D: usize>(n: usize) -> Vec<[f64; D]> {
    (0..n)
        .map(|i| {
            core::array::from_fn(|a| {
                let t = (i * 7 + a * 13) as f64;
                (t * 0.618_033_988_7).sin() * 5.0 + if i % 5 == 0 { 1e4 } else { 0.0 }
            })
        })
        .collect()
}

/// The C API's values and gradients at `pts`, in f64 and f32, against a
/// Rust field's single-point calls, bit for bit.
fn same_as<const D: usize, T: Field<D>>(h: &Handle, field: &T, pts: &[[f64; D]]) {
    let n = pts.len();
    // SAFETY: a live handle.
    assert_eq!(unsafe { surflet_field_dims(h.0) }, D as u32);
    let flat: Vec<f64> = pts.iter().flatten().copied().collect();
    let (mut v, mut g) = (vec![0.0; n], vec![0.0; n * D]);
    // SAFETY: n points of D, room for n values and n*D derivatives.
    let s = unsafe { surflet_sample_f64(h.0, flat.as_ptr(), n, v.as_mut_ptr(), g.as_mut_ptr()) };
    assert_eq!(s, SurfletStatus::Ok, "{}", last_error());
    let flat32: Vec<f32> = flat.iter().map(|&x| x as f32).collect();
    let (mut v32, mut g32) = (vec![0.0f32; n], vec![0.0f32; n * D]);
    // SAFETY: as above, in f32.
    let s =
        unsafe { surflet_sample_f32(h.0, flat32.as_ptr(), n, v32.as_mut_ptr(), g32.as_mut_ptr()) };
    assert_eq!(s, SurfletStatus::Ok, "{}", last_error());
    for (i, p) in pts.iter().enumerate() {
        let want = field.sample(*p);
        assert_eq!(v[i].to_bits(), want.value.to_bits(), "value at {p:?}");
        assert_eq!(
            &g[i * D..i * D + D],
            &want.gradient[..],
            "gradient at {p:?}"
        );
        let p32 = p.map(|x| x as f32);
        let want = field.sample(p32);
        assert_eq!(
            v32[i].to_bits(),
            want.value.to_bits(),
            "f32 value at {p32:?}"
        );
        assert_eq!(&g32[i * D..i * D + D], &want.gradient[..], "f32 gradient");
    }
    // Values alone: the same values.
    let mut alone = vec![0.0; n];
    // SAFETY: as above, no gradient.
    let s = unsafe { surflet_sample_f64(h.0, flat.as_ptr(), n, alone.as_mut_ptr(), null_mut()) };
    assert_eq!(s, SurfletStatus::Ok);
    assert_eq!(alone, v);
}

#[test]
fn noises_configs_and_expressions_give_the_librarys_bits() {
    for kind in NoiseKind::ALL {
        let h = noise(kind.name(), 77, 2);
        same_as(&h, &Noise::<2>::new(kind, 77), &points::<2>(300));
        let h = noise(kind.name(), 5, 3);
        same_as(&h, &Noise::<3>::new(kind, 5), &points::<3>(200));
    }
    let h = noise("perlin", 1, 1);
    same_as(
        &h,
        &Noise::<1>::new(NoiseKind::Perlin, 1),
        &points::<1>(100),
    );
    let h = noise("value", 2, 4);
    same_as(&h, &Noise::<4>::new(NoiseKind::Value, 2), &points::<4>(100));

    let toml = "noise = \"perlin\"\nseed = 9\nfrequency = 0.5\nperiod = [8, 8]\n\
                [fractal]\nkind = \"ridged\"\noctaves = 5\n\
                [warp]\nkind = \"progressive\"\namplitude = 0.3\n";
    let stack = Stack::from_toml_str(toml).unwrap();
    same_as(
        &config(toml, 2),
        &stack.build::<2>().unwrap(),
        &points::<2>(300),
    );
    let json = stack.to_json_string().unwrap();
    same_as(
        &config(&json, 2),
        &stack.build::<2>().unwrap(),
        &points::<2>(100),
    );

    let text = "select(fbm(simplex(seed=1), octaves=6) * 0.6 - 0.2, \
                ridged(perlin(seed=2, frequency=2), octaves=5), \
                control=fbm(perlin(seed=3, frequency=0.5), octaves=2), threshold=0.1, falloff=0.15)";
    let graph = Graph::parse(text).unwrap();
    same_as(
        &expr(text, 3),
        &graph.build::<3>().unwrap(),
        &points::<3>(300),
    );
    // Alias-free fractals: the caller states the footprint, in a config
    // or an expression.
    let toml = "noise = \"simplex\"\nantialias = true\nfootprint = 0.1\n[fractal]\noctaves = 7\n";
    let stack = Stack::from_toml_str(toml).unwrap();
    same_as(
        &config(toml, 2),
        &stack.build::<2>().unwrap(),
        &points::<2>(200),
    );
    let text = "fbm(perlin(antialias=true, footprint=0.05), octaves=8)";
    same_as(
        &expr(text, 3),
        &Graph::parse(text).unwrap().build::<3>().unwrap(),
        &points::<3>(200),
    );

    // A config's [graph] table, as --save-config writes it.
    let doc = surflet::document::Document {
        graph: Some(graph.clone()),
        ..Default::default()
    };
    let doc = doc.to_toml().unwrap();
    assert!(doc.contains("[graph"), "{doc}");
    same_as(
        &config(&doc, 2),
        &graph.build::<2>().unwrap(),
        &points::<2>(100),
    );
}

#[test]
fn grids_and_their_windows_give_the_librarys_bits() {
    let h = expr("fbm(simplex(seed=4), octaves=4)", 2);
    let f = Graph::parse("fbm(simplex(seed=4), octaves=4)")
        .unwrap()
        .build::<2>()
        .unwrap();
    let (origin, step) = ([-1.3f64, 0.7], [1.0 / 3.0, 0.37]);
    let (whole_shape, start, shape) = ([61usize, 37], [17usize, 9], [30usize, 20]);
    let run = |start: Option<&[usize; 2]>, shape: &[usize; 2], gradient: bool| {
        let n = shape[0] * shape[1];
        let (mut v, mut g) = (vec![0.0; n], vec![0.0; 2 * n]);
        // SAFETY: arrays of D entries, room for n values and 2n derivatives.
        let s = unsafe {
            surflet_grid_f64(
                h.0,
                origin.as_ptr(),
                step.as_ptr(),
                start.map_or(null(), |s| s.as_ptr()),
                shape.as_ptr(),
                v.as_mut_ptr(),
                if gradient { g.as_mut_ptr() } else { null_mut() },
            )
        };
        assert_eq!(s, SurfletStatus::Ok, "{}", last_error());
        (v, g)
    };
    let (whole, whole_g) = run(None, &whole_shape, true);
    let (part, part_g) = run(Some(&start), &shape, true);
    let (plain, _) = run(Some(&start), &shape, false);
    assert_eq!(plain, part);
    for j in 0..shape[1] {
        for i in 0..shape[0] {
            let k = i + shape[0] * j;
            let w = (start[0] + i) + whole_shape[0] * (start[1] + j);
            assert_eq!(part[k].to_bits(), whole[w].to_bits(), "({i}, {j})");
            assert_eq!(part_g[2 * k..2 * k + 2], whole_g[2 * w..2 * w + 2]);
            let p = [
                origin[0] + (start[0] + i) as f64 * step[0],
                origin[1] + (start[1] + j) as f64 * step[1],
            ];
            let s = f.sample(p);
            assert_eq!(part[k].to_bits(), s.value.to_bits(), "({i}, {j}) at {p:?}");
            assert_eq!(part_g[2 * k..2 * k + 2], s.gradient);
        }
    }

    // f32: coordinates computed in f32.
    let h = noise("simplex", 3, 3);
    let n3 = Noise::<3>::new(NoiseKind::Simplex, 3);
    let (o, st, sh) = ([0.1f32, -2.0, 0.5], [0.3f32, 0.7, 0.11], [9usize, 4, 3]);
    let mut v = vec![0.0f32; 9 * 4 * 3];
    // SAFETY: as above.
    let s = unsafe {
        surflet_grid_f32(
            h.0,
            o.as_ptr(),
            st.as_ptr(),
            null(),
            sh.as_ptr(),
            v.as_mut_ptr(),
            null_mut(),
        )
    };
    assert_eq!(s, SurfletStatus::Ok);
    for (k, got) in v.iter().enumerate() {
        let idx = [k % 9, (k / 9) % 4, k / 36];
        let p: [f32; 3] = core::array::from_fn(|a| o[a] + idx[a] as f32 * st[a]);
        assert_eq!(got.to_bits(), n3.get(p).to_bits(), "{idx:?}");
    }
}

#[test]
fn bad_arguments_are_statuses_with_messages() {
    let c = |s: &str| CString::new(s).unwrap();
    type Make = Box<dyn Fn(*mut *mut SurfletField) -> SurfletStatus>;
    let name = |n: &'static str, dims: u32| -> Make {
        // SAFETY: a valid string and the caller's place for the handle.
        Box::new(move |out| unsafe { surflet_noise_new(c(n).as_ptr(), 0, dims, out) })
    };
    let config = |t: &'static str| -> Make {
        // SAFETY: as above.
        Box::new(move |out| unsafe { surflet_config_new(c(t).as_ptr(), 2, out) })
    };
    let expr = |t: &'static str| -> Make {
        // SAFETY: as above.
        Box::new(move |out| unsafe { surflet_expr_new(c(t).as_ptr(), 2, out) })
    };
    let cases: Vec<(Make, SurfletStatus, &str)> = vec![
        (name("simplx", 2), SurfletStatus::InvalidArgument, "simplx"),
        (name("simplex", 5), SurfletStatus::InvalidArgument, "1 to 4"),
        (name("simplex", 0), SurfletStatus::InvalidArgument, "1 to 4"),
        (config("noise = 3"), SurfletStatus::InvalidArgument, "noise"),
        (
            config("[fractal]\noctaves = 0"),
            SurfletStatus::InvalidArgument,
            "octaves",
        ),
        (config("{\"seed\": }"), SurfletStatus::InvalidArgument, ""),
        (
            // Points have no pixel: an antialiased stack states its footprint.
            config("antialias = true\n[fractal]\noctaves = 4"),
            SurfletStatus::InvalidArgument,
            "antialias: needs the spacing",
        ),
        (
            // SAFETY: a NULL config is refused, not read.
            Box::new(|out| unsafe { surflet_config_new(null(), 2, out) }),
            SurfletStatus::NullPointer,
            "config is NULL",
        ),
        (
            expr("fbm(simplex(), octaves=0)"),
            SurfletStatus::InvalidArgument,
            "octaves",
        ),
        (
            // SAFETY: a NUL-terminated string that is not UTF-8.
            Box::new(|out| unsafe { surflet_expr_new(c"\xff(".as_ptr(), 2, out) }),
            SurfletStatus::InvalidArgument,
            "UTF-8",
        ),
    ];
    for (i, (make, want, needle)) in cases.into_iter().enumerate() {
        let mut f = null_mut();
        assert_eq!(make(&mut f), want, "case {i}: {}", last_error());
        assert!(f.is_null(), "case {i} made a handle");
        let message = last_error();
        assert!(
            message.contains(needle) && !message.is_empty(),
            "case {i}: {message}"
        );
        // No place for the handle: refused before anything is built.
        assert_eq!(make(null_mut()), SurfletStatus::NullPointer, "case {i}");
        assert_eq!(last_error(), "out is NULL");
    }

    let h = noise("perlin", 0, 2);
    let pts = [0.5f64; 4];
    let mut v = [0.0f64; 2];
    // SAFETY: every pointer is valid or NULL, which is refused; the
    // misaligned pointer is refused before it is read.
    unsafe {
        let s = surflet_sample_f64(null(), pts.as_ptr(), 2, v.as_mut_ptr(), null_mut());
        assert_eq!(
            (s, last_error().as_str()),
            (SurfletStatus::NullPointer, "field is NULL")
        );
        let s = surflet_sample_f64(h.0, null(), 2, v.as_mut_ptr(), null_mut());
        assert_eq!(
            (s, last_error().as_str()),
            (SurfletStatus::NullPointer, "points is NULL")
        );
        let s = surflet_sample_f64(h.0, pts.as_ptr(), 2, null_mut(), null_mut());
        assert_eq!(
            (s, last_error().as_str()),
            (SurfletStatus::NullPointer, "values is NULL")
        );
        // No points: nothing is read or written, NULL or not.
        let s = surflet_sample_f64(h.0, null(), 0, null_mut(), null_mut());
        assert_eq!(s, SurfletStatus::Ok);
        let bytes = [0u8; 64];
        let odd = bytes.as_ptr().add(1).cast::<f64>();
        let s = surflet_sample_f64(h.0, odd, 2, v.as_mut_ptr(), null_mut());
        assert_eq!(s, SurfletStatus::NullPointer);
        assert!(last_error().contains("aligned"));
        let s = surflet_sample_f64(h.0, pts.as_ptr(), usize::MAX, v.as_mut_ptr(), null_mut());
        assert_eq!(s, SurfletStatus::InvalidArgument);
        assert!(last_error().contains("overflow"), "{}", last_error());

        let (o, st) = ([0.0f64; 2], [1.0f64; 2]);
        let huge = [usize::MAX, 2];
        let s = surflet_grid_f64(
            h.0,
            o.as_ptr(),
            st.as_ptr(),
            null(),
            huge.as_ptr(),
            v.as_mut_ptr(),
            null_mut(),
        );
        assert_eq!(s, SurfletStatus::InvalidArgument);
        assert!(last_error().contains("too many points"), "{}", last_error());
        let start = [usize::MAX, 0];
        let shape = [1usize, 1];
        let s = surflet_grid_f64(
            h.0,
            o.as_ptr(),
            st.as_ptr(),
            start.as_ptr(),
            shape.as_ptr(),
            v.as_mut_ptr(),
            null_mut(),
        );
        assert_eq!(s, SurfletStatus::InvalidArgument);
        assert!(last_error().contains("overflows"), "{}", last_error());
        let s = surflet_grid_f64(
            h.0,
            null(),
            st.as_ptr(),
            null(),
            shape.as_ptr(),
            v.as_mut_ptr(),
            null_mut(),
        );
        assert_eq!(
            (s, last_error().as_str()),
            (SurfletStatus::NullPointer, "origin is NULL")
        );

        let (mut lo, mut hi) = (0.0, 0.0);
        assert_eq!(
            surflet_field_range(h.0, null_mut(), &mut hi),
            SurfletStatus::NullPointer
        );
        assert_eq!(
            surflet_field_range(null(), &mut lo, &mut hi),
            SurfletStatus::NullPointer
        );
    }
}

/// Errors are per thread, and one handle serves many threads at once.
#[test]
fn threads_share_handles_and_keep_their_own_errors() {
    let h = noise("opensimplex2s", 12, 2);
    let n = Noise::<2>::new(NoiseKind::OpenSimplex2S, 12);
    struct Shared(*const SurfletField);
    // SAFETY: a handle is immutable and Sync (its docs).
    unsafe impl Sync for Shared {}
    let shared = Shared(h.0);
    let mut f = null_mut();
    // SAFETY: a valid string; the failure is this thread's.
    let s = unsafe { surflet_noise_new(c"nope".as_ptr(), 0, 2, &mut f) };
    assert_eq!(s, SurfletStatus::InvalidArgument);
    std::thread::scope(|scope| {
        for t in 0..4 {
            let shared = &shared;
            let n = &n;
            scope.spawn(move || {
                assert_eq!(last_error(), "", "thread {t} sees another's error");
                let pts: Vec<f64> = (0..2000).map(|i| (i + t * 2000) as f64 * 0.013).collect();
                let mut v = vec![0.0; 1000];
                // SAFETY: 1000 2D points, room for 1000 values.
                let s = unsafe {
                    surflet_sample_f64(shared.0, pts.as_ptr(), 1000, v.as_mut_ptr(), null_mut())
                };
                assert_eq!(s, SurfletStatus::Ok);
                for (i, got) in v.iter().enumerate() {
                    assert_eq!(*got, n.get([pts[2 * i], pts[2 * i + 1]]));
                }
            });
        }
    });
    assert!(last_error().contains("nope"));
}

/// include/surflet.h is what cbindgen makes of src/lib.rs now. With
/// SURFLET_BLESS=1 the test writes it instead.
#[test]
fn header_is_generated_from_the_source() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_crate(dir)
        .generate()
        .expect("cbindgen reads src/lib.rs");
    let mut now = Vec::new();
    bindings.write(&mut now);
    let path = format!("{dir}/include/surflet.h");
    if std::env::var_os("SURFLET_BLESS").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == now,
        "{path} is not what cbindgen generates from src/lib.rs; run \
         SURFLET_BLESS=1 cargo test -p surflet-c --test api header and commit it"
    );
}

/// A panic inside a call comes back as `Internal` with the message, the
/// thread goes on, and the next call works.
#[test]
fn a_panic_is_an_internal_status_not_an_unwind() {
    let s = __behind_the_boundary(|| panic!("a bug, caught"));
    assert_eq!(s, SurfletStatus::Internal);
    let e = last_error();
    assert!(
        e.starts_with("internal error in surflet") && e.contains("a bug, caught"),
        "{e}"
    );
    let h = noise("perlin", 1, 2);
    let mut v = [0.0f64];
    // SAFETY: one 2D point, room for one value.
    let s = unsafe { surflet_sample_f64(h.0, [0.5, 0.25].as_ptr(), 1, v.as_mut_ptr(), null_mut()) };
    assert_eq!(s, SurfletStatus::Ok);
    assert_eq!(__behind_the_boundary(|| ()), SurfletStatus::Ok);
}

const OOM_CHILD: &str = "SURFLET_C_TEST_OUT_OF_MEMORY";

/// A call whose working memory cannot be allocated returns `OutOfMemory`
/// and writes nothing. The test runs itself again in a child process whose
/// address space is capped just above what it holds (`setrlimit`), so the
/// call's per-axis copy of 2^24 points (128 MiB an axis) cannot be had.
#[test]
fn working_memory_that_cannot_be_had_is_out_of_memory() {
    if std::env::var_os(OOM_CHILD).is_some() {
        return out_of_memory_in_this_process();
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "working_memory_that_cannot_be_had_is_out_of_memory",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(OOM_CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("OutOfMemory returned") && stdout.contains("1 passed"),
        "{stdout}\n{stderr}"
    );
}

fn out_of_memory_in_this_process() {
    let h = noise("perlin", 1, 3);
    let count = 1usize << 24;
    let points = vec![0.25f64; count * 3];
    let mut values = vec![7.0f64; count];
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let vm_kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap();
    let cap = (vm_kib + 64 * 1024) * 1024;
    let limit = libc::rlimit {
        rlim_cur: cap,
        rlim_max: cap,
    };
    // SAFETY: a valid rlimit for this process's own address space.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    // SAFETY: 2^24 3D points, room for 2^24 values, no gradient.
    let s =
        unsafe { surflet_sample_f64(h.0, points.as_ptr(), count, values.as_mut_ptr(), null_mut()) };
    assert_eq!(s, SurfletStatus::OutOfMemory, "{}", last_error());
    let e = last_error();
    assert!(e.contains("cannot allocate"), "{e}");
    assert!(values.iter().all(|&v| v == 7.0), "values were written");
    println!("OutOfMemory returned: {e}");
}
