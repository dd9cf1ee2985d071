"""Choosing photos in the grid and doing something with them, checked in the page, in the API and
on disk: ctrl/shift-click and a long press choose; the heart makes favourites (and the Favourites
view shows them); Add to Album puts them in a new album without moving a file, and Remove from
Album takes them out inside it; Delete sends them to the trash with an Undo right after; Recently
Deleted restores; a folder and an album are renamed and deleted from their grids."""

import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import screenshot, start_server
from gestures import js, touch, wait_for
from pages import open_app


@pytest.fixture
def manage_server(work_dir, request):
    name = request.node.name
    photos = os.path.join(work_dir, f"manage-{name}")
    os.makedirs(os.path.join(photos, "Trips"), exist_ok=True)
    noise = os.path.join(work_dir, f"manage-noise-{name}.v")
    subprocess.run(["vips", "gaussnoise", noise, "800", "200", "--mean", "128", "--sigma", "60"], check=True)
    made = ["Trips/beach.jpg", "Trips/hill.jpg", "home.jpg", "garden.jpg"]
    for i, relative in enumerate(made):
        subprocess.run(["vips", "crop", noise, os.path.join(photos, relative) + "[Q=85]", str(i * 200), "0", "200", "200"], check=True)
    os.remove(noise)
    running = start_server(photos, os.path.join(work_dir, f"manage-data-{name}"), comments_per_minute=0, expected_photos=len(made))
    running.photos_dir = photos
    yield running
    running.stop()


def api(server, path):
    with urllib.request.urlopen(server.url + path, timeout=30) as answer:
        return json.load(answer)


def is_listed(server, photo_id):
    """Whether the API lists the photo (404 while it is not)."""
    try:
        return api(server, f"/photos/{photo_id}")["id"] == photo_id
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise


def ids_by_path(server):
    """Each listed photo's id by its path, from the API."""
    found = {}
    for photo in server.all_photos():
        details = photo.get("details", {})
        found[details.get("fileName", photo["title"])] = photo["id"]
    return found


def cell(driver, photo_id):
    return driver.find_element("css selector", f'#grid a[data-photo-id="{photo_id}"]')


def click(driver, photo_id, key=None):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    actions = ActionChains(driver)
    modifier = {"ctrl": Keys.CONTROL, "shift": Keys.SHIFT}.get(key)
    if modifier:
        actions.key_down(modifier)
    actions.click(cell(driver, photo_id))
    if modifier:
        actions.key_up(modifier)
    actions.perform()


def selected_count(driver):
    return js(driver, "return document.querySelector('.selection-count').textContent")


