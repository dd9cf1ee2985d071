"""Uploads through a tus client nobody here wrote (tuspy, the tus project's Python client): a
200 MB photo whose connection is cut three times at random offsets resumes each time from the
server's offset and lands byte for byte, while the server's memory stays flat."""

import hashlib
import os
import random
import socket
import subprocess
import threading
import time
import urllib.request

import pytest
from tusclient import client as tus_client
from tusclient.exceptions import TusCommunicationError, TusUploadFailed

from conftest import start_server


class CuttingProxy:
    """A loopback TCP relay in front of the server that hangs up the next PATCH connections after
    the numbers of body-carrying bytes it is told, as a phone losing its network would."""

    def __init__(self, target_port, cuts):
        self.target_port = target_port
        self.cuts = list(cuts)
        self.cut_done = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.open = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.target_port))
            self.open += [client, server]
            threading.Thread(target=self._client_to_server, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client), daemon=True).start()

    def _client_to_server(self, client, server):
        first = client.recv(1 << 16)
        limit = None
        if first.startswith(b"PATCH ") and self.cuts:
            limit = self.cuts.pop(0)
        sent = 0
        data = first
        try:
            while data:
                if limit is not None and sent + len(data) >= limit:
                    server.sendall(data[: max(0, limit - sent)])
                    self.cut_done.append(limit)
                    break
                server.sendall(data)
                sent += len(data)
                data = client.recv(1 << 20)
        except OSError:
            pass
        if limit is not None:
            for s in (client, server):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
        else:
            try:
                server.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    @staticmethod
    def _pump(source, destination):
        try:
            while True:
                data = source.recv(1 << 16)
                if not data:
                    break
                destination.sendall(data)
        except OSError:
            pass
        try:
            destination.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def close(self):
        self.listener.close()
        for s in self.open:
            s.close()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.fixture(scope="module")
def upload_server(work_dir):
    photos = os.path.join(work_dir, "upload-photos")
    os.makedirs(photos, exist_ok=True)
    running = start_server(photos, os.path.join(work_dir, "upload-data"), comments_per_minute=0, expected_photos=0,
                           env_extra={"PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "1", "PHOTOSCROLL_INGEST_CONCURRENCY": "1"})
    running.photos_dir = photos
    yield running
    running.stop()


@pytest.fixture(scope="module")
def big_photo(work_dir):
    """A 200 MB photo made by libvips: 5000 × 10000 pixels of Perlin noise, one float band,
    uncompressed TIFF, so no two stretches of it are alike and a resumed byte in the wrong place
    would show."""
    path = os.path.join(work_dir, "big.tif")
    subprocess.run(["vips", "perlin", path + "[compression=none]", "5000", "10000"], check=True)
    yield path
    os.remove(path)


def stored_files(photos_dir):
    found = []
    for folder, _, files in os.walk(photos_dir):
        found += [os.path.join(folder, name) for name in files]
    return found


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def test_a_200_mb_photo_cut_three_times_resumes_and_lands_whole(upload_server, big_photo):
    size = os.path.getsize(big_photo)
    assert size >= 200_000_000
    server_port = int(upload_server.url.rsplit(":", 1)[1])
    random.seed(os.environ.get("UPLOAD_SEED", time.time_ns()))
    # Each cut falls within the bytes the resumed PATCH still has to send.
    cuts = [random.randrange(1 << 20, 50 << 20) for _ in range(3)]
    proxy = CuttingProxy(server_port, cuts)
    pid = upload_server.process.pid
    baseline = rss_kib(pid)
    peak = [baseline]
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            peak[0] = max(peak[0], rss_kib(pid))
            time.sleep(0.05)

    threading.Thread(target=sample, daemon=True).start()
    try:
        client = tus_client.TusClient(f"http://127.0.0.1:{proxy.port}/uploads/")
        uploader = client.uploader(big_photo, metadata={"filename": "big.tif"})
        offsets = []
        for attempt in range(10):
            try:
                uploader.upload()
                break
            except (TusUploadFailed, TusCommunicationError):
                # As an app would after losing its network: ask the server how far it got, go on.
                uploader = client.uploader(big_photo, url=uploader.url)
                offsets.append(uploader.offset)
        else:
            pytest.fail("the upload never finished")
    finally:
        sampling.set()
        proxy.close()
    assert proxy.cut_done == cuts, "every cut happened"
    assert len(offsets) == 3
    # Every resume went on from where the last cut left the server, never from the start.
    assert all(0 < offset < size for offset in offsets), offsets
    assert offsets == sorted(offsets), offsets
    assert uploader.offset == size
    files = stored_files(upload_server.photos_dir)
    assert len(files) == 1, files
    assert files[0].endswith("/big.tif") and "/Uploads/" in files[0], files
    assert sha256(files[0]) == sha256(big_photo)
    # Streamed, never held: the server grew by far less than the photo.
    grew_mib = (peak[0] - baseline) / 1024
    assert grew_mib < 64, f"RSS grew by {grew_mib:.0f} MiB during a {size >> 20} MiB upload"


def test_tuspy_with_sha1_checksums_in_chunks(upload_server, work_dir):
    path = os.path.join(work_dir, "chunked.png")
    noise = os.path.join(work_dir, "chunked.v")
    subprocess.run(["vips", "gaussnoise", noise, "1200", "900", "--mean", "128", "--sigma", "50"], check=True)
    subprocess.run(["vips", "cast", noise, path, "uchar"], check=True)
    os.remove(noise)
    client = tus_client.TusClient(upload_server.url + "/uploads/")
    uploader = client.uploader(path, chunk_size=256 * 1024, upload_checksum=True, metadata={"filename": "chunked.png"})
    assert uploader.checksum_algorithm_name == "sha1"
    uploader.upload()
    assert uploader.offset == os.path.getsize(path)
    with urllib.request.urlopen(uploader.url) as answer:
        status = answer.read().decode()
    assert '"complete":true' in status
    stored = [f for f in stored_files(upload_server.photos_dir) if f.endswith("chunked.png")]
    assert len(stored) == 1 and sha256(stored[0]) == sha256(path)
