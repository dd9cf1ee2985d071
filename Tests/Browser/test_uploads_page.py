"""Adding photos from the page: twenty files dropped on the grid while the network is throttled,
then gone, then back (DevTools protocol) all land once; an upload cut by a reload goes on when the
page opens again; the Add button takes several files at once."""

import base64
import os
import subprocess

import pytest

from conftest import screenshot, start_server
from gestures import js, wait_for
from pages import open_app


@pytest.fixture
def empty_server(work_dir, request):
    name = request.node.name.replace("[", "-").replace("]", "")
    photos = os.path.join(work_dir, f"page-uploads-{name}")
    os.makedirs(photos, exist_ok=True)
    running = start_server(photos, os.path.join(work_dir, f"page-uploads-data-{name}"), comments_per_minute=0, expected_photos=0)
    running.photos_dir = photos
    yield running
    running.stop()


def make_photos(folder, count, size=160):
    """`count` different small JPEGs cut from one field of noise drawn by libvips."""
    os.makedirs(folder, exist_ok=True)
    noise = os.path.join(folder, "noise.v")
    subprocess.run(["vips", "gaussnoise", noise, str(size * 5), str(size * ((count + 4) // 5)), "--mean", "128", "--sigma", "60"],
                   check=True)
    paths = []
    for i in range(count):
        path = os.path.join(folder, f"IMG_{i:04d}.jpg")
        subprocess.run(["vips", "crop", noise, path + "[Q=85]", str((i % 5) * size), str((i // 5) * size), str(size), str(size)], check=True)
        paths.append(path)
    os.remove(noise)
    return paths


def stored(photos_dir):
    found = []
    for folder, _, files in os.walk(photos_dir):
        found += [os.path.join(folder, f) for f in files]
    return sorted(found)


DROP = """
const [files, target] = arguments;
const transfer = new DataTransfer();
for (const [name, data] of files) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  transfer.items.add(new File([bytes], name, { type: 'image/jpeg' }));
}
const element = document.querySelector(target);
for (const type of ['dragenter', 'dragover', 'drop']) {
  element.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
}
"""


def network(driver, offline=False, kbps=None, latency=0):
    driver.execute_cdp_cmd("Network.enable", {})
    throughput = -1 if kbps is None else kbps * 1024 // 8
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": latency, "downloadThroughput": throughput, "uploadThroughput": throughput})


def states(driver):
    return js(driver, "return [...document.querySelectorAll('#uploads .upload')].map((row) => row.dataset.state)")


def test_twenty_dropped_photos_land_once_through_a_slow_then_lost_then_back_network(desktop, empty_server, work_dir):
    paths = make_photos(os.path.join(work_dir, "drop-source"), 20)
    open_app(desktop, empty_server)
    files = [[os.path.basename(p), base64.b64encode(open(p, "rb").read()).decode()] for p in paths]
    network(desktop, kbps=2000, latency=150)
    js(desktop, DROP, files, "#grid-view")
    assert not js(desktop, "return document.querySelector('#uploads').hidden")
    wait_for(lambda: states(desktop).count("sending") > 0, message="uploads sending")
    screenshot(desktop, "uploads-sending")
    network(desktop, offline=True)
    wait_for(lambda: "waiting" in states(desktop), timeout=30, message="an upload waiting for the network")
    network(desktop, offline=False)
    wait_for(lambda: states(desktop).count("done") == 20, timeout=90, message="every upload done")
    screenshot(desktop, "uploads-done")
    files_stored = stored(empty_server.photos_dir)
    assert len(files_stored) == 20, files_stored
    assert sorted(os.path.basename(p) for p in files_stored) == sorted(os.path.basename(p) for p in paths)
    for original in paths:
        twin = next(p for p in files_stored if os.path.basename(p) == os.path.basename(original))
        assert open(twin, "rb").read() == open(original, "rb").read()
    # They appear in the grid as they land (the library's live events).
    wait_for(lambda: js(desktop, "return document.querySelectorAll('#grid [data-photo-id]').length") == 20,
             timeout=30, message="twenty photos in the grid")
    assert js(desktop, "return document.querySelector('.uploads-summary').textContent") == "20 photos added"


def test_an_upload_cut_by_a_reload_goes_on_when_the_page_opens_again(desktop, empty_server, work_dir):
    path = make_photos(os.path.join(work_dir, "reload-source"), 1, size=1400)[0]
    size = os.path.getsize(path)
    open_app(desktop, empty_server)
    network(desktop, kbps=1600, latency=50)
    js(desktop, DROP, [[os.path.basename(path), base64.b64encode(open(path, "rb").read()).decode()]], "#grid-view")
    wait_for(lambda: 0.1 < js(desktop, "return document.querySelector('.upload-bar').value") < 0.9, timeout=30,
             message="part of the photo sent")
    desktop.refresh()
    network(desktop)
    wait_for(lambda: js(desktop, "return document.documentElement.dataset.ready === 'true'"), message="page back")
    wait_for(lambda: states(desktop) == ["done"], timeout=60, message="the upload resumed and done")
    files_stored = stored(empty_server.photos_dir)
    assert len(files_stored) == 1 and os.path.getsize(files_stored[0]) == size
    assert open(files_stored[0], "rb").read() == open(path, "rb").read()


def test_the_add_button_takes_several_files(desktop, empty_server, work_dir):
    paths = make_photos(os.path.join(work_dir, "picker-source"), 3)
    open_app(desktop, empty_server)
    assert not desktop.find_element("id", "select-photos").is_displayed(), "nothing to select in an empty library"
    desktop.find_element("id", "add-input").send_keys("\n".join(paths))
    wait_for(lambda: states(desktop) == ["done"] * 3, timeout=30, message="three uploads done")
    wait_for(lambda: desktop.find_element("id", "select-photos").is_displayed(), message="Select offered once there are photos")
    assert len(stored(empty_server.photos_dir)) == 3
    # The same photo again is not stored twice; the panel says it was there already.
    desktop.find_element("id", "add-input").send_keys(paths[0])
    wait_for(lambda: states(desktop) == ["done"] * 4, timeout=30, message="the repeat done")
    assert "Already in the library" in js(desktop, "return document.querySelectorAll('.upload-note')[3].textContent")
    assert len(stored(empty_server.photos_dir)) == 3
    screenshot(desktop, "uploads-added")