def test_favourite_move_delete_undo_and_restore_from_the_grid(desktop, manage_server):
    server = manage_server
    open_app(desktop, server)
    listed = server.all_photos()
    photos = {p["id"]: p for p in listed}
    # In the library's order (date taken), as a shift-click's range runs.
    ids = [p["id"] for p in listed]
    wait_for(lambda: len(desktop.find_elements("css selector", "#grid a[data-photo-id]")) == 4, message="four cells")

    # Ctrl-click chooses without opening; the heart makes both favourites.
    click(desktop, ids[0], "ctrl")
    click(desktop, ids[1], "ctrl")
    assert selected_count(desktop) == "2 photos selected"
    assert js(desktop, "return location.hash") in ("", "#/"), "choosing opens nothing"
    desktop.find_element("css selector", ".select-favourite").click()
    wait_for(lambda: sorted(api(server, "/favourites")["ids"]) == sorted(ids[:2]), message="two favourites on the server")
    screenshot(desktop, "manage-selected")
    desktop.find_element("css selector", ".select-done").click()

    desktop.get(server.url + "/#/favourites")
    wait_for(lambda: len(desktop.find_elements("css selector", "#favourites-view .favourites a")) == 2, message="the Favourites view")
    screenshot(desktop, "manage-favourites")

    # Select, then shift-click a range, into a new album: no file moves.
    files_before = {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs}
    open_app(desktop, server)
    desktop.find_element("id", "select-photos").click()
    click(desktop, ids[2])
    click(desktop, ids[3], "shift")
    assert selected_count(desktop) == "2 photos selected"
    desktop.find_element("css selector", ".select-album").click()
    # The sheet opens in a task of its own: on a busy machine its field is not on screen at once.
    name = wait_for(lambda: next((e for e in desktop.find_elements("css selector", ".sheet-name") if e.is_displayed() and e.is_enabled()), None),
                    message="the album sheet's name field")
    name.send_keys("Best")
    desktop.find_element("css selector", ".sheet-submit").click()
    wait_for(lambda: any(a["title"] == "Best" and a["count"] == 2 for a in api(server, "/albums")["albums"]), message="the new album")
    best = next(a for a in api(server, "/albums")["albums"] if a["title"] == "Best")
    assert {p["id"] for p in api(server, f"/albums/{best['id']}")["photos"]} == set(ids[2:])
    assert {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs} == files_before, \
        "adding to an album moves no file"

    # Inside the album, Remove from Album takes one out; the photo stays in the library.
    desktop.get(f"{server.url}/#/albums/{best['id']}")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-count').textContent") == "2 photos", message="the album's grid")
    # The title comes with the albums' list, which on a busy machine follows the photos.
    wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == "Best", message="the album's title")
    desktop.find_element("id", "select-photos").click()
    click(desktop, ids[2])
    wait_for(lambda: desktop.find_element("css selector", ".select-unalbum").is_displayed(), message="Remove from Album")
    desktop.find_element("css selector", ".select-unalbum").click()
    wait_for(lambda: [p["id"] for p in api(server, f"/albums/{best['id']}")["photos"]] == [ids[3]], message="one photo left in the album")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-count').textContent") == "1 photo", message="the grid follows")
    assert is_listed(server, ids[2]), "still in the library"
    screenshot(desktop, "manage-album-removed")
    open_app(desktop, server)

    # Delete with Undo right after: gone from disk, then back at its path under its id.
    victim = ids[0]
    title = photos[victim]["title"]
    before = {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs}
    desktop.find_element("id", "select-photos").click()
    click(desktop, victim)
    desktop.find_element("css selector", ".select-delete").click()
    wait_for(lambda: js(desktop, "return document.querySelector('#undo-toast .undo-text').textContent") == "Deleted 1 photo",
             message="the Undo toast")
    after = {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs}
    assert len(before - after) == 1 and title in next(iter(before - after))
    screenshot(desktop, "manage-deleted")
    desktop.find_element("css selector", ".undo-action").click()
    wait_for(lambda: {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs} == before,
             message="the photo back where it was")
    wait_for(lambda: is_listed(server, victim), message="listed again under its id")
    assert victim in api(server, "/favourites")["ids"], "still a favourite"

    # Deleted again, restored from Recently Deleted.
    wait_for(lambda: len(desktop.find_elements("css selector", f'#grid a[data-photo-id="{victim}"]')) == 1, message="back in the grid")
    desktop.find_element("id", "select-photos").click()
    click(desktop, victim)
    desktop.find_element("css selector", ".select-delete").click()
    wait_for(lambda: len(api(server, "/trash")["items"]) == 1, message="one photo in the trash")
    desktop.get(server.url + "/#/trash")
    wait_for(lambda: len(desktop.find_elements("css selector", "#trash-view .trash-item")) == 1, message="Recently Deleted lists it")
    screenshot(desktop, "manage-trash")
    desktop.find_element("css selector", ".trash-restore").click()
    wait_for(lambda: api(server, "/trash")["items"] == [], message="the trash empty")
    # The trash's row goes before the file is back and listed: the restore's answer waits for both, this test for the list.
    wait_for(lambda: is_listed(server, victim), message="the photo listed again under its id")


def test_a_long_press_chooses_a_photo_on_a_phone(phone, manage_server):
    open_app(phone, manage_server)
    first = min(p["id"] for p in manage_server.all_photos())
    wait_for(lambda: len(phone.find_elements("css selector", f'#grid a[data-photo-id="{first}"]')) == 1, message="the cell")
    box = js(phone, "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", cell(phone, first))
    touch(phone, "touchStart", [box])
    wait_for(lambda: js(phone, "return !document.querySelector('#selection-bar').hidden"), message="choosing starts")
    touch(phone, "touchEnd", [])
    assert selected_count(phone) == "1 photo selected"
    assert js(phone, "return location.hash") in ("", "#/"), "the press did not open the photo"
    screenshot(phone, "manage-long-press")


