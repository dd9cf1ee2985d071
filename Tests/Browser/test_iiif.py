"""The IIIF Image API, DeepZoom-style tiles and Presentation manifests as other software sees them:
the official IIIF validator, a minimal tile client and Leaflet in headless Chromium (on another
origin, so CORS is exercised), and the iiif-prezi3 models."""

import functools
import http.server
import json
import os
import shutil
import subprocess
import threading
import urllib.request

import pytest

from conftest import ORIGINS, REPO, screenshot, start_server
from gestures import wait_for
from photos import make_photo

VALIDATOR_PYTHON = os.path.join(REPO, ".venv-iiif", "bin", "python")
LEAFLET = "/usr/share/javascript/leaflet"
# 2300×1500 with 256-pixel tiles: maxZoom 4, edge tiles on the right and at the bottom of every level.
WIDTH, HEIGHT, MAX_ZOOM = 2300, 1500, 4


def validation_image():
    """The validator's own validation_image.png, from its installed package; None without the validator."""
    if not os.path.exists(VALIDATOR_PYTHON):
        return None
    out = subprocess.run([VALIDATOR_PYTHON, "-c", "import importlib.resources as r; print(r.files('iiif_validator') / 'validation_image.png')"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


@pytest.fixture(scope="module")
def iiif_server(work_dir):
    photos = os.path.join(work_dir, "photos-iiif")
    os.makedirs(photos, exist_ok=True)
    make_photo(os.path.join(photos, "edges.jpg"), WIDTH, HEIGHT, seed=1)
    expected = 1
    image = validation_image()
    if image:
        shutil.copy(image, os.path.join(photos, "validation_image.png"))
        expected += 1
    running = start_server(photos, os.path.join(work_dir, "data-iiif"), comments_per_minute=0, expected_photos=expected)
    yield running
    running.stop()


class ClientFiles(http.server.SimpleHTTPRequestHandler):
    """Serves Tests/Browser/clients/, and Debian's Leaflet under /leaflet/."""

    def translate_path(self, path):
        path = path.split("?", 1)[0]
        if path.startswith("/leaflet/"):
            return os.path.join(LEAFLET, os.path.basename(path))
        return os.path.join(os.path.dirname(__file__), "clients", os.path.basename(path))

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def client_origin():
    """The client pages on an origin of their own: every request they make to the server is cross-origin."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), ClientFiles)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    ORIGINS.add(origin)
    yield origin
    server.shutdown()


def wait_for_script(driver, script, timeout=60):
    """The first truthy value `script` returns in the page."""
    return wait_for(lambda: driver.execute_script(script), timeout=timeout, interval=0.1, message=script)


def test_the_official_validator_passes_every_applicable_level2_test(iiif_server):
    if not os.path.exists(VALIDATOR_PYTHON):
        message = ("the IIIF validator needs Python 3.12 or newer, and scripts/install-deps.sh found none "
                   "(on PATH or under ~/.pyenv/versions), so .venv-iiif does not exist")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    photo = iiif_server.photos["validation_image"]
    out = subprocess.run([VALIDATOR_PYTHON, os.path.join(os.path.dirname(__file__), "iiif_validate.py"),
                          iiif_server.url + "/iiif/3", str(photo["id"])], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["level"] == "LEVEL_2"
    # Every test but those for jp2, pdf and (never applicable in this validator version) caching.
    for name in ["info_json", "id_escaped", "http_cors", "http_jsonld", "http_baseurl_redirect", "http_linkheader_canonical",
                 "region_percent", "region_square", "size_bwh", "size_up", "size_noup", "rot_full_non90", "rot_mirror_180",
                 "quality_bitonal", "quality_grey", "format_webp", "format_gif", "format_tif", "size_region"]:
        assert name in report["applicable"], name
    assert len(report["applicable"]) >= 43, report["applicable"]
    assert report["failures"] == [], json.dumps(report["failures"], indent=1)
    assert report["passed"] >= 120


def test_a_tile_client_following_info_json_gets_every_tile_at_its_size(iiif_server, client_origin, desktop):
    photo = iiif_server.photos["edges"]
    info_url = iiif_server.url + photo["iiif"]
    desktop.get(f"{client_origin}/iiif-client.html?info={info_url}")
    result = wait_for_script(desktop, "return window.__result", timeout=120)
    screenshot(desktop, "iiif-tile-client")
    assert result["infoStatus"] == 200
    assert result["infoType"].startswith("application/ld+json")
    assert result["problems"] == []
    # One level per scale factor, all tiles of each: 9×6, 5×3, 3×2, 2×1 and 1 for 2300×1500.
    assert [level["scaleFactor"] for level in result["levels"]] == [1, 2, 4, 8, 16]
    assert [level["tiles"] for level in result["levels"]] == [54, 15, 6, 2, 1]
    assert result["requests"] == 78
    assert all(level["readable"] for level in result["levels"]), "CORS lets the page read the pixels it drew"


def level_size(z):
    divisor = 1 << (MAX_ZOOM - z)
    return -(-WIDTH // divisor), -(-HEIGHT // divisor)


def test_leaflet_shows_every_level_of_the_pyramid(iiif_server, client_origin, desktop):
    photo = iiif_server.photos["edges"]
    assert photo["maxZoom"] == MAX_ZOOM
    tiles = iiif_server.url + photo["tiles"]
    desktop.get(f"{client_origin}/leaflet.html?tiles={urllib.request.quote(tiles, safe='')}"
                f"&width={WIDTH}&height={HEIGHT}&maxZoom={MAX_ZOOM}")
    wait_for_script(desktop, "return window.__tiles && window.__tiles.idle")
    for z in range(MAX_ZOOM + 1):
        if z > 0:
            desktop.execute_script(f"zoomTo({z})")
            wait_for_script(desktop, "return window.__tiles.idle")
        if z in (0, MAX_ZOOM):
            screenshot(desktop, f"leaflet-zoom-{z}")
    state = desktop.execute_script("return window.__tiles")
    assert state["errors"] == []
    seen = {tile["z"] for tile in state["loaded"]}
    assert seen == set(range(MAX_ZOOM + 1))
    for tile in state["loaded"]:
        width, height = level_size(tile["z"])
        expected = (min(256, width - tile["x"] * 256), min(256, height - tile["y"] * 256))
        assert (tile["width"], tile["height"]) == expected, tile


def test_manifests_are_valid_presentation_3(iiif_server):
    from iiif_prezi3 import Manifest

    for path in ["/iiif/manifest.json", f"/photos/{iiif_server.photos['edges']['id']}/manifest.json"]:
        with urllib.request.urlopen(iiif_server.url + path, timeout=30) as response:
            assert response.headers["Access-Control-Allow-Origin"] == "*"
            document = json.load(response)
        manifest = Manifest(**document)  # raises on anything Presentation 3 does not allow
        assert len(manifest.items) == len(document["items"]) >= 1
        for canvas in document["items"]:
            body = canvas["items"][0]["items"][0]["body"]
            service = body["service"][0]
            assert service["type"] == "ImageService3"
            # The image service the canvas names answers with its info.json.
            with urllib.request.urlopen(service["id"] + "/info.json", timeout=30) as info:
                assert json.load(info)["id"] == service["id"]
