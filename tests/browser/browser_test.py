#!/usr/bin/env python3
"""Browser tests of the explorer pages of 5d-query serve, in headless Chromium.

A database is indexed from corpus/ and tests/browser/escaping.5dpgn (a game whose players and
headers are markup), `5d-query serve --port 0` serves it, and Chromium, driven through
chromedriver by Selenium, uses the pages as a person would: it opens the explorer, clicks two
actions and checks the statistics and the picture, walks back with the back button, searches,
sorts, opens a game and steps through it with the arrow keys, draws a board pattern in the
board editor, searches with it and opens a game at the board it found, and checks that the
markup of the escaping game shows as text and runs nothing. What the pages show is compared with what the JSON
API answers for the same question. At the end the server gets SIGINT (Ctrl-C) and must stop
cleanly.

Screenshots of the pages go to --screenshots (default BUILD/tests/browser), for people to look
at; the ones of docs/ and the README are made by scripts/screenshots.py.

Run by tests/browser/run.sh, which finds the browser and skips when none is installed.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
ARGS = None  # the command line's options, set in main()
TIMEOUT = 30  # seconds to wait for a page; two shared cores can be slow

# Set by setUpModule.
server = None
driver = None
base = ''


class Server:
    """5d-query serve on a free port, stopped with SIGINT as Ctrl-C would."""

    def __init__(self, query, database):
        self.process = subprocess.Popen(
            [query, '--db', database, 'serve', '--port', '0'],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r' at (http://127\.0\.0\.1:\d+)/ ', line)
        if not match:
            self.process.kill()
            raise RuntimeError('5d-query serve did not say where it listens: ' + repr(line) +
                               self.process.stderr.read())
        self.url = match.group(1)

    def stop(self):
        """Sends SIGINT; the exit status (None when it did not stop within 15 s)."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


def copies_of_earlier_games(n):
    """How the pages name n copies."""
    return f'{n} copy of an earlier game' if n == 1 else f'{n} copies of earlier games'


def api(path, **params):
    """The JSON the API answers for path with params (names with '_' for '-')."""
    query = urllib.parse.urlencode(
        {name.replace('_', '-'): value for name, value in params.items() if value != ''},
        quote_via=urllib.parse.quote)
    with urllib.request.urlopen(base + path + ('?' + query if query else ''), timeout=30) as r:
        return json.loads(r.read().decode('utf-8'))


def api_error(path, **params):
    """The status and JSON error the API answers for a request it refuses."""
    try:
        api(path, **params)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read().decode('utf-8'))
    raise AssertionError(f'{path} {params} was not refused')


def fetch(url):
    """The body of url (absolute, or a path on the server) as text."""
    if url.startswith('/'):
        url = base + url
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode('utf-8')


def picture_boards():
    """The boards the page's picture shows, as "L:T:c" (5DFEN's coordinates)."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.mv-board')].map("
        "(b) => `${b.dataset.l}:${b.dataset.t}:${b.dataset.c}`)")


def setUpModule():
    global server, driver, base
    build = Path(ARGS.build).resolve()
    scratch = tempfile.TemporaryDirectory(prefix='fived-browser-')
    unittest.addModuleCleanup(scratch.cleanup)
    database = os.path.join(scratch.name, 'corpus.sqlite')
    # corpus/ holds a game with a transcription error: 5d-index records it and exits with 1.
    indexed = subprocess.run(
        [str(build / 'indexer' / '5d-index'), '--db', database, '--quiet', 'corpus/',
         'tests/browser/escaping.5dpgn'], cwd=ROOT, capture_output=True, text=True)
    if indexed.returncode not in (0, 1):
        raise RuntimeError('5d-index failed: ' + indexed.stderr)
    server = Server(str(build / 'query' / '5d-query'), database)
    base = server.url

    options = webdriver.ChromeOptions()
    options.binary_location = ARGS.chromium
    for flag in ('--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
                 '--no-first-run', '--disable-background-networking',
                 '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
                 '--window-size=1280,1000', '--hide-scrollbars', '--force-device-scale-factor=1',
                 '--user-data-dir=' + os.path.join(scratch.name, 'profile')):
        options.add_argument(flag)
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = webdriver.Chrome(service=Service(executable_path=ARGS.chromedriver), options=options)
    driver.set_page_load_timeout(TIMEOUT)


def own_server(name, arguments):
    """A database of its own for a test class, made by 5d-index from `arguments` (options and
    files, relative to the repository) in a scratch folder, and a server on it: (folder,
    server). The class stops the server and removes the folder."""
    scratch = tempfile.TemporaryDirectory(prefix=f'fived-{name}-')
    database = os.path.join(scratch.name, f'{name}.sqlite')
    build = Path(ARGS.build).resolve()
    subprocess.run([str(build / 'indexer' / '5d-index'), '--db', database, '--quiet', *arguments],
                   cwd=ROOT, check=True, capture_output=True)
    return scratch, Server(str(build / 'query' / '5d-query'), database)


def tearDownModule():
    if driver is not None:
        driver.quit()
    if server is not None:
        status = server.stop()
        # Checked here rather than in a test: the server must outlive every test.
        if status != 0:
            raise AssertionError(f'5d-query serve did not stop cleanly on SIGINT (status {status})')
        print('5d-query serve stopped on SIGINT with status 0', file=sys.stderr)


def screenshot(name):
    directory = Path(ARGS.screenshots)
    directory.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(directory / name))


class PageTest(unittest.TestCase):
    """Helpers: waiting for pages, reading them, and the browser's console."""

    def setUp(self):
        driver.set_window_size(1280, 1000)
        driver.get_log('browser')  # forget what earlier tests logged
        self.allowed_console = []  # patterns of console errors a test expects

    def tearDown(self):
        self.assertNoAlert()
        errors = [entry['message'] for entry in driver.get_log('browser')
                  if entry['level'] == 'SEVERE'
                  and not any(re.search(p, entry['message']) for p in self.allowed_console)]
        self.assertEqual(errors, [], 'the browser console has errors')

    def open(self, path):
        driver.get(base + path)
        self.wait_ready()

    def wait(self, condition, message):
        WebDriverWait(driver, TIMEOUT).until(lambda d: condition(), message)

    def wait_ready(self, expect='ready'):
        """Waits until the page has shown every answer it asked for (body[data-state])."""
        # The state judged is the one the wait saw: read again, it may already be the next load's
        # (a page that updates as the user types starts one on its own).
        seen = {}

        def settled():
            seen['state'] = driver.execute_script(
                'return document.body && document.body.dataset.state')
            return seen['state'] in ('ready', 'error')
        self.wait(settled, 'the page did not finish loading')
        state = seen['state']
        if state != expect:
            error = driver.find_element(By.ID, 'error').text
            self.fail(f'the page is {state}, not {expect}: {error}')

    def text(self, selector):
        return driver.find_element(By.CSS_SELECTOR, selector).text

    def texts(self, selector):
        return [e.text for e in driver.find_elements(By.CSS_SELECTOR, selector)]

    def params(self):
        """The parameters of the page's address."""
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(driver.current_url).query))

    def assertNoAlert(self):
        try:
            alert = driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            self.fail('an alert opened: ' + text)
        except NoAlertPresentException:
            pass

    def assertNoHorizontalScroll(self):
        widths = driver.execute_script(
            'return [document.documentElement.scrollWidth, window.innerWidth]')
        self.assertLessEqual(widths[0], widths[1], 'the page scrolls sideways')


