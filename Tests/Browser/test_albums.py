"""The library by date taken: one continuous windowed grid over thousands of photos with the month
floating over it, the Folders view and the pager paging through the folder it was opened from, an
album of photos from two folders listed and paged the same way; the info panel's date and exposure
line from the camera's EXIF."""

import calendar
import json
import urllib.request

from selenium.webdriver.common.keys import Keys

from conftest import screenshot
from gestures import js, wait_for
from pages import open_app, visible_view, wait_hash

LAYOUT = """
const label = document.querySelector('#grid-view .grid-month-label');
const cells = [...document.querySelectorAll('#grid .cell')].map(a => {
    const r = a.getBoundingClientRect();
    return {id: Number(a.dataset.photoId), top: r.top, left: r.left, height: r.height};
});
return {label: label.hidden ? null : label.textContent, cells};
"""


def month_title(relative):
    year, month = relative.split("/")[:2]
    return f"{calendar.month_name[int(month)]} {year}"


def test_one_continuous_grid_with_the_month_floating_over_it(phone, collection_server):
    """Every row is full whatever the dates (a month is no row of its own), and the label floating
    at the top names the month of the photos there, every month in turn as the grid scrolls."""
    open_app(phone, collection_server)
    paths = collection_server.paths  # in id order; dated by their folders' months, in name order
    expected = []
    for relative in paths:
        if not expected or expected[-1] != month_title(relative):
            expected.append(month_title(relative))
    newest = collection_server.all_photos()[-1]["id"]  # the last of the list, in the grid's last row
    seen = []
    height = js(phone, "return document.documentElement.scrollHeight")
    screen = js(phone, "return innerHeight")
    y = 0
    while True:
        js(phone, f"window.scrollTo(0, {y})")
        last = y >= height - screen

        # Drawn for this place (a frame after the scroll): cells on screen, and at the bottom the
        # newest photo itself.
        def drawn(l):
            on_screen = any(0 <= c["top"] < screen for c in l["cells"])
            return l if on_screen and (not last or any(c["id"] == len(paths) for c in l["cells"])) else None
        def named(l):
            """The photo at the top left of the screen (or the first, with the title above the
            grid) names the label, once the frame after the scroll has drawn it."""
            under = [c for c in l["cells"] if c["top"] <= 0 < c["top"] + c["height"]] or [c for c in l["cells"] if c["top"] >= 0]
            first = min(under, key=lambda c: (c["top"], c["left"]))
            # (A photo another test of the session added is none of the collection's.)
            return l if first["id"] > len(paths) or l["label"] == month_title(paths[first["id"] - 1]) else None
        layout = wait_for(lambda: drawn(js(phone, LAYOUT)) and named(js(phone, LAYOUT)), message="drawn and named here")
        rows = {}
        for cell in layout["cells"]:
            rows.setdefault(round(cell["top"]), []).append(cell["id"])
        for top, ids in rows.items():
            assert len(ids) == 4 or newest in ids, f"a row of {len(ids)} photos that is not the last: {ids}"
        if layout["label"] not in seen:
            seen.append(layout["label"])
        if last:
            break
        y = min(height - screen, y + int(screen * 0.6))
    # Months too short to reach the top of the screen at the very end are on the last screen.
    assert seen == expected[:len(seen)], (seen, expected)
    last_screen = {month_title(paths[c["id"] - 1]) for c in layout["cells"] if 0 <= c["top"] < screen and c["id"] <= len(paths)}
    assert set(expected[len(seen):]) <= last_screen, (expected[len(seen):], last_screen)
    assert len(seen) >= 35
    screenshot(phone, "grid-month-label")


def album_cards(driver):
    return js(driver, """return [...document.querySelectorAll('#albums a')].map(a => ({
        id: Number(a.dataset.albumId || a.dataset.folderId), href: a.getAttribute('href'),
        title: a.querySelector('.album-title').textContent, meta: a.querySelector('.album-meta').textContent}));""")


