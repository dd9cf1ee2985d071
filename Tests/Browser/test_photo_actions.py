"""The photo's own buttons: the info panel at both sizes (button, key and swipe up), the download
link (and its absence when the owner turns downloads off), full screen with and without the
Fullscreen API, the slideshow started and stopped, share, and every button on a narrow phone's bar."""

import base64
import urllib.request

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from conftest import screenshot
from gestures import emulate, js, swipe, tap, wait_for
from pages import centre_of, hash_of, open_app, sorted_photos, wait_hash


def open_pager(driver, server, photo):
    open_app(driver, server, f"photos/{photo['id']}")
    wait_for(lambda: js(driver, "return document.querySelector('.page.current')?.dataset.photoId") == str(photo["id"]),
             message="pager at the photo")


def info_state(driver):
    """Whether the card of the photo in front shows, where it is, and what it says."""
    return js(driver, """
        const card = document.querySelector('.page.current .photo-info');
        const r = card.getBoundingClientRect();
        const button = document.querySelector('.action-info');
        return {shown: getComputedStyle(card).display !== 'none' && r.height > 0, expanded: button.getAttribute('aria-expanded'),
                top: r.top, bottom: r.bottom, left: r.left, text: card.innerText,
                inView: r.top < innerHeight && r.bottom > 0};
    """)


def test_info_panel_on_a_phone_by_button_and_by_swiping_up(phone, server):
    photo = server.photos["landscape"]
    open_pager(phone, server, photo)
    assert not info_state(phone)["shown"]
    x, y = centre_of(phone, ".action-info")
    tap(phone, x, y)
    state = wait_for(lambda: (s := info_state(phone))["shown"] and s["inView"] and s, message="info card in view")
    assert state["expanded"] == "true"
    assert "1600 × 1000" in state["text"] and "1.6 MP" in state["text"] and "JPEG" in state["text"]
    assert "landscape.jpg" in state["text"], state["text"]
    screenshot(phone, "info-phone")
    # Under the photo, as on a phone it belongs.
    photo_bottom = js(phone, "return document.querySelector('.page.current .photo-open').getBoundingClientRect().bottom")
    assert state["top"] >= photo_bottom - 1
    tap(phone, x, y)
    wait_for(lambda: not info_state(phone)["shown"], message="info closed")

    # A finger moving up on the photo opens it, as in Photos.
    px, py = centre_of(phone, ".page.current .photo-open")
    swipe(phone, px, py + 60, px + 4, py - 60)
    wait_for(lambda: info_state(phone)["shown"], message="info opened by a swipe up")
    # And it stays open on the next photo.
    js(phone, "document.querySelector('.pager-next').click()")
    wait_for(lambda: js(phone, "return document.querySelector('.page.current')?.dataset.photoId") != str(photo["id"]),
             message="next photo")
    assert info_state(phone)["shown"]


def test_info_panel_on_a_desktop_beside_the_photo(desktop, server):
    photo = server.photos["panorama"]
    open_pager(desktop, server, photo)
    desktop.find_element(By.CSS_SELECTOR, "body").send_keys("i")
    state = wait_for(lambda: (s := info_state(desktop))["shown"] and s, message="info by the i key")
    photo_right = js(desktop, "return document.querySelector('.page.current .photo-open').getBoundingClientRect().right")
    assert state["left"] >= photo_right, "in the column beside the photo"
    assert state["inView"]
    assert "3000 × 700" in state["text"]
    screenshot(desktop, "info-desktop")
    desktop.find_element(By.CSS_SELECTOR, ".action-info").click()
    wait_for(lambda: not info_state(desktop)["shown"], message="closed by the button")


def test_download_link_is_the_original_as_an_attachment(desktop, server):
    photo = server.photos["portrait"]
    open_pager(desktop, server, photo)
    link = js(desktop, """const a = document.querySelector('.action-download');
        return {href: a.getAttribute('href'), download: a.hasAttribute('download'), hidden: a.hidden,
                label: a.getAttribute('aria-label')};""")
    assert link == {"href": f"/photos/{photo['id']}/original", "download": True, "hidden": False,
                    "label": "Download the original of portrait"}
    with urllib.request.urlopen(server.url + link["href"]) as answer:
        body = answer.read()
        assert answer.headers["Content-Disposition"] == \
            "attachment; filename=\"portrait.jpg\"; filename*=UTF-8''portrait.jpg"
        assert answer.headers["Content-Type"] == "image/jpeg"
    with open(server.photos_dir + "/portrait.jpg", "rb") as f:
        assert body == f.read(), "the bytes on disk"


def test_no_download_button_when_originals_are_off(phone, limited_server):
    open_pager(phone, limited_server, limited_server.photos["small"])
    assert js(phone, "return document.querySelector('.action-download').hidden") is True
    assert js(phone, "return getComputedStyle(document.querySelector('.action-download')).display") == "none"
    try:
        urllib.request.urlopen(f"{limited_server.url}/photos/{limited_server.photos['small']['id']}/original")
        raise AssertionError("the original was served")
    except urllib.error.HTTPError as error:
        assert error.code == 404


