#!/usr/bin/env bash
# Times our Rust face and hands analyses (decode included) and MediaPipe 0.10.14's Python
# pipelines on the same JPEGs, in one run, and prints the ratios:
# - faces: OpenCV decode + FaceMesh in static-image mode (the BlazeFace detector and the
#   468-point mesh) on a 1080p and a 12 MP JPEG;
# - hands: OpenCV decode + Hands in static-image mode, model complexity 1 (the full palm
#   detector and the 21-point landmark model, the pair we run) on a 1080p JPEG.
# The virtual environment lives under $TMPDIR (override with VENV=...); nothing is
# written to the repository except cargo's target directory.
#
# BASELINE=<git revision> also builds that revision's engine (from `git archive`, in a
# temporary directory, with this checkout's timing example, into $target/baseline) and
# times it in the same interleaved rounds, so "before" and "after" are measured at the
# same machine load. On a loaded machine two processes of the very same binary can differ
# by 10% or more in these medians; instruction counts (callgrind) are the steadier
# comparison of two builds.
# CRITERION=0 skips the criterion benchmark (the ratios do not use it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${VENV:-${TMPDIR:-/tmp}/prettyscore-mediapipe-venv}"
target="${CARGO_TARGET_DIR:-$root/crates/analysis/target}"
runs="${RUNS:-40}"

# libjpeg-turbo's SIMD code (the analysis crate's JPEG decode) is assembled by nasm.
command -v nasm >/dev/null || { echo "install nasm first (apt-get install nasm): without it the JPEG decode is plain C" >&2; exit 1; }

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import mediapipe, cv2" 2>/dev/null; then
  echo "creating $venv (mediapipe==0.10.14)" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet mediapipe==0.10.14
fi

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"

# 1. Our engine under criterion (the benchmark also writes the bench images, so it runs
#    at least once: with CRITERION=0, just long enough to write them).
if [ "${CRITERION:-1}" = 0 ]; then
  (cd "$root/crates/analysis" && CARGO_TARGET_DIR="$target" cargo bench --bench analysis -- \
    --warm-up-time 0.1 --measurement-time 0.1 --sample-size 10 --noplot 2>&1 | grep -E "score" || true)
else
  (cd "$root/crates/analysis" && CARGO_TARGET_DIR="$target" cargo bench --bench analysis -- --noplot 2>&1 | grep -E "time:|score")
fi
(cd "$root/crates/analysis" && CARGO_TARGET_DIR="$target" cargo build --quiet --release --example time_face)
# The timed binaries are copies, so no later build changes them under the script.
mkdir -p "$target/peer"
cp "$target/release/examples/time_face" "$target/peer/time_face-ours"
bins=("ours=$target/peer/time_face-ours")

if [ -n "${BASELINE:-}" ]; then
  base_src="$(mktemp -d "${TMPDIR:-/tmp}/prettyscore-baseline.XXXXXX")"
  trap 'rm -rf "$base_src"' EXIT
  git -C "$root" archive "$BASELINE" | tar -x -C "$base_src"
  cp "$root/crates/analysis/examples/time_face.rs" "$base_src/crates/analysis/examples/time_face.rs"
  # A target directory of its own: in the same one, cargo takes the two checkouts of
  # the crate for one (same artifact names) and may call the baseline up to date.
  (cd "$base_src/crates/analysis" && CARGO_TARGET_DIR="$target/baseline" cargo build --quiet --release --example time_face)
  cp "$target/baseline/release/examples/time_face" "$target/peer/time_face-baseline"
  bins=("baseline=$target/peer/time_face-baseline" "${bins[@]}")
  echo "baseline: $(git -C "$root" rev-parse --short "$BASELINE")"
fi

# 2. The ratios: ours and the peer interleaved in small batches on the very same files,
#    so both see the same machine load (this machine is shared with builds), medians.
"$venv/bin/python" - "$target" "$runs" "${bins[@]}" <<'PY'
import statistics, subprocess, sys, time
import cv2, mediapipe as mp
target, runs, bins = sys.argv[1], int(sys.argv[2]), [b.split("=", 1) for b in sys.argv[3:]]
mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=False,
                                       min_detection_confidence=0.5)
hands = mp.solutions.hands.Hands(static_image_mode=True, max_num_hands=1, model_complexity=1,
                                 min_detection_confidence=0.5)
def face_once(path):
    img = cv2.imread(path)
    res = mesh.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    assert res.multi_face_landmarks and len(res.multi_face_landmarks[0].landmark) == 468
def hand_once(path):
    img = cv2.imread(path)
    res = hands.process(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    assert res.multi_hand_landmarks and len(res.multi_hand_landmarks[0].landmark) == 21
cases = [("face 1080p", "astronaut-1080p.jpg", face_once, []),
         ("face 12mp", "astronaut-12mp.jpg", face_once, []),
         ("hands 1080p", "hand-1080p.jpg", hand_once, ["--hands"])]
names = [n for n, _ in bins]
print(f"{'image':12} " + " ".join(f"{n + ' (median)':>18}" for n in names)
      + f" {'MediaPipe (median)':>19} " + " ".join(f"{n + ' / MP':>14}" for n in names))
for name, file, peer_once, flags in cases:
    path = f"{target}/bench-images/{file}"
    for _ in range(3):
        peer_once(path)
    ours = {n: [] for n in names}
    peer, peer_cpu = [], []
    batch = 5
    # Each engine stays one warm process (like MediaPipe's side), asked for a batch at a time.
    procs = {n: subprocess.Popen([b, path, *flags], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
             for n, b in bins}
    for r in range(max(1, runs // batch)):
        # Our engines take turns going first, so neither always follows MediaPipe.
        order = list(procs.items())
        for n, proc in order[r % len(order):] + order[:r % len(order)]:
            proc.stdin.write(f"{batch}\n")
            proc.stdin.flush()
            ours[n] += [float(v) for v in proc.stdout.readline().split()]
        for _ in range(batch):
            t, c = time.perf_counter(), time.process_time()
            peer_once(path)
            peer.append((time.perf_counter() - t) * 1e3)
            peer_cpu.append((time.process_time() - c) * 1e3)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    p = statistics.median(peer)
    o = {n: statistics.median(v) for n, v in ours.items()}
    print(f"{name:12} " + " ".join(f"{o[n]:15.1f} ms" for n in names) + f" {p:16.1f} ms "
          + " ".join(f"{o[n] / p:13.2f}x" for n in names)
          + f"   (MediaPipe CPU time {statistics.median(peer_cpu):.1f} ms)")
PY
# The machine is shared: the load says how much the absolute numbers are inflated.
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
