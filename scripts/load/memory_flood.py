"""Resident memory of a running prettyscore under the load of issue 10.

Measures the server process's RSS (from /proc) when idle after start, after
50 face analyses of a 12-megapixel photo, and during and 60 s after 100
parallel uploads of 9.9 MB, one from each of 100 loopback addresses
(127.0.0.10 to 127.0.0.109, Linux). Run by memory-flood.sh, which starts the
server and makes the photo; loopback only, 100 connections at most, each
given up after 300 s.

    python3 memory_flood.py BASE_URL SERVER_PID PHOTO_12MP
"""

import http.client
import os
import sys
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

BOUNDARY = "prettyscore-load-boundary"
FLOOD_ADDRESSES = 100


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def multipart(image, name="photo.jpg"):
    head = (
        f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"{name}\"\r\n"
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    return head + image + f"\r\n--{BOUNDARY}--\r\n".encode()


def post(base, path, body, source="127.0.0.1"):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=300, source_address=(source, 0))
    try:
        connection.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
        )
        response = connection.getresponse()
        response.read()
        return response.status
    except (ConnectionError, http.client.HTTPException, OSError) as err:
        return type(err).__name__
    finally:
        connection.close()


class Peak:
    """Samples the RSS every 50 ms in the background."""

    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0.0, True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def counts(statuses):
    tally = {}
    for status in statuses:
        tally[status] = tally.get(status, 0) + 1
    return ", ".join(f"{k}: {v}" for k, v in sorted(tally.items(), key=str))


def main():
    base, pid, photo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if urllib.parse.urlsplit(base).hostname != "127.0.0.1":
        sys.exit("loopback only: the base URL must be http://127.0.0.1:PORT")
    time.sleep(2)
    idle = rss_mb(pid)
    print(f"idle after start:                 {idle:7.1f} MB")

    body = multipart(open(photo, "rb").read())
    peak = Peak(pid)
    statuses = [post(base, "/api/v1/analyses/face", body) for _ in range(50)]
    analyses_peak = peak.stop()
    print(f"after 50 analyses of a 12 MP photo: {rss_mb(pid):5.1f} MB (peak {analyses_peak:.1f} MB; {counts(statuses)})")

    flood = multipart(os.urandom(9_900_000), "flood.jpg")
    peak = Peak(pid)
    sources = [f"127.0.0.{10 + a}" for a in range(FLOOD_ADDRESSES)]
    with ThreadPoolExecutor(max_workers=FLOOD_ADDRESSES) as pool:
        statuses = list(pool.map(lambda source: post(base, "/api/v1/analyses/face", flood, source), sources))
    flood_peak = peak.stop()
    print(f"100 parallel 9.9 MB uploads from 100 addresses: peak {flood_peak:7.1f} MB ({counts(statuses)})")
    ended = time.monotonic()
    for seconds in (1, 10, 30, 60):
        time.sleep(max(0.0, ended + seconds - time.monotonic()))
        print(f"  {seconds:2d} s after the flood:            {rss_mb(pid):7.1f} MB")

if __name__ == "__main__":
    main()
