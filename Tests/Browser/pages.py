"""Reading the page the way a person sees it: which view, which photo, which dot."""

from gestures import js, wait_for


def open_app(driver, server, route=""):
    driver.get("about:blank")  # a fresh page, even when only the hash would differ
    driver.get(f"{server.url}/#/{route}")
    wait_for(lambda: js(driver, "return document.documentElement.dataset.ready === 'true'"), message="photos listed")


def hash_of(driver):
    return js(driver, "return location.hash")


def wait_hash(driver, expected, timeout=10):
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
        return null;
    """)


def centre_of(driver, css):
    return js(driver, """
        const r = document.querySelector(arguments[0]).getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2];
    """, css)


def sorted_photos(server):
    return sorted(server.photos.values(), key=lambda p: p["id"])
