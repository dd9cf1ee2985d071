"""The pager at a thousand photos: at most nine dots, one tab stop that arrow keys move, a
"500 of 1,000" counter, and a bounded number of pages in the document whatever the library size."""

import os

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, start_server
from gestures import js, swipe, wait_for
from pages import current_dot, open_app, wait_hash
from photos import make_many

COUNT = 1000


@pytest.fixture(scope="module")
def big_server(work_dir):
    """A thousand small photos. Listed at once; their tiles are made on demand while the rest build."""
    folder = os.path.join(work_dir, "photos-1000")
    make_many(folder, COUNT)
    running = start_server(folder, os.path.join(work_dir, "data-1000"), comments_per_minute=0,
                           expected_photos=COUNT, all_ready=False)
    running.ordered = running.all_photos()  # the library's order
    yield running
    running.stop()


def dots_state(driver):
    return js(driver, """
        const control = document.querySelector('.pager-dots');
        const focusable = [...document.querySelectorAll('.bottom-bar *')].filter(e =>
            e.closest('.pager-dots') && (e.tabIndex >= 0) && !e.closest('[hidden]'));
        const dots = [...control.querySelectorAll('.dot')];
        return {elements: dots.length, drawn: dots.filter(d => !d.hidden).length,
                sizes: dots.filter(d => !d.hidden).map(d => d.dataset.size),
                counter: control.querySelector('.pager-count').hidden ? null : control.querySelector('.pager-count').textContent,
                focusable: focusable.map(e => e.className), pages: document.querySelectorAll('.page').length};
    """)


def test_a_thousand_photos_draw_nine_dots_one_tab_stop_and_five_pages(desktop, big_server):
    driver = desktop
    middle = big_server.ordered[COUNT // 2 - 1]
    open_app(driver, big_server, f"photos/{middle['id']}")
    wait_for(lambda: current_dot(driver)["index"] == COUNT // 2 - 1, message="pager on photo 500")
    state = dots_state(driver)
    assert state["elements"] <= 9 and state["drawn"] == 9
    assert state["counter"] == "500 of 1,000"
    # More lies beyond both ends of the row: the dots at each end shrink.
    assert state["sizes"][:2] == ["small", "medium"] and state["sizes"][-2:] == ["medium", "small"]
    assert current_dot(driver)["red"] in range(2, 7)
    # One tab stop, the control itself, never a thousand of them.
    assert state["focusable"] == ["pager-dots"]
    assert state["pages"] <= 5
    screenshot(driver, "pager-dots-1000-desktop")

    # Arrow keys on the control move one photo; End and Home go to the ends.
    driver.execute_script("document.querySelector('.pager-dots').focus()")
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    wait_hash(driver, f"#/photos/{big_server.ordered[COUNT // 2]['id']}")
    assert js(driver, "return document.activeElement.className") == "pager-dots"
    assert js(driver, "return document.querySelector('.pager-dots').getAttribute('aria-valuetext')") == "501 of 1,000"
    ActionChains(driver).send_keys(Keys.END).perform()
    wait_hash(driver, f"#/photos/{big_server.ordered[-1]['id']}")
    end = dots_state(driver)
    assert end["counter"] == "1,000 of 1,000"
    assert end["sizes"][:2] == ["small", "medium"] and end["sizes"][-1] == "full"
    assert current_dot(driver)["red"] == 8
    ActionChains(driver).send_keys(Keys.HOME).perform()
    wait_hash(driver, f"#/photos/{big_server.ordered[0]['id']}")
    assert current_dot(driver)["red"] == 0
    assert dots_state(driver)["pages"] <= 5


def test_swiping_through_a_thousand_keeps_the_page_count_bounded(phone, big_server):
    first = big_server.ordered[0]
    open_app(phone, big_server, f"photos/{first['id']}")
    wait_for(lambda: js(phone, "return window.__pager.index") == 0, message="pager on photo 1")
    for i in range(1, 5):
        swipe(phone, 330, 600, 40, 605, steps=8)
        wait_hash(phone, f"#/photos/{big_server.ordered[i]['id']}")
        wait_for(lambda: not js(phone, "return window.__pager.moving"), message="settled")
        assert dots_state(phone)["pages"] <= 5
    # The dots followed the swipes: the fifth dot is red.
    dots = current_dot(phone)
    assert dots["index"] == 4 and dots["drawn"] == 9 and dots["red"] == 4
    assert js(phone, "return document.querySelectorAll('.page[data-photo-id]').length") <= 5
    screenshot(phone, "pager-dots-1000-phone")
