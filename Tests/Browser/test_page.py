"""The photo page and its thread: a sent comment scrolls into view, a rate limit counts down and
clears, "no connection" clears when the connection is back, "no names yet" never shows beside an
error, the name field takes what the server takes, and a failed photo says what and why."""

import json
import re
import urllib.request
import uuid

import pytest
from selenium.webdriver.common.by import By

from conftest import screenshot
from gestures import js, wait_for
from pages import open_app
from test_comments import open_photo, send, status_text, thread_texts


def post(server, photo_id, text, author=None):
    body = {"text": text} if author is None else {"text": text, "author": author}
    request = urllib.request.Request(f"{server.url}/photos/{photo_id}/comments", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_a_sent_comment_scrolls_into_view(phone, server):
    photo = server.photos["portrait"]
    for i in range(30):
        post(server, photo["id"], f"an earlier name {i}")
    open_photo(phone, server, photo)
    assert js(phone, "return document.querySelector('.page.current').scrollTop") == 0
    text = f"the newest name {uuid.uuid4().hex[:6]}"
    send(phone, text)
    wait_for(lambda: text in thread_texts(phone), message="comment shown")

    def in_view():
        return js(phone, """
            const item = [...document.querySelectorAll('.page.current .comment')].find(li => li.textContent.includes(arguments[0]));
            const r = item.getBoundingClientRect(), bar = document.querySelector('.bottom-bar').getBoundingClientRect();
            const nav = document.querySelector('.nav-bar').getBoundingClientRect();
            return r.top >= nav.bottom && r.bottom <= bar.top + 1;""", text)
    wait_for(in_view, message="the sent comment scrolled into view above the bar")
    screenshot(phone, "comments-sent-scrolled")


def test_a_rate_limit_counts_down_and_clears(phone, limited_server):
    photo = limited_server.photos["small"]
    open_photo(phone, limited_server, photo)
    pattern = r"Too many comments\. Try again in (\d+) s\."
    for i in range(3):
        send(phone, f"count me {i}")
        shown = wait_for(lambda i=i: status_text(phone) or (f"count me {i}" in thread_texts(phone) and "sent"), message="answer")
        if re.fullmatch(pattern, shown or ""):
            break
    first = int(re.fullmatch(pattern, status_text(phone)).group(1))
    assert js(phone, "return document.querySelector('.composer-send').disabled")
    # It counts down, a second at a time, on its own.
    wait_for(lambda: (m := re.fullmatch(pattern, status_text(phone))) and int(m.group(1)) < first, timeout=30,
             message="the wait counting down")

    # A short wait, to see it end: on a fresh page, the server's answer to a post is replaced by one saying 2 s.
    open_photo(phone, limited_server, photo)
    js(phone, "document.querySelector('.composer-text').value = 'one more'; document.querySelector('.composer-text').dispatchEvent(new Event('input'))")
    js(phone, """const real = window.fetch;
        window.fetch = (url, options) => options && options.method === 'POST'
            ? Promise.resolve(new Response(JSON.stringify({type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Slow down.'}),
                {status: 429, headers: {'Content-Type': 'application/problem+json', 'Retry-After': '2'}}))
            : real(url, options);""")
    js(phone, "document.querySelector('.composer').dispatchEvent(new Event('submit', {cancelable: true}))")
    wait_for(lambda: "Try again in 2 s." in status_text(phone) or "Try again in 1 s." in status_text(phone), message="2 s wait")
    wait_for(lambda: status_text(phone) == "", timeout=30, message="the message clears when the wait is over")
    assert not js(phone, "return document.querySelector('.composer-send').disabled")


def test_no_connection_clears_when_the_connection_is_back(phone, server):
    photo = server.photos["landscape"]
    open_photo(phone, server, photo)
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        send(phone, "sent while offline")
        wait_for(lambda: status_text(phone) == "No connection to the server. Try again.", message="offline message")
        screenshot(phone, "comments-offline")
    finally:
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    wait_for(lambda: status_text(phone) == "", message="the message clears once online")
    # What was typed is still there, to send now.
    assert js(phone, "return document.querySelector('.composer-text').value") == "sent while offline"


def test_no_names_yet_never_shows_beside_an_error(phone, server):
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/comments*"]})
    photo = server.photos["panorama"]
    try:
        open_app(phone, server, f"photos/{photo['id']}")
        wait_for(lambda: js(phone, "return document.querySelector('.page.current .comments')?.getAttribute('aria-busy') === null"),
                 message="thread tried")
        shown = js(phone, """const page = document.querySelector('.page.current');
            return {empty: !page.querySelector('.comments-empty').hidden, error: !page.querySelector('.comments-error').hidden,
                    text: page.querySelector('.comments-error').textContent};""")
        assert shown["error"] and not shown["empty"], shown
        screenshot(phone, "comments-could-not-load")
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    # A thread that loads says "no names yet" only when it has none, and never an error with it.
    open_app(phone, server, f"photos/{server.photos['large']['id']}")
    wait_for(lambda: js(phone, "return document.querySelector('.page.current .comments')?.getAttribute('aria-busy') === null"),
             message="thread loaded")
    shown = js(phone, """const page = document.querySelector('.page.current');
        return {empty: !page.querySelector('.comments-empty').hidden, error: !page.querySelector('.comments-error').hidden,
                count: page.querySelectorAll('.comment').length};""")
    assert not shown["error"] and shown["empty"] == (shown["count"] == 0), shown


def test_the_name_field_takes_what_the_server_takes_and_says_so(phone, server):
    photo = server.photos["landscape"]
    open_photo(phone, server, photo)
    field = phone.find_element(By.CSS_SELECTOR, ".composer-author")
    assert field.get_attribute("maxlength") == "80"
    assert not js(phone, "return document.querySelector('.composer-hint').hidden === false")
    field.send_keys("n" * 85)
    assert len(field.get_attribute("value")) == 80
    assert js(phone, "return document.querySelector('.composer-hint').hidden") is False
    assert js(phone, "return document.querySelector('.composer-hint').textContent") == "A name can be up to 80 characters."
    text = f"from a long name {uuid.uuid4().hex[:6]}"
    send(phone, text)
    wait_for(lambda: text in thread_texts(phone), message="comment shown")
    stored = [c for c in server.get_json(f"/photos/{photo['id']}/comments?limit=200")["comments"] if c["text"] == text]
    assert stored and stored[0]["author"] == "n" * 80


def test_a_failed_photo_says_what_and_why_unclipped_on_a_phone(phone, limited_server):
    broken = limited_server.photos["broken"]
    open_app(phone, limited_server)
    # The cell says why once the photo's failure is listed (the grid may be drawn first).
    cell = wait_for(lambda: js(phone, f"""
        const a = document.querySelector('#grid .cell[data-photo-id="{broken['id']}"]');
        const title = a && a.querySelector('.cell-title'), why = a && a.querySelector('.cell-error');
        if (!title || !why) return null;
        const r = a.getBoundingClientRect(), w = why.getBoundingClientRect(), t = title.getBoundingClientRect();
        return {{title: title.textContent, titleOpacity: getComputedStyle(title).opacity, titleInside: t.top >= r.top && t.bottom <= r.bottom,
                 why: why.textContent, whyInside: w.top >= r.top && w.bottom <= r.bottom + 0.5 && w.right <= r.right + 0.5,
                 overlap: !(w.top >= t.bottom || w.bottom <= t.top)}};
    """), message="the failed photo's cell with its reason")
    # On a touch screen, with no hover: the file name and the reason both show, in the cell, apart.
    assert cell["title"] == "broken" and cell["titleOpacity"] == "1" and cell["titleInside"]
    assert cell["why"] == broken["error"] and cell["whyInside"], cell
    assert not cell["overlap"]
    open_app(phone, limited_server, f"photos/{broken['id']}")
    page = wait_for(lambda: js(phone, """const p = document.querySelector('.page.current');
        return p && p.querySelector('h2') ? {title: p.querySelector('h2').textContent, meta: !!p.querySelector('.photo-meta'),
                error: p.querySelector('.photo-error').textContent} : null;"""), message="failed page")
    assert page["title"] == "broken"
    assert not page["meta"], "a failed photo has no size to show"
    assert broken["error"] in page["error"]
    screenshot(phone, "pager-failed-photo")
    # Its info panel says why in words, and draws no empty box.
    js(phone, "document.querySelector('#pager-view .action-info').click()")
    info = wait_for(lambda: js(phone, """const c = document.querySelector('.page.current .photo-info');
        return c && getComputedStyle(c).display !== 'none' ? [...c.querySelectorAll('.info-box')].map(b => b.textContent) : null"""),
                    message="info panel")
    assert len(info) == 1 and broken["error"] in info[0], info
    screenshot(phone, "pager-failed-photo-info")


def test_a_module_that_could_not_be_fetched_is_tried_again(phone, server):
    # One of the page's modules fails to arrive (a busy server's 503, a dropped connection): none of
    # them runs. The page says so, loads itself again a little later, and starts once it can.
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/grid.js"]})
    status = "return document.getElementById('grid-status').textContent"
    try:
        phone.get("about:blank")
        phone.get(f"{server.url}/#/")
        wait_for(lambda: "trying again" in js(phone, status), message="the page says it is trying again")
        assert js(phone, "return document.documentElement.dataset.ready") is None
    finally:
        phone.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    wait_for(lambda: js(phone, "return document.documentElement.dataset.ready === 'true'"), timeout=30,
             message="the page started once the module could be fetched")
    assert js(phone, "return sessionStorage.getItem('photoscroll-page-attempts')") is None
    assert js(phone, "return document.querySelectorAll('#grid .cell').length") == len(server.photos)


@pytest.mark.service_worker
def test_the_page_is_installable(desktop, server):
    # The manifest Chromium finds from the page, parsed without complaint, with icons it can fetch.
    open_app(desktop, server)
    found = desktop.execute_cdp_cmd("Page.getAppManifest", {})
    assert found["url"] == server.url + "/manifest.webmanifest", found["url"]
    assert found["errors"] == [], found["errors"]
    manifest = json.loads(found["data"])
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.url + icon["src"], timeout=30) as response:
            assert response.headers["Content-Type"] == icon["type"]
    installable = desktop.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert installable == [], installable


def test_a_photo_over_the_pixel_limit_says_so_in_megapixels(desktop, server):
    # The server's reason names pixels; the page says megapixels, in a sentence, and briefly in a cell.
    open_app(desktop, server)
    said = desktop.execute_async_script("""const done = arguments[arguments.length - 1];
        import('/ui/photo-info.js').then((m) => {
          const photo = {status: 'failed', error: 'This image is 40000×40000 = 1600000000 pixels, more than the limit of 500000000.'};
          done([m.failureText(photo), m.shortFailure(photo)]);
        });""")
    assert said == ["This photo is too large to show. It is 40,000 × 40,000 pixels (1,600 megapixels); "
                    "this server shows photos of up to 500 megapixels.", "Too large: 1,600 MP, the limit is 500 MP"], said