STUB_FULLSCREEN = """
    window.__fullscreenCalls = [];
    Object.defineProperty(document, 'fullscreenEnabled', {get: () => true, configurable: true});
    let current = null;
    Object.defineProperty(document, 'fullscreenElement', {get: () => current, configurable: true});
    Element.prototype.requestFullscreen = function () {
        window.__fullscreenCalls.push(this.id || this.tagName);
        current = this;
        document.dispatchEvent(new Event('fullscreenchange'));
        return Promise.resolve();
    };
    document.exitFullscreen = function () {
        window.__fullscreenCalls.push('exit');
        current = null;
        document.dispatchEvent(new Event('fullscreenchange'));
        return Promise.resolve();
    };
"""


def test_fullscreen_asks_the_browser_and_falls_back_without_it(desktop, server):
    open_pager(desktop, server, server.photos["landscape"])
    js(desktop, STUB_FULLSCREEN)
    desktop.find_element(By.CSS_SELECTOR, ".action-fullscreen").click()
    wait_for(lambda: js(desktop, "return document.documentElement.classList.contains('immersive')"), message="full screen")
    assert js(desktop, "return window.__fullscreenCalls") == ["HTML"]
    assert js(desktop, "return document.querySelector('.action-fullscreen').getAttribute('aria-pressed')") == "true"
    # The photo alone: no bars, the page's side column gone, the way out on screen.
    assert js(desktop, "return getComputedStyle(document.querySelector('.nav-bar')).display") == "none"
    assert js(desktop, "return getComputedStyle(document.querySelector('.immersive-exit')).display") == "grid"
    screenshot(desktop, "fullscreen-desktop")
    desktop.find_element(By.CSS_SELECTOR, ".immersive-exit").click()
    wait_for(lambda: not js(desktop, "return document.documentElement.classList.contains('immersive')"), message="left")
    assert js(desktop, "return window.__fullscreenCalls") == ["HTML", "exit"]

    # No Fullscreen API (Safari on an iPhone): the page's own full screen, left with Escape.
    js(desktop, "Object.defineProperty(document, 'fullscreenEnabled', {get: () => false, configurable: true});"
                "window.__fullscreenCalls = [];")
    desktop.find_element(By.CSS_SELECTOR, "body").send_keys("F")
    wait_for(lambda: js(desktop, "return document.documentElement.classList.contains('immersive')"), message="fallback")
    assert js(desktop, "return window.__fullscreenCalls") == []
    desktop.find_element(By.CSS_SELECTOR, "body").send_keys(Keys.ESCAPE)
    wait_for(lambda: not js(desktop, "return document.documentElement.classList.contains('immersive')"), message="Escape")


def slideshow(driver):
    return js(driver, """const s = window.__slideshow, root = document.getElementById('slideshow');
        const front = root.querySelector('.slide.front');
        return {playing: s.playing, index: s.index, changes: s.changes, hidden: root.hidden,
                src: front?.getAttribute('src') || null, loaded: Boolean(front?.complete && front.naturalWidth),
                fade: front ? getComputedStyle(front).transitionDuration : null};""")


def test_slideshow_plays_cross_fades_and_stops_on_a_key(desktop, server):
    photos = sorted_photos(server)
    open_pager(desktop, server, photos[0])
    js(desktop, STUB_FULLSCREEN)
    desktop.find_element(By.CSS_SELECTOR, ".action-slideshow").click()
    first = wait_for(lambda: (s := slideshow(desktop))["loaded"] and s, message="first slide")
    assert first["playing"] and not first["hidden"] and first["index"] == 0
    assert first["src"].startswith(f"/iiif/3/{photos[0]['id']}/full/!"), first["src"]
    assert first["fade"] == "1s", "a cross-fade"
    assert "slideshow" in js(desktop, "return window.__fullscreenCalls"), "full screen asked for"
    wait_for(lambda: js(desktop, "return getComputedStyle(document.querySelector('.slide.front')).opacity") == "1",
             message="faded in")
    screenshot(desktop, "slideshow")
    # Four seconds on, the next photo.
    second = wait_for(lambda: (s := slideshow(desktop))["changes"] >= 2 and s, timeout=30, message="second slide")
    assert second["index"] == 1 and second["src"].startswith(f"/iiif/3/{photos[1]['id']}/")
    ActionChains(desktop).send_keys(Keys.SPACE).perform()
    stopped = wait_for(lambda: not (s := slideshow(desktop))["playing"] and s, message="stopped by a key")
    assert stopped["hidden"]
    # Back on the pager, at the photo the show had reached, and out of full screen.
    wait_hash(desktop, f"#/photos/{photos[1]['id']}")
    assert js(desktop, "return window.__fullscreenCalls").count("exit") == 1
    assert js(desktop, "return document.getElementById('slideshow').hidden") is True


