//! Nothing here: the harness lives in `benches/noise.rs`. Run `./run.sh`.
