#!/usr/bin/env bash
# Checks the plain-Rust interpreter (crates/analysis/src/tflite/) against the reference
# TFLite runtime (ai-edge-litert from PyPI, with its default XNNPACK delegate, which also
# runs MediaPipe's custom Convolution2DTransposeBias) on the same inputs, made from the
# test photos the way the analysis crate makes them. Prints the largest difference per
# output. Creates a throwaway virtual environment under $TMPDIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="${VENV:-${TMPDIR:-/tmp}/prettyscore-litert-venv}"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet ai-edge-litert pillow numpy; }
(cd "$root/crates/analysis" && cargo build --quiet --release --example run_model)
bin="${CARGO_TARGET_DIR:-$root/target}/release/examples/run_model"
"$venv/bin/python" - "$root" "$bin" <<'PY'
import sys, subprocess, tempfile, numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter
root, binary = sys.argv[1], sys.argv[2]
astronaut = Image.open(f"{root}/testdata/face/astronaut.png").convert("RGB")
cameraman = Image.open(f"{root}/testdata/face/cameraman-gray.png").convert("RGB")
def on_backdrop(rel):
    # A test hand (a cut-out) on a plain backdrop, as the hand tests make it.
    hand = Image.open(f"{root}/testdata/{rel}").convert("RGBA")
    out = Image.new("RGBA", (hand.width + 40, hand.height + 40), (214, 210, 204, 255))
    out.alpha_composite(hand, (20, 20))
    return out.convert("RGB")
def letterboxed(img):
    side = max(img.size)
    out = Image.new("RGB", (side, side))
    out.paste(img, ((side - img.width) // 2, (side - img.height) // 2))
    return out
back = on_backdrop("hands/main_droite_dessus_0.webp")
fist = on_backdrop("hands/poing_droit_dessus_0.webp")
tmp = tempfile.mkdtemp()
unit = lambda a: a / 255.0
signed = lambda a: a / 127.5 - 1
# model, photo, crop (left, top, right, bottom) or None, input scaling, tolerance: the
# largest difference allowed, relative to the output's largest magnitude (at least 1).
cases = [
    ("face_detection_short_range", astronaut, None, signed, 1e-5),
    ("face_landmark", astronaut, (150, 20, 330, 200), unit, 1e-5),
    # Probabilities after a sigmoid, 65 536 of them, where the slope is steepest (p near
    # 0.5) amplifying the logits' rounding; 5e-4 is an eighth of one level of the 8-bit
    # mask the edits use.
    ("selfie_segmentation", astronaut, None, unit, 5e-4),
    ("selfie_segmentation", cameraman, None, unit, 5e-4),
    ("selfie_segmentation_landscape", astronaut, (0, 112, 512, 400), unit, 5e-4),
    ("palm_detection_full", letterboxed(back), None, unit, 1e-5),
    ("palm_detection_full", letterboxed(fist), None, unit, 1e-5),
    # The hand's square around the knuckles, roughly where the palm's ROI puts it.
    ("hand_landmark_full", back, (20, 0, 313, 240), unit, 1e-5),
    ("hand_landmark_full", fist, (60, 0, 314, 246), unit, 1e-5),
    ("hand_landmark_full", astronaut, (0, 250, 260, 510), unit, 1e-5),
]
failed = []
for name, photo, crop, norm, tol in cases:
    path = f"{root}/models/{name}.tflite"
    it = Interpreter(model_path=path)
    it.allocate_tensors()
    _, h, w, _ = it.get_input_details()[0]["shape"]
    src = photo.crop(crop) if crop else photo
    x = norm(np.asarray(src.resize((w, h), Image.BILINEAR), dtype=np.float32)).astype(np.float32)[None]
    x.tofile(f"{tmp}/{name}.in")
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    subprocess.run([binary, path, f"{tmp}/{name}.in", f"{tmp}/{name}"], check=True, stderr=subprocess.DEVNULL)
    # In the model's output order, as our interpreter's `run` answers.
    for i, od in enumerate(it.get_output_details()):
        ref = it.get_tensor(od["index"]).ravel()
        ours = np.fromfile(f"{tmp}/{name}.out{i}", dtype=np.float32)
        assert ours.size == ref.size, f"{name} output {i}: {ours.size} values, expected {ref.size}"
        diff = float(np.abs(ref - ours).max())
        rel = diff / max(1.0, float(np.abs(ref).max()))
        print(f"{name} {od['name']}: {ref.size} values, max abs diff {diff:.2e} (output range {ref.min():.3f}..{ref.max():.3f})")
        if rel >= tol:
            failed.append(f"{name} {od['name']}: relative difference {rel:.2e} >= {tol:.0e}")
assert not failed, "\n".join(failed)
print("OK: the Rust interpreter matches the reference runtime")
PY