def call(server, path, method="GET", body=None):
    request = urllib.request.Request(server.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
        return json.loads(text) if text else None


def test_folder_view_and_paging_within_a_folder(desktop, album_server):
    open_app(desktop, album_server)
    # The library: every photo, oldest first, in one row on a wide screen though they span four
    # months and six years; the label names the first's month.
    layout = js(desktop, LAYOUT)
    assert len({round(c["top"]) for c in layout["cells"]}) == 1, layout["cells"]
    assert layout["label"] == "July 2019"
    screenshot(desktop, "grid-one-row-desktop")
    titles = {p["id"]: t for t, p in album_server.photos.items()}
    order = [titles[c["id"]] for c in sorted(layout["cells"], key=lambda c: (c["top"], c["left"]))]
    assert order == ["hill", "garden", "beach", "loose", "cake", "city"]

    # The Albums tab, then its Folders: the folders of the photos folder.
    desktop.find_element("css selector", ".view-tabs .tab-albums").click()
    wait_hash(desktop, "#/albums")
    wait_for(lambda: visible_view(desktop) == "albums", message="the albums")
    desktop.find_element("css selector", "#albums-view .folders-link").click()
    wait_hash(desktop, "#/folders")
    wait_for(lambda: len(album_cards(desktop)) == 2, message="two folders")
    assert js(desktop, "return document.querySelector('#albums-view h1').textContent") == "Folders"
    cards = album_cards(desktop)
    assert [c["title"] for c in cards] == ["Family", "Trips"]
    assert cards[1]["meta"].startswith("3 photos · Jul 2019 – Dec 2025"), cards[1]
    screenshot(desktop, "folders")

    trips = cards[1]["id"]
    desktop.find_element("css selector", f'#albums a[data-folder-id="{trips}"]').click()
    wait_hash(desktop, f"#/folders/{trips}")
    wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == "Trips", message="album title")
    wait_for(lambda: len(js(desktop, LAYOUT)["cells"]) == 3, message="the album's three photos")
    cells = sorted(js(desktop, LAYOUT)["cells"], key=lambda c: (c["top"], c["left"]))
    assert [titles[c["id"]] for c in cells] == ["hill", "beach", "city"]
    assert js(desktop, "return document.getElementById('grid-count').textContent") == "3 photos"

    # The pager pages through the folder only, and the URL says so.
    desktop.find_element("css selector", f'#grid a[data-photo-id="{cells[0]["id"]}"]').click()
    wait_hash(desktop, f"#/folders/{trips}/photos/{cells[0]['id']}")
    wait_for(lambda: visible_view(desktop) == "pager", message="pager")
    assert js(desktop, "return document.querySelector('.pager-count').textContent") == "1 of 3"
    for cell in cells[1:]:
        desktop.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        wait_hash(desktop, f"#/folders/{trips}/photos/{cell['id']}")
    desktop.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert js(desktop, "return document.querySelector('.pager-count').textContent") == "3 of 3", "the folder's last"
    wait_hash(desktop, f"#/folders/{trips}/photos/{cells[2]['id']}")
    assert "Trips" in js(desktop, "return document.querySelector('.pager-back').textContent")

    # A reload lands in the folder, and Back goes to the folder's grid.
    desktop.refresh()
    wait_for(lambda: js(desktop, "return document.documentElement.dataset.ready === 'true'"), message="reloaded")
    assert js(desktop, "return document.querySelector('.pager-count').textContent") == "3 of 3"
    desktop.find_element("css selector", ".pager-back").click()
    wait_hash(desktop, f"#/folders/{trips}/")
    wait_for(lambda: visible_view(desktop) == "grid", message="folder grid")
    assert js(desktop, "return document.getElementById('grid-count').textContent") == "3 photos"


def test_an_album_of_photos_from_two_folders(desktop, album_server):
    """An album holds photos of any folders, shown by date taken; its pager pages through it only."""
    titles = {t: p["id"] for t, p in album_server.photos.items()}
    album = call(album_server, "/albums", "POST", {"title": "Best"})
    try:
        call(album_server, f"/albums/{album['id']}/photos", "POST", {"ids": [titles["city"], titles["cake"], titles["hill"]]})
        open_app(desktop, album_server, "albums")
        wait_for(lambda: [c["title"] for c in album_cards(desktop)] == ["Best"], message="the album's card")
        card = album_cards(desktop)[0]
        assert card["href"] == f"#/albums/{album['id']}"
        assert card["meta"].startswith("3 photos · Jul 2019 – Dec 2025"), card
        screenshot(desktop, "albums")
        desktop.find_element("css selector", f'#albums a[data-album-id="{album["id"]}"]').click()
        wait_hash(desktop, f"#/albums/{album['id']}")
        wait_for(lambda: js(desktop, "return document.getElementById('grid-title').textContent") == "Best", message="album title")
        wait_for(lambda: len(js(desktop, LAYOUT)["cells"]) == 3, message="the album's three photos")
        names = {p: t for t, p in titles.items()}
        cells = sorted(js(desktop, LAYOUT)["cells"], key=lambda c: (c["top"], c["left"]))
        assert [names[c["id"]] for c in cells] == ["hill", "cake", "city"], "by date taken, from two folders"
        desktop.find_element("css selector", f'#grid a[data-photo-id="{cells[1]["id"]}"]').click()
        wait_hash(desktop, f"#/albums/{album['id']}/photos/{cells[1]['id']}")
        wait_for(lambda: js(desktop, "return document.querySelector('.pager-count').textContent") == "2 of 3", message="the album's pager")
        desktop.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        wait_hash(desktop, f"#/albums/{album['id']}/photos/{cells[2]['id']}")
        assert "Best" in js(desktop, "return document.querySelector('.pager-back').textContent")
    finally:
        call(album_server, f"/albums/{album['id']}", "DELETE")


def test_info_panel_says_when_and_with_what(phone, album_server):
    beach = album_server.photos["beach"]
    open_app(phone, album_server, f"photos/{beach['id']}")
    wait_for(lambda: js(phone, "return document.querySelector('.page.current')?.dataset.photoId") == str(beach["id"]),
             message="pager at the photo")
    js(phone, "document.querySelector('.action-info').click()")
    text = wait_for(lambda: js(phone, "return document.querySelector('.page.current .photo-info')?.innerText"), message="info")
    assert "iPhone 15 Pro · 24 mm · ƒ1.8 · 1/120 s · ISO 80" in text, text
    assert "March 5, 2024" in text or "5 March 2024" in text, text
    assert "UTC+1" in text, text
    assert "beach.jpg" in text
    screenshot(phone, "info-exif-phone")
