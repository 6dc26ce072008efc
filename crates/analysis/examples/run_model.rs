//! Runs an embedded model on a raw little-endian f32 NHWC input file and writes the
//! outputs as raw f32, for validation against the reference TFLite runtime
//! (scripts/models/validate.py).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = std::fs::read(&args[1]).unwrap();
    let input: Vec<f32> = std::fs::read(&args[2])
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let m = prettyscore_analysis::tflite::Model::parse(&model).unwrap();
    let mut outs = m.run(&input);
    let mut best = std::time::Duration::MAX;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        outs = m.run(&input);
        best = best.min(t.elapsed());
    }
    eprintln!("run (best of 20): {best:?}");
    for (i, o) in outs.iter().enumerate() {
        let bytes: Vec<u8> = o.iter().flat_map(|v| v.to_le_bytes()).collect();
        std::fs::write(format!("{}.out{}", args[3], i), bytes).unwrap();
    }
}
