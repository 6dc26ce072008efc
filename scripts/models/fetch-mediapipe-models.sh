#!/usr/bin/env bash
# Regenerates the MediaPipe model files in models/ and the licence file from the PyPI
# package they come from (mediapipe 0.10.14; later 1.x wheels no longer carry these
# files), then checks them against models/SHA256SUMS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Any manylinux x86_64 CPython 3.11 wheel of this version carries the same model files.
python3 -m pip download --quiet --no-deps --only-binary=:all: \
  --python-version 3.11 --platform manylinux_2_17_x86_64 \
  mediapipe==0.10.14 -d "$tmp"
wheel="$(ls "$tmp"/mediapipe-0.10.14-*.whl)"
python3 - "$wheel" "$root/models" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
modules = "mediapipe/modules"
files = {
    f"{modules}/face_detection/face_detection_short_range.tflite": "face_detection_short_range.tflite",
    f"{modules}/face_landmark/face_landmark.tflite": "face_landmark.tflite",
    f"{modules}/selfie_segmentation/selfie_segmentation.tflite": "selfie_segmentation.tflite",
    f"{modules}/selfie_segmentation/selfie_segmentation_landscape.tflite": "selfie_segmentation_landscape.tflite",
    f"{modules}/palm_detection/palm_detection_full.tflite": "palm_detection_full.tflite",
    f"{modules}/hand_landmark/hand_landmark_full.tflite": "hand_landmark_full.tflite",
    "mediapipe-0.10.14.dist-info/LICENSE": "LICENSE.mediapipe-apache-2.0.txt",
}
with zipfile.ZipFile(wheel) as z:
    for src, dst in files.items():
        with open(f"{out}/{dst}", "wb") as f:
            f.write(z.read(src))
        print("wrote", dst)
PY
cd "$root/models" && sha256sum -c SHA256SUMS
