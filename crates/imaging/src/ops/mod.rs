//! The operations, one file each, and the loop that runs them in order.

mod adjust;
mod background;
mod detail;
mod enhance;
mod retouch;
mod style;
mod upscale;

pub use adjust::adjust;
pub use background::{background, background_behind};
pub use detail::{sharpen, soften};
pub use enhance::enhance;
pub use retouch::retouch;
pub use style::style;
pub use upscale::upscale;

use crate::face::FaceLookup;
use crate::raster::RgbImage;
use crate::{EditError, MAX_LONG_SIDE, Operation};

/// Runs `ops` in order on `img`.
pub fn run_all(
    mut img: RgbImage,
    ops: &[Operation],
    faces: &mut FaceLookup<'_>,
) -> Result<RgbImage, EditError> {
    for op in ops {
        img = run(img, op, faces)?;
    }
    // Every operation keeps to the cap; this guards the promise if one ever does not.
    Ok(crate::codec::fit_long_side(img, MAX_LONG_SIDE))
}

fn run(
    mut img: RgbImage,
    op: &Operation,
    faces: &mut FaceLookup<'_>,
) -> Result<RgbImage, EditError> {
    match op {
        Operation::Enhance => enhance(&mut img),
        Operation::Upscale { target } => img = upscale(&img, *target),
        Operation::Retouch => {
            let face = faces.face().ok_or(EditError::NoFace)?;
            if !retouch(&mut img, face) {
                return Err(EditError::NoFace);
            }
        }
        Operation::Background { backdrop } => background(&mut img, *backdrop, faces),
        Operation::Style { style: s } => style(&mut img, *s),
        Operation::Adjust(a) => adjust(&mut img, a),
        Operation::Sharpen => sharpen(&mut img),
        Operation::Soften => soften(&mut img),
    }
    Ok(img)
}
