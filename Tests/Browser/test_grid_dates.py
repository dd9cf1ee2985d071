"""The open grid does not jump while dates are first read: a photo not examined yet sorts by its
file's time, and moves to its place when its EXIF date is read, so during a first ingest the
order changes under the grid, again and again; the photo at the centre of the screen stays where
it is, whatever moves around it."""

import os
import time

import pytest

from conftest import start_server
from gestures import emulate, js, wait_for
from pages import open_app

TOTAL = 1200

CENTRE = """
const x = innerWidth / 2, y = innerHeight / 2;
const cell = [...document.querySelectorAll('#grid .cell')].find(a => {
    const r = a.getBoundingClientRect();
    return r.left <= x && x < r.right + 2 && r.top <= y && y < r.bottom + 2;
});
return cell ? Number(cell.dataset.photoId) : null;
"""
RECT = """
const a = document.querySelector(`#grid .cell[data-photo-id="${arguments[0]}"]`);
const r = a && a.getBoundingClientRect();
return r ? [Math.round(r.left), Math.round(r.top)] : null;
"""
POSITION = """
const a = document.querySelector(`#grid .cell[data-photo-id="${arguments[0]}"]`);
return a ? Number(a.parentElement.getAttribute('aria-posinset')) : null;
"""


@pytest.fixture(scope="module")
def dating_server(work_dir):
    """A collection whose every third photo carries an EXIF date far from its file's time (the
    mirror of its place), read one photo at a time: listed at once, reordered for a while."""
    from collection import make_collection
    from photos import add_exif, camera_exif
    photos = os.path.join(work_dir, "dating")
    paths = make_collection(photos, TOTAL)
    for n in range(0, TOTAL, 3):
        path = os.path.join(photos, paths[n])
        mirror = os.stat(os.path.join(photos, paths[TOTAL - 1 - n])).st_mtime
        own = os.stat(path).st_mtime
        add_exif(path, camera_exif(taken=time.strftime("%Y:%m:%d %H:%M:%S", time.gmtime(mirror))))
        os.utime(path, (own, own))
    running = start_server(photos, os.path.join(work_dir, "data-dating"), comments_per_minute=0,
                           expected_photos=TOTAL, listing_only=True,
                           env_extra={"PHOTOSCROLL_INGEST_CONCURRENCY": "1"})
    yield running
    running.stop()


def test_the_photo_at_the_centre_stays_put_while_dates_arrive(phone, dating_server):
    emulate(phone, 390, 844, dpr=3, mobile=True)
    open_app(phone, dating_server)
    js(phone, "window.scrollTo(0, document.getElementById('grid').offsetHeight * 0.5)")
    anchor = wait_for(lambda: js(phone, CENTRE), message="a photo at the centre")
    place = js(phone, RECT, anchor)
    start = js(phone, POSITION, anchor)
    # While the server reads dates, the page fetches the order again (once a second at most) and
    # the photo at the centre changes its place in the list, by rows; on screen it does not move.
    moved = [0]

    def moved_twenty_places_in_place():
        assert js(phone, CENTRE) == anchor, f"another photo at the centre, photo {anchor} having moved {moved[0]} places in the list"
        assert js(phone, RECT, anchor) == place, f"photo {anchor} moved on screen"
        moved[0] = abs((js(phone, POSITION, anchor) or start) - start)
        return moved[0] >= 20
    wait_for(moved_twenty_places_in_place, timeout=120, interval=0.1, message=f"photo {anchor} to move 20 places in the list")
    assert js(phone, RECT, anchor) == place
