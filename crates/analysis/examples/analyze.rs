//! Prints the analysis of image files as JSON: `cargo run --release --example analyze -- [--pet|--feet|--hands] FILE...`
fn main() {
    let mut kind = "face".to_string();
    for a in std::env::args().skip(1) {
        if let Some(k) = a.strip_prefix("--") {
            kind = k.to_string();
            continue;
        }
        let bytes = std::fs::read(&a).expect("read file");
        let t = std::time::Instant::now();
        let out = match kind.as_str() {
            "pet" => prettyscore_analysis::analyze_pet(&bytes)
                .map(|r| serde_json::to_string(&r).unwrap()),
            "feet" => prettyscore_analysis::analyze_feet(&bytes)
                .map(|r| serde_json::to_string(&r).unwrap()),
            "hands" => prettyscore_analysis::analyze_hands(&bytes)
                .map(|r| serde_json::to_string(&r).unwrap()),
            _ => prettyscore_analysis::analyze_face(&bytes).map(|mut r| {
                r.landmarks.truncate(2);
                serde_json::to_string(&r).unwrap()
            }),
        };
        let el = t.elapsed();
        match out {
            Ok(j) => println!("{a} ({el:?}): {j}"),
            Err(e) => println!("{a} ({el:?}): ERROR {} / {}", e.code(), e.user_message()),
        }
    }
}
