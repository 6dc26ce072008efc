//! Times `analyze_face` on a file (decode included) for scripts/bench-peer-mediapipe.sh.
//! One warm-up, then for each count N read from standard input it runs N analyses and
//! prints the milliseconds of each on one line. Staying one warm process, like the
//! MediaPipe side, while the script interleaves batches of ours and theirs so both see
//! the same machine load.
use std::io::{BufRead, Write};

fn main() {
    let path = std::env::args().nth(1).expect("image path");
    let bytes = std::fs::read(path).expect("read image");
    prettyscore_analysis::analyze_face(&bytes).expect("a face");
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let n: usize = line.expect("stdin").trim().parse().expect("a count");
        let times: Vec<String> = (0..n)
            .map(|_| {
                let t = std::time::Instant::now();
                std::hint::black_box(
                    prettyscore_analysis::analyze_face(std::hint::black_box(&bytes)).unwrap(),
                );
                format!("{:.3}", t.elapsed().as_secs_f64() * 1e3)
            })
            .collect();
        let mut out = stdout.lock();
        writeln!(out, "{}", times.join(" ")).expect("stdout");
        out.flush().expect("stdout");
    }
}