class ExplorerTest(PageTest):
    def current_crumb(self):
        found = driver.find_elements(By.CSS_SELECTOR, '#line [aria-current="step"]')
        return found[0].text if found else ''

    def wait_line(self, crumb):
        self.wait(lambda: self.current_crumb() == crumb, f'the line does not end at {crumb!r}')
        self.wait_ready()

    def check_position(self, moves):
        """The statistics and actions shown are the tree the API answers for `moves`."""
        tree = api('/api/tree', variant='Standard', moves=moves)
        games = tree['games']
        self.assertEqual(self.text('#position .games-count'),
                         f'{games} game' + ('' if games == 1 else 's'))
        rows = driver.find_elements(By.CSS_SELECTOR, '#actions tbody tr')
        self.assertEqual([r.get_attribute('data-action') for r in rows],
                         [a['action'] for a in tree['actions']])
        self.assertEqual([r.find_element(By.CSS_SELECTOR, 'td.games').text for r in rows],
                         [str(a['games']) for a in tree['actions']])
        # The list holds the games the position counts: copies are left out of both.
        count = api('/api/find', variant='Standard', moves=moves, count='true', unique='true')
        self.assertEqual(count, games)
        if count > 0:
            self.assertIn(f'of {count}', self.text('#games .pager span'))
        return tree

    def check_picture(self, moves, arrows):
        """The picture is the position after `moves`, drawn, with `arrows` arrows: one element
        per board of the position's 5DFEN, as the SVG of /api/picture draws them too."""
        fen = api('/api/position', variant='Standard', moves=moves)['fen']
        boards = sorted(re.findall(r':([^\]:]*:\d+:[wb])\]', fen))
        self.wait(lambda: sorted(picture_boards()) == boards, 'the picture does not show ' + moves)
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, '.picture-lines path.arrow')),
                         arrows)
        picture = fetch('/api/picture?' + urllib.parse.urlencode({'moves': moves}))
        self.assertTrue(picture.startswith('<?xml'))
        self.assertEqual(picture.count('class="arrow"'), arrows)
        self.assertEqual(picture.count('class="board"'), len(boards))
        return picture

    def test_two_actions_then_back(self):
        self.open('/')
        start = self.check_position('')
        self.assertEqual(self.current_crumb(), '')
        self.check_picture('', 0)

        driver.find_element(By.CSS_SELECTOR, 'tr[data-action="(0T1)e3"] td.action a').click()
        self.wait_line('1. (0T1)e3')
        self.assertEqual(self.params().get('moves'), '1. (0T1)e3')
        after_e3 = self.check_position('1. (0T1)e3')
        self.check_picture('1. (0T1)e3', 1)

        driver.find_element(By.CSS_SELECTOR, 'tr[data-action="(0T1)f6"] td.action a').click()
        self.wait_line('1… (0T1)f6')
        self.assertEqual(self.params().get('moves'), '1. (0T1)e3 / (0T1)f6')
        after_f6 = self.check_position('1. (0T1)e3 / (0T1)f6')
        # Three club games and the escaping game played 1. e3 / f6, all then 2. Qh5.
        self.assertEqual(after_f6['games'], 4)
        self.assertEqual([a['action'] for a in after_f6['actions']], ['(0T2)Qh5'])
        picture = self.check_picture('1. (0T1)e3 / (0T1)f6', 1)
        self.assertIn('>T2 w</text>', picture)  # the present after two actions
        self.assertEqual(self.texts('.turn-label.present'), ['T2 w'])
        self.assertIn('White to move', self.text('#position-title'))
        # The games that reached the position link to their page at the action they got there.
        links = [a.get_attribute('href') for a in driver.find_elements(By.CSS_SELECTOR, '#games td a')]
        self.assertEqual(len(links), 4)
        self.assertTrue(all(re.search(r'/game/\d+\?action=2$', link) for link in links), links)
        screenshot('explorer.png')

        driver.back()
        self.wait_line('1. (0T1)e3')
        self.assertEqual(self.check_position('1. (0T1)e3'), after_e3)
        self.check_picture('1. (0T1)e3', 1)
        driver.back()
        self.wait_line('')
        self.assertEqual(self.check_position(''), start)
        driver.forward()
        self.wait_line('1. (0T1)e3')

    def test_breadcrumbs_and_shared_address(self):
        # An address names a position: opened directly it shows it, and a crumb goes back.
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3 / (0T1)f6 2. (0T2)Qh5'}))
        self.assertEqual(self.texts('#line .crumb'),
                         ['Start', '1. (0T1)e3', '1… (0T1)f6', '2. (0T2)Qh5'])
        self.check_position('1. (0T1)e3 / (0T1)f6 2. (0T2)Qh5')
        self.assertIn('Black to move', self.text('#position-title'))
        # The current crumb leads where the page is: no new entry in the history.
        entries = driver.execute_script('return history.length')
        driver.find_element(By.CSS_SELECTOR, '#line [aria-current="step"]').click()
        self.wait_ready()
        self.assertEqual(driver.execute_script('return history.length'), entries)
        driver.find_elements(By.CSS_SELECTOR, '#line .crumb')[1].click()
        self.wait_line('1. (0T1)e3')
        self.check_position('1. (0T1)e3')
        self.assertEqual(driver.execute_script('return history.length'), entries + 1)

    def test_copies_are_listed_when_asked(self):
        # The start of Standard: club game 4 (id 17) is a copy of club game 2 (id 15).
        tree = api('/api/tree', variant='Standard')
        every = api('/api/find', variant='Standard', count='true')
        copies = every - tree['games']
        self.assertGreater(copies, 0)
        self.open('/')
        self.assertIn(f"of {tree['games']}", self.text('#games .pager span'))
        self.assertEqual(self.text('#copies'),
                         f'Left out: {copies_of_earlier_games(copies)}, as the counts above leave '
                         + ('it out.' if copies == 1 else 'them out.'))
        driver.find_element(By.CSS_SELECTOR, '#filters input[name="copies"]').click()
        self.wait(lambda: self.params().get('copies') == '1', 'the choice is not in the address')
        self.wait_ready()
        self.assertIn(f'of {every}', self.text('#games .pager span'))
        self.assertEqual(self.text('#position .games-count'), f"{tree['games']} games")

    def test_filters_restrict_the_statistics(self):
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3'}))
        form = driver.find_element(By.ID, 'filters')
        form.find_element(By.NAME, 'player').send_keys('ana duarte')
        form.find_element(By.NAME, 'date-from').send_keys('2024.03')
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        self.wait(lambda: self.params().get('player') == 'ana duarte', 'the filter is not in the address')
        self.wait_ready()
        tree = api('/api/tree', variant='Standard', moves='1. (0T1)e3', player='ana duarte',
                   date_from='2024.03')
        unfiltered = api('/api/tree', variant='Standard', moves='1. (0T1)e3')
        self.assertLess(tree['games'], unfiltered['games'])
        self.assertEqual(self.text('#position .games-count'), f"{tree['games']} games")
        self.assertEqual(self.texts('#actions td.games'), [str(a['games']) for a in tree['actions']])
        self.assertEqual(self.params().get('moves'), '1. (0T1)e3')

    def test_a_wrong_line_says_what_is_wrong(self):
        self.allowed_console = [r'status of 400']
        driver.get(base + '/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3 / (0T1)Qh9'}))
        self.wait_ready(expect='error')
        self.assertIn('Qh9', self.text('#error'))
        self.assertTrue(self.text('#error').startswith('The line played, at character 14: (0T1)Qh9: '),
                        self.text('#error'))
        self.assertNotIn('--moves', self.text('#error'))
        self.assertIn('stale', driver.find_element(By.ID, 'picture').get_attribute('class'))

    def test_a_bad_date_clears_the_results(self):
        """After a date that is none, the numbers of the filters before are gone, the field is
        marked and the message names it as the page does; a good date brings them back."""
        self.allowed_console = [r'status of 400']
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3'}))
        self.assertTrue(self.texts('#actions tbody tr'))
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, '#games tbody tr'))
        form = driver.find_element(By.ID, 'filters')
        date = form.find_element(By.NAME, 'date-from')
        date.send_keys('2021.13')
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        self.wait(lambda: self.params().get('date-from') == '2021.13', 'the date is not in the address')
        self.wait_ready(expect='error')
        message = self.text('#error')
        self.assertTrue(message.startswith("From: '2021.13' is not a date"), message)
        self.assertNotIn('date-from', message)
        self.assertNotIn('--', message)
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#actions tbody tr'), [])
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#games tr'), [])
        self.assertEqual(self.text('#position'), '')
        self.assertEqual(date.get_attribute('aria-invalid'), 'true')
        self.assertEqual(driver.execute_script(
            "return getComputedStyle(arguments[0]).borderTopColor", date), 'rgb(164, 22, 26)')
        self.assertEqual([f.get_attribute('name') for f in
                          driver.find_elements(By.CSS_SELECTOR, '#filters [aria-invalid="true"]')],
                         ['date-from'])
        screenshot('explorer-bad-date.png')
        date.clear()
        date.send_keys('2024.03')
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        self.wait(lambda: self.params().get('date-from') == '2024.03', 'the date is not in the address')
        self.wait_ready()
        self.assertTrue(self.texts('#actions tbody tr'))
        self.assertIsNone(date.get_attribute('aria-invalid'))
        self.assertFalse(driver.find_element(By.ID, 'error').is_displayed())

    def test_phone_screen(self):
        driver.set_window_size(390, 844)
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3 / (0T1)f6 2. (0T2)Qh5'}))
        self.check_picture('1. (0T1)e3 / (0T1)f6 2. (0T2)Qh5', 1)
        self.assertNoHorizontalScroll()
        # "Fit all" fits the picture in its frame both ways; zooming in makes it scroll inside.
        frame = driver.find_element(By.CSS_SELECTOR, '.picture-frame')
        driver.find_element(By.CSS_SELECTOR, '.zoom button[title^="Fit the whole"]').click()
        sizes = driver.execute_script('return [arguments[0].scrollWidth, arguments[0].clientWidth,'
                                      ' arguments[0].scrollHeight, arguments[0].clientHeight]', frame)
        self.assertLessEqual(sizes[0], sizes[1])
        self.assertLessEqual(sizes[2], sizes[3])
        for _ in range(6):
            driver.find_element(By.CSS_SELECTOR, '.zoom button[title^="Zoom in"]').click()
        self.assertGreater(driver.execute_script('return arguments[0].scrollWidth', frame),
                           frame.size['width'])
        self.assertNoHorizontalScroll()
        screenshot('explorer-phone.png')


