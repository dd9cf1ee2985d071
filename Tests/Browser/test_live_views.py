"""Every open view stays true while the library changes elsewhere (another window, another program,
the photos folder itself): the grid, a folder, an album, the albums, Favourites and Recently Deleted
each show a change made behind their back through the live events, without a reload. One test per
kind of change; the change is made through the API (as another window would) or on disk."""

import json
import os
import shutil
import subprocess
import urllib.request
import uuid

import pytest

from conftest import screenshot, start_server
from gestures import js, wait_for
from pages import open_app

# A change made elsewhere shows within a second; the rest is for a machine loaded by other tests.
SHOWS = 10


@pytest.fixture
def live_server(work_dir, request):
    """Four small photos: two in Trips, one in Home, one loose; and a field of noise for more."""
    name = request.node.name
    photos = os.path.join(work_dir, f"live-{name}")
    for folder in ("Trips", "Home"):
        os.makedirs(os.path.join(photos, folder), exist_ok=True)
    noise = os.path.join(work_dir, f"live-noise-{name}.v")
    subprocess.run(["vips", "gaussnoise", noise, "1600", "200", "--mean", "128", "--sigma", "60"], check=True)
    made = ["Trips/beach.jpg", "Trips/hill.jpg", "Home/garden.jpg", "loose.jpg"]
    for i, relative in enumerate(made):
        subprocess.run(["vips", "crop", noise, os.path.join(photos, relative) + "[Q=85]", str(i * 200), "0", "200", "200"], check=True)
    running = start_server(photos, os.path.join(work_dir, f"live-data-{name}"), comments_per_minute=0, expected_photos=len(made))
    running.photos_dir = photos
    running.noise = noise
    yield running
    running.stop()
    os.remove(noise)