def test_two_fingers_held_are_no_long_press_when_the_first_is_beside_the_photos(phone, manage_server):
    """The first finger on the grid's title, the second on a photo, both held past a long press's
    time: a pinch that has not moved yet, and nothing is chosen."""
    open_app(phone, manage_server)
    first = min(p["id"] for p in manage_server.all_photos())
    wait_for(lambda: len(phone.find_elements("css selector", f'#grid a[data-photo-id="{first}"]')) == 1, message="the cell")
    box = js(phone, "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", cell(phone, first))
    title = js(phone, "const r = document.querySelector('#grid-title').getBoundingClientRect(); return [r.x + 4, r.y + r.height / 2]")
    assert js(phone, "return !document.elementFromPoint(...arguments).closest('a.cell')", *title), "the first finger beside the photos"
    touch(phone, "touchStart", [title, box])
    # Past the long press's 500 ms, on the page's own clock: a timer set after both fingers came down.
    phone.execute_async_script("const done = arguments[0]; setTimeout(done, 900)")
    touch(phone, "touchEnd", [])
    assert js(phone, "return document.querySelector('#selection-bar').hidden"), "a long press chose a photo"


def test_a_folder_renamed_and_deleted_from_its_grid_with_undo(desktop, manage_server):
    server = manage_server
    trips = next(a for a in api(server, "/folders")["folders"] if a["path"] == "Trips")
    open_app(desktop, server, f"folders/{trips['id']}")
    wait_for(lambda: js(desktop, "return !document.querySelector('.album-actions').hidden"), message="the folder's buttons")
    assert js(desktop, "return document.querySelector('.album-delete').textContent") == "Delete Folder"
    desktop.find_element("css selector", ".album-rename").click()
    prompt = desktop.switch_to.alert
    prompt.send_keys("Travels")
    prompt.accept()
    wait_for(lambda: any(a["path"] == "Travels" and a["id"] == trips["id"] for a in api(server, "/folders")["folders"]),
             message="the folder renamed, its id kept")
    assert os.path.isdir(os.path.join(server.photos_dir, "Travels")) and not os.path.exists(os.path.join(server.photos_dir, "Trips"))
    wait_for(lambda: js(desktop, "return document.querySelector('#grid-title').textContent") == "Travels", message="the new title")

    desktop.find_element("css selector", ".album-delete").click()
    desktop.switch_to.alert.accept()
    wait_for(lambda: js(desktop, "return location.hash") == "#/folders", message="back to the folders")
    wait_for(lambda: not os.path.exists(os.path.join(server.photos_dir, "Travels")), message="the folder gone")
    assert len(api(server, "/trash")["items"]) == 2
    desktop.find_element("css selector", ".undo-action").click()
    wait_for(lambda: sorted(os.listdir(os.path.join(server.photos_dir, "Travels"))) == ["beach.jpg", "hill.jpg"]
             if os.path.isdir(os.path.join(server.photos_dir, "Travels")) else False, message="the folder back")


def test_an_album_made_renamed_and_deleted_keeps_its_photos(desktop, manage_server):
    server = manage_server
    files = lambda: {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs}
    before = files()
    open_app(desktop, server, "albums")
    wait_for(lambda: "No albums yet" in js(desktop, "return document.getElementById('albums-status').textContent"), message="no albums")
    desktop.find_element("css selector", ".album-new").click()
    prompt = desktop.switch_to.alert
    prompt.send_keys("Summer")
    prompt.accept()
    wait_for(lambda: [a["title"] for a in api(server, "/albums")["albums"]] == ["Summer"], message="the album made")
    summer = api(server, "/albums")["albums"][0]
    wait_for(lambda: js(desktop, "return location.hash") == f"#/albums/{summer['id']}", message="the new album opened")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == "Summer", message="its title")
    assert js(desktop, "return document.getElementById('grid-count').textContent") == "0 photos"
    assert js(desktop, "return document.querySelector('.album-delete').textContent") == "Delete Album"

    desktop.find_element("css selector", ".album-rename").click()
    prompt = desktop.switch_to.alert
    prompt.send_keys("Summer 2024")
    prompt.accept()
    wait_for(lambda: api(server, "/albums")["albums"][0]["title"] == "Summer 2024", message="renamed")
    assert files() == before, "an album is no folder"

    desktop.get(server.url + "/#/albums")
    wait_for(lambda: js(desktop, "return [...document.querySelectorAll('#albums a .album-title')].map(e => e.textContent)") == ["Summer 2024"],
             message="the album's card")
    screenshot(desktop, "albums-collections")
    desktop.find_element("css selector", f'#albums a[data-album-id="{summer["id"]}"]').click()
    wait_for(lambda: js(desktop, "return !document.querySelector('.album-actions').hidden"), message="the album's buttons")
    desktop.find_element("css selector", ".album-delete").click()
    desktop.switch_to.alert.accept()
    wait_for(lambda: js(desktop, "return location.hash") == "#/albums", message="back to the albums")
    wait_for(lambda: api(server, "/albums")["albums"] == [], message="the album gone")
    assert files() == before and api(server, "/trash")["items"] == [], "its photos stay where they were"


