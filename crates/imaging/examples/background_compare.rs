//! Side-by-side pictures of the background presets with the heuristic subject mask and
//! with the segmentation network's: for each photo and preset, `<out>/<photo>-<preset>.png`
//! shows the original, the heuristic's result and the network's result, left to right.
//!
//! `cargo run --release -p prettyscore-imaging --example background_compare -- OUT_DIR PHOTO...`
use image::{GenericImage, RgbImage};
use prettyscore_imaging::{Operation, apply, internals, interpret};
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let out_dir = args.next().expect("usage: OUT_DIR PHOTO...");
    std::fs::create_dir_all(&out_dir).expect("create output folder");
    for photo in args {
        let bytes = std::fs::read(&photo).expect("read photo");
        let original = apply(&bytes, &[]).expect("photo decodes");
        let stem = Path::new(&photo)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("photo");
        for preset in ["White background", "Blur background"] {
            let ops = interpret(preset).expect("a preset");
            let [Operation::Background { backdrop }] = ops[..] else {
                panic!("{preset} is one background operation: {ops:?}");
            };
            let old = internals::background_with_heuristic_mask(&bytes, backdrop).expect("edit");
            let new = apply(&bytes, &ops).expect("edit");
            let tiles: Vec<RgbImage> = [&original, &old, &new]
                .iter()
                .map(|e| image::load_from_memory(&e.jpeg).expect("jpeg").to_rgb8())
                .collect();
            let (w, h) = tiles[0].dimensions();
            let gap = 8;
            let mut sheet = RgbImage::from_pixel(3 * w + 2 * gap, h, image::Rgb([40, 40, 40]));
            for (i, t) in tiles.iter().enumerate() {
                sheet.copy_from(t, i as u32 * (w + gap), 0).expect("fits");
            }
            let name = preset.to_lowercase().replace(' ', "-");
            let path = format!("{out_dir}/{stem}-{name}.png");
            sheet.save(&path).expect("write");
            println!("{path}: original | heuristic mask | network mask");
        }
    }
}
