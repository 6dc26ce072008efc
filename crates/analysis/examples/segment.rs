//! Writes the person mask of each image file beside it as `<file>.mask.png` (the
//! model's grid stretched to the photo): `cargo run --release --example segment -- FILE...`
fn main() {
    for path in std::env::args().skip(1) {
        let img = image::open(&path).expect("read image").to_rgb8();
        let (w, h) = (img.width() as usize, img.height() as usize);
        let t = std::time::Instant::now();
        let mask = prettyscore_analysis::segment_person(img.as_raw(), w, h);
        let el = t.elapsed();
        let Some(mask) = mask else {
            println!("{path} ({el:?}): no person");
            continue;
        };
        println!("{path} ({el:?}): person share {:.3}", mask.person_share());
        let out = image::GrayImage::from_fn(img.width(), img.height(), |x, y| {
            let gx = x as usize * mask.width / w;
            let gy = y as usize * mask.height / h;
            image::Luma([(mask.data[gy * mask.width + gx] * 255.0).round() as u8])
        });
        out.save(format!("{path}.mask.png")).expect("write mask");
    }
}