def call(server, path, method="GET", body=None):
    """The API, as another window (or program) on this machine uses it."""
    request = urllib.request.Request(server.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def new_photo(server, index):
    """A JPEG of its own, made outside the photos folder: the noise's `index`-th square (4 and up are unused)."""
    path = os.path.join(os.path.dirname(server.photos_dir), f"new-{uuid.uuid4().hex}.jpg")
    subprocess.run(["vips", "crop", server.noise, path + "[Q=85]", str(index * 200), "0", "200", "200"], check=True)
    return path


def id_of(server, title):
    """The id of the photo titled `title` once the server lists it."""
    return wait_for(lambda: next((p["id"] for p in server.all_photos() if p["title"] == title), None), timeout=30,
                    message=f"{title} listed")


def ids_by_title(server):
    return {p["title"]: p["id"] for p in server.all_photos()}


def folder_id(server, path):
    return next(f["id"] for f in call(server, "/folders")["folders"] if f["path"] == path)


def grid_ids(driver):
    return set(js(driver, "return [...document.querySelectorAll('#grid a[data-photo-id]')].map(a => Number(a.dataset.photoId))"))


def shown_grid(driver, expected, message):
    wait_for(lambda: grid_ids(driver) == set(expected), timeout=SHOWS, message=message)


def test_a_photo_copied_into_the_folder_or_uploaded_shows_in_the_open_grid_and_one_deleted_goes(desktop, live_server):
    server = live_server
    open_app(desktop, server)
    ids = ids_by_title(server)
    shown_grid(desktop, ids.values(), "every photo in the grid")

    # A file copied into the photos folder by another program.
    shutil.move(new_photo(server, 4), os.path.join(server.photos_dir, "copied.jpg"))
    copied = id_of(server, "copied")
    shown_grid(desktop, [*ids.values(), copied], "the copied photo in the open grid")
    assert js(desktop, "return document.querySelector('#grid-count').textContent") == "5 photos"

    # An upload from another window (a form, as curl -F sends it).
    with open(new_photo(server, 5), "rb") as f:
        data = f.read()
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"uploaded.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(server.url + "/uploads/form", data=body, method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        uploaded = json.load(answer)["photos"][0]["id"]
    shown_grid(desktop, [*ids.values(), copied, uploaded], "the uploaded photo in the open grid")

    # A file deleted from the folder.
    os.remove(os.path.join(server.photos_dir, "Trips", "hill.jpg"))
    shown_grid(desktop, [ids["beach"], ids["garden"], ids["loose"], copied, uploaded], "the deleted photo gone from the open grid")
    screenshot(desktop, "live-grid-added-removed")


def test_a_photo_moved_leaves_the_open_folder_and_joins_the_other(desktop, live_server):
    server = live_server
    ids = ids_by_title(server)
    trips, home = folder_id(server, "Trips"), folder_id(server, "Home")
    open_app(desktop, server, f"folders/{trips}")
    shown_grid(desktop, [ids["beach"], ids["hill"]], "the Trips folder")
    call(server, "/photos/move", "POST", {"ids": [ids["hill"]], "folder": home})
    shown_grid(desktop, [ids["beach"]], "the moved photo gone from the open Trips")

    js(desktop, f"location.hash = '#/folders/{home}'")
    shown_grid(desktop, [ids["garden"], ids["hill"]], "Home with the photo moved in")
    call(server, "/photos/move", "POST", {"ids": [ids["beach"]], "folder": home})
    shown_grid(desktop, [ids["garden"], ids["hill"], ids["beach"]], "another photo moved into the open Home")


def favourite_ids(driver):
    return js(driver, "return [...document.querySelectorAll('#favourites-view .favourites a')].map(a => Number(a.dataset.photoId))")


def test_favourites_marked_and_unmarked_elsewhere_show_in_the_open_favourites(desktop, second_phone, live_server):
    server = live_server
    ids = ids_by_title(server)
    open_app(desktop, server, "favourites")
    wait_for(lambda: js(desktop, "return !document.querySelector('#favourites-view').hidden"), message="Favourites on screen")
    assert favourite_ids(desktop) == []

    # Marked with the heart in another window's pager.
    open_app(second_phone, server, f"photos/{ids['beach']}")
    heart = second_phone.find_element("css selector", "#pager-view .action-favourite")
    wait_for(lambda: heart.is_displayed(), message="the other window's heart")
    heart.click()
    wait_for(lambda: favourite_ids(desktop) == [ids["beach"]], timeout=SHOWS, message="the favourite in the open Favourites")
    assert js(desktop, "return document.querySelector('#favourites-view .subtitle').textContent") == "1 photo"

    call(server, "/favourites", "POST", {"add": [ids["garden"]], "remove": [ids["beach"]]})
    wait_for(lambda: favourite_ids(desktop) == [ids["garden"]], timeout=SHOWS, message="one unmarked, another marked")
    screenshot(desktop, "live-favourites")


def trash_paths(driver):
    return js(driver, "return [...document.querySelectorAll('#trash-view .trash-item .trash-name')].map(e => e.textContent)")


def test_photos_deleted_and_restored_elsewhere_show_in_the_open_recently_deleted(desktop, live_server):
    server = live_server
    ids = ids_by_title(server)
    open_app(desktop, server, "trash")
    wait_for(lambda: js(desktop, "return !document.querySelector('#trash-view').hidden"), message="Recently Deleted on screen")
    assert trash_paths(desktop) == []

    batch = call(server, "/photos/trash", "POST", {"ids": [ids["beach"], ids["loose"]]})["batch"]
    wait_for(lambda: sorted(trash_paths(desktop)) == ["Trips/beach.jpg", "loose.jpg"], timeout=SHOWS,
             message="the deleted photos in the open Recently Deleted")
    call(server, "/trash/restore", "POST", {"batch": batch})
    wait_for(lambda: trash_paths(desktop) == [], timeout=SHOWS, message="the restored photos gone from it")
    assert js(desktop, "return document.querySelector('#trash-view .trash-empty').disabled") is True


def album_titles(driver):
    return js(driver, "return [...document.querySelectorAll('#albums a[data-album-id] .album-title')].map(e => e.textContent)")


def test_albums_made_renamed_and_deleted_elsewhere_show_in_the_open_albums(desktop, live_server):
    server = live_server
    open_app(desktop, server, "albums")
    wait_for(lambda: js(desktop, "return !document.querySelector('#albums-view').hidden"), message="the albums on screen")
    assert album_titles(desktop) == []

    album = call(server, "/albums", "POST", {"title": "Lisbon"})["id"]
    wait_for(lambda: album_titles(desktop) == ["Lisbon"], timeout=SHOWS, message="the new album in the open list")
    call(server, f"/albums/{album}", "PATCH", {"title": "Porto"})
    wait_for(lambda: album_titles(desktop) == ["Porto"], timeout=SHOWS, message="the album renamed in the open list")
    call(server, f"/albums/{album}", "DELETE")
    wait_for(lambda: album_titles(desktop) == [], timeout=SHOWS, message="the album gone from the open list")


def test_photos_put_into_and_taken_out_of_an_album_show_in_its_open_view(desktop, live_server):
    server = live_server
    ids = ids_by_title(server)
    album = call(server, "/albums", "POST", {"title": "Picks"})["id"]
    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["beach"]]})
    open_app(desktop, server, f"albums/{album}")
    shown_grid(desktop, [ids["beach"]], "the album's one photo")

    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["garden"], ids["loose"]]})
    shown_grid(desktop, [ids["beach"], ids["garden"], ids["loose"]], "photos put into the open album")
    call(server, f"/albums/{album}/photos", "DELETE", {"ids": [ids["beach"]]})
    shown_grid(desktop, [ids["garden"], ids["loose"]], "a photo taken out of the open album")
    # A photo of it deleted and restored: gone from it, and back.
    batch = call(server, "/photos/trash", "POST", {"ids": [ids["garden"]]})["batch"]
    shown_grid(desktop, [ids["loose"]], "a photo of the album deleted")
    call(server, "/trash/restore", "POST", {"batch": batch})
    shown_grid(desktop, [ids["garden"], ids["loose"]], "the photo restored into the open album")
    # Renamed elsewhere: its title in the open grid too.
    call(server, f"/albums/{album}", "PATCH", {"title": "Best of"})
    wait_for(lambda: js(desktop, "return document.querySelector('#grid-title').textContent") == "Best of", timeout=SHOWS,
             message="the album's new title")
    screenshot(desktop, "live-album")


