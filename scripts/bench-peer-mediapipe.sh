#!/usr/bin/env bash
# Times our Rust face analysis (criterion, decode included) and MediaPipe 0.10.14's
# Python face pipeline (OpenCV decode + FaceMesh in static-image mode, which runs the
# BlazeFace detector and the 468-point mesh) on the same 1080p and 12 MP JPEGs, in one
# run, and prints the ratio. The virtual environment lives under $TMPDIR (override with
# VENV=...); nothing is written to the repository except cargo's target directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VENV:-${TMPDIR:-/tmp}/prettyscore-mediapipe-venv}"
target="${CARGO_TARGET_DIR:-$root/crates/analysis/target}"
runs="${RUNS:-40}"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import mediapipe, cv2" 2>/dev/null; then
  echo "creating $venv (mediapipe==0.10.14)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet mediapipe==0.10.14
fi

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"

# 1. Our engine under criterion (the benchmark also writes the two bench images).
(cd "$root/crates/analysis" && CARGO_TARGET_DIR="$target" cargo bench --bench analysis -- --noplot 2>&1 | grep -E "time:|score")
(cd "$root/crates/analysis" && CARGO_TARGET_DIR="$target" cargo build --quiet --release --example time_face)

# 2. The ratio: ours and the peer interleaved in small batches on the very same files,
#    so both see the same machine load (this machine is shared with builds), medians.
"$venv/bin/python" - "$target" "$runs" <<'PY'
import statistics, subprocess, sys, time
import cv2, mediapipe as mp
target, runs = sys.argv[1], int(sys.argv[2])
mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False,
                                       min_detection_confidence=0.5)
ours_bin = f"{target}/release/examples/time_face"
print(f"{'image':8} {'ours (median)':>14} {'MediaPipe (median)':>19} {'ours / MediaPipe':>17}")
for name in ["1080p", "12mp"]:
    path = f"{target}/bench-images/astronaut-{name}.jpg"
    def peer_once():
        img = cv2.imread(path)
        res = mesh.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
        assert res.multi_face_landmarks and len(res.multi_face_landmarks[0].landmark) == 468
    for _ in range(3):
        peer_once()
    ours, peer, peer_cpu = [], [], []
    batch = 5
    # Ours stays one warm process (like MediaPipe's side), asked for a batch at a time.
    proc = subprocess.Popen([ours_bin, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for _ in range(max(1, runs // batch)):
        proc.stdin.write(f"{batch}\n")
        proc.stdin.flush()
        ours += [float(v) for v in proc.stdout.readline().split()]
        for _ in range(batch):
            t, c = time.perf_counter(), time.process_time()
            peer_once()
            peer.append((time.perf_counter() - t) * 1e3)
            peer_cpu.append((time.process_time() - c) * 1e3)
    proc.stdin.close()
    proc.wait()
    o, p = statistics.median(ours), statistics.median(peer)
    print(f"{name:8} {o:11.1f} ms {p:16.1f} ms {o / p:16.2f}x   (MediaPipe CPU time {statistics.median(peer_cpu):.1f} ms)")
PY
# The machine is shared: the load says how much the absolute numbers are inflated.
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
