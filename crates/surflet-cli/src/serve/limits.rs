//! What one request may ask of the server, and the checks.

use std::time::Duration;

use serde::Serialize;
use surflet::{Graph, Stack};

use crate::document::Document;

/// The server's limits (documented in `surflet serve --help`).
#[derive(Clone, Debug, Serialize)]
pub struct Limits {
    /// Bytes of a request body (413 beyond).
    pub max_body: usize,
    /// Pixels per image side (413 beyond).
    pub max_side: u32,
    /// Points of one sample request (413 beyond).
    pub max_points: usize,
    /// Octaves of any fractal (400 beyond).
    pub max_octaves: u32,
    /// Depth of a graph (400 beyond).
    pub max_depth: usize,
    /// Requests computing at once (503 beyond).
    pub max_renders: usize,
    /// Time a request may compute (504 beyond).
    #[serde(serialize_with = "seconds")]
    pub timeout: Duration,
}

fn seconds<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body: 1 << 20,
            max_side: 2048,
            max_points: 65536,
            max_octaves: 16,
            max_depth: 32,
            max_renders: 4,
            timeout: Duration::from_secs(10),
        }
    }
}

/// A refused request: the status and the message.
pub type Refusal = (u16, String);

impl Limits {
    /// Checks an image size.
    pub fn size(&self, [w, h]: [u32; 2]) -> Result<(), Refusal> {
        if w == 0 || h == 0 {
            return Err((400, "the image size must be at least 1x1".into()));
        }
        if w > self.max_side || h > self.max_side {
            return Err((
                413,
                format!(
                    "{w}x{h} is larger than this server renders: at most {} pixels per side",
                    self.max_side
                ),
            ));
        }
        Ok(())
    }

    /// Checks the octaves and depth of a description.
    pub fn description(
        &self,
        doc: Option<&Document>,
        graph: Option<&Graph>,
    ) -> Result<(), Refusal> {
        if let Some(g) = graph {
            if g.depth() > self.max_depth {
                return Err((
                    400,
                    format!(
                        "the graph is {} nodes deep; this server takes at most {}",
                        g.depth(),
                        self.max_depth
                    ),
                ));
            }
            self.graph_octaves(g)?;
        }
        if let Some(doc) = doc {
            self.stack_octaves(&doc.stack)?;
            if let Some(n) = doc.animation.frames
                && n > 1
            {
                return Err((
                    400,
                    format!("the server renders still images; this config has {n} frames"),
                ));
            }
        }
        Ok(())
    }

    /// The octaves of a stack's fractal and of its warp's.
    fn stack_octaves(&self, stack: &Stack) -> Result<(), Refusal> {
        let warp = stack.warp.as_ref().and_then(|w| w.fractal.as_ref());
        for f in stack.fractal.iter().chain(warp) {
            self.octave_count(f.octaves)?;
        }
        Ok(())
    }

    /// Every stack leaf's octaves, and `distort`'s turbulence octaves
    /// (its roughness), however deep.
    fn graph_octaves(&self, g: &Graph) -> Result<(), Refusal> {
        match g {
            Graph::Stack(stack) => self.stack_octaves(stack)?,
            Graph::Distort { roughness, .. } => self.octave_count(*roughness)?,
            _ => {}
        }
        g.children()
            .into_iter()
            .try_for_each(|c| self.graph_octaves(c))
    }

    fn octave_count(&self, n: u32) -> Result<(), Refusal> {
        if n > self.max_octaves {
            return Err((
                400,
                format!(
                    "{n} octaves: this server takes at most {}",
                    self.max_octaves
                ),
            ));
        }
        Ok(())
    }
}
