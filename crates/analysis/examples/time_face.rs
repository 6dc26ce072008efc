//! Times `analyze_face` on a file (decode included): one warm-up, then N runs; prints
//! the milliseconds of each run on one line. Used by scripts/bench-peer-mediapipe.sh to
//! interleave our runs with MediaPipe's so both see the same machine load.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("image path");
    let n: usize = args
        .next()
        .map(|v| v.parse().expect("a count"))
        .unwrap_or(5);
    let bytes = std::fs::read(path).expect("read image");
    prettyscore_analysis::analyze_face(&bytes).expect("a face");
    let times: Vec<String> = (0..n)
        .map(|_| {
            let t = std::time::Instant::now();
            std::hint::black_box(
                prettyscore_analysis::analyze_face(std::hint::black_box(&bytes)).unwrap(),
            );
            format!("{:.3}", t.elapsed().as_secs_f64() * 1e3)
        })
        .collect();
    println!("{}", times.join(" "));
}
