"""The checks scripts/load/cluster.sh runs on two instances behind HAProxy.
Standard library only; sign-up, psql and percentiles come from
message_latency.py.

    python3 cluster_checks.py concurrency ONE_URL TWO_URL DATABASE_URL SENDERS PER_SENDER
        Signs up two users, approves a contact request between them in the
        database, opens the conversation's stream for each user on each
        instance (4 streams), then SENDERS threads post PER_SENDER messages
        each at once, alternating users and instances. Prints delivered /
        expected per stream, duplicates and order.

    python3 cluster_checks.py load PROXY_URL WORK_DIR NAME [--signups]
        Sends requests through the proxy from 3 threads until WORK_DIR/NAME.stop
        exists (public GETs; with --signups also one sign-up of a fresh user
        in 8), then prints what clients saw. Marks written by the shell as
        WORK_DIR/NAME.<mark> (a Unix time) place the figures on a timeline.
"""

import http.client
import json
import os
import sys
import threading
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from message_latency import call, percentile, psql, sign_up  # noqa: E402


# ---------------------------------------------------------------- concurrency

def open_stream(base, request_id, token, name, received, ready):
    target = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
    connection.request(
        "GET",
        f"/api/v1/contact-requests/{request_id}/messages/stream",
        headers={"Authorization": "Bearer " + token, "Accept": "text/event-stream"},
    )
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"stream {name}: {response.status} {response.read()[:200]!r}")
    ready.release()
    event, data = "message", None
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif line == "":
            if event == "message" and data:
                message = json.loads(data)
                received[name].append((message["id"], message["seq"]))
            event, data = "message", None


