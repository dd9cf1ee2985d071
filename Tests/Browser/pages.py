"""Reading the page the way a person sees it: which view, which photo, which dot."""

from gestures import js, wait_for


def open_app(driver, server, route=""):
    driver.get("about:blank")  # a fresh page, even when only the hash would differ
    driver.get(f"{server.url}/#/{route}")
    wait_for(lambda: js(driver, "return document.documentElement.dataset.ready === 'true'"), message="photos listed")


def hash_of(driver):
    return js(driver, "return location.hash")


def wait_hash(driver, expected, timeout=30):
    wait_for(lambda: hash_of(driver) == expected, timeout=timeout, message=f"URL {expected}")


def current_dot(driver):
    """The page dots as a person sees them: which dot is red, how many are drawn, what the control says."""
    return js(driver, """
        const control = document.querySelector('.pager-dots');
        const dots = [...control.querySelectorAll('.dot')].filter(d => !d.hidden);
        const current = dots.find(d => d.classList.contains('current'));
        return {index: Number(control.getAttribute('aria-valuenow')) - 1, drawn: dots.length,
                red: dots.indexOf(current), text: control.getAttribute('aria-valuetext'),
                colour: current ? getComputedStyle(current, '::before').backgroundColor : null};
    """)


def photo_drawn(driver):
    """The photo of the page in front is on screen, every tile of it."""
    return js(driver, "return window.__pager?.complete === true")


def visible_view(driver):
    return js(driver, """
        if (!document.getElementById('zoom-view').hidden) return 'zoom';
        if (!document.getElementById('pager-view').hidden) return 'pager';
        if (!document.getElementById('grid-view').hidden) return 'grid';
        if (!document.getElementById('albums-view').hidden) return 'albums';
        if (!document.getElementById('search-view').hidden) return 'search';
        if (!document.getElementById('message-view').hidden) return 'message';
        return null;
    """)


def centre_of(driver, css):
    return js(driver, """
        const r = document.querySelector(arguments[0]).getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];
    """, css)


def sorted_photos(server):
    """The photos in the library's order (date taken, then id), as the grid and the pager show them."""
    order = [p["id"] for p in server.all_photos()]
    return sorted(server.photos.values(), key=lambda p: order.index(p["id"]))


def open_zoom(driver, server, photo):
    """The zoom view on `photo`, straight from its URL, once every tile is on screen."""
    from gestures import settled_viewer
    open_app(driver, server, f"photos/{photo['id']}/zoom")
    return settled_viewer(driver)


def slides(driver):
    """The zoom view's slides as drawn: page index, left edge, width and how many tiles they show."""
    return js(driver, """return [...document.querySelectorAll('.zoom-slide:not([hidden])')].map(s => {
        const r = s.getBoundingClientRect();
        return {index: Number(s.dataset.index), left: r.left, right: r.right,
                tiles: s.querySelectorAll('.tile-layer img.loaded').length};
    }).sort((a, b) => a.left - b.left);""")


def pages(driver):
    """The pager's page slots as drawn, left to right."""
    return js(driver, """return [...document.querySelectorAll('.page:not([hidden])')].map(p => {
        const r = p.getBoundingClientRect();
        return {index: Number(p.dataset.index), id: p.dataset.photoId, left: r.left, right: r.right,
                tiles: p.querySelectorAll('.tile-layer img.loaded').length};
    }).sort((a, b) => a.left - b.left);""")


def page_photo(driver):
    """The pager's photo in front: its box on screen and its zoom."""
    return js(driver, """
        const p = window.__pager.photo; if (!p || !p.photo) return null;
        const box = p.stage.getBoundingClientRect();
        return {box: box.toJSON(), scale: p.s, fit: p.fitScale, left: box.left + p.tx, top: box.top + p.ty,
                width: p.photo.width * p.s, height: p.photo.height * p.s, moving: p.animating};
    """)
