#!/usr/bin/env python3
"""5d-query serve under stress, with 5d-index appending to the same database.

CLIENTS clients ask, for SECONDS, a mix of every API call the explorer and scripts make (find
pages and counts by player, moves and pattern; trees; games and their 5dpgn; duplicates; stats;
pictures; positions; patterns; the pages); IDLE more connect and send nothing, TRICKLE more send a
request a byte a second, each reconnecting whenever the server closes it. Meanwhile 5d-index appends
batches of generated games, one transaction each. Then Ctrl-C (SIGINT) reaches the server while
the clients still ask.

It checks, and prints with the figures:
  - no answer took longer than the query time limit plus the time slow clients may hold a worker
    (the server's request deadline), whatever the slow clients did;
  - every answer is right for the database version it read: a game's answer is the one it had
    before the load (games never change), and every count and page of games equals that of one of
    the database's committed versions (the games up to the last id of some batch, read from the
    final database);
  - the server's memory (VmRSS) stays under a bound;
  - after SIGINT the requests under way are answered in full and the server exits 0.
Exit 0 when everything held, 1 otherwise.

Usage: scripts/stress-serve.py BUILD_DIR [--clients 64] [--seconds 60] [--idle 16]
                               [--trickle 16] [--batches 12] [--quick]
(--quick: 16 clients, 8 s, 4 idle, 4 trickling, 4 batches; what `make test` runs.)
"""
import argparse
import http.client
import json
import os
import random
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('build')
    p.add_argument('--clients', type=int, default=64)
    p.add_argument('--seconds', type=float, default=60)
    p.add_argument('--idle', type=int, default=16)
    p.add_argument('--trickle', type=int, default=16)
    p.add_argument('--batches', type=int, default=12)
    p.add_argument('--games', type=int, default=2000, help='generated games indexed before the load')
    p.add_argument('--quick', action='store_true')
    a = p.parse_args()
    if a.quick:
        a.clients, a.seconds, a.idle, a.trickle, a.batches, a.games = 16, 8, 4, 4, 4, 400
    return a


def run(*command, **kw):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def get(port, path, timeout=60):
    """GET path: (status, body bytes, seconds)."""
    start = time.monotonic()
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout)
    try:
        c.request('GET', path)
        r = c.getresponse()
        body = r.read()
        return r.status, body, time.monotonic() - start
    finally:
        c.close()


def url(endpoint, **params):
    pairs = []
    for k, v in params.items():
        for one in (v if isinstance(v, list) else [v]):
            pairs.append((k, one))
    return endpoint + ('?' + urllib.parse.urlencode(pairs) if pairs else '')