def concurrency(one, two, database_url, senders, per_sender):
    suffix = uuid.uuid4().hex[:8]
    star_token, star = sign_up(one, f"star-{suffix}@cluster.example")
    fan_token, fan = sign_up(two, f"fan-{suffix}@cluster.example")
    request_id = str(uuid.uuid4())
    psql(
        database_url,
        "INSERT INTO contact_requests (id, requester_id, contestant_id, rank_at_request, fee_amount_cents, "
        "platform_share_cents, contestant_share_cents, message_preview, paid, payment_status, status) "
        f"VALUES ('{request_id}', '{fan}', '{star}', 1, 100000, 25000, 75000, 'cluster', true, 'paid', 'approved')",
    )
    instances = {"instance 1": one, "instance 2": two}
    users = {"star": star_token, "fan": fan_token}
    received = {}
    ready = threading.Semaphore(0)
    for user, token in users.items():
        for instance, base in instances.items():
            name = f"{user} on {instance}"
            received[name] = []
            threading.Thread(
                target=open_stream, args=(base, request_id, token, name, received, ready), daemon=True
            ).start()
    for _ in received:
        if not ready.acquire(timeout=30):
            raise SystemExit("a stream did not open within 30 s")
    time.sleep(0.5)

    expected = senders * per_sender
    failures = []
    latencies = []
    lock = threading.Lock()

    def send(k):
        user = "star" if k % 2 == 0 else "fan"
        base = one if (k // 2) % 2 == 0 else two
        for n in range(per_sender):
            started = time.perf_counter()
            try:
                call(base, "POST", f"/api/v1/contact-requests/{request_id}/messages",
                     {"id": str(uuid.uuid4()), "content": f"sender {k} message {n}"}, users[user])
                with lock:
                    latencies.append((time.perf_counter() - started) * 1000)
            except Exception as error:  # noqa: BLE001 - every failure is a figure
                with lock:
                    failures.append(f"sender {k}: {error}")

    started = time.perf_counter()
    threads = [threading.Thread(target=send, args=(k,)) for k in range(senders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    posted = time.perf_counter() - started
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(len(r) < expected for r in received.values()):
        time.sleep(0.1)
    delivered_after = time.perf_counter() - started

    print(f"concurrency: {senders} senders x {per_sender} messages into one conversation, "
          f"posted on both instances in {posted:.1f} s, {len(failures)} failed POSTs")
    if latencies:
        print(f"  POST latency: p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, "
              f"max {max(latencies):.1f} ms")
    for failure in failures[:5]:
        print("  failed:", failure)
    ok = not failures
    sequences = None
    for name, events in received.items():
        ids = [i for i, _ in events]
        seqs = [s for _, s in events]
        duplicates = len(ids) - len(set(ids))
        in_order = all(a < b for a, b in zip(seqs, seqs[1:]))
        print(f"  stream {name}: {len(set(ids))}/{expected} delivered, {duplicates} duplicates, "
              f"{'in seq order' if in_order else 'OUT OF ORDER'}")
        ok = ok and len(set(ids)) == expected and duplicates == 0 and in_order
        if sequences is None:
            sequences = seqs
        elif seqs != sequences:
            print(f"  stream {name}: a different sequence from the first stream's")
            ok = False
    print(f"  all delivered {delivered_after:.1f} s after the first POST" if ok else "  NOT ALL DELIVERED")
    return ok


# ----------------------------------------------------------------------- load

class Recorder:
    def __init__(self):
        self.lock = threading.Lock()
        self.results = []  # (started, ended, status or None, code, retry_after, error, path)

    def add(self, *result):
        with self.lock:
            self.results.append(result)


def load_worker(proxy, recorder, stop_file, signups, worker):
    target = urllib.parse.urlsplit(proxy)
    connection = None
    paths = ["/api/v1/leaderboard", "/api/v1/app-config", "/api/v1/contest/standings", "/healthz"]
    n = 0
    while not os.path.exists(stop_file):
        n += 1
        if signups and n % 8 == worker % 8:
            method, path = "POST", "/auth/v1/signup"
            body = json.dumps({"email": f"load-{uuid.uuid4().hex}@cluster.example",
                               "password": "correct-horse-battery"}).encode()
        else:
            method, path, body = "GET", paths[n % len(paths)], None
        started = time.time()
        try:
            if connection is None:
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)
            headers = {"Content-Type": "application/json"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read()
            code = None
            if response.status >= 400:
                try:
                    parsed = json.loads(text)
                    code = parsed.get("code") or parsed.get("error_code") or parsed.get("error")
                except ValueError:
                    code = "(not JSON: " + text[:40].decode(errors="replace").strip() + ")"
            recorder.add(started, time.time(), response.status, code,
                         response.getheader("Retry-After"), None, path)
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except Exception as error:  # noqa: BLE001 - every failure is a figure
            recorder.add(started, time.time(), None, None, None, f"{type(error).__name__}: {error}", path)
            if connection is not None:
                connection.close()
            connection = None
        time.sleep(0.03)


DATABASE_READS = ("/api/v1/leaderboard", "/api/v1/contest/standings")


def read_mark(work, name, mark):
    try:
        with open(os.path.join(work, f"{name}.{mark}")) as f:
            return float(f.read().strip())
    except (OSError, ValueError):
        return None


def summarise(results, label):
    counts = {}
    for _, _, status, code, retry_after, error, _ in results:
        if error is not None:
            key = "connection error: " + error.split(":")[0]
        else:
            key = str(status) + (f" {code}" if code else "")
            if status and status >= 500:
                key += " (Retry-After: " + (retry_after or "none") + ")"
        counts[key] = counts.get(key, 0) + 1
    print(f"  {label}: " + ", ".join(f"{v} x {k}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))


def load(proxy, work, name, signups):
    recorder = Recorder()
    stop_file = os.path.join(work, f"{name}.stop")
    threads = [threading.Thread(target=load_worker, args=(proxy, recorder, stop_file, signups, k))
               for k in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results = sorted(recorder.results)
    failed = [r for r in results if r[2] is None or r[2] >= 400]
    total = len(results)
    span = (results[-1][1] - results[0][0]) if results else 0
    print(f"{name}: {total} requests through the proxy in {span:.0f} s, {len(failed)} failed "
          f"({100.0 * len(failed) / max(total, 1):.2f} %)")
    summarise(results, "all answers")
    for error in sorted({r[5] for r in failed if r[5]})[:5]:
        print("   ", error)

    if name == "outage":
        stopped, started = read_mark(work, name, "db-stopped"), read_mark(work, name, "db-started")
        if stopped and started:
            # The leaderboard and the contest standings read the database;
            # /healthz and /api/v1/app-config do not.
            reads = [r for r in results if r[6] in DATABASE_READS]
            during = [r for r in reads if stopped <= r[0] < started]
            summarise(during, f"database reads while it was down ({started - stopped:.0f} s)")
            summarise([r for r in results if stopped <= r[0] < started and r[6] not in DATABASE_READS],
                      "the other requests meanwhile")
            slow = [r[1] - r[0] for r in during if r[2] != 200]
            if slow:
                print(f"  time to answer while down: p50 {percentile(slow, 0.5):.2f} s, "
                      f"max {max(slow):.2f} s")
            after = [r for r in reads if r[0] >= started]
            failing_after = [r for r in after if r[2] != 200]
            last_failure = max((r[1] for r in failing_after), default=started)
            first_ok = min((r[1] for r in after if r[2] == 200 and r[0] >= last_failure - 1e-3), default=None)
            if first_ok is not None:
                print(f"  200 again {first_ok - started:.1f} s after the database was back "
                      f"(last failed answer {last_failure - started:.1f} s after; "
                      f"first read after it {min(r[1] for r in after) - started:.2f} s after)")
            else:
                print("  no 200 after the database was back")
    if name == "rolling":
        for n in (1, 2):
            term, back = read_mark(work, name, f"term{n}"), read_mark(work, name, f"up{n}")
            if term and back:
                window = [r for r in results if term - 1 <= r[0] < back + 3]
                bad = [r for r in window if r[2] is None or r[2] >= 400]
                print(f"  instance {n}'s restart (SIGTERM to back in the proxy + 3 s, {back - term:.1f} s): "
                      f"{len(window)} requests, {len(bad)} failed")
    return not failed


def main():
    mode = sys.argv[1]
    if mode == "concurrency":
        one, two, database_url, senders, per_sender = sys.argv[2:7]
        sys.exit(0 if concurrency(one, two, database_url, int(senders), int(per_sender)) else 1)
    if mode == "load":
        proxy, work, name = sys.argv[2:5]
        load(proxy, work, name, "--signups" in sys.argv[5:])
        sys.exit(0)
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
