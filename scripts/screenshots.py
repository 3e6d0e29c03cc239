#!/usr/bin/env python3
"""Takes the screenshots of the explorer that the README and docs/ show, from the build's own
5d-query serve in headless Chromium, so that they can be made again after the pages change.

Usage: scripts/screenshots.py [BUILD] [DIRECTORY]   (defaults: build, docs)

It indexes corpus/ and the browser tests' games (tests/browser/escaping.5dpgn, pictures.5dpgn)
into a scratch database, serves it and writes:
  explorer.png        the opening explorer after 1. e3 / f6, at 1400x1000
  picture-laptop.png  the game of most timelines (40) as its page opens, on the present, at
                      1400x1000, scrolled to the picture as a person would
  picture-phone.png   the same at 390x844
  board-editor.png    the board editor holding a queen, a pawn, a knight, an empty square and an
                      unmoved king, at 1400x1000
Needs chromium, chromium-driver and python3-selenium (scripts/install-deps.sh installs them).
"""

import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = Path(__file__).resolve().parent.parent
LAPTOP = (1400, 1000)
PHONE = (390, 844)


def serve(build, scratch):
    """Indexes the games and starts 5d-query serve; returns the process and its address."""
    database = str(Path(scratch) / 'screenshots.sqlite')
    # corpus/ holds a game with a transcription error: 5d-index records it and exits with 1.
    indexed = subprocess.run(
        [str(build / 'indexer' / '5d-index'), '--db', database, '--quiet', 'corpus/',
         'tests/browser/escaping.5dpgn', 'tests/browser/pictures.5dpgn'],
        cwd=ROOT, capture_output=True, text=True)
    if indexed.returncode not in (0, 1):
        sys.exit('5d-index failed: ' + indexed.stderr)
    server = subprocess.Popen([str(build / 'query' / '5d-query'), '--db', database, 'serve',
                               '--port', '0'], stdout=subprocess.PIPE, text=True)
    match = re.search(r' at (http://127\.0\.0\.1:\d+)/ ', server.stdout.readline())
    if not match:
        server.kill()
        sys.exit('5d-query serve did not say where it listens')
    return server, match.group(1)


def wait_ready(driver, extra=''):
    """Waits until the page shows its answers (body[data-state]) and `extra` holds."""
    condition = "document.body.dataset.state === 'ready'" + (f' && ({extra})' if extra else '')
    for _ in range(300):
        if driver.execute_script('return ' + condition):
            # A frame or two for the canvases of the boards that came into view.
            time.sleep(0.3)
            return
        time.sleep(0.1)
    sys.exit(f'the page at {driver.current_url} did not get ready')


def main():
    build = Path(sys.argv[1] if len(sys.argv) > 1 else 'build').resolve()
    out = Path(sys.argv[2] if len(sys.argv) > 2 else ROOT / 'docs').resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix='fived-screenshots-') as scratch:
        server, url = serve(build, scratch)
        options = webdriver.ChromeOptions()
        for flag in ('--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
                     '--force-device-scale-factor=1', '--no-first-run',
                     '--user-data-dir=' + str(Path(scratch) / 'profile')):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
        try:
            def shoot(name):
                driver.save_screenshot(str(out / name))
                print(out / name)

            driver.set_window_size(*LAPTOP)
            line = urllib.parse.quote('1. (0T1)e3 / (0T1)f6')
            driver.get(f'{url}/?moves={line}')
            wait_ready(driver, "document.querySelector('.mv-board canvas')")
            shoot('explorer.png')

            with urllib.request.urlopen(f'{url}/api/find?sort=-timelines&limit=1') as answer:
                game = json.load(answer)[0]['id']
            for size, name in ((LAPTOP, 'picture-laptop.png'), (PHONE, 'picture-phone.png')):
                driver.set_window_size(*size)
                driver.get(f'{url}/game/{game}')
                wait_ready(driver, "document.querySelector('.mv-board canvas')")
                # The whole picture in view, as a person would scroll to it (on a phone the
                # moves played come first).
                driver.execute_script("document.querySelector('.stepper').scrollIntoView()")
                time.sleep(0.3)
                shoot(name)

            driver.set_window_size(*LAPTOP)
            driver.get(f'{url}/patterns')
            wait_ready(driver, "document.querySelector('.board-editor .pattern-text')")
            field = driver.find_element(By.CSS_SELECTOR, '.board-editor .pattern-text')
            field.clear()
            field.send_keys('????????/????????/????????/????p??Q/????1???/??????N?/????????/????K*???')
            wait_ready(driver, "document.querySelector('button.square[data-square=\"e1\"]')"
                               ".dataset.token === 'K*'")
            shoot('board-editor.png')
        finally:
            driver.quit()
            server.terminate()
            server.wait()


if __name__ == '__main__':
    main()
