//! `surflet render`: draw a noise over a 2D slice of 2D, 3D or 4D space into
//! an image file.
//!
//! The pipeline is: options and config → [`plan::Plan`] (all validation, no
//! allocation) → memory and disk checks ([`guard`]) → temporary file → per
//! frame: render rows in parallel, turn values into pixels, encode
//! ([`frames`]) → rename into place ([`crate::imaging::output`]).

mod args;
mod frames;
mod guard;
pub mod help;
mod plan;
mod progress;

#[cfg(feature = "serve")]
pub use args::Mode;
pub use args::RenderArgs;

#[cfg(feature = "serve")]
use crate::document::Document;

use crate::CliError;
use crate::imaging::output::{self, Staged};
use crate::stack_args::StagedConfig;
use plan::{Plan, Range};
use progress::Progress;

/// Why rendering stopped early.
pub enum Stop {
    Interrupted,
    Failed(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Failed(e)
    }
}

/// Runs `surflet render`.
pub fn run(args: &RenderArgs) -> Result<(), CliError> {
    if args.output.is_dir() {
        return Err(CliError::Runtime(format!(
            "{} is a directory; give a file name like {}",
            args.output.display(),
            args.output.join("noise.png").display()
        )));
    }
    let plan = Plan::new(args).map_err(CliError::Usage)?;
    if let Some(warning) = &plan.warning {
        eprintln!("{warning}");
    }
    output::check_target(&plan.output, plan.overwrite).map_err(CliError::Runtime)?;
    plan.check_memory().map_err(CliError::Runtime)?;
    plan.check_disk().map_err(CliError::Runtime)?;
    output::install_interrupt_handler().map_err(CliError::Runtime)?;
    // Staged first and committed after the image, so that a failed or
    // interrupted render leaves neither file.
    let config = match &plan.save_config {
        Some((path, doc)) => {
            Some(StagedConfig::new(path, doc, plan.overwrite).map_err(CliError::Runtime)?)
        }
        None => None,
    };
    let staged = Staged::new(&plan.output).map_err(CliError::Runtime)?;
    let passes = if plan.range == Range::Auto && plan.frames > 1 {
        2
    } else {
        1
    };
    let progress = Progress::new(
        u64::from(plan.height) * u64::from(plan.frames) * passes,
        plan.quiet,
    );
    let result = frames::render(&plan, staged.file(), &progress);
    progress.finish();
    match result {
        // Dropping `staged` deletes the temporary file.
        Err(Stop::Interrupted) => Err(CliError::Interrupted),
        _ if output::interrupted() => Err(CliError::Interrupted),
        Err(Stop::Failed(e)) => Err(CliError::Runtime(e)),
        Ok(()) => {
            staged.commit(plan.overwrite).map_err(CliError::Runtime)?;
            config
                .map_or(Ok(()), StagedConfig::commit)
                .map_err(CliError::Runtime)
        }
    }
}

/// A render made in memory, for `surflet serve`.
#[cfg(feature = "serve")]
pub struct InMemory {
    /// The encoded image.
    pub bytes: Vec<u8>,
    /// What `surflet render` would print on stderr as a warning (a config
    /// without `version`), without the `warning: ` prefix.
    pub warning: Option<String>,
}

/// Why an in-memory render failed.
#[cfg(feature = "serve")]
pub enum MemoryError {
    /// The options or the description are wrong (the CLI's usage error).
    Usage(String),
    /// `stop` said to stop.
    Stopped,
    /// Something failed while rendering.
    Failed(String),
}

#[cfg(feature = "serve")]
impl From<Stop> for MemoryError {
    fn from(s: Stop) -> MemoryError {
        match s {
            Stop::Interrupted => MemoryError::Stopped,
            Stop::Failed(e) => MemoryError::Failed(e),
        }
    }
}

/// Renders what `args` describes into memory, as `surflet render` would
/// write it to OUTPUT (the same plan, pixels and encoder, so the same
/// bytes), checking `stop` between bands of rows. OUTPUT is not touched.
#[cfg(feature = "serve")]
pub fn to_memory(args: &RenderArgs, stop: &dyn Fn() -> bool) -> Result<InMemory, MemoryError> {
    let plan = Plan::new(args).map_err(MemoryError::Usage)?;
    plan.check_memory().map_err(MemoryError::Failed)?;
    let mut out = std::io::Cursor::new(Vec::new());
    frames::render_into(&plan, &mut out, &Progress::new(0, true), stop)?;
    Ok(InMemory {
        bytes: out.into_inner(),
        warning: plan
            .warning
            .as_deref()
            .map(|w| w.trim_start_matches("warning: ").to_string()),
    })
}

/// The values of what `args` describes, with the field's derived range and
/// the pixel spacing (world units across and down): what the preview's
/// analysis panel measures.
#[cfg(feature = "serve")]
pub struct Values {
    pub values: Vec<f64>,
    pub width: u32,
    pub height: u32,
    pub range: (f64, f64),
    pub spacing: (f64, f64),
}

/// Evaluates what `args` describes, frame 0, without turning it into
/// pixels.
#[cfg(feature = "serve")]
pub fn values(args: &RenderArgs, stop: &dyn Fn() -> bool) -> Result<Values, MemoryError> {
    let plan = Plan::new(args).map_err(MemoryError::Usage)?;
    plan.check_memory().map_err(MemoryError::Failed)?;
    Ok(Values {
        values: frames::values(&plan, stop)?,
        width: plan.width,
        height: plan.height,
        range: plan.field.range(),
        spacing: (plan.x.step.value(), plan.y.step.value()),
    })
}

/// Every resolved choice of what `args` describes, as `--save-config`
/// would write it, without rendering.
#[cfg(feature = "serve")]
pub fn resolve(args: &RenderArgs) -> Result<Document, String> {
    Plan::new(args).map(|p| p.doc)
}
