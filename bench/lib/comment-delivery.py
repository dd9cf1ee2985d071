#!/usr/bin/env python3
"""How soon a comment reaches a page that has the photo open: one live comment stream
(GET /photos/ID/comments/events) stays open while COUNT comments are posted one after another;
for each, the time from sending the POST to its `event: comment` frame arriving on the stream.
Reference, the same posts in the same run: the POST's own round trip (sent to acknowledged). The
stream is told of a comment as it is stored, so the two should be close; a ratio far above 1 is
delivery waiting for something (a poll, a flush) after the store. Prints min/median/max of both,
in milliseconds, and the ratio of the medians. (The unit tests check that the comment arrives;
this is how soon.)

Usage: comment-delivery.py BASE_URL PHOTO_ID [COUNT]   (COUNT default 50)
"""
import json
import re
import socket
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request

base, photo = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 50
address = urllib.parse.urlsplit(base)
FRAME = re.compile(r"id: (\d+)\nevent: comment\n")

arrived = {}
seen = threading.Condition()
opened = threading.Event()


def listen():
    stream = socket.create_connection((address.hostname, address.port))
    stream.sendall(f"GET /photos/{photo}/comments/events HTTP/1.1\r\nHost: {address.netloc}\r\n"
                   "Accept: text/event-stream\r\n\r\n".encode())
    text = ""
    while True:
        chunk = stream.recv(65536)
        if not chunk:
            return
        now = time.perf_counter()
        text += chunk.decode("utf-8", "replace")
        if "retry:" in text:
            opened.set()
        with seen:
            for match in FRAME.finditer(text):
                arrived.setdefault(int(match.group(1)), now)
            seen.notify_all()
        text = text[text.rfind("\n\n") + 2:] if "\n\n" in text else text


def post(n):
    body = json.dumps({"author": "bench", "text": f"delivery {n}"}).encode()
    request = urllib.request.Request(f"{base}/photos/{photo}/comments", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)["id"]


threading.Thread(target=listen, daemon=True).start()
if not opened.wait(timeout=30):
    sys.exit("the comment stream did not open")
deliveries, round_trips = [], []
for n in range(count):
    sent = time.perf_counter()
    comment = post(n)
    acknowledged = time.perf_counter()
    with seen:
        if not seen.wait_for(lambda: comment in arrived, timeout=30):
            sys.exit(f"comment {comment} never reached the open stream")
        deliveries.append((arrived[comment] - sent) * 1000)
    round_trips.append((acknowledged - sent) * 1000)


def spread(values):
    return f"min {min(values):.1f}, median {statistics.median(values):.1f}, max {max(values):.1f} ms"


print(f"comment to an open page ({count} posts, one at a time): {spread(deliveries)}")
print(f"reference, the POST's own round trip:                {spread(round_trips)}")
print(f"ratio: delivery / POST round trip (medians) = {statistics.median(deliveries) / statistics.median(round_trips):.2f}")
