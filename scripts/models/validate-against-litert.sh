#!/usr/bin/env bash
# Checks the plain-Rust interpreter (crates/analysis/src/tflite.rs) against the reference
# TFLite runtime (ai-edge-litert from PyPI) on the same inputs made from a test face.
# Creates a throwaway virtual environment under $TMPDIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${VENV:-${TMPDIR:-/tmp}/prettyscore-litert-venv}"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet ai-edge-litert pillow numpy; }
(cd "$root/crates/analysis" && cargo build --quiet --release --example run_model)
bin="${CARGO_TARGET_DIR:-$root/crates/analysis/target}/release/examples/run_model"
"$venv/bin/python" - "$root" "$bin" <<'PY'
import sys, subprocess, tempfile, numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter
root, binary = sys.argv[1], sys.argv[2]
img = Image.open(f"{root}/testdata/face/astronaut.png").convert("RGB")
tmp = tempfile.mkdtemp()
worst = 0.0
for name, size, crop, norm in [
    ("face_detection_short_range", 128, None, lambda a: a / 127.5 - 1),
    ("face_landmark", 192, (150, 20, 330, 200), lambda a: a / 255.0),
]:
    path = f"{root}/models/{name}.tflite"
    src = img.crop(crop) if crop else img
    x = norm(np.asarray(src.resize((size, size), Image.BILINEAR), dtype=np.float32)).astype(np.float32)[None]
    x.tofile(f"{tmp}/{name}.in")
    it = Interpreter(model_path=path)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    subprocess.run([binary, path, f"{tmp}/{name}.in", f"{tmp}/{name}"], check=True)
    for i, od in enumerate(it.get_output_details()):
        ref = it.get_tensor(od["index"]).ravel()
        ours = np.fromfile(f"{tmp}/{name}.out{i}", dtype=np.float32)
        diff = float(np.abs(ref - ours).max())
        worst = max(worst, diff / max(1.0, float(np.abs(ref).max())))
        print(f"{name} {od['name']}: {ref.size} values, max abs diff {diff:.2e} (output range {ref.min():.2f}..{ref.max():.2f})")
assert worst < 1e-5, f"relative difference {worst} too large"
print("OK: the Rust interpreter matches the reference runtime")
PY
