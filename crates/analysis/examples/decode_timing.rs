//! Compares JPEG decode paths on a file: jpeg-decoder with DCT scaling vs a full decode.
fn best<F: FnMut()>(mut f: F) -> std::time::Duration {
    (0..15)
        .map(|_| {
            let t = std::time::Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}
fn main() {
    let path = std::env::args().nth(1).expect("jpeg path");
    let bytes = std::fs::read(path).unwrap();
    let full = best(|| {
        image::load_from_memory(&bytes).unwrap();
    });
    let scaled = best(|| {
        prettyscore_analysis::internals::decode(&bytes).unwrap();
    });
    println!(
        "full decode (image/zune-jpeg): {full:?}; our scaled decode (jpeg-decoder + orientation + reduction): {scaled:?}"
    );
}