def grid_order(driver):
    return js(driver, "return [...document.querySelectorAll('#grid a[data-photo-id]')].map(a => Number(a.dataset.photoId))")


def test_an_album_in_its_own_order_shows_in_it_and_follows_a_new_one(desktop, live_server):
    server = live_server
    ids = ids_by_title(server)
    album = call(server, "/albums", "POST", {"title": "Story"})["id"]
    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["beach"], ids["garden"], ids["loose"]]})
    call(server, f"/albums/{album}", "PATCH", {"order": [ids["loose"], ids["beach"], ids["garden"]]})
    open_app(desktop, server, f"albums/{album}")
    wait_for(lambda: grid_order(desktop) == [ids["loose"], ids["beach"], ids["garden"]], message="the album in its own order")

    # Put in another order, and given a photo at its start, in another window: the open album follows.
    call(server, f"/albums/{album}", "PATCH", {"order": [ids["garden"], ids["loose"], ids["beach"]]})
    wait_for(lambda: grid_order(desktop) == [ids["garden"], ids["loose"], ids["beach"]], timeout=SHOWS, message="the new order")
    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["hill"]], "position": 0})
    wait_for(lambda: grid_order(desktop) == [ids["hill"], ids["garden"], ids["loose"], ids["beach"]], timeout=SHOWS,
             message="the photo put first")
    # Back to the date order.
    call(server, f"/albums/{album}", "PATCH", {"order": "taken"})
    dates = [p["id"] for p in call(server, f"/albums/{album}?order=taken")["photos"]]
    wait_for(lambda: grid_order(desktop) == dates, timeout=SHOWS, message="the album by date again")
    screenshot(desktop, "album-own-order")


# Everything the photos' stream says is held back until window.__releaseStream(): its `hello` is
# kept for then, and any other event before it is dropped. So the page sees what a busy server
# does to it: the answer's head (EventSource's `open`) comes before the server has taken the stream
# in among those it tells of changes, and a change made meanwhile is told to no stream.
LATE_STREAM = """
(() => {
  const Native = window.EventSource;
  const held = [];
  let released = false;
  window.__lateStream = {heads: 0, held: 0, dropped: 0};
  window.__releaseStream = () => { released = true; for (const deliver of held.splice(0)) deliver(); };
  window.EventSource = class extends Native {
    constructor(...args) {
      super(...args);
      EventTarget.prototype.addEventListener.call(this, 'open', () => { window.__lateStream.heads += 1; });
    }
    addEventListener(type, listener, options) {
      if (type === 'open' || !new URL(this.url).pathname.endsWith('/photos/events')) return super.addEventListener(type, listener, options);
      return super.addEventListener(type, (e) => {
        if (released) listener.call(this, e);
        else if (type === 'hello') { window.__lateStream.held += 1; held.push(() => listener.call(this, e)); }
        else window.__lateStream.dropped += 1;
      }, options);
    }
  };
})();
"""


def test_a_change_between_the_streams_head_and_its_hello_still_shows(desktop, live_server):
    """The page asks again for what it shows when its stream says `hello`, which the server writes
    once the stream will be told of changes, not when the answer's head comes: a photo put into
    the open album between the two shows."""
    server = live_server
    ids = ids_by_title(server)
    album = call(server, "/albums", "POST", {"title": "Late"})["id"]
    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["beach"]]})
    desktop.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LATE_STREAM})
    open_app(desktop, server, f"albums/{album}")
    shown_grid(desktop, [ids["beach"]], "the album's one photo")
    wait_for(lambda: js(desktop, "return window.__lateStream.heads >= 1 && window.__lateStream.held >= 1"), timeout=SHOWS,
             message="the stream's head come and its hello held")

    call(server, f"/albums/{album}/photos", "POST", {"ids": [ids["garden"]]})
    wait_for(lambda: js(desktop, "return window.__lateStream.dropped >= 1"), timeout=SHOWS, message="the change's event dropped")
    assert grid_ids(desktop) == {ids["beach"]}, "nothing told the page of the change yet"
    js(desktop, "window.__releaseStream()")
    shown_grid(desktop, [ids["beach"], ids["garden"]], "the photo put into the album before the stream's hello")
