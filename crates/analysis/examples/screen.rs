//! Prints the screening classifier's scores for each image named on the command line, one
//! JSON line per image in the shape `scripts/screening-parity/reference.mjs` prints:
//! `{"file": ..., "scores": {"Drawing": ..., "Hentai": ..., ...}}`.
//!
//! `cargo run --release -p prettyscore-analysis --example screen -- testdata/face/*.png`
use prettyscore_analysis::{ScreeningScores, screen_image};

fn main() {
    let mut failed = false;
    for file in std::env::args().skip(1) {
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{file}: {e}");
                failed = true;
                continue;
            }
        };
        match screen_image(&bytes) {
            Ok(s) => {
                let scores: serde_json::Map<String, serde_json::Value> = ScreeningScores::CLASSES
                    .iter()
                    .zip(s.as_array())
                    .map(|(c, v)| (c.to_string(), serde_json::json!(v)))
                    .collect();
                println!("{}", serde_json::json!({ "file": file, "scores": scores }));
            }
            Err(e) => {
                eprintln!("{file}: {}", e.code());
                failed = true;
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
