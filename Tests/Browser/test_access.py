"""A private library in the browser: signing in, the owner's one-time setup, the account menu,
sharing a folder and opening its link in a fresh browser (zoomed to native pixels, nothing
outside the link within reach), a link's password, signing out; every new view on a phone and a
desktop, light and dark, kept as pictures in build/screenshots/."""

import json
import os
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import REPO, screenshot, script_errors, start_server
from gestures import emulate, js, pinch, settled_viewer, wait_for
from photos import make_photo

OWNER, OWNER_PASSWORD = "ana", "correct horse battery"
MEMBER, MEMBER_PASSWORD = "ben", "battery staple horse"


def binary():
    path = os.environ.get("PHOTOSCROLL_BIN", os.path.join(REPO, ".build", "debug", "photoscroll"))
    return path if os.path.isabs(path) else os.path.join(REPO, path)


def users(data, *arguments, password=None):
    """`photoscroll users …` on the data folder, the password on standard input."""
    return subprocess.run([binary(), "users", *arguments, "--data", data], input=(password + "\n") if password else "",
                          capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def private_server(work_dir):
    """A private library: the album Trip (two photos, one large) and a photo outside it; an owner
    and a member made with the command line before the server starts."""
    photos = os.path.join(work_dir, "photos-private")
    os.makedirs(os.path.join(photos, "Trip"))
    make_photo(os.path.join(photos, "Trip", "summit.jpg"), 4000, 3000, 0)
    make_photo(os.path.join(photos, "Trip", "lake.jpg"), 1200, 800, 1)
    make_photo(os.path.join(photos, "secret.jpg"), 1000, 700, 2)
    data = os.path.join(work_dir, "data-private")
    os.makedirs(data, exist_ok=True)
    assert users(data, "add", OWNER, "--owner", password=OWNER_PASSWORD).returncode == 0
    assert users(data, "add", MEMBER, password=MEMBER_PASSWORD).returncode == 0
    running = start_server(photos, data, comments_per_minute=0, expected_photos=0, env_extra={"PHOTOSCROLL_ACCESS": "private"})
    running.data = data
    running.photos_dir = photos
    yield running
    running.stop()


def api(server, path, method="GET", body=None, cookie=None):
    """A request as a program makes it: status and JSON body."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(server.url + path, method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text else None), response.headers
    except urllib.error.HTTPError as error:
        text = error.read().decode()
        return error.code, (json.loads(text) if text.startswith("{") else text), error.headers


def owner_cookie(server):
    status, _, headers = api(server, "/session", "POST", {"username": OWNER, "password": OWNER_PASSWORD})
    assert status == 204
    return headers["Set-Cookie"].split(";")[0]


def wait_photos(server, cookie):
    def ready():
        status, page, _ = api(server, "/photos", cookie=cookie)
        return status == 200 and len(page["photos"]) == 3 and all(p["status"] == "ready" for p in page["photos"]) and page
    return wait_for(ready, timeout=120, message="the photos ready")


def folder_id(server, cookie):
    _, answer, _ = api(server, "/folders", cookie=cookie)
    return next(a["id"] for a in answer["folders"] if a["title"] == "Trip")


def dark(driver, on=True):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


def shoot_everywhere(driver, name, prepare=lambda driver: None):
    """The view `prepare` leaves on screen, on a phone and a desktop, light and dark."""
    for device, (width, height, dpr, mobile) in (("phone", (390, 844, 2, True)), ("desktop", (1280, 800, 1, False))):
        emulate(driver, width, height, dpr=dpr, mobile=mobile)
        for scheme in ("light", "dark"):
            dark(driver, scheme == "dark")
            prepare(driver)
            screenshot(driver, f"access-{name}-{device}-{scheme}")
    dark(driver, False)


def sign_in(driver, server, name, password):
    driver.get(server.url + "/")
    wait_for(lambda: js(driver, "return !document.getElementById('sign-in-view').hidden"), message="the sign-in view")
    driver.find_element(By.CSS_SELECTOR, ".sign-in-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, ".sign-in-password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, ".sign-in-submit").click()


def wait_grid(driver, count):
    wait_for(lambda: js(driver, "return document.documentElement.dataset.ready === 'true' && !document.getElementById('grid-view').hidden"),
             timeout=30, message="the grid")
    wait_for(lambda: js(driver, "return document.querySelectorAll('#grid [data-photo-id]').length") == count, message=f"{count} photos")


def test_a_stranger_sees_the_sign_in_view_and_a_member_gets_in(desktop, private_server):
    wait_photos(private_server, owner_cookie(private_server))
    desktop.get(private_server.url + "/")
    wait_for(lambda: js(desktop, "return !document.getElementById('sign-in-view').hidden"), message="the sign-in view")
    assert js(desktop, "return document.getElementById('grid-view').hidden")
    assert js(desktop, "return document.querySelectorAll('#grid img').length") == 0
    shoot_everywhere(desktop, "sign-in")
    # A wrong password says so, and keeps the view.
    sign_in(desktop, private_server, MEMBER, "not the password")
    wait_for(lambda: js(desktop, "return !document.querySelector('.sign-in-problem').hidden"), message="the problem")
    assert "not right" in desktop.find_element(By.CSS_SELECTOR, ".sign-in-problem").text
    shoot_everywhere(desktop, "sign-in-wrong")
    sign_in(desktop, private_server, MEMBER, MEMBER_PASSWORD)
    wait_grid(desktop, 3)
    # A member sees everything and shares nothing: no Share sheet, the account says who.
    assert js(desktop, "return document.documentElement.classList.contains('may-manage')")
    assert not js(desktop, "return document.documentElement.classList.contains('may-share')")
    assert desktop.find_element(By.CSS_SELECTOR, ".account-initial").text == "B"
    desktop.find_element(By.CSS_SELECTOR, "#account-button").click()
    wait_for(lambda: js(desktop, "return document.getElementById('account-menu').open"), message="the account menu")
    assert "ben · Member" in desktop.find_element(By.CSS_SELECTOR, ".account-who").text
    shoot_everywhere(desktop, "account-menu")
    desktop.find_element(By.CSS_SELECTOR, ".account-password").click()
    wait_for(lambda: js(desktop, "return document.getElementById('password-sheet').open"), message="the password sheet")
    shoot_everywhere(desktop, "change-password")
    desktop.find_element(By.CSS_SELECTOR, ".password-cancel").click()
    # Signing out forgets: the library is out of reach, Back included.
    desktop.find_element(By.CSS_SELECTOR, "#account-button").click()
    desktop.find_element(By.CSS_SELECTOR, ".account-sign-out").click()
    wait_for(lambda: js(desktop, "return !document.getElementById('sign-in-view').hidden"), message="signed out")
    assert js(desktop, "return sessionStorage.length + localStorage.length") == 0
    desktop.back()
    wait_for(lambda: js(desktop, "return document.readyState === 'complete'"))
    assert js(desktop, "return document.querySelectorAll('#grid img').length") == 0


def test_the_owner_shares_a_folder_and_a_fresh_browser_sees_only_it(desktop, second_browser, private_server):
    cookie = owner_cookie(private_server)
    photos = {p["title"]: p for p in wait_photos(private_server, cookie)["photos"]}
    trip = folder_id(private_server, cookie)
    sign_in(desktop, private_server, OWNER, OWNER_PASSWORD)
    wait_grid(desktop, 3)
    assert js(desktop, "return document.documentElement.classList.contains('may-share')")
    desktop.get(f"{private_server.url}/#/folders/{trip}")
    wait_grid(desktop, 2)
    desktop.find_element(By.CSS_SELECTOR, ".album-share").click()
    wait_for(lambda: js(desktop, "return document.getElementById('share-sheet').open"), message="the share sheet")
    shoot_everywhere(desktop, "share-sheet")
    desktop.find_element(By.CSS_SELECTOR, ".share-create").click()
    wait_for(lambda: js(desktop, "return !document.querySelector('.share-made').hidden"), message="the link")
    url = desktop.find_element(By.CSS_SELECTOR, ".share-url").get_attribute("value")
    assert re.fullmatch(re.escape(private_server.url) + r"/s/[A-Za-z0-9_-]{43}", url), url
    wait_for(lambda: js(desktop, "return document.querySelectorAll('.share-link').length") == 1, message="the link listed")
    shoot_everywhere(desktop, "share-sheet-made")

    # Another browser, nobody's (its cookies and storage cleared): the link shows the folder, and only the folder.
    stranger = second_browser.fresh()
    try:
        emulate(stranger, 390, 844, dpr=1, mobile=True)
        stranger.get(url)
        wait_grid(stranger, 2)
        titles = js(stranger, "return [...document.querySelectorAll('#grid img')].map(i => i.alt)")
        assert "secret" not in " ".join(titles)
        assert js(stranger, "return document.getElementById('grid-title').textContent") == "Trip"
        for hidden in (".add-photos", ".select-photos", ".view-tabs", "#account-button"):
            assert not js(stranger, f"return document.querySelector('{hidden}').checkVisibility()"), hidden
        shoot_everywhere(stranger, "shared-grid", lambda d: wait_grid(d, 2))
        # Zoomed to its native pixels, through the link's own tiles.
        summit = photos["summit"]
        stranger.get(f"{url}#/photos/{summit['id']}/zoom")
        settled_viewer(stranger)
        for _ in range(6):
            pinch(stranger, 195, 422, 40, 320, steps=10)
            state = settled_viewer(stranger)
            if state["scale"] >= state["maxScale"] - 1e-9:
                break
        assert state["scale"] == pytest.approx(1)
        assert state["level"] == summit["maxZoom"]
        tiles = js(stranger, "return [...document.querySelectorAll('.zoom-slide.current .tile-layer img.loaded')].map(i => i.src)")
        # Its tiles, and under them the image cut to its fit, all through the link.
        assert tiles and all(t.startswith((url + "/photos/", url + "/iiif/3/")) for t in tiles), tiles[:3]
        assert any(t.startswith(url + "/photos/") for t in tiles), tiles[:3]
        screenshot(stranger, "access-shared-zoom-native-phone-light")
        # Nothing outside the link is within reach: not the other photo, not the library.
        secret = photos["secret"]["id"]
        reach = js(stranger, """
            const get = (u) => fetch(u).then(r => r.status);
            return Promise.all([get(arguments[0] + '/photos/' + arguments[1]), get(arguments[0] + '/photos/' + arguments[1] + '/thumbnail.jpg'),
                                get('/photos/' + arguments[1]), get('/photos'), get('/albums')]);
        """, url, secret)
        assert reach == [404, 404, 401, 401, 401]
        errors = script_errors(stranger)
    finally:
        stranger.get("about:blank")
    assert not [e for e in errors if "404" not in e and "401" not in e], errors

    # Revoked: the link is gone at once.
    desktop.find_element(By.CSS_SELECTOR, ".share-link-revoke").click()
    wait_for(lambda: api(private_server, urllib.parse.urlparse(url).path + "/photos")[0] == 404, message="revoked")


def test_a_link_with_a_password_asks_for_it_first(phone, private_server):
    cookie = owner_cookie(private_server)
    wait_photos(private_server, cookie)
    status, link, _ = api(private_server, "/shares", "POST", {"folder": folder_id(private_server, cookie), "password": "open sesame"}, cookie)
    assert status == 201
    phone.get(link["url"])
    wait_for(lambda: js(phone, "return !document.getElementById('sign-in-view').hidden"), message="the password form")
    assert js(phone, "return document.querySelectorAll('#grid img').length") == 0
    shoot_everywhere(phone, "link-password")
    phone.find_element(By.CSS_SELECTOR, ".sign-in-password").send_keys("wrong one")
    phone.find_element(By.CSS_SELECTOR, ".sign-in-submit").click()
    wait_for(lambda: js(phone, "return !document.querySelector('.sign-in-problem').hidden"), message="the problem")
    phone.find_element(By.CSS_SELECTOR, ".sign-in-password").clear()
    phone.find_element(By.CSS_SELECTOR, ".sign-in-password").send_keys("open sesame")
    phone.find_element(By.CSS_SELECTOR, ".sign-in-submit").click()
    wait_grid(phone, 2)
    # Revoked while open: what the link showed is gone from the next page load.
    api(private_server, f"/shares/{link['id']}", "DELETE", cookie=cookie)
    phone.get(link["url"])
    wait_for(lambda: js(phone, "return document.querySelector('.sign-in-title').textContent") == "Link Not Available", message="gone")
    shoot_everywhere(phone, "link-gone")


def test_the_setup_link_makes_the_owner_once(phone, work_dir):
    photos = os.path.join(work_dir, "photos-setup")
    os.makedirs(photos, exist_ok=True)
    make_photo(os.path.join(photos, "one.jpg"), 800, 600, 3)
    server = start_server(photos, os.path.join(work_dir, "data-setup"), comments_per_minute=0, expected_photos=0,
                          env_extra={"PHOTOSCROLL_ACCESS": "private"})
    try:
        line = wait_for(lambda: next((l for l in server.lines[:6] if "/setup?token=" in l), None), message="the setup link in the log")
        setup = re.search(r"url=(\S+)", line).group(1)
        phone.get(server.url + "/")
        wait_for(lambda: "no owner yet" in js(phone, "return document.querySelector('.sign-in-lead').textContent"), message="no owner")
        phone.get(setup)
        wait_for(lambda: js(phone, "return document.querySelector('.sign-in-title').textContent") == "Welcome", message="the setup form")
        shoot_everywhere(phone, "setup")
        phone.find_element(By.CSS_SELECTOR, ".sign-in-name").send_keys("zoe")
        phone.find_element(By.CSS_SELECTOR, ".sign-in-password").send_keys("zoe's long password")
        phone.find_element(By.CSS_SELECTOR, ".sign-in-repeat").send_keys("zoe's long password")
        phone.find_element(By.CSS_SELECTOR, ".sign-in-submit").click()
        wait_grid(phone, 1)
        assert phone.find_element(By.CSS_SELECTOR, ".account-initial").text == "Z"
        # Used once: the same link makes nobody else.
        token = setup.split("token=")[1]
        status, _, _ = api(server, "/setup", "POST", {"token": token, "username": "eve", "password": "eve's long password"})
        assert status == 403
        # Opened again, it says so at once, with no form to fill in first.
        phone.get(setup)
        wait_for(lambda: js(phone, "return document.querySelector('.sign-in-title').textContent") == "Setup Link Not Available",
                 message="the spent link said at once")
        assert "used already" in js(phone, "return document.querySelector('.sign-in-lead').textContent")
        assert js(phone, "return document.querySelector('.sign-in-form').hidden")
        shoot_everywhere(phone, "setup-spent")
    finally:
        server.stop()


def test_a_links_holder_is_never_asked_to_sign_in(phone, private_server):
    """Every view a link's holder can reach by its URL shows what the link shares, or says in
    words that a view is not part of it; the library's own API is never asked."""
    cookie = owner_cookie(private_server)
    photos = {p["title"]: p for p in wait_photos(private_server, cookie)["photos"]}
    trip = folder_id(private_server, cookie)
    status, link, _ = api(private_server, "/shares", "POST", {"folder": trip}, cookie)
    assert status == 201
    phone.get(link["url"] + "#/albums")
    wait_grid(phone, 2)
    assert js(phone, "return location.hash") == "#/", "the albums are the link's photos"
    lake = photos["lake"]["id"]
    phone.get(f"{link['url']}#/folders/{trip}/photos/{lake}")
    wait_for(lambda: js(phone, "return !document.getElementById('pager-view').hidden && location.hash") == f"#/photos/{lake}",
             message="the album's photo, in the link's own list")
    for view, title in (("favourites", "No Favourites Here"), ("trash", "No Recently Deleted Here")):
        phone.get(f"{link['url']}#/{view}")
        wait_for(lambda: js(phone, "return document.querySelector('#message-view .message-title').textContent") == title,
                 message=f"{view}: not shared")
        assert "Trip" in js(phone, "return document.querySelector('#message-view .message-text').textContent")
    shoot_everywhere(phone, "link-not-shared")
    phone.get(link["url"] + "#/albums")
    wait_grid(phone, 2)
    assert "Sign in" not in js(phone, "return document.body.innerText")
    refused = js(phone, "return performance.getEntriesByType('resource').filter(e => e.responseStatus === 401).map(e => e.name)")
    assert refused == [], refused


def test_a_signed_in_members_comment_is_marked_as_theirs_and_no_name_is_asked(phone, private_server):
    cookie = owner_cookie(private_server)
    photos = {p["title"]: p for p in wait_photos(private_server, cookie)["photos"]}
    lake = photos["lake"]["id"]
    status, link, _ = api(private_server, "/shares", "POST", {"folder": folder_id(private_server, cookie)}, cookie)
    assert status == 201
    under = urllib.parse.urlparse(link["url"]).path
    # A link's holder types a name: not an account's, and not marked.
    status, typed, _ = api(private_server, f"{under}/photos/{lake}/comments", "POST", {"text": "From the link", "author": "Grandma"})
    assert status == 201 and typed["verified"] is False, typed
    status, refused, _ = api(private_server, f"{under}/photos/{lake}/comments", "POST", {"text": "As ben", "author": "ＢＥＮ"})
    assert status == 422 and "belongs to an account" in refused["detail"], refused

    sign_in(phone, private_server, MEMBER, MEMBER_PASSWORD)
    wait_grid(phone, 3)
    phone.get(f"{private_server.url}/#/photos/{lake}")
    wait_for(lambda: js(phone, "return document.querySelector('.page.current .comments')?.getAttribute('aria-busy') === null"),
             message="the thread")
    wait_for(lambda: js(phone, "return document.getElementById('grid-view').hidden && !document.getElementById('pager-view').matches('.opening')"),
             message="the photo landed from the grid")
    assert not js(phone, "return document.querySelector('.composer-author').checkVisibility()"), "a signed-in person is asked no name"
    phone.find_element(By.CSS_SELECTOR, ".composer-text").send_keys("Signed in")
    phone.find_element(By.CSS_SELECTOR, ".composer-send").click()
    comments = """return [...document.querySelectorAll('.page.current .comment')].map(c => ({
        author: c.querySelector('.comment-author').textContent, text: c.querySelector('.comment-text').textContent,
        mark: c.querySelector('.comment-verified')?.getAttribute('aria-label') ?? null,
        shown: c.querySelector('.comment-verified')?.checkVisibility() ?? false }))"""
    wait_for(lambda: len(js(phone, comments)) == 2, message="both comments")
    assert js(phone, comments) == [
        {"author": "Grandma", "text": "From the link", "mark": None, "shown": False},
        {"author": MEMBER, "text": "Signed in", "mark": "signed-in account", "shown": True},
    ]
    shoot_everywhere(phone, "comment-verified")


def test_a_link_that_lets_photos_be_added_takes_one_from_a_second_browser(desktop, second_browser, private_server, work_dir):
    """Last in this file: it adds a photo to Trip."""
    cookie = owner_cookie(private_server)
    wait_photos(private_server, cookie)
    trip = folder_id(private_server, cookie)
    # The owner's share sheet offers adding photos for a folder.
    sign_in(desktop, private_server, OWNER, OWNER_PASSWORD)
    wait_grid(desktop, 3)
    desktop.get(f"{private_server.url}/#/folders/{trip}")
    wait_grid(desktop, 2)
    desktop.find_element(By.CSS_SELECTOR, ".album-share").click()
    wait_for(lambda: js(desktop, "return document.getElementById('share-sheet').open"), message="the share sheet")
    assert js(desktop, "return document.querySelector('.share-upload-choice').checkVisibility()")
    desktop.find_element(By.CSS_SELECTOR, ".share-upload").click()
    desktop.find_element(By.CSS_SELECTOR, ".share-create").click()
    wait_for(lambda: js(desktop, "return !document.querySelector('.share-made').hidden"), message="the link")
    url = desktop.find_element(By.CSS_SELECTOR, ".share-url").get_attribute("value")
    wait_for(lambda: "adds photos" in js(desktop, "return document.querySelector('.share-links').textContent"), message="listed as adding")

    source = os.path.join(work_dir, "from-a-guest.jpg")
    make_photo(source, 640, 480, 5)
    guest = second_browser.fresh()
    try:
        emulate(guest, 390, 844, dpr=1, mobile=True)
        guest.get(url)
        wait_grid(guest, 2)
        # The Add button, and nothing else of a manager's.
        assert js(guest, "return document.querySelector('.add-photos').checkVisibility()")
        for hidden in (".select-photos", ".view-tabs", "#account-button"):
            assert not js(guest, f"return document.querySelector('{hidden}').checkVisibility()"), hidden
        guest.find_element(By.ID, "add-input").send_keys(source)
        wait_for(lambda: js(guest, "return [...document.querySelectorAll('#uploads .upload')].map(r => r.dataset.state)") == ["done"],
                 timeout=30, message="the upload done")
        # The new photo shows in the shared grid, and it is in the shared folder.
        wait_grid(guest, 3)
        assert os.path.exists(os.path.join(private_server.photos_dir, "Trip", "from-a-guest.jpg"))
        errors = script_errors(guest)
    finally:
        guest.get("about:blank")
    assert not errors, errors


def test_an_albums_link_open_in_a_browser_follows_the_album(phone, private_server):
    """The album's owner puts photos into it, takes one out and orders them while its link is open
    elsewhere: the link's grid shows each change, in the album's own order, and nothing else."""
    cookie = owner_cookie(private_server)
    # The library's own three photos (a test before may have added more).
    def listed():
        found = {p["title"]: p["id"] for p in api(private_server, "/photos", cookie=cookie)[1]["photos"]}
        return all(title in found for title in ("summit", "lake", "secret")) and found
    found = wait_for(listed, timeout=120, message="the photos listed")
    photos = {title: found[title] for title in ("summit", "lake", "secret")}
    status, album, _ = api(private_server, "/albums", "POST", {"title": "Shared walk"}, cookie)
    assert status == 201
    api(private_server, f"/albums/{album['id']}/photos", "POST", {"ids": [photos["summit"]]}, cookie)
    status, link, _ = api(private_server, "/shares", "POST", {"album": album["id"]}, cookie)
    assert status == 201
    try:
        phone.get(link["url"])
        wait_grid(phone, 1)
        order = "return [...document.querySelectorAll('#grid [data-photo-id]')].map(a => Number(a.dataset.photoId))"
        api(private_server, f"/albums/{album['id']}/photos", "POST", {"ids": [photos["lake"], photos["secret"]]}, cookie)
        wait_for(lambda: sorted(js(phone, order)) == sorted(photos.values()), timeout=30,
                 message="the photos put into the album, in the open link")
        api(private_server, f"/albums/{album['id']}", "PATCH", {"order": [photos["secret"], photos["summit"], photos["lake"]]}, cookie)
        wait_for(lambda: js(phone, order) == [photos["secret"], photos["summit"], photos["lake"]], timeout=30,
                 message="the album's own order, in the open link")
        api(private_server, f"/albums/{album['id']}/photos", "DELETE", {"ids": [photos["secret"]]}, cookie)
        wait_for(lambda: js(phone, order) == [photos["summit"], photos["lake"]], timeout=30, message="the photo taken out of it")
    finally:
        api(private_server, f"/shares/{link['id']}", "DELETE", cookie=cookie)
        api(private_server, f"/albums/{album['id']}", "DELETE", cookie=cookie)


# The fitted images of one photo the page asked for (path and query, and the status each was
# answered) and the one drawn (its neighbours' come too, once it is drawn).
FITTED = """
const fitted = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.includes(`/iiif/3/${arguments[0]}/full/!`))
  .map((e) => [new URL(e.name).pathname + new URL(e.name).search, e.responseStatus]);
const img = document.querySelector('.page.current .photo-open img.fitted.loaded');
return {fitted, drawn: img ? new URL(img.src).pathname + new URL(img.src).search : null};
"""


def test_a_photo_opens_on_its_fitted_image_under_a_link_and_for_a_member(phone, private_server):
    """The image a photo page draws at fit comes through the link's own URLs for its holder, and
    through the library's for a member signed in, answered in both."""
    cookie = owner_cookie(private_server)

    def summit_ready():
        # (Other tests of this module add photos to the library: only this one is counted on.)
        status, page, _ = api(private_server, "/photos", cookie=cookie)
        return status == 200 and next((p for p in page["photos"] if p["title"] == "summit" and p["status"] == "ready"), None)
    summit = wait_for(summit_ready, timeout=120, message="the large photo ready")
    status, link, _ = api(private_server, "/shares", "POST", {"folder": folder_id(private_server, cookie)}, cookie)
    assert status == 201
    prefix = urllib.parse.urlparse(link["url"]).path
    emulate(phone, 390, 844, dpr=3, mobile=True)
    cell = f"#grid .cell[data-photo-id=\"{summit['id']}\"]"
    for visitor, opened, base in (("link", lambda: phone.get(link["url"] + "#/"), f"{prefix}/iiif/3/{summit['id']}/full/!"),
                                  ("member", lambda: sign_in(phone, private_server, MEMBER, MEMBER_PASSWORD),
                                   f"/iiif/3/{summit['id']}/full/!")):
        opened()
        wait_for(lambda: js(phone, "return !document.getElementById('grid-view').hidden && Boolean(document.querySelector(arguments[0]))", cell),
                 timeout=30, message=f"the photo in the {visitor}'s grid")
        js(phone, "document.querySelector(arguments[0]).click()", cell)
        wait_for(lambda: js(phone, "return window.__pager?.complete === true && !document.querySelector('.photo-flight')"),
                 timeout=30, message=f"the photo drawn for the {visitor}")
        seen = js(phone, FITTED, summit["id"])
        assert len(seen["fitted"]) == 1 and seen["fitted"][0][0].startswith(base), (visitor, seen)
        assert seen["fitted"][0][1] == 200, (visitor, seen)
        assert seen["drawn"] == seen["fitted"][0][0], (visitor, seen)
