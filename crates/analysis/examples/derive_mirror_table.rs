//! Regenerates models/face_landmark_mirror.txt: the left/right pairing of the 468 mesh
//! points, derived from the mesh network itself on a symmetric face (see
//! `face::derive_mirror_table`). Usage: cargo run --release --example derive_mirror_table -- IMAGE > models/face_landmark_mirror.txt
fn main() {
    let path = std::env::args().nth(1).expect("image path");
    let bytes = std::fs::read(path).expect("read image");
    let img = prettyscore_analysis::internals::decode(&bytes)
        .expect("decode")
        .image;
    let pyr = prettyscore_analysis::internals::Pyramid::new(img);
    let t = prettyscore_analysis::internals::derive_mirror_table(&pyr).expect("a face");
    let involution = (0..t.len()).all(|i| t[t[i]] == i);
    let self_paired = (0..t.len()).filter(|&i| t[i] == i).count();
    eprintln!("involution: {involution}, points on the midline: {self_paired}");
    println!(
        "# Left/right pairing of the 468 MediaPipe Face Mesh landmarks: line i holds the index"
    );
    println!(
        "# of the point mirroring point i (itself on the midline). Derived from the mesh model"
    );
    println!("# by crates/analysis/examples/derive_mirror_table.rs; see models/README.md.");
    for v in t {
        println!("{v}");
    }
}
