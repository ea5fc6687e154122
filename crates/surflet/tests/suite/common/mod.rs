//! Shared helpers for the golden tests: load a reference CSV, compare, report.
#![allow(dead_code)]

use std::path::PathBuf;

/// One reference file: its column names and its numeric rows.
pub struct Golden {
    pub name: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<f64>>,
}

impl Golden {
    /// Loads `tests/golden/<name>` (a copy of `shared/reference/<name>`).
    pub fn load(name: &str) -> Golden {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(name);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let mut lines = text.lines();
        let header: Vec<String> = lines
            .next()
            .expect("empty golden file")
            .split(',')
            .map(|s| s.trim().to_string())
            .collect();
        let rows: Vec<Vec<f64>> = lines
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| {
                let row: Vec<f64> = l
                    .split(',')
                    .map(|s| {
                        s.trim().parse::<f64>().unwrap_or_else(|e| {
                            panic!("{name} data row {i}: cannot parse {s:?}: {e}")
                        })
                    })
                    .collect();
                assert_eq!(row.len(), header.len(), "{name} data row {i}: column count");
                row
            })
            .collect();
        Golden {
            name: name.to_string(),
            header,
            rows,
        }
    }

    /// Index of a column by name.
    pub fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{}: no column {name:?} in {:?}", self.name, self.header))
    }
}

/// Accumulates the worst error per tolerance class and fails with a report
/// naming the worst row if any row is outside its tolerance.
#[derive(Default)]
pub struct Report {
    failures: Vec<String>,
    worst: Vec<(String, f64, usize)>,
    checked: usize,
}

impl Report {
    pub fn new() -> Report {
        Report::default()
    }

    /// Records one comparison in class `class` (e.g. "value |x|<=300").
    pub fn check(&mut self, class: &str, row: usize, got: f64, want: f64, tol: f64) {
        self.checked += 1;
        let err = if got == want || (got.is_nan() && want.is_nan()) {
            0.0
        } else {
            (got - want).abs()
        };
        match self.worst.iter_mut().find(|w| w.0 == class) {
            Some(w) => {
                if err > w.1 || err.is_nan() {
                    w.1 = err;
                    w.2 = row;
                }
            }
            None => self.worst.push((class.to_string(), err, row)),
        }
        // Written so that a NaN error fails too.
        if err.is_nan() || err > tol {
            self.failures.push(format!(
                "row {row} [{class}]: got {got:?}, want {want:?}, |err| {err:e} > tol {tol:e}"
            ));
        }
    }

    /// Prints the worst error per class and panics if anything failed.
    pub fn finish(self, what: &str) {
        println!("{what}: {} comparisons", self.checked);
        for (class, err, row) in &self.worst {
            println!("  worst [{class}]: {err:e} (row {row})");
        }
        assert!(self.checked > 0, "{what}: nothing was compared");
        if !self.failures.is_empty() {
            let shown: Vec<_> = self.failures.iter().take(20).cloned().collect();
            panic!(
                "{what}: {} of {} comparisons out of tolerance:\n{}",
                self.failures.len(),
                self.checked,
                shown.join("\n")
            );
        }
    }
}
