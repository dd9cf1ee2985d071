#!/usr/bin/env python3
"""The hostile half of bench/iiif.sh's hostile mix: CLIENTS clients spread over ADDRESSES loopback
addresses (127.0.0.2, 127.0.0.3, …), each asking for random regions of a WIDTH x HEIGHT photo,
turned by a random angle, one after another, until STOP_FILE exists. Prints how the answers went.

Usage: hostile-renders.py PORT PHOTO_ID WIDTH HEIGHT CLIENTS ADDRESSES STOP_FILE
"""
import http.client, os, random, sys, threading, time
from collections import Counter

port, photo, W, H, clients, addresses, stop = sys.argv[1:8]
port, W, H, clients, addresses = int(port), int(W), int(H), int(clients), int(addresses)
statuses = Counter()
lock = threading.Lock()

def client(n):
    rng = random.Random(n)
    source = f"127.0.0.{2 + n % addresses}"
    connection = None
    while not os.path.exists(stop):
        w, h = rng.randint(512, W), rng.randint(512, H)
        x, y = rng.randint(0, W - w), rng.randint(0, H - h)
        angle = round(rng.uniform(1, 359), 1)
        form = rng.choice(["png", "jpg", "webp"])
        path = f"/iiif/3/{photo}/{x},{y},{w},{h}/!2048,2048/{angle}/default.{form}"
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
            status = answer.status
            if status in (429, 503):
                time.sleep(min(5, float(answer.getheader("Retry-After") or 1)))
            if answer.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except Exception:
            status = "error"
            connection = None
            time.sleep(0.2)
        with lock:
            statuses[status] += 1

def report(*_):
    with lock:
        print(" ".join(f"{k}:{v}" for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0]))), flush=True)
    os._exit(0)

# Killed (as an impatient client would be), it still says how its answers went; its open
# connections close with it, which is what a server must notice.
import signal
signal.signal(signal.SIGTERM, report)
threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
for t in threads: t.start()
for t in threads: t.join()
report()
