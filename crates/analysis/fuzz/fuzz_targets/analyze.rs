//! Fuzz the decode + analysis entry points: any bytes must give Ok or a typed error,
//! never a panic, and errors must carry a message.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match prettyscore_analysis::analyze_face(data) {
        Ok(r) => assert!((1.0..=10.0).contains(&r.score)),
        Err(e) => assert!(!e.user_message().is_empty() && !e.code().is_empty()),
    }
    if let Ok(p) = prettyscore_analysis::analyze_pet(data) {
        assert!((7..=10).contains(&p.score));
    }
});
