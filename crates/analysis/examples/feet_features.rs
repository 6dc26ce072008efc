//! Prints every measure the feet check reads, one tab-separated line per file, whatever
//! its gates decide (for setting its thresholds on the training photos):
//! `cargo run --release --example feet_features -- PHOTO... > features.tsv`.
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