def test_the_heart_in_the_pager_and_the_grid_agree(desktop, manage_server):
    server = manage_server
    first = min(p["id"] for p in server.all_photos())
    open_app(desktop, server, f"photos/{first}")
    heart = desktop.find_element("css selector", "#pager-view .action-favourite")
    wait_for(lambda: heart.is_displayed(), message="the pager's heart, for this machine on a public library")
    assert heart.get_attribute("aria-pressed") == "false"
    heart.click()
    wait_for(lambda: api(server, "/favourites")["ids"] == [first], message="a favourite on the server")
    wait_for(lambda: heart.get_attribute("aria-pressed") == "true", message="the heart filled")
    assert heart.get_attribute("aria-label") == "Remove from Favourites"
    # The grid's heart for the same photo, drawn from the same favourites.
    assert f'a[data-photo-id="{first}"]::after' in js(desktop, "return [...document.querySelectorAll('style')].map(s => s.textContent).join('')")
    heart.click()
    wait_for(lambda: api(server, "/favourites")["ids"] == [], message="no favourite left")
    wait_for(lambda: heart.get_attribute("aria-pressed") == "false", message="the heart empty")
    # Marked as the others that change the library, so whoever may not sees no heart.
    assert heart.get_attribute("data-needs") == "manage"


CHANGE = """const done = arguments[arguments.length - 1];
fetch(arguments[0], {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(arguments[1])})
  .then((r) => done(r.status), (e) => done(String(e)));"""


def grid_ids(driver):
    return set(js(driver, "return [...document.querySelectorAll('#grid a[data-photo-id]')].map(a => Number(a.dataset.photoId))"))


def test_a_photo_restored_comes_back_into_the_open_grid(desktop, manage_server):
    server = manage_server
    open_app(desktop, server)
    ids = [p["id"] for p in server.all_photos()]
    wait_for(lambda: grid_ids(desktop) == set(ids), message="every photo in the grid")
    victim = ids[1]
    # Deleted and restored elsewhere (another window), the grid open here: it goes and comes back.
    assert desktop.execute_async_script(CHANGE, "/photos/trash", {"ids": [victim]}) == 200
    wait_for(lambda: victim not in grid_ids(desktop), message="the deleted photo gone from the grid")
    item = api(server, "/trash")["items"][0]["id"]
    assert desktop.execute_async_script(CHANGE, "/trash/restore", {"items": [item]}) == 200
    wait_for(lambda: grid_ids(desktop) == set(ids), message="the restored photo back in the open grid")

    # Deleted, then restored from Recently Deleted in this page, then back to the grid without a reload.
    assert desktop.execute_async_script(CHANGE, "/photos/trash", {"ids": [victim]}) == 200
    wait_for(lambda: victim not in grid_ids(desktop), message="the deleted photo gone from the grid")
    js(desktop, "location.hash = '#/trash'")
    wait_for(lambda: len(desktop.find_elements("css selector", "#trash-view .trash-item")) == 1, message="Recently Deleted lists it")
    desktop.find_element("css selector", ".trash-restore").click()
    wait_for(lambda: api(server, "/trash")["items"] == [], message="the trash empty")
    js(desktop, "location.hash = '#/'")
    wait_for(lambda: grid_ids(desktop) == set(ids), message="the restored photo back in the grid")
    screenshot(desktop, "manage-restored-in-grid")


def pager_photo(driver):
    return js(driver, "return window.__pager?.photo?.photo?.id ?? null")


def front_id(driver):
    return js(driver, "const m = location.hash.match(/photos\\/(\\d+)/); return m ? Number(m[1]) : null")


