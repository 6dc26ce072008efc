//! Times `analyze_face` (or, with `--hands`, `analyze_hands`) on a file, decode included,
//! for scripts/bench-peer-mediapipe.sh. One warm-up, then for each count N read from
//! standard input it runs N analyses and prints the milliseconds of each on one line.
//! Staying one warm process, like the MediaPipe side, while the script interleaves
//! batches of ours and theirs so both see the same machine load.
use std::io::{BufRead, Write};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hands = args.iter().any(|a| a == "--hands");
    let path = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .expect("image path");
    let bytes = std::fs::read(path).expect("read image");
    let run = |b: &[u8]| {
        if hands {
            std::hint::black_box(
                prettyscore_analysis::analyze_hands(b)
                    .expect("a hand")
                    .score,
            )
        } else {
            std::hint::black_box(prettyscore_analysis::analyze_face(b).expect("a face").score)
        }
    };
    run(&bytes);
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let n: usize = line.expect("stdin").trim().parse().expect("a count");
        let times: Vec<String> = (0..n)
            .map(|_| {
                let t = std::time::Instant::now();
                run(std::hint::black_box(&bytes));
                format!("{:.3}", t.elapsed().as_secs_f64() * 1e3)
            })
            .collect();
        let mut out = stdout.lock();
        writeln!(out, "{}", times.join(" ")).expect("stdout");
        out.flush().expect("stdout");
    }
}
