"""Fixtures for the browser tests: the real photoscroll server on a free loopback port, fed photos
made at test time, and headless Chromium driven by Debian's chromedriver (nothing is downloaded)."""

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from photos import make_library  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOTS = os.path.join(REPO, "build", "screenshots")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# Selenium must never fetch a driver or browser of its own.
os.environ["SE_OFFLINE"] = "true"
# Every origin a test browser may have kept something for (storage, cookies, service workers):
# the servers' and the client pages'. Cleared between tests.
ORIGINS = set()


class Server:
    """One running server process: its base URL, its photos, and its stdout/stderr lines."""

    def __init__(self, command, env, expected_photos, ready_timeout=120, all_ready=True, listing_only=False):
        self.expected_photos = expected_photos
        self.all_ready = all_ready
        self.listing_only = listing_only
        self.lines = []
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, cwd=REPO)
        first = self.process.stdout.readline()
        if "listening on " not in first:
            rest = self.process.stdout.read() if self.process.poll() is not None else ""
            self.stop()
            raise RuntimeError(f"server did not start: {first}{rest}")
        self.url = first.split("listening on ", 1)[1].strip()
        ORIGINS.add(self.url)
        threading.Thread(target=self._drain, daemon=True).start()
        self.photos = self._wait_ready(ready_timeout)

    def _drain(self):
        for line in self.process.stdout:
            self.lines.append(line)

    def get_json(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.load(response)

    def all_photos(self):
        """Every photo, page after page of GET /photos."""
        photos, target = [], "/photos?limit=1000"
        while target:
            page = self.get_json(target)
            photos += page["photos"]
            target = page["next"]
        return photos

    def _wait_ready(self, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.expected_photos == 0:
                    # No photos to wait for (an empty folder, or a private library, which lists
                    # nothing to a stranger: its test waits for its photos itself): ready is enough.
                    self.get_json("/readyz")
                    return {}
                if self.listing_only:
                    # A large library: listed is enough (thumbnails render on demand meanwhile).
                    if self.get_json("/photos/summary")["total"] >= self.expected_photos:
                        return {}
                    time.sleep(0.25)
                    continue
                photos = self.all_photos()
                # Photos are listed as they are found, so wait for all of them, not just the first.
                if len(photos) >= self.expected_photos and (
                        not self.all_ready or all(p["status"] in ("ready", "failed") for p in photos)):
                    return {p["title"]: p for p in photos}
            except OSError:
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError("photos never became ready:\n" + "".join(self.lines[-30:]))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# Lets the tests delete a comment, to see the deletion reach the page live.
ADMIN_TOKEN = "browser-test-admin-token"


def start_server(photos_dir, data_dir, comments_per_minute, expected_photos, all_ready=True, listing_only=False,
                 env_extra=None, port=0, public=None):
    """A server on loopback, on `port` (0: any free one; a server stopped and started again under an
    open page takes the port it had), serving the page in `public` (default: this tree's Public/)."""
    # A short grace at shutdown: the browser's idle keep-alive connections would hold each server
    # for its whole default grace (10 s) at the end of the run.
    env = dict(os.environ, PHOTOSCROLL_COMMENTS_PER_MINUTE=str(comments_per_minute), PHOTOSCROLL_LOG_LEVEL="info",
               PHOTOSCROLL_ADMIN_TOKEN=ADMIN_TOKEN, PHOTOSCROLL_SHUTDOWN_GRACE_SECONDS="2")
    env.update(env_extra or {})
    if os.environ.get("PHOTOSCROLL_MOCK") == "1":
        # Only for working on the page without a Swift build; `make test` always uses the real binary.
        command = [sys.executable, os.path.join(REPO, "Tests", "Browser", "mockserver.py"), str(port), photos_dir]
    else:
        binary = os.environ.get("PHOTOSCROLL_BIN", os.path.join(REPO, ".build", "debug", "photoscroll"))
        if not os.path.isabs(binary):
            binary = os.path.join(REPO, binary)
        command = [binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--photos", photos_dir,
                   "--data", data_dir, "--public", public or os.path.join(REPO, "Public")]
    return Server(command, env, expected_photos, all_ready=all_ready, listing_only=listing_only)


@pytest.fixture(scope="session")
def work_dir():
    path = tempfile.mkdtemp(prefix="photoscroll-browser-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def server(work_dir):
    """The server most tests share: four photos, no comment rate limit."""
    photos = os.path.join(work_dir, "photos")
    made = make_library(photos)
    running = start_server(photos, os.path.join(work_dir, "data"), comments_per_minute=0, expected_photos=len(made))
    running.photos_dir = photos
    yield running
    running.stop()


@pytest.fixture(scope="session")
def limited_server(work_dir):
    """A second server with one small photo, one file that is no photo, a limit of two comments a
    minute, and originals that cannot be downloaded."""
    photos = os.path.join(work_dir, "photos-limited")
    made = make_library(photos, [("small", 640, 480)])
    with open(os.path.join(photos, "broken.jpg"), "w") as f:
        f.write("this is a text file with a .jpg name\n")
    made["broken"] = None
    running = start_server(photos, os.path.join(work_dir, "data-limited"), comments_per_minute=2, expected_photos=len(made),
                           env_extra={"PHOTOSCROLL_DOWNLOAD_ORIGINALS": "false"})
    running.photos_dir = photos
    yield running
    running.stop()


@pytest.fixture(scope="session")
def collection_server(work_dir):
    """A server with a collection of 2,500 small photos in year/month folders, one ingest thread."""
    from collection import make_collection
    photos = os.path.join(work_dir, "collection")
    made = make_collection(photos, 2500)
    running = start_server(photos, os.path.join(work_dir, "data-collection"), comments_per_minute=0,
                           expected_photos=len(made), listing_only=True,
                           env_extra={"PHOTOSCROLL_INGEST_CONCURRENCY": "1"})
    running.photos_dir = photos
    running.paths = made
    yield running
    running.stop()


@pytest.fixture(scope="session")
def album_server(work_dir):
    """Photos dated by their cameras' EXIF, in two albums and the root."""
    from photos import make_photo, camera_exif, add_exif
    photos = os.path.join(work_dir, "photos-albums")
    os.makedirs(os.path.join(photos, "Trips"))
    os.makedirs(os.path.join(photos, "Family"))
    made = []
    for i, (relative, taken, offset) in enumerate([
            ("Trips/beach.jpg", "2024:03:05 14:22:01", "+01:00"), ("Trips/hill.jpg", "2019:07:01 09:00:00", None),
            ("Trips/city.jpg", "2025:12:24 18:30:00", "-05:00"), ("Family/cake.jpg", "2024:03:20 16:00:00", "+01:00"),
            ("Family/garden.jpg", "2023:08:02 11:00:00", "+01:00"), ("loose.jpg", "2024:03:10 10:00:00", "+01:00")]):
        path = os.path.join(photos, relative)
        make_photo(path, 960, 640, i)
        add_exif(path, camera_exif(make="Apple", model="iPhone 15 Pro", lens="iPhone 15 Pro back camera 6.765mm f/1.78",
                                   taken=taken, offset=offset, aperture=(178, 100), exposure=(1, 120), iso=80,
                                   focal=(6765, 1000), focal35=24, flash=16))
        made.append(relative)
    running = start_server(photos, os.path.join(work_dir, "data-albums"), comments_per_minute=0, expected_photos=len(made))
    running.photos_dir = photos
    yield running
    running.stop()


def script_errors(driver):
    """Uncaught exceptions and console errors raised by the page's own scripts (not refused requests)."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and entry.get("source") in ("javascript", "console-api")]


# What a test browser need not do in the background: reach out to the network for updates, sync,
# translation or safe browsing lists (the machine may have no network), report, or watch for
# hangs; about a tenth of the browser tests' CPU time. And no GPU rasterization, which Debian's
# chromium turns on: with no GPU it is emulated in software, where Skia's own software raster
# draws the same pages for about 12 % less CPU.
QUIET = ("--disable-gpu-rasterization", "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
         "--disable-sync", "--metrics-recording-only", "--no-default-browser-check", "--disable-breakpad",
         "--disable-client-side-phishing-detection", "--disable-hang-monitor", "--disable-domain-reliability",
         "--password-store=basic", "--use-mock-keychain",
         "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
         "CertificateTransparencyComponentUpdater,AutofillServerCommunication,InterestFeedContentSuggestions")


def small_dev_shm():
    """Whether /dev/shm is too small for a browser's shared memory (a container's 64 MB)."""
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return True
    return stats.f_blocks * stats.f_frsize < 1 << 30


# Chromium passes every frame it draws through shared memory. Where /dev/shm is small it must
# use files in the temporary folder instead, which on a disk cost the tests about a fifth of
# their time and a tenth of their CPU; where it is large, it keeps to /dev/shm.
SMALL_SHM = ("--disable-dev-shm-usage",) if small_dev_shm() else ()


def new_driver(width=390, height=844):
    """A Chromium of its own (the benchmarks', and SharedBrowser's), the tests' page hooks in it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", *SMALL_SHM,
                     "--hide-scrollbars", "--mute-audio", "--no-first-run", "--disable-extensions",
                     f"--window-size={width},{height}", "--force-color-profile=srgb", *QUIET):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    add_hooks(driver)
    return driver


def add_hooks(driver):
    """The tests' read-only hooks into the page (window.__viewer and the like), evaluated in every
    document of the current tab before the page's own scripts: not in what ships."""
    with open(os.path.join(REPO, "Tests", "Browser", "page", "hooks.js")) as f:
        driver.hooks_script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f.read()})["identifier"]


