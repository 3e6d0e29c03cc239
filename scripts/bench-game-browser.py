#!/usr/bin/env python3
"""The game page's speed in headless Chromium, for scripts/bench-game.sh.

Usage: bench-game-browser.py URL ID:ACTIONS:TIMELINES...

For each game, at 1400x1000: the first view (from the moment the game's answer arrived, by the
browser's resource timing, to the first frame painted after the page showed it), then steps back
from the end, one at a time with the left arrow key, each timed from the key press to the first
frame painted with the new action's picture. The neighbours of an action are fetched while it is
on screen, so a step usually waits for no server; the figures say what people see. Prints
figures; asserts nothing.
"""

import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

STEPS = 10

# Presses the left arrow key and resolves, at the first frame painted after the page shows the
# action before, with the milliseconds taken.
STEP = """
const done = arguments[arguments.length - 1];
const at = () => Number(document.getElementById('at').dataset.action);
const target = at() - 1;
const start = performance.now();
document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}));
const wait = () => {
  if (at() === target && document.body.dataset.state === 'ready') {
    requestAnimationFrame(() => setTimeout(() => done(performance.now() - start), 0));
  } else {
    requestAnimationFrame(wait);
  }
};
wait();
"""

# The first view: from the end of the game's answer to the first frame after it showed.
FIRST = """
const done = arguments[arguments.length - 1];
const wait = () => {
  if (document.body.dataset.state === 'ready' && document.querySelector('.mv-board canvas')) {
    requestAnimationFrame(() => setTimeout(() => {
      const shown = performance.now();
      const answer = performance.getEntriesByType('resource')
                         .filter((e) => e.name.includes('/api/game/'))[0];
      done([shown - answer.responseEnd, answer.responseEnd - answer.requestStart]);
    }, 0));
  } else {
    requestAnimationFrame(wait);
  }
};
wait();
"""


def main():
    url, games = sys.argv[1], sys.argv[2:]
    options = webdriver.ChromeOptions()
    for flag in ('--headless', '--no-sandbox', '--disable-gpu', '--window-size=1400,1000',
                 '--force-device-scale-factor=1', '--hide-scrollbars'):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
    driver.set_window_size(1400, 1000)
    driver.set_script_timeout(60)
    print(f'{"game":<6} {"timelines":<10} {"first view ms":<15} {"answer ms":<11} '
          f'{"step ms (median/max of " + str(STEPS) + ")":<28}')
    try:
        for entry in games:
            id, actions, timelines = entry.split(':')
            driver.get(f'{url}/game/{id}')
            shown, answer = driver.execute_async_script(FIRST)
            steps = [driver.execute_async_script(STEP) for _ in range(min(STEPS, int(actions)))]
            print(f'{id:<6} {timelines:<10} {shown:<15.0f} {answer:<11.0f} '
                  f'{statistics.median(steps):.0f} / {max(steps):.0f}')
    finally:
        driver.quit()


if __name__ == '__main__':
    main()
