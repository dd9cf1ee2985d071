"""A grid of one or two columns draws each photo from an image as sharp as its cell: a cell far
larger than the thumbnail asks for the photo's centre square cut to its device pixels (IIIF's
square/n,/), while the default density keeps the thumbnails."""

import pytest

from conftest import screenshot
from gestures import emulate, js, wait_for
from pages import open_app

# Every cell on screen: its box, and the image drawn in it.
CELLS = """
return [...document.querySelectorAll('#grid .cell')].map(a => {
    const r = a.getBoundingClientRect(), img = a.querySelector('img');
    return {id: Number(a.dataset.photoId), width: r.width, top: r.top, bottom: r.bottom,
            complete: img.complete && img.naturalWidth > 0, natural: img.naturalWidth,
            src: new URL(img.src || location.href).pathname};
}).filter(c => c.bottom > 0 && c.top < innerHeight);
"""

SIZES = [("phone", 390, 844, 3, True), ("desktop", 1440, 900, 2, False)]


def cells_drawn(driver):
    cells = js(driver, CELLS)
    return cells if cells and all(c["complete"] for c in cells) else None


@pytest.mark.parametrize("name,width,height,dpr,mobile", SIZES, ids=[s[0] for s in SIZES])
def test_a_cell_of_one_or_two_columns_is_drawn_at_its_device_pixels(phone, server, name, width, height, dpr, mobile):
    driver = phone
    emulate(driver, width, height, dpr=dpr, mobile=mobile)
    by_id = {p["id"]: p for p in server.all_photos()}
    for columns in (1, 2):
        open_app(driver, server)
        js(driver, "localStorage.setItem('photoscroll.gridDensity', arguments[0])", str(columns))
        open_app(driver, server)
        js(driver, "window.scrollTo(0, 0)")

        def sharp():
            cells = cells_drawn(driver)
            if not cells:
                return None
            for cell in cells:
                photo = by_id[cell["id"]]
                # As many image pixels as the cell has device pixels, or all the photo has.
                if cell["natural"] < min(cell["width"] * dpr, photo["width"], photo["height"]) - 1:
                    return None
            return cells
        try:
            cells = wait_for(sharp, timeout=30, message=f"cells at {columns} columns drawn at their device pixels")
        except AssertionError:
            raise AssertionError(f"{js(driver, CELLS)!r}") from None
        assert len({round(c["width"]) for c in cells}) == 1 and cells[0]["width"] > width / (columns + 1), cells
        assert all(c["src"].startswith("/iiif/3/") and "/square/" in c["src"] for c in cells), cells
        screenshot(driver, f"grid-sharp-{name}-{columns}")

    # The default density (no choice made) draws the thumbnails the server made at ingest.
    js(driver, "localStorage.removeItem('photoscroll.gridDensity')")
    open_app(driver, server)
    cells = wait_for(lambda: cells_drawn(driver), timeout=30, message="cells at the default density")
    assert all(c["src"].endswith("/thumbnail.jpg") for c in cells), cells