def test_the_pager_deletes_favourites_and_shows_info_by_key_with_undo(desktop, manage_server):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    server = manage_server
    ids = [p["id"] for p in server.all_photos()]
    open_app(desktop, server, f"photos/{ids[1]}")
    wait_for(lambda: js(desktop, "return window.__pager?.complete === true"), message="the photo drawn")
    for name in ("action-delete", "action-album", "action-favourite", "action-info"):
        assert desktop.find_element("css selector", f"#pager-view .{name}").is_displayed(), name

    # Delete: to Recently Deleted, the next photo in its place, Undo in the toast.
    ActionChains(desktop).send_keys(Keys.DELETE).perform()
    wait_for(lambda: len(api(server, "/trash")["items"]) == 1, message="the photo in the trash")
    assert api(server, "/trash")["items"][0]["photo"] == ids[1]
    wait_for(lambda: front_id(desktop) == ids[2], message="the next photo in its place")
    wait_for(lambda: js(desktop, "return window.__pager.count") == 3, message="three photos left to page through")
    assert js(desktop, "return document.querySelector('#undo-toast .undo-text').textContent") == "Deleted 1 photo"
    screenshot(desktop, "pager-deleted-desktop")
    desktop.find_element("css selector", ".undo-action").click()
    wait_for(lambda: is_listed(server, ids[1]), message="the photo back under its id")
    wait_for(lambda: js(desktop, "return window.__pager.count") == 4, message="four photos again")

    # Backspace deletes too; the last photo deleted leaves the one before in front.
    js(desktop, "location.hash = arguments[0]", f"#/photos/{ids[3]}")
    wait_for(lambda: front_id(desktop) == ids[3] and js(desktop, "return window.__pager.index") == 3, message="the last photo")
    ActionChains(desktop).send_keys(Keys.BACKSPACE).perform()
    wait_for(lambda: len(api(server, "/trash")["items"]) == 1, message="the last photo in the trash")
    wait_for(lambda: front_id(desktop) == ids[2], message="the one before in its place")

    # F: a favourite; I: the info panel.
    ActionChains(desktop).send_keys("f").perform()
    wait_for(lambda: api(server, "/favourites")["ids"] == [ids[2]], message="a favourite by its key")
    wait_for(lambda: js(desktop, "return document.querySelector('#pager-view .action-favourite').getAttribute('aria-pressed')") == "true",
             message="the heart filled")
    ActionChains(desktop).send_keys("i").perform()
    wait_for(lambda: js(desktop, "return document.getElementById('pager-view').classList.contains('info-open')"), message="the info panel")


def test_the_pager_deletes_and_adds_to_an_album_by_its_buttons_on_a_phone(phone, manage_server):
    server = manage_server
    ids = [p["id"] for p in server.all_photos()]
    open_app(phone, server, f"photos/{ids[0]}")
    wait_for(lambda: js(phone, "return window.__pager?.complete === true"), message="the photo drawn")
    screenshot(phone, "pager-actions-phone")
    phone.find_element("css selector", "#pager-view .action-album").click()
    name = wait_for(lambda: next((e for e in phone.find_elements("css selector", ".sheet-name") if e.is_displayed() and e.is_enabled()), None),
                    message="the album sheet's name field")
    files = lambda: {os.path.relpath(os.path.join(d, f), server.photos_dir) for d, _, fs in os.walk(server.photos_dir) for f in fs}
    before = files()
    name.send_keys("Kept")
    phone.find_element("css selector", ".sheet-submit").click()
    kept = lambda: next((a for a in api(server, "/albums")["albums"] if a["title"] == "Kept"), None)
    wait_for(lambda: kept() and [p["id"] for p in api(server, f"/albums/{kept()['id']}")["photos"]] == [ids[0]],
             message="the photo in the new album")
    assert files() == before, "an album moves no file"
    assert front_id(phone) == ids[0], "in the library, the photo stays in front"
    assert not js(phone, "return document.querySelector('#pager-view .action-unalbum').offsetParent"), "Remove from Album is for an album's pager"
    # Inside the album, the pager takes the photo out of it; the photo stays in the library.
    album = kept()["id"]
    open_app(phone, server, f"albums/{album}/photos/{ids[0]}")
    wait_for(lambda: js(phone, "return window.__pager?.complete === true") and front_id(phone) == ids[0], message="the album's photo drawn")
    phone.find_element("css selector", "#pager-view .action-unalbum").click()
    wait_for(lambda: api(server, f"/albums/{album}")["photos"] == [], message="the album empty")
    assert api(server, f"/photos/{ids[0]}")["id"] == ids[0] and files() == before, "the photo stays in the library"
    open_app(phone, server, f"photos/{ids[0]}")
    wait_for(lambda: js(phone, "return window.__pager?.complete === true") and front_id(phone) == ids[0], message="back in the library's pager")
    phone.find_element("css selector", "#pager-view .action-delete").click()
    wait_for(lambda: [i["photo"] for i in api(server, "/trash")["items"]] == [ids[0]], message="the photo in the trash")
    wait_for(lambda: front_id(phone) == ids[1], message="the next photo in its place")
    screenshot(phone, "pager-deleted-phone")