class SearchTest(PageTest):
    def row_ids(self):
        return [int(r.get_attribute('data-id'))
                for r in driver.find_elements(By.CSS_SELECTOR, '#results tbody tr')]

    def test_hide_copies(self):
        copies = [g for g in api('/api/find', limit=500) if g['duplicate_of'] and g['white']
                  and g['black']]
        if not copies:
            self.skipTest('the database has no copy with both players')
        copy = copies[0]
        original = copy['duplicate_of']
        players = {'white': copy['white'], 'black': copy['black']}
        # "hide copies" is the default: the copy is not listed, its original is.
        self.open('/search?' + urllib.parse.urlencode(players))
        hide = driver.find_element(By.CSS_SELECTOR, '#search input[name="copies"]')
        self.assertTrue(hide.is_selected())
        self.assertEqual(hide.find_element(By.XPATH, '..').text.strip(), 'hide copies')
        self.assertNotIn(copy['id'], self.row_ids())
        self.assertIn(original, self.row_ids())
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#results tr.copy'), [])
        # Shown, each copy says which game it copies and links to it, the original does not.
        hide.click()
        self.wait(lambda: self.params().get('copies') == '1', 'the choice is not in the address')
        self.wait_ready()
        driver.refresh()  # the choice survives a reload
        self.wait_ready()
        self.assertFalse(
            driver.find_element(By.CSS_SELECTOR, '#search input[name="copies"]').is_selected())
        listed = api('/api/find', limit=50, sort='-date', **players)
        self.assertEqual(self.row_ids(), [g['id'] for g in listed])
        for game in listed:
            row = driver.find_element(By.CSS_SELECTOR, f'#results tr[data-id="{game["id"]}"]')
            labels = row.find_elements(By.CSS_SELECTOR, '.copy-of')
            if game['duplicate_of'] is None:
                self.assertEqual(labels, [])
                self.assertNotIn('copy', row.get_attribute('class') or '')
                continue
            self.assertEqual(row.get_attribute('data-copy-of'), str(game['duplicate_of']))
            self.assertEqual(labels[0].text, f'copy of game {game["duplicate_of"]}')
            link = labels[0].find_element(By.TAG_NAME, 'a')
            self.assertEqual(urllib.parse.urlsplit(link.get_attribute('href')).path,
                             f'/game/{game["duplicate_of"]}')
        self.assertIn(copy['id'], self.row_ids())
        # Hidden again, the address drops the choice and the copies go.
        driver.find_element(By.CSS_SELECTOR, '#search input[name="copies"]').click()
        self.wait(lambda: 'copies' not in self.params(), 'the choice stays in the address')
        self.wait_ready()
        self.assertNotIn(copy['id'], self.row_ids())
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#results tr.copy'), [])

    def test_search_sort_and_open_a_game(self):
        self.open('/search')
        # Copies are left out, as statistics leave them out, and said; unticking "hide copies"
        # lists them.
        total = api('/api/find', count='true', unique='true')
        every = api('/api/find', count='true')
        self.assertEqual(total, api('/api/stats')['games'])
        self.assertEqual(self.text('#results h2'), f'{total} games in the database')
        self.assertEqual(self.text('#results .copies'),
                         f'Left out: {copies_of_earlier_games(every - total)}.')
        driver.find_element(By.CSS_SELECTOR, '#search input[name="copies"]').click()
        self.wait(lambda: self.params().get('copies') == '1', 'the choice is not in the address')
        self.wait_ready()
        self.assertEqual(self.text('#results h2'), f'{every} games in the database')
        copies = every - total
        self.assertEqual(self.text('#results .copies'),
                         '1 of them is a copy of an earlier game.' if copies == 1 else
                         f'{copies} of them are copies of earlier games.')
        driver.find_element(By.CSS_SELECTOR, '#search input[name="copies"]').click()
        self.wait(lambda: 'copies' not in self.params(), 'the choice stays in the address')
        self.wait_ready()
        form = driver.find_element(By.ID, 'search')
        form.find_element(By.NAME, 'player').send_keys('Ana Duarte')
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        self.wait(lambda: self.params().get('player') == 'Ana Duarte', 'the search is not in the address')
        self.wait_ready()
        found = api('/api/find', player='Ana Duarte', sort='-date', limit=50, unique='true')
        self.assertEqual(self.text('#results h2'), f'{len(found)} games found')
        self.assertEqual(self.row_ids(), [g['id'] for g in found])

        driver.find_element(By.CSS_SELECTOR, 'button.sort[data-field="actions"]').click()
        self.wait(lambda: self.params().get('sort') == 'actions', 'the order is not in the address')
        self.wait_ready()
        self.assertEqual(self.row_ids(),
                         [g['id'] for g in api('/api/find', player='Ana Duarte', sort='actions',
                                               unique='true')])
        driver.find_element(By.CSS_SELECTOR, 'button.sort[data-field="actions"]').click()
        self.wait(lambda: self.params().get('sort') == '-actions', 'the order did not turn')
        self.wait_ready()
        by_length = api('/api/find', player='Ana Duarte', sort='-actions', unique='true')
        self.assertEqual(self.row_ids(), [g['id'] for g in by_length])
        screenshot('search.png')

        driver.back()
        self.wait(lambda: self.params().get('sort') == 'actions', 'back did not restore the order')
        self.wait_ready()
        driver.forward()
        self.wait(lambda: self.params().get('sort') == '-actions', 'forward did not')
        self.wait_ready()
        first = by_length[0]
        driver.find_element(By.CSS_SELECTOR, f'#results tr[data-id="{first["id"]}"] a').click()
        self.wait(lambda: urllib.parse.urlsplit(driver.current_url).path == f'/game/{first["id"]}',
                  'the row did not open its game')
        self.wait_ready()
        self.assertEqual(self.text('#title .white-player'), first['white'])

    def test_bad_moves_mark_the_field(self):
        self.allowed_console = [r'status of 400']
        self.open('/search')
        form = driver.find_element(By.ID, 'search')
        form.find_element(By.NAME, 'moves').send_keys('1. e3 / f6 2. Qh9')
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        self.wait(lambda: self.params().get('moves') == '1. e3 / f6 2. Qh9', 'the moves are not in the address')
        self.wait_ready(expect='error')
        self.assertTrue(self.text('#error').startswith('Moves, at character 15: Qh9: '), self.text('#error'))
        self.assertEqual(form.find_element(By.NAME, 'moves').get_attribute('aria-invalid'), 'true')
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#results tr'), [])

    def test_search_by_position_and_header(self):
        self.open('/search?' + urllib.parse.urlencode(
            {'moves': '1. e3 / e6 2. Nf3 / Nf6', 'header': 'Event=Club night*'}))
        found = api('/api/find', moves='1. e3 / e6 2. Nf3 / Nf6', header='Event=Club night*',
                    sort='-date', unique='true')
        self.assertEqual(self.row_ids(), [g['id'] for g in found])
        self.assertEqual(self.texts('#results tbody td:last-child'), [str(g['action']) for g in found])
        self.assertEqual(driver.find_element(By.NAME, 'header').get_attribute('value'),
                         'Event=Club night*')


def squares_of(pieces):
    """A 5DFEN board's pieces (or a pattern) as {square name: token}, ranks from the top."""
    ranks = pieces.split('/')
    squares = {}
    for row, rank in enumerate(ranks):
        tokens = re.findall(r'\d+|\[[^\]]*\]|[A-Za-z]\*?|[?!]', rank)
        file = 0
        for token in tokens:
            if token.isdigit():
                for _ in range(int(token)):
                    squares['abcdefghijklmnop'[file] + str(len(ranks) - row)] = '.'
                    file += 1
            else:
                squares['abcdefghijklmnop'[file] + str(len(ranks) - row)] = token
                file += 1
    return squares


def pattern_of(squares, files=8, ranks=8):
    """The pattern text the board editor writes: '?' where `squares` says nothing, runs of
    empty squares as numbers."""
    rows = []
    for rank in range(ranks, 0, -1):
        text, empties = '', 0
        for file in 'abcdefghijklmnop'[:files]:
            token = squares.get(f'{file}{rank}', '?')
            if token == '.':
                empties += 1
                continue
            if empties:
                text += str(empties)
            empties = 0
            text += token
        rows.append(text + (str(empties) if empties else ''))
    return '/'.join(rows)


