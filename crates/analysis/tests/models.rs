//! The model files in /models match their recorded checksums, and the derived mirror table
//! is a proper left/right pairing.
use sha2::{Digest, Sha256};
use std::path::PathBuf;

fn models_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models")
}

#[test]
fn model_files_match_their_sha256_checksums() {
    let sums = std::fs::read_to_string(models_dir().join("SHA256SUMS")).unwrap();
    let mut listed = Vec::new();
    for line in sums.lines().filter(|l| !l.trim().is_empty()) {
        let (hash, name) = line.split_once("  ").expect("sha256sum format");
        let data = std::fs::read(models_dir().join(name)).unwrap();
        let got = format!("{:x}", Sha256::digest(&data));
        assert_eq!(got, hash, "{name}");
        listed.push(name.to_string());
    }
    // Every model file the crate embeds has its checksum recorded.
    for entry in std::fs::read_dir(models_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".tflite") || name.ends_with(".txt") && !name.starts_with("LICENSE") {
            assert!(
                listed.contains(&name),
                "{name} has no checksum in SHA256SUMS"
            );
        }
    }
    assert_eq!(listed.len(), 8);
}

#[test]
fn the_mirror_table_pairs_every_landmark_with_exactly_one_partner() {
    let text = std::fs::read_to_string(models_dir().join("face_landmark_mirror.txt")).unwrap();
    let t: Vec<usize> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(t.len(), 468);
    assert!((0..468).all(|i| t[t[i]] == i), "an involution");
    // Known pairs of the MediaPipe mesh: eye corners, mouth corners, cheeks; and the
    // nose tip and chin on the midline.
    for (a, b) in [(33, 263), (133, 362), (61, 291), (234, 454)] {
        assert_eq!(t[a], b);
    }
    assert_eq!(t[1], 1);
    assert_eq!(t[152], 152);
}
