"""Honest states: an unknown photo or album says so (the URL stays what was typed); a photo whose
tiles fail says so over itself, with a button, and mends by itself; offline and a server out of
reach are said once, for the whole page, and the photo comes back by itself when the server does."""

import os

import pytest

from conftest import screenshot, start_server
from gestures import double_tap, js, settled_viewer, wait_for
from pages import hash_of, open_app, sorted_photos, visible_view
from photos import make_library

MESSAGE = """const v = document.getElementById('message-view');
return v.hidden ? null : {title: v.querySelector('.message-title').textContent, text: v.querySelector('.message-text').textContent,
                          link: v.querySelector('.message-link').getAttribute('href'), focused: document.activeElement === v.querySelector('.message-title')};"""

BANNER = "const b = document.getElementById('connection-status'); return b.hidden ? null : b.querySelector('.connection-words').textContent"

TROUBLE = """return [...document.querySelectorAll(arguments[0])].filter(t => !t.hidden && t.closest('[hidden]') === null)
    .map(t => t.textContent)"""


def test_an_unknown_photo_or_album_says_so_and_keeps_the_url(phone, server):
    open_app(phone, server, "photos/99999")
    shown = wait_for(lambda: js(phone, MESSAGE), message="not-found view")
    assert shown["title"] == "No such photo" and "99999" in shown["text"], shown
    assert shown["link"] == "#/" and shown["focused"], shown
    assert visible_view(phone) == "message"
    assert hash_of(phone) == "#/photos/99999", "the URL is what was typed"
    screenshot(phone, "state-photo-not-found")
    phone.find_element("css selector", ".message-link").click()
    wait_for(lambda: visible_view(phone) == "grid", message="the way back leads to the grid")

    open_app(phone, server, "albums/999")
    shown = wait_for(lambda: js(phone, MESSAGE), message="not-found view")
    assert shown["title"] == "No such album" and "999" in shown["text"], shown
    assert hash_of(phone) == "#/albums/999"
    assert js(phone, "return document.getElementById('grid-view').hidden") is True, "no empty grid under it"
    # An unknown photo of an album, and its zoom view, are not there either.
    open_app(phone, server, "photos/99999/zoom")
    assert wait_for(lambda: js(phone, MESSAGE), message="not-found view")["title"] == "No such photo"
    assert hash_of(phone) == "#/photos/99999/zoom"


def test_a_photo_whose_tiles_fail_says_so_and_mends_by_itself(phone, server):
    photo = server.photos["portrait"]
    phone.execute_cdp_cmd("Network.enable", {})
    # Its tiles and the fitted image the photo page draws at fit.
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/tiles/*", "*/iiif/*"]})
    try:
        open_app(phone, server, f"photos/{photo['id']}")
        # The server answers (its list came), so this photo, not the connection, is the trouble.
        note = wait_for(lambda: js(phone, TROUBLE, ".page.current .photo-trouble"), message="the photo says it failed")
        assert note == ["This photo could not be loaded.Try again"], note
        assert js(phone, BANNER) is None
        screenshot(phone, "state-pager-photo-failed")
        js(phone, "document.querySelector('.page.current .photo-open').click()")
        note = wait_for(lambda: js(phone, TROUBLE, ".zoom-slide.current .photo-trouble"), message="the zoom view says it too")
        assert len(note) == 1
        screenshot(phone, "state-zoom-photo-failed")
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    # Nobody presses anything: the tiles are asked for again, and the note goes once they are drawn.
    settled_viewer(phone, timeout=30)
    assert js(phone, TROUBLE, ".zoom-slide.current .photo-trouble") == []


def test_try_again_asks_at_once(phone, server):
    photo = server.photos["panorama"]
    phone.execute_cdp_cmd("Network.enable", {})
    # Its tiles and the fitted image the photo page draws at fit.
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/tiles/*", "*/iiif/*"]})
    try:
        open_app(phone, server, f"photos/{photo['id']}")
        wait_for(lambda: js(phone, TROUBLE, ".page.current .photo-trouble"), message="the photo says it failed")
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    js(phone, "document.querySelector('.page.current .photo-retry').click()")
    wait_for(lambda: js(phone, "return window.__pager.complete"), timeout=30, message="the photo drawn after Try again")
    assert js(phone, TROUBLE, ".page.current .photo-trouble") == []


@pytest.fixture
def restartable(work_dir):
    """A server of its own, to stop and start again on the same port under an open page."""
    folder = os.path.join(work_dir, "photos-restart")
    data = os.path.join(work_dir, "data-restart")
    made = make_library(folder, [("wide", 3000, 2000)]) if not os.path.isdir(folder) else {"wide": None}
    env = {"PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS": "1"}
    holder = {"server": start_server(folder, data, 0, len(made), env_extra=env)}

    def restart():
        port = int(holder["server"].url.rsplit(":", 1)[1])
        holder["server"] = start_server(folder, data, 0, len(made), env_extra=env, port=port)
        return holder["server"]
    holder["restart"] = restart
    yield holder
    holder["server"].stop()


def test_a_server_out_of_reach_is_said_once_and_the_photo_comes_back_by_itself(phone, restartable):
    server = restartable["server"]
    photo = next(iter(server.photos.values()))
    open_app(phone, server, f"photos/{photo['id']}/zoom")
    fitted = settled_viewer(phone)
    server.stop()
    # Zoomed in, the photo needs tiles the server can no longer send.
    double_tap(phone, 195, 422)
    banner = wait_for(lambda: js(phone, BANNER), message="the page says the server cannot be reached")
    assert banner == "The server cannot be reached. Trying again…"
    # Said once, for the page: not again over the photo.
    assert js(phone, TROUBLE, ".photo-trouble") == []
    assert js(phone, "return document.querySelectorAll('.connection-status').length") == 1
    screenshot(phone, "state-server-unreachable-zoom")
    restartable["restart"]()
    # Nobody reloads: the page finds the server back, the word goes, and the photo is drawn sharp.
    wait_for(lambda: js(phone, BANNER) is None, timeout=30, message="the banner gone once the server is back")
    zoomed = settled_viewer(phone, timeout=30)
    assert zoomed["scale"] > fitted["scale"]


def test_offline_is_said_once_and_goes_when_the_network_is_back(phone, server):
    photo = sorted_photos(server)[0]
    open_app(phone, server, f"photos/{photo['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="photo drawn")
    phone.execute_cdp_cmd("Network.enable", {})
    # DevTools takes the page offline, not its service worker's own fetches: past the worker, the
    # page's requests meet the network as a device's would (test_offline.py stops the server instead).
    phone.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        assert wait_for(lambda: js(phone, BANNER), message="offline said") == \
            "You are offline. The photos you have seen are still here."
        screenshot(phone, "state-offline-pager")
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(lambda: js(phone, BANNER) is None, message="the banner gone once online")
