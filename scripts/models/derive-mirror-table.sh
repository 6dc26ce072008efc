#!/usr/bin/env bash
# Re-derives models/face_landmark_mirror.txt from models/face_landmark.tflite (see
# models/README.md) from the test portrait in testdata/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
face="${1:-$root/testdata/face/astronaut.png}"
cd "$root/crates/analysis"
cargo run --quiet --release --example derive_mirror_table -- "$face" > "$root/models/face_landmark_mirror.txt"
cd "$root/models" && sha256sum -c SHA256SUMS
