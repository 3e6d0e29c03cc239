#!/usr/bin/env python3
"""The game page's speed in headless Chromium, for scripts/bench-game.sh.

Usage: bench-game-browser.py URL ID:ACTIONS:TIMELINES...

For each game, at 1400x1000: the first view (from the moment the game's answer arrived, by the
browser's resource timing, to the first frame painted after the page showed it), then steps back
from the end, one at a time with the left arrow key, each timed from the key press to the first
frame painted with the new action's picture, then as many steps forward with the right arrow
key, back to the end. The neighbours of an action are fetched while it is on screen, so a step
usually waits for no server; the figures say what people see.

Beside the wall-clock times, which on a shared machine follow its load, the page's main-thread
CPU time (Chromium's own count, Performance.getMetrics in thread time: script, style, layout,
paint and the rest of its tasks) for the first view (everything from the page's start to its
first picture) and for each step:
the work the page makes the machine do, steadier from one run to the next. Prints figures;
asserts nothing.
"""

import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

STEPS = 10

# Presses the left arrow key (the right one when the script's first argument is 1) and resolves, at the first frame painted after the page shows the
# action before (#at's data-action, written with the picture; the page's ready state may come a
# frame later, once it has also written its address), with the milliseconds taken, those until
# the page had the answer (the server's and the transfer's part, when the answer was not fetched
# ahead) and those of game.js's show() (the script and the DOM work it forces; the rest is the
# browser's style, layout and paint, and waiting for the machine).
STEP = """
const done = arguments[arguments.length - 1];
const forward = arguments[0] === 1;
const at = () => Number(document.getElementById('at').dataset.action);
const target = at() + (forward ? 1 : -1);
const start = performance.now();
document.dispatchEvent(
    new KeyboardEvent('keydown', {key: forward ? 'ArrowRight' : 'ArrowLeft', bubbles: true}));
const wait = () => {
  if (at() === target) {
    requestAnimationFrame(() => setTimeout(() => {
      const show = performance.getEntriesByName('game: show').at(-1);
      // Builds before game.js measured its show() have no entry.
      done([performance.now() - start, show ? show.startTime - start : -1, show ? show.duration : -1]);
    }, 0));
  } else {
    requestAnimationFrame(wait);
  }
};
wait();
"""

# Resolves when the page has done all it does for a step (body[data-state] ready), so that the
# next step starts from a page at rest, as it did before the page wrote its address apart.
READY = """
const done = arguments[arguments.length - 1];
const wait = () => (document.body.dataset.state === 'ready' ? done() : requestAnimationFrame(wait));
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
    driver.execute_cdp_cmd('Performance.enable', {'timeDomain': 'threadTicks'})

    def cpu():
        """The page's main-thread CPU milliseconds so far."""
        metrics = driver.execute_cdp_cmd('Performance.getMetrics', {})['metrics']
        return 1000 * next(m['value'] for m in metrics if m['name'] == 'TaskDuration')

    print(f'{"game":<6} {"timelines":<10} {"first view ms":<15} {"answer ms":<11} '
          f'{"first view CPU ms":<19} {"step ms (median/max of " + str(STEPS) + ")":<28} '
          f'{"waiting ms":<12} {"show() ms":<11} {"step CPU ms (median/max)":<26}'
          f'{"forward ms (median/max)":<24}')
    try:
        for entry in games:
            id, actions, timelines = entry.split(':')
            driver.get(f'{url}/game/{id}')
            shown, answer = driver.execute_async_script(FIRST)
            # Chromium counts afresh for each page opened.
            first_cpu = cpu()
            steps, step_cpu = [], []
            for _ in range(min(STEPS, int(actions))):
                before = cpu()
                steps.append(driver.execute_async_script(STEP, 0))
                step_cpu.append(cpu() - before)
                driver.execute_async_script(READY)
            # Then as many steps forward, back to the end: these show boards the page has not
            # had yet.
            forward = []
            for _ in steps:
                forward.append(driver.execute_async_script(STEP, 1)[0])
                driver.execute_async_script(READY)
            wall, waiting, show = ([step[i] for step in steps] for i in range(3))
            cpu_text = f'{statistics.median(step_cpu):.0f} / {max(step_cpu):.0f}'
            print(f'{id:<6} {timelines:<10} {shown:<15.0f} {answer:<11.0f} {first_cpu:<19.0f} '
                  f'{statistics.median(wall):.0f} / {max(wall):<22.0f} '
                  f'{statistics.median(waiting):<12.0f} {statistics.median(show):<11.0f} '
                  f'{cpu_text:<26}{statistics.median(forward):.0f} / {max(forward):.0f}')
    finally:
        driver.quit()


if __name__ == '__main__':
    main()
