"""axe-core (the copy selenium-axe-python ships) finds no violation on any view: the grid, the
albums, the folders, the search (its suggestions open, its results, nothing found), the pager, its
info panel, the zoom view and the not-found view, in light and in dark; and on the selection bar
with a photo chosen and the uploads' panel."""

import json
import os
import urllib.request

import pytest
import selenium_axe_python
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, start_server
from gestures import emulate, js, settled_viewer, wait_for
from pages import open_app, sorted_photos, visible_view
from photos import make_photo

AXE = os.path.join(os.path.dirname(selenium_axe_python.__file__), "axe-core", "axe.min.js")

RUN = """const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                        nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))),
  (e) => done([{id: 'axe failed', help: String(e)}]));"""


def violations(driver):
    if not js(driver, "return typeof window.axe === 'object'"):
        with open(AXE) as f:
            driver.execute_script(f.read())
    return driver.execute_async_script(RUN)


def clean(driver, where):
    found = violations(driver)
    assert found == [], f"{where}:\n" + json.dumps(found, indent=1)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_view_has_an_axe_violation(phone, album_server, scheme):
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    server = album_server
    photo = sorted_photos(server)[0]
    open_app(phone, server)
    wait_for(lambda: js(phone, "return document.querySelectorAll('#grid .cell img').length") > 0, message="grid")
    clean(phone, "grid")
    # The grid at its widest: Months, then Years (the density kept on the device), each card a button.
    for kind in ("months", "years"):
        js(phone, "localStorage.setItem('photoscroll.gridDensity', arguments[0])", kind)
        open_app(phone, server)
        wait_for(lambda: js(phone, "return document.querySelectorAll('.grid-summary .summary-card img[src]').length") > 0,
                 message=kind)
        clean(phone, kind)
    js(phone, "localStorage.removeItem('photoscroll.gridDensity')")
    open_app(phone, server, "albums")
    wait_for(lambda: visible_view(phone) == "albums", message="albums")
    clean(phone, "albums")
    open_app(phone, server, "folders")
    wait_for(lambda: visible_view(phone) == "albums" and js(phone, "return document.querySelectorAll('#albums li').length") > 0,
             message="folders")
    clean(phone, "folders")
    # The search's index fills in the background after the server starts.
    wait_for(lambda: server.get_json("/search?q=2024")["total"] == 3, timeout=60, message="the photos of 2024 indexed")
    open_app(phone, server, "search")
    wait_for(lambda: visible_view(phone) == "search", message="search")
    phone.find_element("css selector", "#search-input").send_keys("iph")
    wait_for(lambda: js(phone, "return document.querySelectorAll('#search-suggestions [role=option]').length") > 0, message="suggestions")
    phone.find_element("css selector", "#search-input").send_keys(Keys.ARROW_DOWN)
    clean(phone, "search suggestions")
    open_app(phone, server, "search?q=2024")
    wait_for(lambda: js(phone, "return document.querySelectorAll('#search-results .cell img[src]').length") == 3, message="search results")
    clean(phone, "search results")
    open_app(phone, server, "search?q=zanzibar")
    wait_for(lambda: js(phone, "return document.getElementById('search-view').classList.contains('search-empty')"), message="nothing found")
    clean(phone, "search with nothing found")
    open_app(phone, server, f"photos/{photo['id']}")
    wait_for(lambda: js(phone, "return window.__pager.complete"), message="pager")
    clean(phone, "pager")
    phone.find_element("css selector", "#pager-view .action-info").click()
    wait_for(lambda: js(phone, "return document.getElementById('pager-view').classList.contains('info-open')"), message="info panel")
    clean(phone, "info panel")
    js(phone, "document.querySelector('.page.current .photo-open').click()")
    settled_viewer(phone)
    clean(phone, "zoom view")
    open_app(phone, server, "photos/99999")
    wait_for(lambda: visible_view(phone) == "message", message="not found")
    clean(phone, "not-found view")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_selection_bar_and_the_uploads_panel_have_no_axe_violation(phone, work_dir, scheme):
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    # A library of its own: the upload adds to it.
    folder = os.path.join(work_dir, f"a11y-manage-{scheme}")
    os.makedirs(folder, exist_ok=True)
    os.makedirs(os.path.join(work_dir, f"a11y-upload-{scheme}"), exist_ok=True)
    make_photo(os.path.join(folder, "one.jpg"), 640, 480, 1)
    make_photo(os.path.join(folder, "two.jpg"), 640, 480, 2)
    server = start_server(folder, os.path.join(work_dir, f"a11y-manage-data-{scheme}"), comments_per_minute=0, expected_photos=2)
    try:
        open_app(phone, server)
        wait_for(lambda: js(phone, "return document.querySelectorAll('#grid .cell img[src]').length") == 2, message="grid")
        phone.find_element("id", "select-photos").click()
        phone.find_element("css selector", "#grid .cell").click()
        wait_for(lambda: js(phone, "return document.querySelector('.selection-count').textContent") == "1 photo selected",
                 message="a photo chosen")
        assert js(phone, "return document.querySelector('.select-delete').disabled") is False
        clean(phone, "selection bar")
        screenshot(phone, f"a11y-selection-bar-{scheme}")
        phone.find_element("css selector", ".select-done").click()
        # An album's grid: its Sort, and Select's Move to Start and Remove from Album.
        request = urllib.request.Request(server.url + "/albums", method="POST", data=json.dumps({"title": "Both"}).encode(),
                                         headers={"Content-Type": "application/json"})
        album = json.load(urllib.request.urlopen(request, timeout=10))
        ids = [p["id"] for p in server.all_photos()]
        request = urllib.request.Request(f"{server.url}/albums/{album['id']}/photos", method="POST",
                                         data=json.dumps({"ids": ids}).encode(), headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        open_app(phone, server, f"albums/{album['id']}")
        wait_for(lambda: js(phone, "return document.querySelectorAll('#grid .cell img[src]').length") == 2, message="the album")
        phone.find_element("id", "select-photos").click()
        phone.find_element("css selector", "#grid .cell").click()
        wait_for(lambda: js(phone, "return !document.querySelector('.select-first').hidden && "
                                   "!document.querySelector('.select-first').disabled"), message="Move to Start offered")
        clean(phone, "album grid and its selection bar")
        screenshot(phone, f"a11y-album-selection-{scheme}")
        phone.find_element("css selector", ".select-done").click()
        open_app(phone, server)
        upload = os.path.join(work_dir, f"a11y-upload-{scheme}", "three.jpg")
        make_photo(upload, 640, 480, 3)
        phone.find_element("id", "add-input").send_keys(upload)
        wait_for(lambda: js(phone, "return !document.getElementById('uploads').hidden && "
                                   "[...document.querySelectorAll('#uploads li')].every(r => r.dataset.state === 'done')"),
                 timeout=30, message="the uploads' panel, the upload done")
        clean(phone, "uploads panel")
        screenshot(phone, f"a11y-uploads-panel-{scheme}")
    finally:
        phone.get("about:blank")
        server.stop()