class BoardSearchTest(PageTest):
    """The board editor (/patterns): boards drawn by clicking and typing, the search, and each
    game found opened at the board it matched."""

    def board(self, index=0):
        return driver.find_element(By.CSS_SELECTOR, f'.board-editor[data-board="{index}"]')

    def square(self, name, index=0):
        return self.board(index).find_element(By.CSS_SELECTOR, f'button.square[data-square="{name}"]')

    def token(self, name, index=0):
        return self.square(name, index).get_attribute('data-token')

    def pattern_text(self, index=0):
        return self.board(index).find_element(By.CSS_SELECTOR, '.pattern-text').get_attribute('value')

    def choose(self, token):
        button = driver.find_element(By.CSS_SELECTOR, f'#palette button[data-token="{token}"]')
        button.click()
        self.assertEqual(button.get_attribute('aria-pressed'), 'true')

    def type_pattern(self, text, index=0):
        field = self.board(index).find_element(By.CSS_SELECTOR, '.pattern-text')
        field.send_keys(Keys.CONTROL, 'a')
        field.send_keys(Keys.DELETE)
        field.send_keys(text)

    def picture_alt(self):
        """The game page's picture, drawn, as its text for people."""
        frame = driver.find_element(By.CSS_SELECTOR, '.picture-frame')
        self.wait(lambda: picture_boards(), 'the picture was not drawn')
        return frame.get_attribute('aria-label')

    def last_game_request(self):
        """The parameters of the /api/game/ID request the page asked for the action it shows
        (its picture is that answer's); the neighbours it fetches ahead come after it."""
        urls = driver.execute_script(
            "return performance.getEntriesByType('resource').map((e) => e.name)"
            ".filter((u) => u.includes('/api/game/'))")
        shown = driver.execute_script("return document.getElementById('at').dataset.action")
        asked = [urllib.parse.parse_qs(urllib.parse.urlsplit(url).query) for url in urls]
        return [params for params in asked if params.get('action') == [shown]][-1]

    def test_draw_search_and_open_a_game(self):
        # A real board: game 14 after 8 actions, on timeline +1 (the pieces drawn below are there).
        game = api('/api/game/14', action=8)
        boards = {m.group(2): m.group(1)
                  for m in re.finditer(r'\[([^\]:]*):([^\]]*)\]', game['position']['fen'])}
        board = squares_of(boards['+1:4:w'])
        drawn = {'h5': 'Q', 'e5': 'p', 'g3': 'N', 'e4': '.', 'e1': 'K*'}
        for name, token in drawn.items():
            self.assertEqual(board[name], token, name)

        self.open('/patterns')
        self.assertEqual(self.pattern_text(), '/'.join(['????????'] * 8))  # a start of '?'
        self.assertEqual(len(self.board().find_elements(By.CSS_SELECTOR, 'button.square')), 64)
        for name, token in [('h5', 'Q'), ('e5', 'p'), ('g3', 'N'), ('e4', '.')]:
            self.choose(token)
            self.square(name).click()
            self.assertEqual(self.token(name), token)
        driver.find_element(By.CSS_SELECTOR, '#palette input[name="unmoved"]').click()
        self.choose('K')
        self.square('e1').click()
        driver.find_element(By.CSS_SELECTOR, '#palette input[name="unmoved"]').click()
        pattern = pattern_of(drawn)
        self.assertEqual(pattern, '????????/????????/????????/????p??Q/????1???/??????N?/????????/????K*???')
        self.assertEqual(self.pattern_text(), pattern)
        # A right-click clears a square back to '?'; the text follows.
        self.choose('B')
        self.square('a8').click()
        self.assertEqual(self.pattern_text(), 'B' + pattern[1:])
        ActionChains(driver).context_click(self.square('a8')).perform()
        self.assertEqual(self.token('a8'), '?')
        self.assertEqual(self.pattern_text(), pattern)
        self.wait_ready()
        screenshot('patterns.png')

        driver.find_element(By.CSS_SELECTOR, '#patterns button[type="submit"]').click()
        self.wait(lambda: self.params().get('pattern') == pattern, 'the search is not in the address')
        self.wait_ready()
        # Copies left out, as on the search page; the count is the API's for the same pattern.
        total = api('/api/find', pattern=pattern, count='true', unique='true')
        self.assertGreater(total, 0)
        self.assertEqual(self.text('#results h2'), f'{total} game' + ('' if total == 1 else 's') + ' found')
        found = api('/api/find', pattern=pattern, sort='-date', limit=50, unique='true')
        rows = driver.find_elements(By.CSS_SELECTOR, '#results tbody tr')
        self.assertEqual([int(r.get_attribute('data-id')) for r in rows], [g['id'] for g in found])
        self.assertIn(14, [g['id'] for g in found])
        self.assertEqual([r.find_elements(By.TAG_NAME, 'td')[-2].text for r in rows],
                         [str(g['action']) for g in found])
        self.assertEqual([r.find_elements(By.TAG_NAME, 'td')[-1].text for r in rows],
                         [', '.join(b.replace(':', ' T', 1).replace(':', ' ') for b in g['boards'])
                          for g in found])
        screenshot('patterns-results.png')

        first = found[0]
        link = rows[0].find_element(By.CSS_SELECTOR, 'a')
        self.assertEqual(urllib.parse.parse_qs(urllib.parse.urlsplit(link.get_attribute('href')).query),
                         {'action': [str(first['action'])], 'mark': first['boards']})
        link.click()
        self.wait(lambda: urllib.parse.urlsplit(driver.current_url).path == f"/game/{first['id']}",
                  'the row did not open its game')
        self.wait_ready()
        # At the reported action, with the matched board outlined in the picture.
        self.assertEqual(driver.execute_script("return document.getElementById('at').dataset.action"),
                         str(first['action']))
        mark = first['boards'][0]
        self.assertEqual(self.text('#marks'),
                         'Outlined in red: ' + mark.replace(':', ' T', 1).replace(':', ' ') + '.')
        name = mark.replace(':', ' T', 1).replace(':', ' ')
        self.assertEqual(self.picture_alt(),
                         f"The multiverse after action {first['action']}, with {name} outlined")
        self.assertEqual(self.last_game_request(), {'action': [str(first['action'])], 'mark': [mark]})
        picture = api(f"/api/game/{first['id']}", action=first['action'], mark=mark)
        self.assertEqual(len(picture['position']['picture']['marks']), 1)
        self.assertEqual(driver.execute_script(
            "return [...document.querySelectorAll('.mv-board.marked')].map("
            "(b) => `${b.dataset.l}:${b.dataset.t}:${b.dataset.c}`)"), [mark])
        screenshot('game-marked.png')
        # Stepping keeps the board marked while it is there.
        driver.find_element(By.TAG_NAME, 'body').send_keys(Keys.HOME)
        self.wait(lambda: driver.execute_script(
            "return document.getElementById('at').dataset.action") == '0', 'Home did not go to the start')
        self.wait_ready()
        self.assertEqual(urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)['mark'],
                         [mark])
        self.assertIn('Not yet on the boards after action 0', self.text('#marks'))
        self.assertEqual(self.picture_alt(), 'The multiverse after action 0')
        self.assertEqual(self.last_game_request(), {'action': ['0'], 'mark': [mark]})

    def test_keyboard(self):
        self.open('/patterns')
        # Tab reaches the board at its first square; the arrows move, a letter puts its piece.
        self.board().find_element(By.CSS_SELECTOR, '.pattern-text').click()
        self.square('a8').click()  # a click puts the palette's pawn, and focuses the square
        self.assertEqual(self.token('a8'), 'P')
        focused = lambda: driver.switch_to.active_element.get_attribute('data-square')
        self.assertEqual(focused(), 'a8')
        active = driver.switch_to.active_element
        active.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_RIGHT)
        self.assertEqual(focused(), 'b6')
        driver.switch_to.active_element.send_keys('q')
        self.assertEqual(self.token('b6'), 'q')
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, '#palette button[aria-pressed="true"]')
                         .get_attribute('data-token'), 'q')
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, Keys.ENTER)
        self.assertEqual(self.token('c6'), 'q')
        driver.switch_to.active_element.send_keys(Keys.DELETE)
        self.assertEqual(self.token('c6'), '?')
        # A "one of" set, and '*' marking a king unmoved.
        driver.find_element(By.CSS_SELECTOR, '#palette input[name="mode"][value="one-of"]').click()
        self.choose('R')
        self.square('d4').click()
        self.choose('Q')
        self.square('d4').click()
        self.assertEqual(self.token('d4'), '[RQ]')
        driver.find_element(By.CSS_SELECTOR, '#palette input[name="mode"][value="none-of"]').click()
        self.choose('.')
        self.square('e4').click()
        self.assertEqual(self.token('e4'), '[^.]')
        driver.find_element(By.CSS_SELECTOR, '#palette input[name="mode"][value="put"]').click()
        self.choose('k')
        self.square('e8').click()
        driver.switch_to.active_element.send_keys('*')
        self.assertEqual(self.token('e8'), 'k*')
        self.assertEqual(self.pattern_text(), 'P???k*???/????????/?q??????/????????/???[RQ][^.]???/'
                         '????????/????????/????????')
        self.wait_ready()
        self.assertEqual(api('/api/pattern', pattern=self.pattern_text())[0]['width'], 8)
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, '.pattern-error:not([hidden])')), 0)

    def test_typed_pattern_and_errors(self):
        self.allowed_console = [r'status of 400']
        self.open('/patterns')
        # Typed text that reads becomes the board.
        self.type_pattern('4k*3/8/8/8/8/8/8/[QR]3K*3:+1:*:w')
        self.wait(lambda: self.token('e8') == 'k*', 'the typed pattern did not reach the board')
        self.wait_ready()
        self.assertEqual(self.token('a1'), '[QR]')
        self.assertEqual(self.token('b1'), '.')
        self.assertEqual(self.token('e1'), 'K*')
        self.assertEqual(self.board().find_element(By.CSS_SELECTOR, 'input[data-pin="timeline"]')
                         .get_attribute('value'), '+1')
        self.assertEqual(self.board().find_element(By.CSS_SELECTOR, 'select[data-pin="colour"]')
                         .get_attribute('value'), 'w')
        # Text that does not read: the server's reason, with the column marked, for people.
        self.type_pattern('8/8/8/8/8/8/8/7X')
        error = lambda: self.board().find_element(By.CSS_SELECTOR, '.pattern-error')
        self.wait(lambda: error().is_displayed(), 'the error is not shown')
        status, answer = api_error('/api/pattern', pattern='8/8/8/8/8/8/8/7X')
        self.assertEqual((status, answer['column'], answer['reason']),
                         (400, 16, "unknown piece letter or token 'X'"))
        self.assertEqual(error().text,
                         "unknown piece letter or token 'X' (column 16): 8/8/8/8/8/8/8/7X")
        self.assertEqual(error().find_element(By.TAG_NAME, 'mark').text, 'X')
        self.assertEqual(self.token('e8'), 'k*')  # the board keeps what last read
        screenshot('patterns-error.png')
        driver.find_element(By.CSS_SELECTOR, '#patterns button[type="submit"]').click()
        self.wait_ready(expect='error')
        self.assertEqual(self.text('#error'), "Board 1: unknown piece letter or token 'X' (column 16).")
        self.assertNotIn('pattern', urllib.parse.urlsplit(driver.current_url).query)
        # A pattern the address brings is read by the search: its error names the board too.
        driver.get(base + '/patterns?' + urllib.parse.urlencode(
            [('pattern', '8/8/8/8/8/8/8/8'), ('pattern', '8/8/8/8/8/8/8/7')]))
        self.wait_ready(expect='error')
        self.assertEqual(self.text('#error'),
                         'Board 2: rank 8 from the top has 7 squares, the first has 8 (column 15).')
        self.assertIn('rank 8 from the top', self.board(1).find_element(By.CSS_SELECTOR, '.pattern-error').text)
        self.assertNotIn('--', self.text('#error'))

    def test_phone_screen(self):
        driver.set_window_size(390, 844)
        self.open('/patterns')
        self.assertNoHorizontalScroll()
        grid = self.board().find_element(By.CSS_SELECTOR, '.board-grid')
        width = driver.execute_script('return document.documentElement.clientWidth')
        self.assertLessEqual(grid.size['width'], width)
        square = self.square('e4')
        self.assertAlmostEqual(square.size['width'], square.size['height'], delta=1)
        self.assertGreaterEqual(square.size['width'], 30)  # big enough for a finger
        self.choose('n')
        square.click()
        self.assertEqual(self.token('e4'), 'n')
        driver.find_element(By.ID, 'add-board').click()
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, '.board-editor')), 2)
        self.assertNoHorizontalScroll()
        self.wait_ready()
        screenshot('patterns-phone.png')

    def test_boards_of_a_game_and_of_the_explorer(self):
        # The game page: a board of the position, marked when chosen, searched for in the editor.
        game = api('/api/game/14', action=8)
        self.open('/game/14?action=8')
        select = driver.find_element(By.CSS_SELECTOR, '#board-search select')
        options = [o.get_attribute('value') for o in select.find_elements(By.TAG_NAME, 'option')]
        fen_boards = re.findall(r':([^\]:]*:\d+:[wb])\]', game['position']['fen'])
        self.assertEqual(sorted(options), sorted(fen_boards))
        Select(select).select_by_value('0:3:b')
        self.wait(lambda: urllib.parse.parse_qs(urllib.parse.urlsplit(driver.current_url).query)
                  .get('mark') == ['0:3:b'], 'the chosen board is not marked')
        self.wait_ready()
        self.assertEqual(self.text('#marks'), 'Outlined in red: 0 T3 b.')
        link = driver.find_element(By.CSS_SELECTOR, '#board-search a').get_attribute('href')
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
        pieces = re.search(r'\[([^\]:]*):0:3:b\]', game['position']['fen']).group(1)
        self.assertEqual(query['from'], [pieces])
        self.assertEqual(query['variant'], ['Standard'])
        driver.get(link)
        self.wait_ready()
        self.assertEqual(self.text('#from-note'),
                         'From the position shown: game 14 after action 8, board 0 T3 b.')
        tokens = {name: self.token(name) for name in squares_of(pieces)}
        self.assertEqual(tokens, squares_of(pieces))
        self.type_pattern('8/8/8/8/8/8/8/8')
        self.wait(lambda: self.token('a1') == '.', 'the typed pattern did not reach the board')
        self.board().find_element(By.CSS_SELECTOR, 'button[data-action="from"]').click()
        self.assertEqual(self.token('e1'), squares_of(pieces)['e1'])
        self.board().find_element(By.CSS_SELECTOR, 'button[data-action="start"]').click()
        self.assertEqual(self.pattern_text(), 'r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/8/P*P*P*P*P*P*P*P*/R*NBQK*BNR*')
        self.wait_ready()
        # The explorer: the boards after the line played.
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3'}))
        link = driver.find_element(By.CSS_SELECTOR, '#board-search a').get_attribute('href')
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)
        self.assertEqual(query['from'], ['r*nbqk*bnr*/p*p*p*p*p*p*p*p*/8/8/8/4P3/P*P*P*P*1P*P*P*/R*NBQK*BNR*'])
        self.assertEqual(query['from-label'], ['Standard, after 1. (0T1)e3, board 0 T1 b'])


