//! What the GPU tests share.

use surflet_gpu::GpuContext;

/// The context, or `None` (after saying why) where there is no adapter and
/// this is not CI, where a missing adapter fails the test.
pub fn context() -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(ctx) => {
            eprintln!("adapter: {}", ctx.adapter_info());
            Some(ctx)
        }
        Err(e) => {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("CI=true and no GPU context: {e}");
            }
            eprintln!("skipped, no GPU context: {e}");
            None
        }
    }
}
