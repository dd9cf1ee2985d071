"""A stand-in for the photoscroll server, for working on Public/ without a Swift build.

It speaks the same API as the real server (photos, tiles, thumbnails, comments, live comment
events, rate limit) over pyramids made with `vips dzsave`. The browser tests run against the real
binary; this is only for developing the page:  python3 Tests/Browser/mockserver.py [PORT]
"""

import json
import math
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

sys.path.insert(0, os.path.dirname(__file__))
from photos import make_library  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TILE = 256


class Library:
    def __init__(self, folder, cache):
        self.photos = []
        self.comments = []
        self.lock = threading.Lock()
        self.listeners = []
        self.posts = []
        self.per_minute = int(os.environ.get("PHOTOSCROLL_COMMENTS_PER_MINUTE", "10"))
        for i, name in enumerate(sorted(os.listdir(folder)), start=1):
            src = os.path.join(folder, name)
            out = subprocess.run(["vipsheader", "-f", "width", src], capture_output=True, text=True).stdout
            if not out.strip():
                self.photos.append({"id": i, "title": os.path.splitext(name)[0], "width": 0, "height": 0,
                                    "tileSize": TILE, "maxZoom": 0, "version": "v1", "status": "failed",
                                    "error": "This file is not an image that can be read.",
                                    "thumbnail": f"/photos/{i}/thumbnail.jpg?v=v1",
                                    "tiles": f"/photos/{i}/tiles/{{z}}/{{x}}/{{y}}.jpg?v=v1",
                                    "_dir": "", "_shift": 0, "_thumb": ""})
                continue
            width = int(out)
            height = int(subprocess.run(["vipsheader", "-f", "height", src], capture_output=True, text=True).stdout)
            max_zoom = max(0, math.ceil(math.log2(max(width, height) / TILE)))
            base = os.path.join(cache, str(i))
            subprocess.run(["vips", "dzsave", src, base, "--layout", "dz", "--tile-size", str(TILE),
                            "--overlap", "0", "--suffix", ".jpg[Q=85]"], check=True)
            subprocess.run(["vips", "thumbnail", src, base + "_thumb.jpg", "256", "--height", "256",
                            "--crop", "centre"], check=True)
            shift = math.ceil(math.log2(max(width, height))) - max_zoom
            self.photos.append({
                "id": i, "title": os.path.splitext(name)[0], "width": width, "height": height,
                "tileSize": TILE, "maxZoom": max_zoom, "version": "v1", "status": "ready",
                "thumbnail": f"/photos/{i}/thumbnail.jpg?v=v1",
                "tiles": f"/photos/{i}/tiles/{{z}}/{{x}}/{{y}}.jpg?v=v1",
                "_dir": base + "_files", "_shift": shift, "_thumb": base + "_thumb.jpg"})

    def public(self, photo):
        shown = {k: v for k, v in photo.items() if not k.startswith("_")}
        shown["commentCount"] = sum(1 for c in self.comments if c["photoId"] == photo["id"])
        return shown

    def add_comment(self, photo_id, text, author):
        with self.lock:
            comment = {"id": len(self.comments) + 1, "photoId": photo_id, "author": author or "Anonymous",
                       "text": text, "createdAt": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
            self.comments.append(comment)
            for q in self.listeners:
                q.put(comment)
        return comment


class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=os.path.join(ROOT, "Public"), **kwargs)

    def log_message(self, *args):
        pass

    def send_json(self, status, value, content_type="application/json; charset=utf-8", headers=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def problem(self, status, title, detail, headers=()):
        self.send_json(status, {"type": "about:blank", "title": title, "status": status, "detail": detail},
                       "application/problem+json", headers)

    def send_file(self, path):
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return self.problem(404, "Not Found", "no such tile")
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        self.end_headers()
        self.wfile.write(data)

    def photo(self, parts):
        try:
            return LIB.photos[int(parts[1]) - 1]
        except (ValueError, IndexError):
            return None

    def do_GET(self):
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        if url.path == "/photos":
            query = parse_qs(url.query)
            limit = int(query.get("limit", ["200"])[0])
            after = int(query.get("after", ["0"])[0])
            page = [p for p in LIB.photos if p["id"] > after][:limit]
            more = page and page[-1]["id"] < LIB.photos[-1]["id"]
            nxt = f"/photos?after={page[-1]['id']}&limit={limit}" if more else None
            return self.send_json(200, {"photos": [LIB.public(p) for p in page], "total": len(LIB.photos), "next": nxt})
        if url.path == "/photos/summary":
            return self.send_json(200, {"total": len(LIB.photos), "idRuns": [[p["id"], 1] for p in LIB.photos],
                                        "ratios": [round(p["width"] / p["height"], 3) if p["height"] else 0 for p in LIB.photos],
                                        "days": [int(time.time() // 86400) for _ in LIB.photos]})
        if url.path == "/photos/events":
            return self.photo_events()
        if parts[0] != "photos":
            return super().do_GET()
        photo = self.photo(parts)
        if photo is None:
            return self.problem(404, "Not Found", "no such photo")
        if len(parts) == 2:
            i = LIB.photos.index(photo)
            placed = dict(LIB.public(photo), position=i, previous=LIB.photos[i - 1]["id"] if i > 0 else None,
                          next=LIB.photos[i + 1]["id"] if i + 1 < len(LIB.photos) else None)
            return self.send_json(200, placed)
        if parts[2] == "thumbnail.jpg":
            return self.send_file(photo["_thumb"])
        if parts[2] == "tiles" and len(parts) == 6:
            z, x = int(parts[3]), int(parts[4])
            y = int(parts[5].split(".")[0])
            return self.send_file(os.path.join(photo["_dir"], str(z + photo["_shift"]), f"{x}_{y}.jpg"))
        if parts[2] == "comments" and len(parts) == 3:
            query = parse_qs(url.query)
            after = int(query.get("after", ["0"])[0])
            limit = int(query.get("limit", ["50"])[0])
            found = [c for c in LIB.comments if c["photoId"] == photo["id"] and c["id"] > after][:limit]
            return self.send_json(200, {"comments": found})
        if parts[2:] == ["comments", "events"]:
            return self.events(photo)
        return self.problem(404, "Not Found", "no such path")

    def photo_events(self):
        """The photo list never changes here: a hello, then keep-alives."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(f"event: hello\ndata: {json.dumps({'total': len(LIB.photos)})}\n\n".encode())
            self.wfile.flush()
            while True:
                time.sleep(15)
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except OSError:
            pass
        finally:
            self.close_connection = True

    def events(self, photo):
        q = queue.Queue()
        with LIB.lock:
            LIB.listeners.append(q)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        try:
            self.wfile.write(b": hello\n\n")
            self.wfile.flush()
            while True:
                try:
                    comment = q.get(timeout=15)
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                if comment["photoId"] != photo["id"]:
                    continue
                self.wfile.write(f"id: {comment['id']}\nevent: comment\ndata: {json.dumps(comment)}\n\n".encode())
                self.wfile.flush()
        except OSError:
            pass
        finally:
            with LIB.lock:
                LIB.listeners.remove(q)
            self.close_connection = True

    def do_POST(self):
        parts = urlparse(self.path).path.strip("/").split("/")
        photo = self.photo(parts) if parts[0] == "photos" else None
        if photo is None or parts[2:] != ["comments"]:
            return self.problem(404, "Not Found", "no such photo")
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        form = not self.headers.get("Content-Type", "").startswith("application/json")
        try:
            fields = {k: v[0] for k, v in parse_qs(body.decode()).items()} if form else json.loads(body)
        except ValueError:
            return self.problem(400, "Bad Request", "The body is not valid JSON.")
        text = (fields.get("text") or "").strip()
        if not text:
            return self.problem(400, "Bad Request", "A comment needs some text.")
        if len(text) > 2000:
            return self.problem(400, "Bad Request", "A comment can be at most 2000 characters long.")
        now = time.time()
        LIB.posts[:] = [t for t in LIB.posts if now - t < 60]
        if LIB.per_minute and len(LIB.posts) >= LIB.per_minute:
            retry = int(60 - (now - LIB.posts[0])) + 1
            return self.problem(429, "Too Many Requests", f"Try again in {retry} seconds.", [("Retry-After", str(retry))])
        LIB.posts.append(now)
        comment = LIB.add_comment(photo["id"], text, fields.get("author"))
        if form:
            self.send_response(303)
            self.send_header("Location", f"/#/photos/{photo['id']}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_json(201, comment, headers=[("Location", f"/photos/{photo['id']}/comments/{comment['id']}")])


if __name__ == "__main__":
    work = tempfile.mkdtemp(prefix="photoscroll-mock-")
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    if len(sys.argv) > 2:
        folder = sys.argv[2]
    else:
        folder = os.path.join(work, "photos")
        make_library(folder)
    LIB = Library(folder, os.path.join(work, "cache"))
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