class GameTest(PageTest):
    def at(self):
        return driver.execute_script("return document.getElementById('at').dataset.action")

    def press(self, key, action):
        driver.find_element(By.TAG_NAME, 'body').send_keys(key)
        self.wait(lambda: self.at() == str(action), f'the game is not at action {action}')
        self.wait_ready()
        self.assertEqual(self.params().get('action'), str(action))
        current = [li.get_attribute('data-action')
                   for li in driver.find_elements(By.CSS_SELECTOR, '#moves li.current')]
        self.assertEqual(current, [str(action)] if action > 0 else [])
        self.wait(lambda: picture_boards(), 'the picture was not drawn')

    def test_step_with_the_arrow_keys(self):
        game = api('/api/game/14')
        self.open('/game/14')
        self.assertEqual(self.text('#at'), f"action {game['actions']} of {game['actions']}")
        self.assertEqual(self.text('#title .white-player'), 'Ana Duarte')
        self.assertEqual(self.texts('#moves li a'), [' '.join(m) for m in game['moves']])
        first_picture = picture_boards()

        self.press(Keys.ARROW_LEFT, 11)
        self.assertNotEqual(picture_boards(), first_picture)
        at_11 = api('/api/game/14', action=11)
        self.assertEqual(self.text('#last-moves'),
                         '6. ' + ' '.join(at_11['position']['last_moves']) + ' · black to move')
        self.press(Keys.ARROW_LEFT, 10)
        self.press(Keys.ARROW_RIGHT, 11)
        self.press(Keys.HOME, 0)
        self.assertTrue(self.text('#last-moves').startswith('The start'))
        self.press(Keys.ARROW_LEFT, 0)  # nothing before the start
        self.press(Keys.ARROW_RIGHT, 1)
        self.press(Keys.END, 12)
        driver.find_element(By.ID, 'previous').click()
        self.wait(lambda: self.at() == '11', 'the previous button did not step back')
        self.wait_ready()
        driver.find_element(By.CSS_SELECTOR, '#moves li[data-action="9"] a').click()
        self.wait(lambda: self.at() == '9', 'a move of the list did not select its action')
        self.wait_ready()
        screenshot('game.png')

        download = driver.find_element(By.ID, 'download')
        self.assertTrue(download.get_attribute('href').endswith('/api/game/14.5dpgn'))
        self.assertTrue(fetch(download.get_attribute('href')).startswith('[Event "Club night"]'))
        # The explorer link opens the line of the first 9 actions.
        line = [' '.join(moves) for moves in game['moves'][:9]]
        expected = ' '.join(f'{i // 2 + 1}. {a}' if i % 2 == 0 else f'/ {a}' for i, a in enumerate(line))
        explore = driver.find_element(By.ID, 'explore').get_attribute('href')
        self.assertEqual(urllib.parse.parse_qs(urllib.parse.urlsplit(explore).query)['moves'][0],
                         expected)

    def test_moves_as_vmn(self):
        """The VMN view shows the game as `show --format vmn` writes it (/api/game/ID.vmn), the
        row of the turn the action on screen was played in highlighted as the game steps."""
        vmn = fetch('/api/game/14.vmn')
        self.assertTrue(vmn.startswith(' L[+1 '), vmn)
        self.open('/game/14?action=3')  # 2. Qh5+
        driver.find_element(By.ID, 'view-vmn').click()
        self.wait(lambda: self.texts('#vmn .vmn-row'), 'the matrix did not show')
        self.wait_ready()
        self.assertEqual(driver.find_element(By.ID, 'view-vmn').get_attribute('aria-pressed'), 'true')
        self.assertFalse(driver.find_element(By.ID, 'moves').is_displayed())
        self.assertEqual(driver.find_element(By.ID, 'vmn').get_attribute('textContent'), vmn)
        current = lambda: [row.get_attribute('data-turn')
                           for row in driver.find_elements(By.CSS_SELECTOR, '#vmn .vmn-row.current')]
        self.assertEqual(current(), ['2'])
        self.press(Keys.ARROW_RIGHT, 4)  # 2... g6
        self.assertEqual(current(), ['2'])
        self.press(Keys.ARROW_RIGHT, 5)  # 3. Qxg6+
        self.assertEqual(current(), ['3'])
        self.press(Keys.HOME, 0)
        self.assertEqual(current(), [])
        driver.find_element(By.ID, 'view-list').click()
        self.assertTrue(driver.find_element(By.ID, 'moves').is_displayed())
        self.assertFalse(driver.find_element(By.ID, 'vmn').is_displayed())

    def test_actions_the_game_does_not_have_go_to_the_nearest(self):
        """An address asking for an action past the end opens the end (as /game/200?action=500
        would), one below zero the start, one that is no number the end; the address then says
        the action shown, and nothing says 'NaN'."""
        self.allowed_console = [r'status of 400']
        actions = api('/api/game/14')['actions']
        for asked, shown in (('500', actions), ('-3', 0), ('abc', actions), (str(actions), actions)):
            self.open('/game/14?action=' + urllib.parse.quote(asked))
            self.assertEqual(self.at(), str(shown), asked)
            self.assertEqual(self.params().get('action'), str(shown), asked)
            self.assertFalse(driver.find_element(By.ID, 'error').is_displayed(), asked)
            self.wait(lambda: picture_boards(), 'the picture was not drawn')
            self.assertEqual(self.text('#at'), f'action {shown} of {actions}')
            self.assertNotIn('NaN', driver.find_element(By.TAG_NAME, 'body').text)
        self.press(Keys.ARROW_LEFT, actions - 1)

    def test_unknown_address(self):
        self.allowed_console = [r'status of 404']
        driver.get(base + '/gmae/14')
        self.assertEqual(self.text('h1'), 'No such page')
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, 'main a[href="/search"]'))

    def test_unknown_game(self):
        self.allowed_console = [r'status of 404']
        driver.get(base + '/game/999')
        self.wait_ready(expect='error')
        self.assertEqual(self.text('#error'), 'no game 999')


