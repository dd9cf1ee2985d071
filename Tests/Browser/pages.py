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
    """Index of the red dot (aria-current=page) and the dot labels."""
    return js(driver, """
        const dots = [...document.querySelectorAll('.pager-dots .dot')];
        return {index: dots.findIndex(d => d.getAttribute('aria-current') === 'page'),
                labels: dots.map(d => d.getAttribute('aria-label')),
                colour: dots.length ? getComputedStyle(dots.find(d => d.getAttribute('aria-current') === 'page') || dots[0], '::before').backgroundColor : null};
    """)


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
