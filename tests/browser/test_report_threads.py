"""The report's threads and timeline (issue 35) on perf.data: the tracks
panel's boxes and strips used as a user does (a click on a process's or
a thread's box, a drag across the strips), and every number the views
then show (Top's costs and shares, the total in view, the flame graph's
root, the call tree's and bottom-up's roots, the Function view and the
sandwich of the heaviest function, the panel's per-thread samples and
costs) against the command line's --json for the same --pid, --tid and
--time, which the panel prints; the halves of the recording (a drag to
the middle and one from it) add up to the whole, function by function;
a recording without sample times has the thread boxes and says why it
has no timeline.

Screenshots: build/test-artifacts/browser/threads/ (look at them).
"""
import json
import os
import re
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import report_base
from report_base import ARTIFACTS, TOP_ROWS, Page, ReportBase, number
from test_report_explore import ALL_ROWS

# procs.data: two processes of two threads each; two.data: one process
# of two threads and two events; notime.data: no sample times
INPUTS = ('procs', 'two', 'notime')
# reports made of a choice of samples: the panel's options keep it
CHOSEN = {'procs-chosen': ['--comm=spinner', '--time=10%-60%']}


def cli(args):
    return json.loads(report_base.run(['--json'] + args))


def pct(v, total):
    """As the page's pct(): printf's %.2f of the share"""
    return '%.2f%%' % (100.0 * v / total) if total else ''