class PictureTest(PageTest):
    """Pictures of tests/browser/pictures.5dpgn (its own database and server): a one-timeline
    game of 80 actions, a 40-timeline game, a 5x5 and a 16x16 custom game, at a laptop's and a
    phone's size. Each board is one element; a board of the present is in view at a readable
    size when a game opens and after stepping back 10 actions; every timeline created has its
    branch line; quick key presses are all counted; a pinch on a phone zooms about its centre."""

    SIZES = [((1400, 1000), 160), ((390, 844), 120)]  # window, least width of an 8x8 board

    @classmethod
    def setUpClass(cls):
        cls.scratch, cls.server = own_server('pictures', ['tests/browser/pictures.5dpgn'])
        cls.games = {}
        with urllib.request.urlopen(cls.server.url + '/api/find?limit=10', timeout=30) as r:
            for game in json.loads(r.read().decode('utf-8')):
                cls.games[game['id']] = game

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.scratch.cleanup()

    def game(self, id, action=None):
        query = f'?action={action}' if action is not None else ''
        with urllib.request.urlopen(f'{self.server.url}/api/game/{id}{query}', timeout=30) as r:
            return json.loads(r.read().decode('utf-8'))

    def at(self):
        return driver.execute_script("return document.getElementById('at').dataset.action")

    def check_view(self, id, least_width):
        """The picture shows the game's position on screen: one element per board, a branch
        line per timeline created, a board of the present in the frame and big enough."""
        answer = self.game(id, int(self.at()))
        fen_boards = sorted(re.findall(r':([^\]:]*:\d+:[wb])\]', answer['position']['fen']))
        self.wait(lambda: sorted(picture_boards()) == fen_boards, 'the boards are not the position\'s')
        rows = answer['position']['picture']['rows']
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, '.picture-lines path.branch')),
                         len(rows) - 1)  # every game here starts with one timeline
        picture = answer['position']['picture']
        present = picture['columns'][picture['present']]
        files = len(answer['position']['picture']['boards'][0][2].split('/')[0])
        in_view = driver.execute_script("""
            const frame = document.querySelector('.picture-frame').getBoundingClientRect();
            const inside = (r) => r.left >= frame.left + 44 - 1 && r.right <= frame.right + 1 &&
                r.top >= frame.top + 24 - 1 && r.bottom <= frame.bottom + 1;
            return [...document.querySelectorAll(
                `.mv-board[data-t="${arguments[0]}"][data-c="${arguments[1]}"]`)]
                .map((b) => b.getBoundingClientRect()).filter(inside).map((r) => r.width);""",
                                        present['t'], present['c'])
        self.assertTrue(in_view, f'no board of the present (T{present["t"]} {present["c"]}) in view')
        self.assertGreaterEqual(max(in_view), least_width * min(files, 8) / 8 - 0.5)
        # The labels stay at the frame's edges: the present's turn label shows.
        self.assertIn(f'T{present["t"]} {present["c"]}', self.texts('.turn-label.present'))

    def test_pictures_open_on_the_present_and_step_back(self):
        self.assertEqual(len(self.games), 4)
        for (width, height), least in self.SIZES:
            driver.set_window_size(width, height)
            for id, game in sorted(self.games.items()):
                with self.subTest(size=(width, height), game=id):
                    driver.get(f'{self.server.url}/game/{id}')
                    self.wait_ready()
                    self.check_view(id, least)
                    end = game['actions']
                    body = driver.find_element(By.TAG_NAME, 'body')
                    for _ in range(10):
                        body.send_keys(Keys.ARROW_LEFT)
                    self.wait(lambda: self.at() == str(max(0, end - 10)), 'not 10 actions back')
                    self.wait_ready()
                    self.check_view(id, least)
                    self.assertNoHorizontalScroll()
                    if game['timelines'] == 40:  # docs/picture-laptop.png, picture-phone.png
                        # As a person would scroll to it on a phone, under the moves played.
                        driver.execute_script(
                            "document.querySelector('.stepper').scrollIntoView()")
                        screenshot('picture-laptop.png' if width > 700 else 'picture-phone.png')

    def test_quick_key_presses_are_all_counted(self):
        one = next(id for id, game in self.games.items() if game['actions'] == 80)
        driver.get(f'{self.server.url}/game/{one}?action=0')
        self.wait_ready()
        body = driver.find_element(By.TAG_NAME, 'body')
        ActionChains(driver).send_keys_to_element(body, *([Keys.ARROW_RIGHT] * 10)).perform()
        self.wait(lambda: self.at() == '10', 'ten presses did not land on action 10')
        self.wait_ready()
        self.assertEqual(self.params().get('action'), '10')

    def test_zoom_and_fit_all(self):
        driver.set_window_size(1400, 1000)
        many = next(id for id, game in self.games.items() if game['timelines'] == 40)
        driver.get(f'{self.server.url}/game/{many}')
        self.wait_ready()
        # Ctrl + wheel (and a touchpad's pinch, which browsers send so) zooms about the pointer:
        # the board under it stays under it, at the same place within the board (where the
        # picture is larger than its frame, as it opens, so that it can scroll both ways).
        under = driver.execute_script("""
            const frame = document.querySelector('.picture-frame').getBoundingClientRect();
            const seen = [...document.querySelectorAll('.mv-board')].map((b) => b.getBoundingClientRect())
                .find((r) => r.left > frame.left + 60 && r.right < frame.right - 20 &&
                             r.top > frame.top + 40 && r.bottom < frame.bottom - 20);
            const x = seen.left + seen.width * 0.3, y = seen.top + seen.height * 0.4;
            const at = () => {
              const board = document.elementFromPoint(x, y).closest('.mv-board');
              if (!board) return null;
              const r = board.getBoundingClientRect();
              return [board.dataset.l, board.dataset.t, board.dataset.c,
                      (x - r.left) / r.width, (y - r.top) / r.height, r.width];
            };
            const before = at();
            document.querySelector('.picture-frame').dispatchEvent(new WheelEvent('wheel',
                {deltaY: -150, ctrlKey: true, clientX: x, clientY: y, bubbles: true, cancelable: true}));
            return [before, at()];""")
        before, after = under
        self.assertIsNotNone(before, 'no board under the pointer')
        self.assertEqual(before[:3], after[:3])
        self.assertAlmostEqual(before[3], after[3], delta=0.02)
        self.assertAlmostEqual(before[4], after[4], delta=0.02)
        self.assertGreater(after[5], before[5] * 1.5)
        frame = driver.find_element(By.CSS_SELECTOR, '.picture-frame')
        width = lambda: driver.execute_script(
            "return document.querySelector('.mv-board').getBoundingClientRect().width")
        before = width()
        driver.find_element(By.CSS_SELECTOR, '.zoom button[title^="Zoom in"]').click()
        self.assertAlmostEqual(width(), before * 1.25, delta=1)
        driver.find_element(By.CSS_SELECTOR, '.zoom button[title^="Fit the whole"]').click()
        sizes = driver.execute_script('return [arguments[0].scrollWidth, arguments[0].clientWidth,'
                                      ' arguments[0].scrollHeight, arguments[0].clientHeight]', frame)
        self.assertLessEqual(sizes[0], sizes[1])
        self.assertLessEqual(sizes[2], sizes[3])

    def board_under(self, x, y):
        """The board at the page's point (x, y) and where the point is on it: [l, t, c, the
        fraction of its width and of its height, its width], or None."""
        return driver.execute_script("""
            const [x, y] = arguments;
            const board = document.elementFromPoint(x, y).closest('.mv-board');
            if (!board) return null;
            const r = board.getBoundingClientRect();
            return [board.dataset.l, board.dataset.t, board.dataset.c,
                    (x - r.left) / r.width, (y - r.top) / r.height, r.width];""", x, y)

    def test_pinch_zooms_about_its_centre(self):
        # Two fingers on a phone's touch screen (Chromium's touch events, 3 device pixels a CSS
        # pixel), moving apart on either side of a point from 60 to 120 pixels in ten steps: the
        # board under that point stays under it, at the same place within the board (the
        # browser's rounding of each step's scroll position must not add up), and grows as the
        # fingers' distance, twice.
        driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {
            'width': 390, 'height': 844, 'deviceScaleFactor': 3, 'mobile': True})
        self.addCleanup(driver.execute_cdp_cmd, 'Emulation.clearDeviceMetricsOverride', {})
        many = next(id for id, game in self.games.items() if game['timelines'] == 40)
        driver.get(f'{self.server.url}/game/{many}')
        self.wait_ready()
        driver.execute_script("document.querySelector('.picture-frame').scrollIntoView()")
        x, y = driver.execute_script("""
            const frame = document.querySelector('.picture-frame').getBoundingClientRect();
            return [frame.left + frame.width * 0.6, frame.top + frame.height * 0.5];""")
        before = self.board_under(x, y)
        self.assertIsNotNone(before, 'no board under the pinch')

        def touch(kind, spread):
            points = [] if kind == 'touchEnd' else [
                {'x': x - spread, 'y': y, 'id': 1}, {'x': x + spread, 'y': y, 'id': 2}]
            driver.execute_cdp_cmd('Input.dispatchTouchEvent', {'type': kind, 'touchPoints': points})
        touch('touchStart', 30)
        for spread in range(33, 63, 3):
            touch('touchMove', spread)
        touch('touchEnd', 60)
        self.wait(lambda: driver.execute_script(
            "return document.querySelector('.picture-frame').classList.contains('dragging')") is False,
            'the fingers are still down')
        after = self.board_under(x, y)
        self.assertIsNotNone(after, 'no board under the pinch after it')
        self.assertEqual(before[:3], after[:3])
        self.assertAlmostEqual(before[3], after[3], delta=0.01)
        self.assertAlmostEqual(before[4], after[4], delta=0.01)
        self.assertAlmostEqual(after[5] / before[5], 2, delta=0.02)
        # The page itself was not zoomed.
        self.assertEqual(driver.execute_script('return window.visualViewport.scale'), 1)

class EscapingTest(PageTest):
    """Markup in the database shows as text; no script of it runs."""

    @classmethod
    def setUpClass(cls):
        games = api('/api/find', player='<script>*')
        assert len(games) == 1, games
        cls.game = games[0]

    def assertNothingRan(self):
        self.assertNoAlert()
        self.assertIsNone(driver.execute_script('return window.__xss'))
        # No element came from the data: the pages make no script, b, i, u or bare img in main.
        self.assertEqual(driver.execute_script(
            "return document.querySelectorAll('main script, main b, main i, main u, "
            "main img:not(.picture), main [onerror], main [onmouseover]').length"), 0)

    def test_game_page(self):
        self.open(f"/game/{self.game['id']}")
        self.assertNothingRan()
        self.assertEqual(self.text('#title .white-player'), '<script>alert(1)</script>')
        self.assertEqual(self.text('#title .black-player'), 'Eve "<i>the</i>" O\'Brien & co')
        headers = {row.find_element(By.TAG_NAME, 'th').text: row.find_element(By.TAG_NAME, 'td').text
                   for row in driver.find_elements(By.CSS_SELECTOR, '#headers tr')}
        self.assertEqual(headers, self.game['headers'])
        self.assertEqual(headers['Annotator'], "</td></tr><script>window.__xss = 'annotator'</script>")
        self.assertIn('"quotes", <b>angle brackets</b> &', self.text('#subtitle'))
        self.assertIn('<script>alert(1)</script>', driver.title)
        screenshot('escaping.png')

    def test_board_editor(self):
        label = '<img src=x onerror="window.__xss = \'label\'">'
        self.open('/patterns?' + urllib.parse.urlencode(
            {'from': '8/8/8/8/8/8/8/4K3', 'from-label': label, 'player': '<script>*',
             'pattern': '/'.join(['????????'] * 8)}))
        self.assertNothingRan()
        self.assertEqual(self.text('#from-note'), f'From the position shown: {label}.')
        self.assertEqual(self.texts('#results tbody td:nth-child(2)'), ['<script>alert(1)</script>'])

    def test_lists_and_charts(self):
        self.open('/search?' + urllib.parse.urlencode({'player': '<script>*'}))
        self.assertNothingRan()
        self.assertEqual(self.texts('#results tbody td:nth-child(2)'), ['<script>alert(1)</script>'])
        self.open('/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3 / (0T1)f6'}))
        self.assertNothingRan()
        self.assertIn('<script>alert(1)</script>', self.texts('#games tbody td:nth-child(2)'))
        self.open('/stats?' + urllib.parse.urlencode({'player': '<script>alert(1)</script>'}))
        self.assertNothingRan()
        labels = driver.execute_script(
            "return [...document.querySelectorAll('svg.chart text.chart-label title')]"
            ".map((t) => t.textContent)")
        self.assertIn('<script>alert(1)</script>', labels)


class TacticsTest(PageTest):
    """The game page of a database made with 5d-index --tactics (tests/cli/tactics.5dpgn, its
    own database and server) marks the action played from a mate-in-one position: '#' when it
    mated, '#?' with one solution when it did not. The positions are hand-built: their events
    say which action mates."""

    @classmethod
    def setUpClass(cls):
        cls.scratch, cls.server = own_server('tactics', ['--tactics', 'tests/cli/tactics.5dpgn'])

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.scratch.cleanup()

    def marks(self, id):
        """The marks of game id's move list: (action, text, class, title) for each."""
        driver.get(f'{self.server.url}/game/{id}')
        self.wait_ready()
        return driver.execute_script("""
            return [...document.querySelectorAll('#moves li')].flatMap((li) =>
                [...li.querySelectorAll('.mate')].map((m) =>
                    [li.dataset.action, m.textContent, m.className, m.title]));""")

    def test_found_and_missed_mates_are_marked(self):
        # 1. Qb3 mates (k3/4/2K1/1Q2): found.
        self.assertEqual(self.marks(1), [['1', '#', 'mate found', 'a mate in one, found']])
        # 1. Qa1+ from the same position: missed; Qb3 was the one mate.
        self.assertEqual(self.marks(2),
                         [['1', '#?', 'mate missed', 'a mate in one missed: (0T1)Qb3']])
        # 1. Ka1 (forced) allows 1... Qb2 mate, which black found; white had no mate.
        self.assertEqual(self.marks(3), [['2', '#', 'mate found', 'a mate in one, found']])
        # This build's search found them: no note under the list (the note of an earlier
        # build's search, mates_note, is tested in tests/query/puzzles_test.cc).
        self.assertFalse(driver.find_element(By.ID, 'mates-note').is_displayed())