# Hides the service worker API from the page, so it registers no worker (Public/core/offline.js
# registers one only where the browser has the API). Each test's tab starts with nothing kept, so
# a worker would only refill its cache from the server, for every test, beside the test's own
# requests. The tests of the worker itself (marked `service_worker`: test_offline.py) keep it.
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"


def pytest_configure(config):
    config.addinivalue_line("markers", "service_worker: the page in this test registers its service worker")


class SharedBrowser:
    """One Chromium for many tests, started once: starting a browser for each test cost more than
    most tests themselves. Each test gets a new tab (a new page, its own session storage, the
    default screen, media and network conditions, the hooks) after everything the browser keeps
    across tabs is cleared: cookies, the HTTP cache, and each origin's storage, caches and service
    workers. A browser that died is started again."""

    def __init__(self, width=1280, height=800):
        self.size = (width, height)
        self.driver = None

    def fresh(self, service_worker=False):
        """A new tab, whose page registers no service worker unless `service_worker`."""
        try:
            if self.driver is not None:
                driver = self._new_tab()
            else:
                driver = None
        except Exception:  # noqa: BLE001 - a crashed or hung browser: start another
            self.quit()
            driver = None
        if driver is None:
            driver = self.driver = new_driver(*self.size)
            self._clear()
        if not service_worker:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_SERVICE_WORKER})
        return driver

    def _new_tab(self):
        driver = self.driver
        driver.switch_to.new_window("tab")
        fresh = driver.current_window_handle
        for handle in driver.window_handles:
            if handle != fresh:
                driver.switch_to.window(handle)
                driver.close()
        driver.switch_to.window(fresh)
        add_hooks(driver)
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(30)
        self._clear()
        return driver

    def _clear(self):
        driver = self.driver
        driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        for origin in sorted(ORIGINS):
            driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        driver.get_log("browser")  # what earlier tests logged is theirs

    def quit(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # noqa: BLE001 - already gone
                pass
        self.driver = None


@pytest.fixture(scope="session")
def shared_browser():
    browser = SharedBrowser()
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def second_browser():
    """A second Chromium, started only by the tests that need two readers at once."""
    browser = SharedBrowser()
    yield browser
    browser.quit()


def browser_session(browser, phone_sized, request):
    """The shared browser in a fresh tab, as a 390×844 touch phone at devicePixelRatio 1 (tests
    change the ratio where it matters) or a 1280×800 desktop with a mouse and a keyboard; without
    the service worker unless the test is marked `service_worker`. The page's own script errors
    fail the test."""
    driver = browser.fresh(service_worker=request.node.get_closest_marker("service_worker") is not None)
    if phone_sized:
        from gestures import emulate
        emulate(driver, 390, 844, dpr=1, mobile=True)
    yield driver
    errors = script_errors(driver)
    # The page goes, and with it the live streams it held open: a server stopping at the end of
    # the run would otherwise wait out its grace period for them.
    driver.get("about:blank")
    assert not errors, errors


@pytest.fixture
def phone(shared_browser, request):
    """A touch phone (see browser_session)."""
    yield from browser_session(shared_browser, phone_sized=True, request=request)


@pytest.fixture
def desktop(shared_browser, request):
    """A desktop window (see browser_session)."""
    yield from browser_session(shared_browser, phone_sized=False, request=request)


@pytest.fixture
def second_phone(second_browser, request):
    """Another phone beside `phone`, for what one reader does and another sees."""
    yield from browser_session(second_browser, phone_sized=True, request=request)


def screenshot(driver, name):
    """Keeps a picture of the view under build/screenshots/ for a person to look at."""
    from selenium.common.exceptions import TimeoutException
    os.makedirs(SCREENSHOTS, exist_ok=True)
    # The driver gives a capture ten seconds, which a busy machine's compositor can miss. A picture
    # is for a person, never something a test asserts, so a missed one is said and the test goes on.
    # Asked of Chromium itself with its fast PNG encoding: the pictures come out a third larger
    # and cost it about half the CPU of the driver's own capture (226 pictures in a make test).
    for attempt in range(2):
        try:
            shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            with open(os.path.join(SCREENSHOTS, f"{name}.png"), "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            return
        except TimeoutException as error:
            print(f"screenshot {name}: not taken (attempt {attempt + 1}): {error.msg}")
