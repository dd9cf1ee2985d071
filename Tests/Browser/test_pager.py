"""Grid, pager and URL: tap a cell, swipe, tap a dot, go Back, and the same with the keyboard."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import os

from conftest import screenshot
from photos import make_photo
from gestures import js, swipe, tap, wait_for
from pages import centre_of, current_dot, hash_of, open_app, sorted_photos, visible_view, wait_hash


def test_grid_lists_every_photo_as_a_lazy_square_link(phone, server):
    open_app(phone, server)
    photos = sorted_photos(server)
    # A cell is drawn from the summary first and named once its record arrives.
    wait_for(lambda: js(phone, "const t = [...document.querySelectorAll('#grid .cell-title')];"
                               " return t.length > 0 && t.every(e => e.textContent !== '')"),
             message="every cell named")
    cells = js(phone, """
        return [...document.querySelectorAll('#grid .cell')].map(a => {
            const img = a.querySelector('img'), r = a.getBoundingClientRect();
            return {href: a.getAttribute('href'), alt: img.alt, title: a.querySelector('.cell-title').textContent, loading: img.loading,
                    src: img.getAttribute('src'), w: r.width, h: r.height};
        });
    """)
    assert [c["href"] for c in cells] == [f"#/photos/{p['id']}" for p in photos]
    # Named by its title, once: the thumbnail says nothing more.
    assert [c["title"] for c in cells] == [p["title"] for p in photos]
    assert all(c["alt"] == "" for c in cells)
    assert all(c["loading"] == "lazy" and c["src"] == p["thumbnail"] for c, p in zip(cells, photos))
    assert all(abs(c["w"] - c["h"]) < 1 and c["w"] > 60 for c in cells)
    wait_for(lambda: js(phone, "return [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)"),
             message="thumbnails loaded")
    # Each thumbnail is a square filled with the photo to its edges: no letterbox bars.
    edges = js(phone, """
        return [...document.querySelectorAll('#grid img')].map(img => {
            const c = document.createElement('canvas');
            c.width = img.naturalWidth; c.height = img.naturalHeight;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            const brightest = (x, y, w, h) => Math.max(...g.getImageData(x, y, w, h).data.filter((_, i) => i % 4 !== 3));
            const n = c.width;
            return {w: c.width, h: c.height, bottom: brightest(0, n - 6, n, 6), right: brightest(n - 6, 0, 6, n),
                    top: brightest(0, 0, n, 6), left: brightest(0, 0, 6, n)};
        });
    """)
    for edge, photo in zip(edges, photos):
        assert edge["w"] == edge["h"], photo["title"]
        assert min(edge["bottom"], edge["right"], edge["top"], edge["left"]) > 40, (photo["title"], edge)
    screenshot(phone, "grid-phone")


def test_tap_swipe_dots_and_back(phone, server):
    photos = sorted_photos(server)
    open_app(phone, server)
    x, y = centre_of(phone, f'#grid .cell[data-photo-id="{photos[0]["id"]}"]')
    tap(phone, x, y)
    wait_hash(phone, f"#/photos/{photos[0]['id']}")
    wait_for(lambda: visible_view(phone) == "pager", message="pager shown")
    dots = current_dot(phone)
    assert dots["index"] == 0 and dots["red"] == 0
    assert dots["drawn"] == len(photos)
    assert dots["text"] == f"1 of {len(photos)}"
    # Red for the current photo (light or dark appearance), once the dot's short fade is over.
    wait_for(lambda: current_dot(phone)["colour"] in ("rgb(215, 0, 21)", "rgb(255, 69, 58)"), message="red dot")
    wait_for(lambda: js(phone, "return window.__pager?.complete === true"), message="photo drawn")
    screenshot(phone, "pager-first")

    # A finger swipes right to left across the photo: the next page snaps in, dot and URL follow.
    swipe(phone, 330, 260, 50, 265)
    wait_hash(phone, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: current_dot(phone)["index"] == 1, message="second dot red")
    wait_for(lambda: js(phone, "return window.__pager.position === 1 && !window.__pager.moving"), message="snapped to page 2")
    # Pages sit one screen width and an 8 px gap apart; the neighbours are drawn ahead of time.
    pages = js(phone, """return [...document.querySelectorAll('.page:not([hidden])')].map(p => ({
        id: p.dataset.photoId, left: p.getBoundingClientRect().left, tiles: p.querySelectorAll('.tile-layer img').length}))
        .sort((a, b) => a.left - b.left);""")
    lefts = [p["left"] for p in pages]
    assert 0 in lefts
    assert all(abs((b - a) - 398) < 1 for a, b in zip(lefts, lefts[1:]))
    assert any(p["id"] == str(photos[2]["id"]) and p["tiles"] > 0 for p in pages)
    screenshot(phone, "pager-swiped")

    # Tapping the last dot brings its photo.
    phone.find_elements(By.CSS_SELECTOR, ".pager-dots .dot")[3].click()
    wait_hash(phone, f"#/photos/{photos[3]['id']}")
    wait_for(lambda: current_dot(phone)["index"] == 3, message="last dot red")

    # Reload lands on the same photo.
    phone.refresh()
    wait_for(lambda: visible_view(phone) == "pager" and current_dot(phone)["index"] == 3, message="same photo after reload")

    # Back returns to the grid.
    phone.back()
    wait_for(lambda: visible_view(phone) == "grid", message="grid after Back")
    assert hash_of(phone) in ("", "#/")


def test_keyboard_alone(desktop, server):
    driver = desktop
    photos = sorted_photos(server)
    open_app(driver, server)
    press = lambda key: ActionChains(driver).send_keys(key).perform()  # noqa: E731 (to whatever has focus)
    # The grid's buttons and its tabs come first, then the first photo.
    for _ in range(10):
        press(Keys.TAB)
        active = driver.switch_to.active_element
        if "/photos/" in (active.get_attribute("href") or ""):
            break
    assert active.get_attribute("href").endswith(f"#/photos/{photos[0]['id']}")
    assert js(driver, "return getComputedStyle(document.activeElement).outlineStyle") != "none"
    press(Keys.ENTER)
    wait_hash(driver, f"#/photos/{photos[0]['id']}")
    # (The URL changes at once; the pager, and its keys, once the photo's record is in.)
    wait_for(lambda: visible_view(driver) == "pager" and js(driver, "return window.__pager.index") == 0, message="pager shown")
    press(Keys.ARROW_RIGHT)
    wait_hash(driver, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: current_dot(driver)["index"] == 1, message="dot follows arrow key")
    # Focus follows to the photo in front (Tab never reaches pages off screen); Enter opens the zoom view.
    on_photo = "return document.activeElement.classList.contains('photo-open') && document.activeElement.closest('.page.current') !== null"
    for _ in range(12):
        if js(driver, on_photo):
            break
        press(Keys.TAB)
    assert js(driver, on_photo), "Tab never reached the photo"
    press(Keys.ENTER)
    wait_hash(driver, f"#/photos/{photos[1]['id']}/zoom")
    wait_for(lambda: visible_view(driver) == "zoom", message="zoom view shown")
    screenshot(driver, "zoom-desktop")
    press(Keys.ESCAPE)
    wait_hash(driver, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: visible_view(driver) == "pager", message="pager shown again")
    screenshot(driver, "pager-desktop")
    # With a mouse, the arrow buttons beside the photo page too.
    driver.find_element(By.CSS_SELECTOR, ".pager-prev").click()
    wait_hash(driver, f"#/photos/{photos[0]['id']}")
    assert not driver.find_element(By.CSS_SELECTOR, ".pager-prev").is_displayed() or \
        driver.find_element(By.CSS_SELECTOR, ".pager-prev").get_attribute("disabled") is not None


def test_a_photo_that_failed_says_why(phone, limited_server):
    broken = limited_server.photos["broken"]
    assert broken["status"] == "failed" and broken.get("error")
    open_app(phone, limited_server)
    # The cell's state is drawn with its row, which a busy machine may draw a frame after the listing.
    cell = wait_for(lambda: js(phone, f"""
        const a = document.querySelector('#grid .cell[data-photo-id="{broken['id']}"]');
        if (!a?.querySelector('.badge')) return null;
        return {{badge: a.querySelector('.badge').textContent, error: a.querySelector('.cell-error')?.textContent,
                 label: a.getAttribute('aria-label')}};
    """), message="the failed photo's cell drawn with its state")
    assert cell["badge"] == "Failed"
    assert cell["error"] == broken["error"]
    assert broken["error"] in cell["label"]
    # Its thumbnail is not asked for: it has none, and asking would only log a 404 in the console.
    asked = js(phone, "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes(arguments[0]))",
               f"/photos/{broken['id']}/thumbnail")
    assert asked == [], asked
    screenshot(phone, "grid-failed-photo")
    # Its page says so in words, and a zoom link to it lands on the page instead.
    open_app(phone, limited_server, f"photos/{broken['id']}/zoom")
    wait_hash(phone, f"#/photos/{broken['id']}")
    wait_for(lambda: visible_view(phone) == "pager", message="pager shown")
    shown = js(phone, "return document.querySelector('.page.current .photo-error')?.textContent")
    assert shown and broken["error"] in shown


def test_a_photo_added_to_the_folder_appears_in_the_open_grid(phone, limited_server):
    open_app(phone, limited_server)
    before = js(phone, "return document.querySelectorAll('#grid .cell').length")
    make_photo(os.path.join(limited_server.photos_dir, "added-later.jpg"), 800, 600, seed=2)
    # The server finds it on its next scan; the open grid picks it up without a reload.
    js(phone, "window.__sameDocument = true")
    wait_for(lambda: js(phone, "return [...document.querySelectorAll('#grid .cell-title')].some(t => t.textContent === 'added-later')"),
             timeout=40, message="new photo in the grid")
    assert js(phone, "return document.querySelectorAll('#grid .cell').length") == before + 1
    assert js(phone, "return window.__sameDocument === true")


def test_a_trackpad_swipe_pages_and_a_mouse_drag_on_a_zoomed_photo_pans_it(desktop, server):
    driver = desktop
    photos = sorted_photos(server)
    open_app(driver, server, f"photos/{photos[0]['id']}")
    wait_for(lambda: js(driver, "return window.__pager?.complete === true"), message="photo drawn")
    # Two fingers sideways on a trackpad: the pages follow, and settle on the next one. The browser
    # itself sends the wheel events, a frame apart, as a trackpad does (sent one by one from here, a
    # busy machine spaced them past the page's 140 ms "the fingers stopped"); and they go past half
    # the page, so it settles on the next one whatever speed a busy machine leaves them.
    driver.execute_cdp_cmd("Input.synthesizeScrollGesture", {"x": 600, "y": 400, "xDistance": -720, "yDistance": 0,
                                                             "speed": 2400, "gestureSourceType": "mouse"})
    wait_hash(driver, f"#/photos/{photos[1]['id']}")
    wait_for(lambda: js(driver, "return window.__pager.position === 1 && !window.__pager.moving"), message="settled on page 2")
    # A trackpad pinch (ctrl+wheel) on the photo zooms it in place; the page does not zoom.
    box = js(driver, "return document.querySelector('.page.current .photo-open').getBoundingClientRect().toJSON()")
    cx, cy = box["left"] + box["width"] / 2, box["top"] + box["height"] / 2
    for _ in range(6):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": cx, "y": cy, "deltaX": 0, "deltaY": -30, "modifiers": 2})
    wait_for(lambda: js(driver, "const p = window.__pager.photo; return p.s > 1.5 * p.fitScale"), message="photo zoomed in place")
    assert js(driver, "return visualViewport.scale") == 1
    # A mouse drag on the zoomed photo pans it, and opens nothing.
    before = js(driver, "return window.__pager.photo.tx")
    ActionChains(driver).move_by_offset(0, 0).perform()
    ActionChains(driver).move_to_element_with_offset(driver.find_element(By.CSS_SELECTOR, ".page.current .photo-open"), 0, 0) \
        .click_and_hold().move_by_offset(-120, 0).move_by_offset(-60, 0).release().perform()
    wait_for(lambda: js(driver, "return !window.__pager.photo.animating"), message="pan at rest")
    assert js(driver, "return window.__pager.photo.tx") < before - 100
    assert hash_of(driver) == f"#/photos/{photos[1]['id']}"
