//! Prints every measure the feet check's head may use, one tab-separated line per file:
//! `cargo run --release --example feet_features -- PHOTO... > features.tsv` (the input
//! of `scripts/models/train-feet-head.py`).
fn main() {
    let mut header = false;
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        match prettyscore_analysis::feet_features(&bytes) {
            Ok(f) => {
                if !header {
                    let names: Vec<&str> = f.iter().map(|(n, _)| *n).collect();
                    println!("path\t{}", names.join("\t"));
                    header = true;
                }
                let vals: Vec<String> = f.iter().map(|(_, v)| format!("{v:.6}")).collect();
                println!("{path}\t{}", vals.join("\t"));
            }
            Err(e) => eprintln!("{path}: {}", e.code()),
        }
    }
}
