"""The web app in a thread and Debian's headless Chromium, for the browser tests and
the screenshot and benchmark scripts (selenium is a test extra)."""

from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solver.deadline import Deadline

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(pool_size: int = 2, store: str | Path | None = None) -> Iterator[str]:
    """`toppi serve [--store FILE]` on a free port in a thread; yields its URL."""
    import uvicorn

    from solver.serve.app import create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(pool_size=pool_size, store=store),
                                           host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = Deadline.after(20)
    while not server.started:
        if deadline.passed() or not thread.is_alive():
            raise RuntimeError("toppi serve did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def missing_browser() -> str | None:
    """None when the browser can run, else one line saying what is missing."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return (f"{path} is missing: run scripts/setup_browser.sh "
                    "(apt-get install -y chromium chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    return None


@contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A headless Chromium driven by selenium, with a new empty profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="toppi-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver: Any, script: str, timeout: float = 20.0) -> Any:
    """Poll a JavaScript expression until it is truthy; return its value."""
    deadline = Deadline.after(timeout)
    while True:
        value = driver.execute_script(f"return {script}")
        if value:
            return value
        if deadline.passed():
            raise TimeoutError(f"waited {timeout:g} s for: {script}")
        time.sleep(0.05)
