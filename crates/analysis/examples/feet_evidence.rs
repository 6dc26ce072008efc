//! Prints what the feet check measures on each file given: `cargo run --example
//! feet_evidence -- PHOTO...` (for tuning the check's thresholds; see src/feet.rs).
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        match prettyscore_analysis::feet_evidence(&bytes) {
            Ok(ev) => println!("{path}: feet {} {ev:?}", ev.is_feet()),
            Err(e) => println!("{path}: {}", e.code()),
        }
    }
}
