"""Every view at phone size (390×844 @2×, touch) and desktop size (1440×900 @1× and @2×), light
and dark, kept as pictures in build/screenshots/. On each: text contrast at least 4.5:1 and
controls 3:1 against what is really behind them, touch targets of at least 44 px on the phone,
and a visible focus ring on every stop a keyboard reaches."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, script_errors
from gestures import double_tap, emulate, js, settled_viewer, wait_for
from pages import open_app, sorted_photos

SCREENS = [("phone", 390, 844, 2, True), ("desktop", 1440, 900, 1, False), ("desktop-2x", 1440, 900, 2, False)]

CONTRAST = r"""
const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
// What is behind an element: its own and its ancestors' backgrounds, composited, on the page (or the zoom view's black).
const behind = (el) => {
  const layers = [];
  for (let e = el; e && !e.classList.contains('zoom-view'); e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let base = el.closest('.zoom-view') ? [0, 0, 0, 1] : parse(getComputedStyle(document.documentElement).backgroundColor);
  if (!base || base[3] < 1) base = [255, 255, 255, 1];
  for (const layer of layers.reverse()) base = over(layer, base);
  return base;
};
const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0' && !e.closest('[hidden]') && !e.closest('[inert]'); };
const found = [];
const text = '.large-title h1, .subtitle, .pager-title, .pager-back, .photo-caption h2, .photo-meta, .prompt, .comment-author, '
  + '.comment-text, .comment time, .comments-empty, .comments-error, .composer-status, .composer-hint, .pager-count, .photo-error, '
  + '.zoom-title, .zoom-bar button:not(:disabled), .cell-error, .composer input';
for (const e of document.querySelectorAll(text)) {
  if (!visible(e) || !e.textContent.trim() && e.tagName !== 'INPUT') continue;
  const fg = parse(getComputedStyle(e).color), bg = behind(e);
  found.push({what: e.className || e.tagName, kind: 'text', ratio: ratio(over(fg, bg), bg)});
}
for (const e of document.querySelectorAll('.composer input')) {
  if (!visible(e)) continue;
  const bg = behind(e.parentElement);
  found.push({what: 'placeholder ' + e.className, kind: 'text', ratio: ratio(over(parse(getComputedStyle(e, '::placeholder').color), behind(e)), behind(e))});
  found.push({what: 'border ' + e.className, kind: 'control', ratio: ratio(over(parse(getComputedStyle(e).borderTopColor), bg), bg)});
}
for (const e of document.querySelectorAll('.pager-dots .dot')) {
  if (!visible(e)) continue;
  const bg = behind(e);
  // The current dot is the control's state (3:1); the others are light marks, as UIPageControl's.
  found.push({what: 'dot' + (e.classList.contains('current') ? ' current' : ''), kind: e.classList.contains('current') ? 'control' : 'mark',
              ratio: ratio(over(parse(getComputedStyle(e, '::before').backgroundColor), bg), bg)});
}
for (const e of document.querySelectorAll('.composer-send:not(:disabled)')) {
  if (!visible(e)) continue;
  const bg = behind(e.parentElement);
  found.push({what: 'send', kind: 'control', ratio: ratio(behind(e), bg)});
}
return found;
"""

TARGETS = """
return [...document.querySelectorAll('button, a[href], input, [role=slider], [tabindex="0"]')].filter(e => {
  const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden]') && !e.closest('[inert]')
    && !e.closest('#grid') && !e.classList.contains('zoom-stage');
}).map(e => { const r = e.getBoundingClientRect(); return {what: e.className || e.tagName, w: r.width, h: r.height}; });
"""


def check(driver, where):
    # Colours are read once they have arrived: a dot made current fades from grey to red.
    wait_for(lambda: js(driver, "return document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState !== 'running')"),
             message=f"transitions ended on the {where}")
    least = {"text": 4.5, "control": 3.0, "mark": 1.3}
    low = [f for f in js(driver, CONTRAST) if f["ratio"] < least[f["kind"]]]
    assert not low, (where, low)


@pytest.mark.parametrize("name,width,height,dpr,touch", SCREENS)
def test_every_view_light_and_dark(shared_browser, server, limited_server, name, width, height, dpr, touch):
    driver = shared_browser.fresh()
    for scheme in ("light", "dark"):
        emulate(driver, width, height, dpr=dpr, mobile=touch)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        views(driver, server, limited_server, name, width, height, touch, f"{name}-{scheme}")
    assert not script_errors(driver)


def views(driver, server, limited_server, name, width, height, touch, suffix):
    photo = server.photos["landscape"]

    open_app(driver, server)
    wait_for(lambda: js(driver, "return [...document.querySelectorAll('#grid img')].every(i => i.complete)"), message="thumbnails")
    check(driver, "grid")
    screenshot(driver, f"view-grid-{suffix}")

    open_app(driver, server, f"photos/{photo['id']}")
    wait_for(lambda: js(driver, "return window.__pager.complete"), message="photo drawn")
    wait_for(lambda: js(driver, "return document.querySelector('.page.current .comments').getAttribute('aria-busy') === null"),
             message="thread")
    check(driver, "pager")
    if touch:
        small = [t for t in js(driver, TARGETS) if t["w"] < 44 or t["h"] < 44]
        assert not small, small
    screenshot(driver, f"view-pager-{suffix}")
    if not touch:
        # Every stop the keyboard reaches shows where it is.
        js(driver, "document.activeElement?.blur()")
        rings = []
        for _ in range(8):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            rings.append(js(driver, """const e = document.activeElement, s = getComputedStyle(e);
                return [e.className || e.tagName, s.outlineStyle, parseFloat(s.outlineWidth)];"""))
        # (past the last stop, focus leaves the page for the browser's own controls: the body is no stop)
        stops = [r for r in rings if r[0] != "BODY"]
        assert len(stops) >= 5 and all(style != "none" and width >= 2 for _, style, width in stops), stops

    js(driver, "document.querySelector('.page.current .photo-open').click()")
    settled_viewer(driver)
    check(driver, "zoom view")
    if touch:
        small = [t for t in js(driver, TARGETS) if t["w"] < 44 or t["h"] < 44]
        assert not small, small
    screenshot(driver, f"view-zoom-fit-{suffix}")
    if touch:
        double_tap(driver, width / 2, height / 2)
    else:
        js(driver, "document.querySelector('.zoom-in').click()")
    wait_for(lambda: (lambda s: s if s and s["complete"] and s["scale"] > s["fitScale"] * 1.05 else None)(settled_viewer(driver)),
             message="zoomed")
    screenshot(driver, f"view-zoom-in-{suffix}")

    broken = limited_server.photos["broken"]
    open_app(driver, limited_server)
    check(driver, "grid with a failed photo")
    screenshot(driver, f"view-grid-failed-{suffix}")
    open_app(driver, limited_server, f"photos/{broken['id']}")
    wait_for(lambda: js(driver, "return !!document.querySelector('.page.current .photo-error')"), message="failed page")
    check(driver, "failed photo page")
    screenshot(driver, f"view-pager-failed-{suffix}")
    if name == "phone":
        first = sorted_photos(server)[0]
        emulate(driver, height, width, dpr=2, mobile=True)
        open_app(driver, server, f"photos/{first['id']}")
        wait_for(lambda: js(driver, "return window.__pager.complete"), message="photo drawn sideways")
        check(driver, "pager held sideways")
        screenshot(driver, f"view-pager-landscape-{suffix}")