class OtherPagesTest(PageTest):
    def test_duplicates(self):
        groups = api('/api/duplicates')
        self.open('/duplicates')
        rows = driver.find_elements(By.CSS_SELECTOR, '#groups tbody tr')
        self.assertEqual([r.get_attribute('data-kind') for r in rows], [g['kind'] for g in groups])
        self.assertEqual([[int(a.text) for a in r.find_elements(By.TAG_NAME, 'a')] for r in rows],
                         [g['ids'] for g in groups])
        self.assertNoHorizontalScroll()

    def test_duplicates_name_players_dates_and_the_game_kept(self):
        groups = api('/api/duplicates')
        if not any(g['kind'] == 'exact' for g in groups):
            self.skipTest('the database has no copies')
        self.open('/duplicates')
        rows = driver.find_elements(By.CSS_SELECTOR, '#groups tbody tr')
        self.assertEqual(len(rows), len(groups))
        for row, group in zip(rows, groups):
            items = row.find_elements(By.CSS_SELECTOR, 'li')
            self.assertEqual([int(i.get_attribute('data-id')) for i in items], group['ids'])
            for item, game in zip(items, group['games']):
                # The API's details are the game's own.
                found = api(f'/api/game/{game["id"]}')
                for field in ('white', 'black', 'date', 'result', 'duplicate_of'):
                    self.assertEqual(game[field], found[field], f'{field} of {game["id"]}')
                players = (f'{game["white"] or "?"} – {game["black"] or "?"}'
                           if game['white'] or game['black'] else '')
                described = ', '.join(p for p in (players, game['date'], game['result']) if p)
                self.assertEqual(item.find_element(By.CSS_SELECTOR, '.game').text,
                                 described or 'no players or date')
                status = item.find_element(By.CSS_SELECTOR, '.status').text
                if group['kind'] != 'exact':
                    self.assertEqual(status, 'counted')
                elif game['id'] == group['ids'][0]:
                    self.assertEqual(status, 'kept')
                    self.assertIsNone(game['duplicate_of'])
                else:
                    self.assertEqual(status,
                                     f'copy of game {group["ids"][0]}, left out of counts')
                    self.assertEqual(item.get_attribute('data-kept'), 'false')
        driver.set_window_size(390, 844)
        self.open('/duplicates')
        self.assertNoHorizontalScroll()

    def test_statistics(self):
        stats = api('/api/stats', top=15)
        self.open('/stats')
        self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '.figure-value')[0].text,
                         str(stats['games']))
        captions = self.texts('figure.chart-box figcaption')
        self.assertEqual(captions, ['Variants', 'Results', 'Endings', 'Top 15 players',
                                    'Length (actions)', 'Timelines', 'Games by year'])
        self.assertEqual(len(driver.find_elements(By.CSS_SELECTOR, 'figure.chart-box svg.chart')), 7)
        years = driver.execute_script(
            "return [...document.querySelectorAll('figure.chart-box')].pop()"
            ".querySelectorAll('rect.bar').length")
        self.assertEqual(years, len(stats['dates']['years']))
        screenshot('stats.png')
        driver.set_window_size(390, 844)
        self.open('/stats')
        self.assertNoHorizontalScroll()


def boards_of(fen):
    """The boards of a 5DFEN state, as "L:T:c", sorted."""
    return sorted(re.findall(r':([^\]:]*:\d+:[wb])\]', fen))


class CustomStartTest(PageTest):
    """Custom games (a 5DFEN start that is no official variant) explored from their start: the
    explorer's variant list offers each start, the address holds it as state=, the line is
    played from it, and a custom game's page links to it."""

    def expected_starts(self):
        """The starts worked out from the games themselves: each custom game's position at action
        0, and how many games (copies left out) began there."""
        starts = {}
        for game in api('/api/find', variant='custom', unique='true', limit=500):
            fen = api(f'/api/game/{game["id"]}', action=0)['position']['fen']
            entry = starts.setdefault(fen, {'games': 0, 'first': game['id']})
            entry['games'] += 1
            entry['first'] = min(entry['first'], game['id'])
        return starts

    def test_custom_start_explored(self):
        expected = self.expected_starts()
        self.assertGreater(len(expected), 0, 'corpus/ has custom games')
        starts = api('/api/starts')
        self.assertEqual({s['fen']: {'games': s['games'], 'first': s['first_game']} for s in starts},
                         expected)
        for width, height in ((1400, 1000), (390, 844)):
            driver.set_window_size(width, height)
            self.open('/')
            options = {o.get_attribute('value'): o.text for o in driver.find_elements(
                By.CSS_SELECTOR, '#variant optgroup[label="Custom starts"] option')}
            self.assertEqual(sorted(options), sorted('state:' + fen for fen in expected))
            for fen, entry in expected.items():
                self.assertTrue(options['state:' + fen].endswith(f'({entry["games"]})'))
            start = starts[0]
            Select(driver.find_element(By.ID, 'variant')).select_by_value('state:' + start['fen'])
            self.wait(lambda: self.params().get('state') == start['fen'],
                      'the start is not in the address')
            self.wait_ready()
            self.assertNotIn('variant', self.params())
            self.assertTrue(self.text('#position-title').startswith(
                options['state:' + start['fen']].rsplit(' (', 1)[0] + ': the start'))
            games = start['games']
            self.assertEqual(self.text('#position .games-count'),
                             f'{games} game' + ('' if games == 1 else 's'))
            self.wait(lambda: sorted(picture_boards()) == boards_of(start['fen']),
                      'the picture is not the start')
            self.assertEqual(driver.find_element(By.CSS_SELECTOR, 'button.copy-fen')
                             .get_attribute('data-fen'), start['fen'])
            self.assertNoHorizontalScroll()
            # An action played from the start: the position is the moves played from its boards.
            rows = driver.find_elements(By.CSS_SELECTOR, '#actions tbody tr')
            self.assertTrue(rows, 'the start has actions')
            action = rows[0].get_attribute('data-action')
            played = int(rows[0].find_element(By.CSS_SELECTOR, 'td.games').text)
            rows[0].find_element(By.CSS_SELECTOR, 'td.action a').click()
            self.wait(lambda: self.params().get('moves') == '1. ' + action, 'the line did not grow')
            self.wait_ready()
            self.assertEqual(self.params().get('state'), start['fen'])
            self.assertEqual(self.text('#position .games-count'),
                             f'{played} game' + ('' if played == 1 else 's'))
            after = api('/api/position', state=start['fen'], moves='1. ' + action)['fen']
            self.wait(lambda: sorted(picture_boards()) == boards_of(after),
                      'the picture is not the position after the action')
            self.assertTrue(driver.execute_script(
                "return document.activeElement.closest('#actions, #line') !== null"),
                'the focus left the list')
            self.assertNoHorizontalScroll()

        # A custom game's page opens its position in the explorer, from its start.
        driver.set_window_size(1400, 1000)
        game = starts[0]['first_game']
        played = api(f'/api/game/{game}')
        line = [' '.join(m) for m in played['moves'][:1]]
        self.open(f'/game/{game}?action=1')
        explore = driver.find_element(By.ID, 'explore')
        self.wait(lambda: explore.is_displayed(), 'the game has no link to the explorer')
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(explore.get_attribute('href')).query)
        self.assertEqual(query, {'state': [starts[0]['fen']], 'moves': ['1. ' + line[0]]})
        explore.click()
        self.wait(lambda: urllib.parse.urlsplit(driver.current_url).path == '/',
                  'the link did not open the explorer')
        self.wait_ready()
        self.assertEqual(self.current_crumb(), '1. ' + line[0])

    def test_custom_games_without_a_start_open_the_first_start(self):
        # ?variant=custom names no start: the page opens the first of its list rather than
        # showing the API's complaint that the start is missing.
        driver.set_window_size(1400, 1000)
        start = api('/api/starts')[0]
        self.open('/?variant=custom')
        self.wait(lambda: self.params().get('state') == start['fen'],
                  'the first custom start is not in the address')
        self.wait_ready()
        self.assertEqual(self.text('#error'), '')
        self.assertEqual(driver.find_element(By.ID, 'variant').get_attribute('value'),
                         'state:' + start['fen'])
        self.wait(lambda: sorted(picture_boards()) == boards_of(start['fen']),
                  'the picture is not the start')

    def current_crumb(self):
        found = driver.find_elements(By.CSS_SELECTOR, '#line [aria-current="step"]')
        return found[0].text if found else ''