class ThreadsTest(ReportBase):
    made = {}

    def report(self, name):
        """The report of a recording (procs-chosen: of the samples the
        command line chose), the recording, and the report's --json"""
        if name not in self.made:
            data = 'tests/perf/%s.data' % name.split('-')[0]
            args = CHOSEN.get(name, []) + [data]
            path = os.path.join(self.tmp, 'threads-' + name + '.html')
            subprocess.run([report_base.BIN, '--output=html', '-o', path] +
                           args, check=True, capture_output=True)
            self.made[name] = (path, data, cli(args))
        return self.made[name]

    def shot(self, p, name):
        os.makedirs(os.path.join(ARTIFACTS, 'threads'), exist_ok=True)
        p.shot(os.path.join('threads', name))

    def cli_opts(self, p):
        """The options the panel says the page's numbers are of"""
        text = p.js("return document.getElementById('tracks-cli').textContent")
        return [] if text.startswith('(') else text.split(' ')

    def top(self, p):
        return p.js(TOP_ROWS)

    def panel(self, p):
        """The panel's thread rows: {tid: (samples, cost, share)}"""
        rows = p.js("""
            return [...document.querySelectorAll('#tracks-table .thread-row')]
                .map(r => [...r.children].map(c => c.textContent));""")
        out = {}
        for cells in rows:
            tid = int(re.search(r'\(tid (-?\d+)\)', cells[1]).group(1))
            out[tid] = (number(cells[2]), number(cells[3]), cells[4])
        return out

    def rest(self, p):
        """The hash's parameters (the selection), for another place"""
        return p.js("const h = location.hash;"
                    "return h.includes('&') ? h.slice(h.indexOf('&')) : '';")

    def views(self, p, fid):
        """Each view's total in view, and the function's in its views"""
        rest = self.rest(p)
        got = {}
        p.go('#flame' + rest)
        got['flame'] = p.js("""
            const f = [...document.querySelectorAll('#view .fr')]
                .find(d => Number(d.dataset.node) === -1);
            return f ? Number(f.dataset.value) : null;""")
        for view in ('calltree', 'bottomup'):
            p.go('#' + view + rest)
            got[view] = sum(number(r['cells'][0]) for r in
                            p.js(ALL_ROWS, view) if r['depth'] == 0)
        p.go('#sandwich/%d%s' % (fid, rest))
        got['sandwich'] = p.js("""
            return Number(document.querySelector(
                '#sandwich .fr[data-half="middle"]').dataset.value);""")
        p.go('#fn/%d%s' % (fid, rest))
        facts = p.js("return document.querySelector('#function p:nth-of-type(2)')"
                     ".textContent")
        got['fn-self'] = number(re.search(r'self ([\d,.]+)', facts).group(1))
        got['fn-incl'] = number(re.search(r'inclusive ([\d,.]+)', facts)
                                .group(1))
        # its callers and callees: {page function id: cost}
        for side in ('callers', 'callees'):
            got[side] = {int(re.match(r'#fn/(\d+)', h).group(1)): number(c)
                         for c, h in p.js("""
                return [...document.querySelectorAll(
                    '#fn-xform-' + arguments[0] + ' tr')].map(r => [
                    r.cells[0].textContent,
                    (r.querySelector('a[href^="#fn/"]') || {getAttribute:
                        () => null}).getAttribute('href')])
                  .filter(x => x[1]);""", side)}
        p.go('#top' + rest)
        return got

    def check(self, p, name, ev=0):
        """Every number shown against --json with the panel's options;
        the page's Top as {(name, object): (self, inclusive)}"""
        path, data, whole = self.report(name)
        opts = self.cli_opts(p)
        want = cli(opts + [data])
        total = want['totals'][ev]
        ids = {f['id']: (f['name'], f['object']) for f in whole['functions']}
        wfn = {(f['name'], f['object']): f for f in want['functions']
               if f['self'][ev] or f['inclusive'][ev]}
        got = {}
        for fid, cells in self.top(p):
            key = ids[fid]
            got[key] = (number(cells[0]), number(cells[2]))
            self.assertIn(key, wfn, '%s: %s shown, not in %s'
                          % (opts, key, opts))
            f = wfn[key]
            self.assertEqual(got[key], (f['self'][ev], f['inclusive'][ev]),
                             '%s: %s' % (opts, key))
            self.assertEqual((cells[1], cells[3]),
                             (pct(f['self'][ev], total),
                              pct(f['inclusive'][ev], total)),
                             '%s: %s shares' % (opts, key))
        self.assertEqual(set(got), set(wfn), '%s: the functions' % opts)
        if self.rest(p):
            text = p.js("return document.getElementById('in-view').textContent")
            self.assertEqual(number(re.match(r'in view: ([\d,.]+)', text)
                                    .group(1)), total)
        # the panel: each chosen thread's samples and cost are --json's
        threads = {t['tid']: t for t in want['threads']}
        for tid, (samples, cost, share) in self.panel(p).items():
            if share == '':
                continue
            t = threads.get(tid, {'samples': [0] * 9, 'cost': [0] * 9})
            self.assertEqual((samples, cost),
                             (t['samples'][ev], t['cost'][ev]),
                             '%s: thread %d' % (opts, tid))
            self.assertEqual(share, pct(t['cost'][ev], total))
        heavy = max(want['functions'], key=lambda f: (f['inclusive'][ev],
                                                      f['self'][ev]))
        fid = next(i for i, k in ids.items()
                   if k == (heavy['name'], heavy['object']))
        v = self.views(p, fid)
        # the arcs, by --json's: each stack counted once (the view of
        # the whole profile shows the call graph's, test_report_views')
        cid = {f['id']: (f['name'], f['object']) for f in want['functions']}
        page = {k: i for i, k in ids.items()}
        for side, mine, other in (('callers', 'callee', 'caller'),
                                  ('callees', 'caller', 'callee')):
            arcs = {page[cid[a[other]]]: a['inclusive'][ev]
                    for a in want['arcs']
                    if cid[a[mine]] == (heavy['name'], heavy['object'])
                    and a['inclusive'][ev]}
            shown = v.pop(side)
            if self.rest(p):
                self.assertEqual(shown, arcs, '%s: %s' % (opts, side))
        self.assertEqual(v, {'flame': total, 'calltree': total,
                             'bottomup': total,
                             'sandwich': heavy['inclusive'][ev],
                             'fn-self': heavy['self'][ev],
                             'fn-incl': heavy['inclusive'][ev]},
                         '%s: the views' % opts)
        return got

    def open(self, name, hash_='#top'):
        p = Page(self.driver, self.report(name)[0])
        p.go(hash_)
        return p

    def click(self, p, css):
        p.d.find_element(By.CSS_SELECTOR, css).click()
        p.js("return 0")
        p.go(p.js("return location.hash"))

    def drag(self, p, x0, x1, track=0):
        """A drag across the strip of a track from x0 to x1, fractions of
        its width"""
        cv = p.d.find_element(By.CSS_SELECTOR,
                              'canvas.strip[data-track="%d"]' % track)
        w = cv.size['width']
        before = p.js("return location.hash")
        (ActionChains(p.d)
         .move_to_element_with_offset(cv, int(w * x0 - w / 2) + (1 if x0 == 0 else 0), 0)
         .click_and_hold()
         .move_to_element_with_offset(cv, int(w * x1 - w / 2) - (1 if x1 == 1 else 0), 0)
         .release().perform())
        if x1 == 1:
            # the last pixel's bucket: to the end
            pass
        self.assertNotEqual(p.js("return location.hash"), before)
        p.go(p.js("return location.hash"))

    def test_processes_and_threads_as_the_command_line(self):
        p = self.open('procs')
        whole = self.check(p, 'procs')
        self.shot(p, 'procs-all')
        path, data, doc = self.report('procs')
        # the panel's totals with nothing chosen are --threads's
        self.assertEqual(
            {t: v[:2] for t, v in self.panel(p).items()},
            {t['tid']: (t['samples'][0], t['cost'][0])
             for t in doc['threads']})
        pid = sorted({t['pid'] for t in doc['threads']})[0]
        # a process's box off: the other process alone, --pid
        self.click(p, '.track-proc[data-pid="%d"]' % pid)
        self.assertTrue(self.cli_opts(p)[0].startswith('--pid='))
        one = self.check(p, 'procs')
        self.shot(p, 'procs-one-process')
        # then one thread of that one off too: --tid
        other = next(t for t in doc['threads'] if t['pid'] != pid)
        self.click(p, '.track-thread[data-track="%d"]' % p.js(
            "return Number(document.querySelector('.thread-row:not(.off)')"
            ".dataset.track)"))
        self.assertTrue(self.cli_opts(p)[0].startswith('--tid='))
        self.check(p, 'procs')
        self.shot(p, 'procs-one-thread')
        self.assertLess(sum(s for s, i in one.values()),
                        sum(s for s, i in whole.values()))
        self.assertTrue(other)
        # back to every sample
        p.d.find_element(By.ID, 'tracks-all').click()
        p.go(p.js("return location.hash"))
        self.assertEqual(self.cli_opts(p), [])

    def test_time_ranges_as_the_command_line(self):
        p = self.open('procs')
        whole = self.check(p, 'procs')
        halves = []
        for x0, x1 in ((0, 0.5), (0.5, 1)):
            p = self.open('procs')
            self.drag(p, x0, x1)
            opts = self.cli_opts(p)
            self.assertEqual(len(opts), 1)
            self.assertTrue(opts[0].startswith('--time='), opts)
            halves.append((opts[0], self.check(p, 'procs')))
            self.shot(p, 'procs-half-%d' % len(halves))
        # the halves meet: the first's last nanosecond is one before the
        # second's first
        a = re.match(r'--time=([\d.]+),([\d.]+)', halves[0][0]).groups()
        b = re.match(r'--time=([\d.]+),([\d.]+)', halves[1][0]).groups()
        ns = lambda s: int(s.replace('.', ''))
        self.assertEqual(ns(a[1]) + 1, ns(b[0]))
        # ... and add up to the whole, function by function
        summed = {}
        for _, got in halves:
            for k, (s, i) in got.items():
                summed[k] = summed.get(k, 0) + s
        self.assertEqual({k: v for k, v in summed.items() if v},
                         {k: s for k, (s, i) in whole.items() if s})
        # a range and a thread at once, the function shown coloured
        p = self.open('procs')
        self.drag(p, 0.2, 0.7, track=1)
        self.click(p, '.track-thread[data-track="1"]')
        self.check(p, 'procs')
        p.go('#fn/0' + self.rest(p))
        self.shot(p, 'procs-range-thread-fn')

    def test_two_events(self):
        p = self.open('two')
        self.click(p, '.track-thread[data-track="0"]')
        self.drag(p, 0.1, 0.9, track=1)
        path, data, doc = self.report('two')
        for ev in range(len(doc['events'])):
            p.js("const s = document.getElementById('event');"
                 "s.selectedIndex = arguments[0];"
                 "s.dispatchEvent(new Event('change'));", ev)
            p.go(p.js("return location.hash"))
            self.check(p, 'two', ev)
            self.shot(p, 'two-event-%d' % ev)

    def test_no_times_no_timeline(self):
        p = self.open('notime')
        note = p.js("return document.getElementById('timeline-none').textContent")
        self.assertIn('no sample times', note)
        self.assertFalse(p.js("return !!document.querySelector('canvas.strip')"))
        doc = self.report('notime')[2]
        self.assertEqual(
            {t: v[:2] for t, v in self.panel(p).items()},
            {t['tid']: (t['samples'][0], t['cost'][0])
             for t in doc['threads']})
        self.check(p, 'notime')
        # its one thread off: nothing in view; on again: all of it
        self.click(p, '.track-thread[data-track="0"]')
        self.assertIn('no thread', p.js(
            "return document.getElementById('tracks-cli').textContent"))
        text = p.js("return document.getElementById('in-view').textContent")
        self.assertEqual(number(re.match(r'in view: ([\d,.]+)', text)
                                .group(1)), 0)
        self.shot(p, 'notime-none')
        self.click(p, '.track-thread[data-track="0"]')
        self.check(p, 'notime')
        self.shot(p, 'notime')

    def test_range_in_the_address(self):
        p = self.open('procs')
        self.drag(p, 0.3, 0.6)
        self.click(p, '.track-thread[data-track="0"]')
        opts = self.cli_opts(p)
        hash_ = p.js("return location.hash")
        # opened again from the address: the same selection
        p = Page(self.driver, self.report('procs')[0])
        p.open(hash_)
        self.assertEqual(self.cli_opts(p), opts)
        self.check(p, 'procs')

    def test_reports_without_threads(self):
        # the command line's transforms rewrote the stacks: said
        path = os.path.join(self.tmp, 'threads-focus.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', path,
                        '--focus=main', 'tests/perf/procs.data'],
                       check=True, capture_output=True)
        p = Page(self.driver, path)
        note = p.js("return document.getElementById('tracks-none').textContent")
        self.assertIn('transforms on the command line', note)
        self.shot(p, 'cli-focus')
        # gperftools, pprof, Callgrind: no threads, no panel
        for name, args in (('gperf', ['-b', 'tests/gperf/prog',
                                      'tests/gperf/prog.prof']),
                           ('pprof', ['tests/pprof/cpu.pb.gz']),
                           ('callgrind', report_base.PROFILES['callgrind'])):
            path = os.path.join(self.tmp, 'threads-' + name + '.html')
            subprocess.run([report_base.BIN, '--output=html', '-o', path] +
                           args, check=True, capture_output=True)
            p = Page(self.driver, path)
            p.go('#top')
            self.assertTrue(p.js(
                "const t = document.getElementById('tracks');"
                "return !t || t.hidden"), name)

    def test_range_by_the_keys(self):
        p = self.open('procs')
        span = p.js("return document.getElementById('range-to').value")
        half = float(span) / 2
        for a, b in ((0, half), (half, float(span))):
            f = p.d.find_element(By.ID, 'range-from')
            f.clear()
            f.send_keys(str(a))
            t = p.d.find_element(By.ID, 'range-to')
            t.clear()
            t.send_keys(str(b) + '\n')
            p.go(p.js("return location.hash"))
            self.assertTrue(self.cli_opts(p)[0].startswith('--time='))
            self.check(p, 'procs')
        self.shot(p, 'procs-keys')

    def test_the_command_lines_choice_kept(self):
        p = self.open('procs-chosen')
        self.assertEqual(self.cli_opts(p),
                         ['--comm=spinner', '--time=10%-60%'])
        self.check(p, 'procs-chosen')
        self.click(p, '.track-thread[data-track="0"]')
        opts = self.cli_opts(p)
        self.assertEqual(opts[1:], ['--comm=spinner', '--time=10%-60%'])
        self.check(p, 'procs-chosen')
        self.drag(p, 0.25, 0.75, track=1)
        opts = self.cli_opts(p)
        self.assertEqual(opts[1], '--comm=spinner')
        self.assertTrue(opts[2].startswith('--time=1'), opts)
        self.check(p, 'procs-chosen')
        self.shot(p, 'procs-chosen')

    def test_cut_page_threads_as_the_command_line(self):
        """At the default threshold the page merges narrow call paths
        (report_keep.c): fp.data's has such frames, and a thread's
        samples still all land in its tree (the stacks' roots are never
        merged), so the total in view is --tid's."""
        path = os.path.join(self.tmp, 'threads-fp-cut.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', path,
                        'tests/perf/fp.data'], check=True, capture_output=True)
        with open(path) as f:
            self.assertIn('"more_parent"', f.read())
        doc = cli(['tests/perf/fp.data'])
        p = Page(self.driver, path)
        p.go('#top')
        for t in doc['threads']:
            p.go("#top&threads=%s" % p.js(
                "return [...document.querySelectorAll('.thread-row')]"
                ".find(r => r.textContent.includes('(tid %d)')).dataset.track"
                % t['tid']))
            self.assertEqual(self.cli_opts(p), ['--tid=%d' % t['tid']])
            want = cli(['--tid=%d' % t['tid'], 'tests/perf/fp.data'])
            shown = p.js("return document.getElementById('in-view').textContent")
            self.assertEqual(number(re.match(r'in view: ([\d,]+)', shown).group(1)),
                             want['totals'][0])
            # exact: the page keeps the merged paths for its figures
            # (test_report_cut_exact.py), no note says otherwise
            self.assertFalse(p.js("return !!document.getElementById('crumbs-cut')"))
            self.assertFalse(p.js("return !!document.getElementById('tracks-unplaced')"))
        self.shot(p, 'fp-cut-thread')

