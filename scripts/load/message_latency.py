"""Send-to-delivery latency of messages across two instances.

Signs up two users on instance 1, approves a contact request between them
directly in the database (the payment flow is not what is measured), opens
the conversation's stream on instance 2, then posts MESSAGES messages on
instance 1, one after another, and times each from the start of its POST to
its event on the other instance's stream. Standard library only.

    python3 message_latency.py ONE_URL TWO_URL DATABASE_URL MESSAGES
"""

import http.client
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(request, data) as response:
        text = response.read()
        return json.loads(text) if text else None


def sign_up(base, email):
    tokens = call(base, "POST", "/auth/v1/signup", {"email": email, "password": "correct-horse-battery"})
    return tokens["access_token"], tokens["user"]["id"]


def psql(database_url, sql):
    subprocess.run(["psql", "-qAtX", "-v", "ON_ERROR_STOP=1", database_url, "-c", sql], check=True)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main():
    one, two, database_url, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    star_token, star = sign_up(one, "star@bench.example")
    fan_token, fan = sign_up(one, "fan@bench.example")
    request_id = str(uuid.uuid4())
    psql(
        database_url,
        "INSERT INTO contact_requests (id, requester_id, contestant_id, rank_at_request, fee_amount_cents, "
        "platform_share_cents, contestant_share_cents, message_preview, paid, payment_status, status) "
        f"VALUES ('{request_id}', '{fan}', '{star}', 1, 100000, 25000, 75000, 'bench', true, 'paid', 'approved')",
    )

    sent_at = {}
    arrived_at = {}
    ready = threading.Event()
    done = threading.Event()

    def listen():
        target = urllib.parse.urlsplit(two)
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
        connection.request(
            "GET",
            f"/api/v1/contact-requests/{request_id}/messages/stream",
            headers={"Authorization": "Bearer " + star_token, "Accept": "text/event-stream"},
        )
        response = connection.getresponse()
        assert response.status == 200, response.status
        ready.set()
        data = None
        kind = "message"
        while len(arrived_at) < count:
            line = response.readline()
            if not line:
                break
            line = line.decode().rstrip("\n")
            if line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data = json.loads(line[5:].strip())
            elif line == "":
                # Only messages are timed; `read` marks ({"seq": n}) are not.
                if kind == "message" and data is not None:
                    arrived_at[data["id"]] = time.perf_counter()
                data, kind = None, "message"
        done.set()

    threading.Thread(target=listen, daemon=True).start()
    ready.wait(30)
    time.sleep(0.5)
    started = time.perf_counter()
    for n in range(count):
        message_id = str(uuid.uuid4())
        sent_at[message_id] = time.perf_counter()
        call(one, "POST", f"/api/v1/contact-requests/{request_id}/messages",
             {"id": message_id, "content": f"message {n}"}, fan_token)
    done.wait(120)
    elapsed = time.perf_counter() - started
    latencies = [(arrived_at[i] - sent_at[i]) * 1000 for i in sent_at if i in arrived_at]
    lost = count - len(latencies)
    print(f"messages: {count} posted on instance 1 in {elapsed:.1f} s, {len(latencies)} delivered on instance 2, {lost} lost")
    if latencies:
        print(
            "send-to-delivery: p50 {:.1f} ms, p90 {:.1f} ms, p99 {:.1f} ms, max {:.1f} ms, mean {:.1f} ms".format(
                percentile(latencies, 0.5), percentile(latencies, 0.9), percentile(latencies, 0.99),
                max(latencies), statistics.mean(latencies),
            )
        )
    sys.exit(1 if lost else 0)


if __name__ == "__main__":
    main()