class SearchToolsTest(PageTest):
    """The search's one-board field and its board editor, "copy 5DFEN" on the explorer and the
    game page, and paging past the end."""

    def row_ids(self):
        return [int(r.get_attribute('data-id'))
                for r in driver.find_elements(By.CSS_SELECTOR, '#results tbody tr')]

    def test_one_board_search(self):
        # A real board: game 14's board +1 T4 w after 8 actions.
        fen = api('/api/game/14', action=8)['position']['fen']
        boards = {m.group(2): m.group(1) for m in re.finditer(r'\[([^\]:]*):([^\]]*)\]', fen)}
        pieces = boards['+1:4:w']
        for width, height in ((1400, 1000), (390, 844)):
            driver.set_window_size(width, height)
            self.open('/search')
            form = driver.find_element(By.ID, 'search')
            # Drawn in the board editor: an empty board, then the pieces of the real board.
            driver.find_element(By.ID, 'draw-board').click()
            self.assertEqual(driver.find_element(By.ID, 'draw-board').get_attribute('aria-expanded'),
                             'true')
            squares = driver.find_elements(By.CSS_SELECTOR, '#board-drawing button.square')
            self.assertEqual(len(squares), 64)
            self.assertEqual({q.get_attribute('data-token') for q in squares}, {'.'})
            wanted = squares_of(pieces)
            for name, token in wanted.items():
                if token == '.':
                    continue
                unmoved = token.endswith('*')
                box = driver.find_element(By.CSS_SELECTOR, '#palette input[name="unmoved"]')
                if box.is_selected() != unmoved:
                    box.click()
                driver.find_element(By.CSS_SELECTOR,
                                    f'#palette button[data-token="{token[0]}"]').click()
                driver.find_element(
                    By.CSS_SELECTOR, f'#board-drawing button.square[data-square="{name}"]').click()
            self.assertEqual(form.find_element(By.NAME, 'board').get_attribute('value'),
                             f'[{pattern_of(wanted)}]')
            self.assertNoHorizontalScroll()
            form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
            self.wait(lambda: self.params().get('board') == f'[{pattern_of(wanted)}]',
                      'the board is not in the address')
            self.wait_ready()
            found = api('/api/find', board=pieces, sort='-date', limit=50, unique='true')
            self.assertIn(14, [g['id'] for g in found])
            self.assertEqual(self.row_ids(), [g['id'] for g in found])
            self.assertEqual(self.texts('#results tbody td:last-child'),
                             [str(g['action']) for g in found])
            self.assertNoHorizontalScroll()
        # Typed, with coordinates; a board that does not read marks the field.
        driver.set_window_size(1400, 1000)
        self.open('/search?' + urllib.parse.urlencode({'board': f'[{pieces}:+1:4:w]'}))
        found = api('/api/find', board=f'[{pieces}:+1:4:w]', sort='-date', unique='true')
        self.assertEqual(self.row_ids(), [g['id'] for g in found])
        self.allowed_console = [r'status of 400']
        driver.get(base + '/search?board=8%2F7')
        self.wait_ready(expect='error')
        self.assertTrue(self.text('#error').startswith('Board: '), self.text('#error'))
        self.assertEqual(driver.find_element(By.NAME, 'board').get_attribute('aria-invalid'), 'true')

    def copied(self, button):
        """Clicks a "Copy 5DFEN" button and returns what went onto the clipboard."""
        driver.execute_cdp_cmd('Browser.grantPermissions', {
            'origin': base, 'permissions': ['clipboardReadWrite', 'clipboardSanitizedWrite']})
        button.click()
        self.wait(lambda: 'Copied' in button.find_element(By.XPATH, '..').text,
                  'the button did not say it copied')
        return driver.execute_async_script(
            'const done = arguments[arguments.length - 1];'
            'navigator.clipboard.readText().then(done, (e) => done("failed: " + e));')

    def test_copy_fen(self):
        moves = '1. (0T1)e3 / (0T1)f6'
        self.open('/?' + urllib.parse.urlencode({'moves': moves}))
        fen = api('/api/position', moves=moves)['fen']
        button = driver.find_element(By.CSS_SELECTOR, 'button.copy-fen')
        self.assertEqual(button.get_attribute('data-fen'), fen)
        self.assertEqual(self.copied(button), fen)
        self.open('/game/14?action=3')
        fen = api('/api/game/14', action=3)['position']['fen']
        button = driver.find_element(By.CSS_SELECTOR, 'button.copy-fen')
        self.assertEqual(button.get_attribute('data-fen'), fen)
        self.assertEqual(self.copied(button), fen)
        # Stepping keeps it the position's on screen.
        driver.find_element(By.TAG_NAME, 'body').send_keys(Keys.ARROW_RIGHT)
        fen4 = api('/api/game/14', action=4)['position']['fen']
        self.wait(lambda: driver.find_element(By.CSS_SELECTOR, 'button.copy-fen')
                  .get_attribute('data-fen') == fen4, 'the 5DFEN did not follow the step')

    def test_paging_past_the_end(self):
        total = api('/api/find', count='true', unique='true')
        pages = -(-total // 50)
        for width, height in ((1400, 1000), (390, 844)):
            driver.set_window_size(width, height)
            self.open('/search?page=99')
            self.assertEqual(self.text('#results .pager span'),
                             f'No page 100: the {total} games fill {pages} page' +
                             ('' if pages == 1 else 's'))
            self.assertEqual(driver.find_elements(By.CSS_SELECTOR, '#results tbody tr'), [])
            self.assertNoHorizontalScroll()
            driver.find_element(By.CSS_SELECTOR, '#results .pager button.previous').click()
            self.wait(lambda: self.params().get('page', '0') == str(pages - 1),
                      'the last page was not opened')
            self.wait_ready()
            last = total - (pages - 1) * 50
            self.assertEqual(self.text('#results .pager span'),
                             f'Games {(pages - 1) * 50 + 1}–{total} of {total}')
            self.assertEqual(len(self.row_ids()), last)
        # The explorer's list too.
        games = api('/api/tree', variant='Standard')['games']
        pages = -(-games // 20)
        self.open('/?page=99')
        self.assertEqual(self.text('#games .pager span'),
                         f'No page 100: the {games} games fill {pages} page' +
                         ('' if pages == 1 else 's'))


class PhoneAndKeyboardTest(PageTest):
    """Every page on a phone without sideways scrolling or words broken inside; the explorer's
    arrow keys; focus kept after a sort; whole rows open games; the source named by its file."""

    def test_no_sideways_scrolling_on_a_phone(self):
        custom = api('/api/starts')[0]
        pages = ['/', '/?' + urllib.parse.urlencode({'moves': '1. (0T1)e3 / (0T1)f6'}),
                 '/?' + urllib.parse.urlencode({'state': custom['fen']}), '/search',
                 '/search?player=Ana%20Duarte', '/search?page=99', '/patterns', '/duplicates',
                 '/stats', '/game/14', f'/game/{custom["first_game"]}', '/no-such-page']
        driver.set_window_size(390, 844)
        self.allowed_console = [r'no-such-page .* 404']
        for path in pages:
            with self.subTest(path=path):
                driver.get(base + path)
                if path != '/no-such-page':
                    self.wait_ready()
                self.assertNoHorizontalScroll()
                # No word of a table cell is broken inside: each cell's text fits its longest word.
                broken = driver.execute_script("""
                  const out = [];
                  for (const cell of document.querySelectorAll('td, th')) {
                    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
                    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                      // Words: runs of letters and digits ("1/2-1/2" may break at its
                      // slashes and dashes, as text does).
                      for (const word of node.textContent.matchAll(/[\\p{L}\\p{N}]+/gu)) {
                        // Tokens longer than words (a 5DFEN board) may break to fit.
                        if (word[0].length > 30) continue;
                        const range = document.createRange();
                        range.setStart(node, word.index);
                        range.setEnd(node, word.index + word[0].length);
                        const lines = new Set([...range.getClientRects()]
                            .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                        if (lines.size > 1) out.push(word[0]);
                      }
                    }
                  }
                  return out;""")
                self.assertEqual(broken, [], 'words broken inside table cells')
        # Chart labels are at least 11 pixels high on the phone.
        driver.get(base + '/stats')
        self.wait_ready()
        smallest = driver.execute_script(
            "return Math.min(...[...document.querySelectorAll('svg.chart text')]"
            ".filter((t) => t.textContent).map((t) => parseFloat(getComputedStyle(t).fontSize)"
            " * t.closest('svg').getBoundingClientRect().width"
            " / t.closest('svg').viewBox.baseVal.width))")
        self.assertGreaterEqual(smallest, 11 - 0.01)

    def test_arrow_keys_in_the_explorer(self):
        self.open('/')
        tree = api('/api/tree', variant='Standard')
        first = tree['actions'][0]['action']
        body = driver.find_element(By.TAG_NAME, 'body')
        body.send_keys(Keys.ARROW_RIGHT)
        self.wait(lambda: self.params().get('moves') == '1. ' + first, 'right did not play')
        self.wait_ready()
        reply = api('/api/tree', variant='Standard', moves='1. ' + first)['actions']
        self.assertTrue(driver.execute_script(
            "return document.activeElement.closest('#actions') !== null"), 'the focus left the list')
        # Down moves along the actions, Enter plays the one focused; left takes it back.
        driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
        self.assertEqual(driver.switch_to.active_element.text, reply[1]['action'])
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        line = f'1. {first} / {reply[1]["action"]}'
        self.wait(lambda: self.params().get('moves') == line, 'Enter did not play the action')
        self.wait_ready()
        driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
        self.wait(lambda: self.params().get('moves') == '1. ' + first, 'left did not take it back')
        self.wait_ready()
        driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
        self.wait(lambda: 'moves' not in self.params(), 'left did not go to the start')
        self.wait_ready()

    def test_sort_keeps_the_focus_and_rows_open_games(self):
        self.open('/search?player=Ana%20Duarte')
        driver.find_element(By.CSS_SELECTOR, 'button.sort[data-field="actions"]').click()
        self.wait(lambda: self.params().get('sort') == 'actions', 'the order is not in the address')
        self.wait_ready()
        self.assertEqual(driver.switch_to.active_element.get_attribute('data-field'), 'actions')
        row = driver.find_elements(By.CSS_SELECTOR, '#results tbody tr')[0]
        id = row.get_attribute('data-id')
        row.find_elements(By.TAG_NAME, 'td')[1].click()  # the white player's cell, no link
        self.wait(lambda: urllib.parse.urlsplit(driver.current_url).path == f'/game/{id}',
                  'the row did not open its game')
        self.wait_ready()
        # The source is the file's name, never where it lies on the server.
        source = api(f'/api/game/{id}')['source']
        self.assertIn('/', source)
        self.assertNotIn(source, self.text('#source'))
        self.assertIn(' of ' + source.rsplit('/', 1)[-1], self.text('#source'))

    def test_loading_state(self):
        self.open('/')
        # The note and aria-busy are set while the position is asked for, and cleared after.
        states = driver.execute_async_script("""
          const done = arguments[arguments.length - 1];
          const seen = [];
          const host = document.getElementById('picture');
          const observer = new MutationObserver(() => seen.push(host.getAttribute('aria-busy')));
          observer.observe(host, {attributes: true, attributeFilter: ['aria-busy']});
          document.querySelector('#actions tbody td.action a').click();
          const wait = () => {
            if (document.body.dataset.state === 'ready' && seen.length >= 2) {
              observer.disconnect();
              done([seen, document.getElementById('loading').hidden]);
            } else {
              setTimeout(wait, 20);
            }
          };
          wait();""")
        self.assertEqual(states[0][:2], ['true', None])
        self.assertTrue(states[1])


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--build', required=True, help='the build directory')
    parser.add_argument('--chromium', default='/usr/bin/chromium')
    parser.add_argument('--chromedriver', default='/usr/bin/chromedriver')
    parser.add_argument('--screenshots', help='where screenshots go (default BUILD/tests/browser)')
    ARGS, rest = parser.parse_known_args()
    if ARGS.screenshots is None:
        ARGS.screenshots = str(Path(ARGS.build) / 'tests' / 'browser')
    unittest.main(argv=[sys.argv[0], '-v'] + rest)


if __name__ == '__main__':
    main()
