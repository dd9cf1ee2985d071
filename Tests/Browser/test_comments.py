"""Comments: sent ones appear, other people see them live, the server's refusals are shown in
words next to the input, and text is always text."""

import json
import re
import urllib.error
import urllib.request
import uuid

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from conftest import ADMIN_TOKEN, screenshot
from gestures import js, wait_for
from pages import open_app


def thread_texts(driver):
    return js(driver, "return [...document.querySelectorAll('.page.current .comments .comment-text')].map(p => p.textContent)")


def open_photo(driver, server, photo):
    open_app(driver, server, f"photos/{photo['id']}")
    wait_for(lambda: js(driver, "return document.querySelector('.page.current .comments')?.getAttribute('aria-busy') === null"),
             message="thread loaded")


def send(driver, text):
    field = driver.find_element(By.CSS_SELECTOR, ".composer-text")
    field.clear()
    # Long text goes in through the DOM: typing 2001 keys one by one would only slow the test.
    js(driver, "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", field, text[:-1])
    field.send_keys(text[-1])
    driver.find_element(By.CSS_SELECTOR, ".composer-send").click()


def status_text(driver):
    return js(driver, "const s = document.querySelector('.composer-status'); return s.hidden ? '' : s.textContent")


def server_refusal(server, photo_id, text):
    """What the server itself answers to this comment, to compare with what the page shows."""
    request = urllib.request.Request(f"{server.url}/photos/{photo_id}/comments", method="POST",
                                     data=json.dumps({"text": text}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
    raise AssertionError("the server accepted the comment")


def test_sent_comment_appears_and_reaches_another_reader_live(phone, second_phone, server):
    photo = server.photos["landscape"]
    open_photo(phone, server, photo)
    open_photo(second_phone, server, photo)
    js(second_phone, "window.__sameDocument = true")
    text = f"Pip the parrot {uuid.uuid4().hex[:8]}"
    send(phone, text)
    wait_for(lambda: text in thread_texts(phone), message="comment in the sender's thread")
    assert js(phone, "return document.querySelector('.composer-text').value") == ""
    # The other reader gets it through the live stream: same document, no reload.
    wait_for(lambda: text in thread_texts(second_phone), timeout=30, message="comment pushed to the other reader")
    assert js(second_phone, "return window.__sameDocument === true")
    assert thread_texts(second_phone).count(text) == 1
    stored = server.get_json(f"/photos/{photo['id']}/comments?limit=200")["comments"]
    assert [c["text"] for c in stored].count(text) == 1
    screenshot(phone, "comments-sent")
    screenshot(second_phone, "comments-live")


def test_deleted_comment_disappears_live(phone, server):
    photo = server.photos["large"]
    open_photo(phone, server, photo)
    text = f"soon gone {uuid.uuid4().hex[:8]}"
    send(phone, text)
    wait_for(lambda: text in thread_texts(phone), message="comment shown")
    comment_id = js(phone, """return Number([...document.querySelectorAll('.page.current .comment')]
                              .find(li => li.querySelector('.comment-text').textContent === arguments[0]).dataset.id)""", text)
    request = urllib.request.Request(f"{server.url}/photos/{photo['id']}/comments/{comment_id}", method="DELETE",
                                     headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 204
    wait_for(lambda: text not in thread_texts(phone), message="deletion pushed to the page")


def test_too_long_comment_shows_the_servers_reason(phone, server):
    photo = server.photos["portrait"]
    open_photo(phone, server, photo)
    text = "x" * 2001
    status, problem = server_refusal(server, photo["id"], text)
    assert status == 400
    send(phone, text)
    shown = wait_for(lambda: status_text(phone), message="error next to the input")
    assert shown == problem["detail"]
    assert text not in thread_texts(phone)
    screenshot(phone, "comments-too-long")


def test_markup_in_a_comment_stays_text(phone, server):
    photo = server.photos["panorama"]
    open_photo(phone, server, photo)
    text = "<img src=x onerror=alert(1)>"
    send(phone, text)
    wait_for(lambda: text in thread_texts(phone), message="comment shown")
    phone.refresh()
    wait_for(lambda: text in thread_texts(phone), message="comment shown after reload")
    assert js(phone, "return document.querySelectorAll('.comments img').length") == 0
    try:
        alert = phone.switch_to.alert
        alert.dismiss()
        raise AssertionError("the comment ran as markup")
    except NoAlertPresentException:
        pass


def test_rate_limit_says_when_to_try_again(phone, limited_server):
    photo = limited_server.photos["small"]
    open_photo(phone, limited_server, photo)
    for i in range(2):
        send(phone, f"name {i}")
        wait_for(lambda i=i: f"name {i}" in thread_texts(phone), message=f"comment {i}")
    send(phone, "one too many")
    shown = wait_for(lambda: status_text(phone), message="rate limit message")
    match = re.fullmatch(r"Too many comments\. Try again in (\d+) s\.", shown)
    assert match, shown
    assert 1 <= int(match.group(1)) <= 60
    assert "one too many" not in thread_texts(phone)
    # What was typed is kept, so it can be sent once the wait is over.
    assert js(phone, "return document.querySelector('.composer-text').value") == "one too many"
    screenshot(phone, "comments-rate-limited")