def main():
    a = parse_args()
    index = os.path.join(a.build, 'indexer', '5d-index')
    query = os.path.join(a.build, 'query', '5d-query')
    gen = os.path.join(a.build, 'tests', 'gen_games')
    for tool in (index, query, gen):
        if not os.access(tool, os.X_OK):
            print(f'stress-serve: {tool} missing: build first', file=sys.stderr)
            return 2
    work = tempfile.mkdtemp(prefix='stress-serve-')
    failures = []

    def fail(message):
        if len(failures) < 20:
            print('FAIL: ' + message, flush=True)
        failures.append(message)

    try:
        db = os.path.join(work, 'db.sqlite')
        corpus = os.path.join(ROOT, 'corpus')
        first = os.path.join(work, 'first.5dpgn')
        run(gen, '--games', str(a.games), '--seed', '1', '--out', first)
        subprocess.run([index, '--db', db, '--quiet', corpus, first], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        batches = []
        for b in range(a.batches):
            path = os.path.join(work, f'batch{b}.5dpgn')
            run(gen, '--games', '100', '--seed', str(100 + b), '--out', path)
            batches.append(path)

        def last_id():
            with sqlite3.connect(f'file:{db}?mode=ro', uri=True) as c:
                return c.execute('SELECT coalesce(max(id), 0) FROM games').fetchone()[0]

        boundaries = [last_id()]
        ids = list(range(1, boundaries[0] + 1))

        server = subprocess.Popen([query, '--db', db, 'serve', '--port', '0'],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = server.stdout.readline()
        port = int(line.rsplit(':', 1)[1].split('/')[0]) if 'http://' in line else None
        if port is None:
            print('stress-serve: the server did not start: ' + line + server.stderr.read(),
                  file=sys.stderr)
            return 2
        threading.Thread(target=lambda: server.stdout.read(), daemon=True).start()
        threading.Thread(target=lambda: server.stderr.read(), daemon=True).start()

        # What the database holds before the load: games' answers, which never change.
        rng = random.Random(7)
        fixed_games = rng.sample(ids, min(60, len(ids)))
        game_answers = {}
        for gid in fixed_games:
            for path in (f'/api/game/{gid}', f'/api/game/{gid}.5dpgn', f'/api/game/{gid}?action=2'):
                status, body, _ = get(port, path)
                game_answers[path] = (status, body)
        players = ['Random Ada', 'Random Bo', 'Random Cy']
        any8 = '????????'
        # Questions whose answers depend on the version: counts and first pages of games.
        versioned = {
            'player': dict(player=players[0]),
            'white': dict(white=players[1]),
            'moves': dict(moves='1. (0T1)e3 / (0T1)f6'),
            'pattern': dict(pattern=f'{any8}/{any8}/{any8}/{any8}/{any8}/{any8}/????P???/{any8}'),
            'variant': dict(variant='Standard'),
            'all': dict(),
        }
        other = [
            url('/api/tree'), url('/api/tree', variant='Standard - Turn Zero'),
            url('/api/tree', moves='1. e3'), url('/api/duplicates'), url('/api/stats'),
            url('/api/picture', moves='1. e3 / e6'), url('/api/position', moves='1. e3'),
            url('/api/pattern', pattern='8/8/8/8/8/8/8/8'), '/', '/search', '/patterns',
            '/stats', '/duplicates', '/static/common.js',
            url('/api/find', pattern='8/8/8/8/8/8/8/8', count=''),
        ]
        answers = []  # (name, kind, body) of versioned questions
        latencies = []
        statuses = {}
        lock = threading.Lock()
        stop = threading.Event()
        signaled = threading.Event()

        def client(seed):
            r = random.Random(seed)
            while not stop.is_set():
                roll = r.random()
                if roll < 0.35:
                    name = r.choice(list(versioned))
                    counting = r.random() < 0.5
                    params = dict(versioned[name])
                    if counting:
                        params['count'] = ''
                    else:
                        params.update(sort='id', limit='20')
                    path, kind = url('/api/find', **params), ('count' if counting else 'page')
                elif roll < 0.6:
                    path, kind = r.choice(list(game_answers)), 'game'
                else:
                    path, kind = r.choice(other), 'other'
                try:
                    status, body, took = get(port, path)
                except (OSError, http.client.HTTPException) as e:
                    if signaled.is_set() and isinstance(e, ConnectionRefusedError):
                        return  # the server has closed its port: not a failure
                    if signaled.is_set() and isinstance(e, (http.client.RemoteDisconnected,
                                                            ConnectionResetError)) and \
                            not isinstance(e, http.client.IncompleteRead):
                        # Sent as the server stopped, and closed unread (a client may ask
                        # again); an answer cut short (IncompleteRead) is a failure.
                        with lock:
                            statuses['closed unread at stop'] = statuses.get(
                                'closed unread at stop', 0) + 1
                        return
                    with lock:
                        statuses['error'] = statuses.get('error', 0) + 1
                    fail(f'{path}: {e}')
                    continue
                with lock:
                    latencies.append((took, path))
                    statuses[status] = statuses.get(status, 0) + 1
                    if kind in ('count', 'page') and status == 200:
                        answers.append((name, kind, body))
                if status != 200:
                    fail(f'{path}: HTTP {status} {body[:200]!r}')
                elif kind == 'game' and (status, body) != game_answers[path]:
                    fail(f'{path}: the answer changed under load')

        held = []  # how long the server kept each slow connection open (s)

        def slow_client(request):
            """Connects, sends `request` a byte a second (nothing when empty) and waits for the
            server to close the connection; records how long it stayed open, and reconnects."""
            while not stop.is_set():
                try:
                    s = socket.create_connection(('127.0.0.1', port))
                except OSError:
                    time.sleep(0.2)
                    continue
                opened = time.monotonic()
                try:
                    for second in range(10 ** 6):
                        if stop.is_set():
                            break
                        if second < len(request):
                            s.sendall(request[second:second + 1])
                        # The rest of the second, watching for the server closing the connection.
                        r, _, _ = select.select([s], [], [], max(0.0, opened + second + 1 -
                                                                time.monotonic()))
                        if r and s.recv(1) == b'':
                            raise ConnectionResetError('closed by the server')
                except OSError:
                    with lock:
                        held.append(time.monotonic() - opened)
                s.close()

        def idle():
            slow_client(b'')

        def trickle():
            slow_client(b'GET /api/stats HTTP/1.1\r\nHost: x\r\nX-Slow: ' + b'a' * 200 +
                        b'\r\n\r\n')

        rss = []

        def memory():
            while not stop.is_set():
                try:
                    with open(f'/proc/{server.pid}/status') as f:
                        for field in f:
                            if field.startswith('VmRSS:'):
                                rss.append(int(field.split()[1]) / 1024)
                except OSError:
                    pass
                time.sleep(0.5)

        threads = [threading.Thread(target=idle) for _ in range(a.idle)]
        threads += [threading.Thread(target=trickle) for _ in range(a.trickle)]
        threads += [threading.Thread(target=memory)]
        time.sleep(0.5)  # slow clients first: they must not hold up the others
        for t in threads:
            t.start()
        time.sleep(1)
        clients = [threading.Thread(target=client, args=(i,)) for i in range(a.clients)]
        for t in clients:
            t.start()
        start = time.monotonic()
        # 5d-index appends a batch now and then while the clients ask.
        for k, path in enumerate(batches):
            time.sleep(max(0.0, start + (k + 0.5) * a.seconds / len(batches) - time.monotonic()))
            subprocess.run([index, '--db', db, '--quiet', path], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            boundaries.append(last_id())
        time.sleep(max(0.0, start + a.seconds - time.monotonic()))

        # Ctrl-C while the clients still ask: the requests under way end in full.
        signaled.set()
        server.send_signal(signal.SIGINT)
        try:
            code = server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            code = None
            fail('the server did not stop within 60 s of SIGINT')
        stop.set()
        for t in clients + threads:
            t.join(timeout=5)
        if code not in (0, None):
            fail(f'the server exited {code} after SIGINT')

        # Every versioned answer matches one committed version.
        def expected(name):
            params = versioned[name]
            command = [query, '--db', db, '--format', 'csv', '--sort', 'id']
            for k, v in params.items():
                command += [f'--{k}', v]
            out = run(*command).stdout.splitlines()
            head = out[0].split(',')
            col = head.index('id')
            return sorted(int(row.split(',')[col]) for row in out[1:] if row)

        checked = 0
        for name in versioned:
            matching = expected(name)
            counts = {sum(1 for i in matching if i <= b) for b in boundaries}
            pages = {tuple(i for i in matching if i <= b)[:20] for b in boundaries}
            for n, kind, body in answers:
                if n != name:
                    continue
                checked += 1
                data = json.loads(body)
                if kind == 'count':
                    value = data if isinstance(data, int) else data.get('count')
                    if value not in counts:
                        fail(f'find {name} count {value}: no committed version had it {sorted(counts)}')
                else:
                    got = tuple(g['id'] for g in (data if isinstance(data, list) else data['games']))
                    if got not in pages:
                        fail(f'find {name} page {got[:5]}...: no committed version had it')

        lat = sorted(t for t, _ in latencies)

        def pct(p):
            return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else 0

        worst = max(latencies) if latencies else (0, '')
        limit = 10 + 5  # the query time limit, and the deadline of a request being read
        if worst[0] > limit:
            fail(f'{worst[1]} took {worst[0]:.1f} s (limit {limit} s)')
        # The server's deadline outside an answer (5 s), its watchdog's tick (0.2 s) and the
        # scheduling of a loaded machine (the clients share its cores with the server).
        if held and max(held) > 5 + 1.5:
            fail(f'a slow connection was kept open {max(held):.1f} s')
        bound = 64 + 512  # the answer cache, and the pool's connections and pages
        if rss and max(rss) > bound:
            fail(f'server memory {max(rss):.0f} MB above {bound} MB')
        print(f'{a.clients} clients for {a.seconds:.0f} s with {a.idle} idle and {a.trickle} '
              f'trickling connections, {len(boundaries) - 1} batches of 100 games appended')
        print(f'requests {len(latencies)} ({len(latencies) / a.seconds:.0f}/s), statuses '
              f'{dict(sorted(statuses.items(), key=str))}')
        print(f'latency ms: p50 {pct(50):.1f}  p95 {pct(95):.1f}  p99 {pct(99):.1f}  '
              f'max {worst[0] * 1000:.0f} ({worst[1]})')
        print(f'versioned answers checked {checked} against {len(boundaries)} versions; game '
              f'answers unchanged over {len(game_answers)} paths')
        if held:
            print(f'slow connections closed by the server: {len(held)}, kept open at most '
                  f'{max(held):.1f} s (median {sorted(held)[len(held) // 2]:.1f} s)')
        print(f'server memory max {max(rss) if rss else 0:.0f} MB; exit after SIGINT {code}')
        print('OK' if not failures else f'{len(failures)} failures')
        return 0 if not failures else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