def test_slideshow_stops_on_a_touch_and_honours_reduced_motion(phone, server):
    phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    photo = server.photos["portrait"]
    open_pager(phone, server, photo)
    x, y = centre_of(phone, ".action-slideshow")
    tap(phone, x, y)
    state = wait_for(lambda: (s := slideshow(phone))["loaded"] and s, message="first slide")
    assert state["fade"] == "0s", "no fade under reduced motion"
    tap(phone, 200, 400)
    wait_for(lambda: not slideshow(phone)["playing"], message="stopped by a touch")
    assert hash_of(phone) == f"#/photos/{photo['id']}"


def test_share_uses_the_share_sheet_or_copies_the_link(desktop, server):
    photo = server.photos["large"]
    open_pager(desktop, server, photo)
    js(desktop, "window.__shared = []; navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };")
    desktop.find_element(By.CSS_SELECTOR, ".action-share").click()
    shared = wait_for(lambda: js(desktop, "return window.__shared"), message="share sheet")
    assert shared == [{"title": "large", "url": f"{server.url}/#/photos/{photo['id']}"}]

    js(desktop, """delete navigator.share; navigator.share = undefined; window.__copied = [];
        Object.defineProperty(navigator, 'clipboard', {value: {writeText: (t) => { window.__copied.push(t); return Promise.resolve(); }},
                                                       configurable: true});""")
    desktop.find_element(By.CSS_SELECTOR, ".action-share").click()
    wait_for(lambda: js(desktop, "return window.__copied.length") == 1, message="link copied")
    assert js(desktop, "return window.__copied[0]") == f"{server.url}/#/photos/{photo['id']}"
    toast = js(desktop, "const t = document.getElementById('toast'); return {hidden: t.hidden, text: t.textContent}")
    assert toast == {"hidden": False, "text": "Link copied"}


# Every button of the pager's bar that shows: its box, and whether a tap at its centre reaches it.
BAR = """
return [...document.querySelectorAll('#pager-view .pager-back, #pager-view .action')]
  .filter((b) => b.getClientRects().length > 0)
  .map((b) => { const r = b.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return {name: b.className.replace('action ', ''), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                        width: r.width, height: r.height, reached: Boolean(hit && b.contains(hit)),
                        menu: Boolean(b.closest('.pager-more-menu'))}; });
"""


def assert_on_screen(bar, width, height=844):
    for button in bar:
        assert button["left"] >= 0 and button["right"] <= width + 0.5, button
        assert button["top"] >= 0 and button["bottom"] <= height + 0.5, button
        assert button["reached"], button
        assert button["height"] >= 44 and button["width"] >= 44, button


@pytest.mark.parametrize("width", [390, 320])
def test_every_action_of_a_narrow_phone_is_on_the_screen_and_a_tap_away(phone, server, width):
    """Below 440 px the row does not scroll past the screen: the buttons a phone needs least wait
    behind More, each a finger's 44 px wherever it is, and work from there."""
    emulate(phone, width, 844, dpr=3, mobile=True)
    open_pager(phone, server, server.photos["landscape"])
    wait_for(lambda: js(phone, "return window.__pager?.complete === true"), message="the photo drawn")
    row = js(phone, "const r = document.querySelector('#pager-view .pager-actions'); return [r.scrollWidth, r.clientWidth]")
    assert row[0] <= row[1], f"the row scrolls: {row}"
    bar = js(phone, BAR)
    assert_on_screen(bar, width)
    screenshot(phone, f"pager-bar-{width}")
    x, y = centre_of(phone, ".action-more")
    tap(phone, x, y)
    menu = wait_for(lambda: [b for b in js(phone, BAR) if b["menu"]], message="the menu open")
    assert_on_screen(menu, width)
    # Every button of the bar is in the row or the menu: the way back, slideshow, share, download,
    # full screen, favourite, album, delete, info and More.
    shown = {b["name"] for b in bar} | {b["name"] for b in menu}
    assert {"action-slideshow", "action-share", "action-download", "action-fullscreen", "action-favourite",
            "action-album", "action-delete", "action-info"} <= shown, shown
    assert js(phone, "return document.querySelector('.action-more').getAttribute('aria-expanded')") == "true"
    screenshot(phone, f"pager-bar-{width}-more")
    # Chosen from the menu, full screen works, and the menu closes.
    x, y = centre_of(phone, ".pager-more-menu .action-fullscreen")
    tap(phone, x, y)
    wait_for(lambda: js(phone, "return document.documentElement.classList.contains('immersive')"), message="full screen")
    assert js(phone, "return document.querySelector('.pager-more-menu').hidden") is True
    js(phone, "document.querySelector('.immersive-exit').click()")
    wait_for(lambda: not js(phone, "return document.documentElement.classList.contains('immersive')"), message="out of full screen")
    # Escape closes the menu, not the photo.
    tap(phone, *centre_of(phone, ".action-more"))
    wait_for(lambda: js(phone, "return !document.querySelector('.pager-more-menu').hidden"), message="the menu open again")
    ActionChains(phone).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: js(phone, "return document.querySelector('.pager-more-menu').hidden"), message="closed by Escape")
    assert js(phone, "return document.getElementById('pager-view').hidden") is False
