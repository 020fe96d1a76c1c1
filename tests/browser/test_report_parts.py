"""The report's threads and dumps of Callgrind profiles (issue 35): the
tracks panel of tests/callgrind-threads/ (valgrind 3.19's files of a
fork with three threads in each process, and of client-request dumps
with --separate-threads=yes, make.sh there), used as a user does (a
click on a process's or a thread's box, a drag across the strips of
dumps), and the numbers the page then shows against the command line
the panel prints:

- the panel's per-thread totals are --threads --json's, with nothing
  chosen and with a stretch of dumps chosen (then the sum of those
  dumps' --parts rows); each part's cost is callgrind_annotate's
  PROGRAM TOTALS of its file (procs/, dumps/: a file per part), or of
  the part written alone (combined.out: --part, --tid,
  --output=callgrind);
- Top's self and inclusive columns, row by row, are --json's with the
  panel's --pid, --tid or --part (each function's self in a part is
  exact, its inclusive the part's measured one); the trees' call paths
  are estimates under a choice, which the panel says, and are not
  compared; the total in view and the flame graph's root are the
  chosen parts' total;
- the dumps chosen one by one add up to the whole, function by
  function.

The page is made at --threshold=0, as the other browser tests' (every
function of --json on it); the default page (cut) is checked for the
panel's totals alone, and its size against the same page without the
parts (issue 35: at most 1.5 times).

Screenshots: build/test-artifacts/browser/parts/ (look at them).
"""
import glob
import json
import os
import re
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import report_base
from report_base import ARTIFACTS, TOP_ROWS, Page, ReportBase, number

DIR = 'tests/callgrind-threads'
INPUTS = {
    'procs': sorted(glob.glob(DIR + '/procs/callgrind.out.*-0*')),
    'dumps': sorted(glob.glob(DIR + '/dumps/callgrind.out.*-0*')),
    'combined': [DIR + '/combined.out'],
    # IgProf's buffers: two, of whole stacks, in one process
    'igprof': ['tests/inputs/igprof/perf.txt'],
}
# a report of thread 3 of each process: the panel keeps its --tid
INPUTS['procs-tid3'] = ['--tid=3'] + INPUTS['procs']
# a report of one dump of three threads: the panel keeps its --part
INPUTS['combined-part2'] = ['--part=2'] + INPUTS['combined']


def cli(args):
    return json.loads(report_base.run(['--json'] + args))


def annotate_totals(path):
    """callgrind_annotate's PROGRAM TOTALS of a file, one per event"""
    out = subprocess.run(['callgrind_annotate', path], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.endswith('PROGRAM TOTALS'):
            return [int(w.replace(',', '')) for w in line.split()
                    if re.fullmatch(r'[\d,]+', w)]
    raise AssertionError('no PROGRAM TOTALS for ' + path)


class PartsTest(ReportBase):
    made = {}

    def report(self, name, cut=False):
        """The report of an input, and its --json"""
        key = (name, cut)
        if key not in self.made:
            args = INPUTS[name]
            path = os.path.join(self.tmp, 'parts-%s%s.html'
                                % (name, '-cut' if cut else ''))
            subprocess.run([report_base.BIN, '--output=html', '-o', path] +
                           ([] if cut else ['--threshold=0']) + args,
                           check=True, capture_output=True)
            self.made[key] = (path, cli(args))
        return self.made[key]

    def open(self, name, cut=False):
        p = Page(self.driver, self.report(name, cut)[0])
        p.go('#top')
        return p

    def shot(self, p, name):
        os.makedirs(os.path.join(ARTIFACTS, 'parts'), exist_ok=True)
        p.shot(os.path.join('parts', name))

    def cli_opts(self, p):
        text = p.js("return document.getElementById('tracks-cli').textContent")
        return [] if text.startswith('(') else text.split(' ')

    def rest(self, p):
        return p.js("const h = location.hash;"
                    "return h.includes('&') ? h.slice(h.indexOf('&')) : '';")

    def click(self, p, css):
        p.d.find_element(By.CSS_SELECTOR, css).click()
        p.js("return 0")
        p.go(p.js("return location.hash"))

    def drag(self, p, x0, x1, track=0):
        """A drag across a track's strip from x0 to x1 (fractions)"""
        cv = p.d.find_element(By.CSS_SELECTOR,
                              'canvas.strip[data-track="%d"]' % track)
        w = cv.size['width']
        (ActionChains(p.d)
         .move_to_element_with_offset(cv, int(w * x0 - w / 2) +
                                      (1 if x0 == 0 else 0), 0)
         .click_and_hold()
         .move_to_element_with_offset(cv, int(w * x1 - w / 2) -
                                      (1 if x1 == 1 else 0), 0)
         .release().perform())
        p.go(p.js("return location.hash"))

    def sdoc(self, p):
        """The page's samples document"""
        return json.loads(p.js("return document.getElementById("
                               "'cga-samples').textContent"))

    def track(self, p, pid, tid):
        T = self.sdoc(p)['tracks']
        return next(i for i in range(T['n'])
                    if (T['pid'][i], T['tid'][i]) == (pid, tid))

    def panel(self, p):
        """The panel's thread rows: {(pid, thread): (parts, cost, share)}"""
        T = self.sdoc(p)['tracks']
        rows = p.js("""
            return [...document.querySelectorAll('#tracks-table .thread-row')]
                .map(r => [Number(r.dataset.track),
                           ...[...r.children].map(c => c.textContent)]);""")
        return {(T['pid'][r[0]], T['tid'][r[0]]):
                (number(r[3]), number(r[4]), r[5]) for r in rows}

    def top(self, p):
        """Top's rows: {page function id: (self, inclusive)}"""
        rows = p.js(TOP_ROWS)
        return {fid: (number(c[0]), number(c[2])) for fid, c in rows}

    def check(self, p, name, ev=0):
        """Top's self column and the totals against --json with the
        panel's options; returns {(name, file): self} shown"""
        path, whole = self.report(name)
        opts = self.cli_opts(p)
        self.assertTrue(all(o.startswith('--') for o in opts), opts)
        want = cli(opts + INPUTS[name])
        total = want['totals'][ev]
        key = lambda f: (f['name'], f['file'], f['object'])
        ids = {f['id']: key(f) for f in whole['functions']}
        wself = {key(f): f['self'][ev]
                 for f in want['functions'] if f['self'][ev]}
        got = {}
        top = self.top(p)
        for fid, (self_, incl) in top.items():
            if self_:
                got[ids[fid]] = self_
        self.assertEqual(got, wself, '%s: Top\'s self column' % opts)
        if self.rest(p):
            # each part's measured inclusive costs (IgProf's: of its
            # stacks), summed over the parts chosen
            self.assertEqual({ids[f]: i for f, (s, i) in top.items() if i},
                             {key(f): f['inclusive'][ev]
                              for f in want['functions']
                              if f['inclusive'][ev]},
                             '%s: Top\'s inclusive column' % opts)
        if self.rest(p):
            text = p.js("return document.getElementById('in-view')"
                        ".textContent")
            self.assertEqual(number(re.match(r'in view: ([\d,.]+)', text)
                                    .group(1)), total, opts)
        p.go('#flame' + self.rest(p))
        root = p.js("""
            const f = [...document.querySelectorAll('#view .fr')]
                .find(d => Number(d.dataset.node) === -1);
            return f ? Number(f.dataset.value) : null;""")
        self.assertEqual(root, total, '%s: the flame graph\'s root' % opts)
        p.go('#top' + self.rest(p))
        return got

    def threads_json(self, args, ev=0):
        """--threads's rows, {(pid, thread): cost}; IgProf's, which
        names no thread, its processes' (the sums of its --parts)"""
        doc = cli(['--threads'] + args)
        if 'threads' in doc:
            return {(t['pid'], t['tid']): t['cost'][ev]
                    for t in doc['threads']}
        out = {}
        for q in doc['parts']:
            k = (q['pid'], q['tid'] or 0)
            out[k] = out.get(k, 0) + q['cost'][ev]
        return out

    def test_panel_totals_are_threads_and_annotate(self):
        for name in INPUTS:
            for cut in (False, True):
                p = self.open(name, cut)
                shown = {k: v[1] for k, v in self.panel(p).items()}
                self.assertEqual(shown, self.threads_json(INPUTS[name]),
                                 '%s: the panel\'s threads' % name)
                self.assertTrue(p.js(
                    "return !!document.getElementById('tracks-estimated')"))
                self.shot(p, name + ('-cut' if cut else ''))
        # a file per part: each part's costs callgrind_annotate's
        # PROGRAM TOTALS of its file, which are its summary: line. With
        # --cache-sim=yes (dumps/) callgrind writes a summary: a few Ir
        # off its cost lines (122,494 against 122,502 in the last dump
        # of thread 1): ours are the cost lines' (its totals: line), as
        # --threads's, so that the threads add up to the flat profile
        # (tests/callgrind_threads_check.py, FORMAT-NOTES Q27); there
        # the summary: line is checked to be callgrind_annotate's
        for name in ('procs', 'dumps'):
            path, doc = self.report(name)
            S = self.sdoc(Page(self.driver, path))
            T = S['tracks']
            for f in INPUTS[name]:
                text = open(f).read()
                head = lambda k: [int(x) for x in re.search(
                    r'^%s: ([\d ]+)$' % k, text, re.M).group(1).split()]
                num = head('part')[0]
                tid = head('thread')[0]
                pid = head('pid')[0]
                k = S['dumps'].index(num)
                t = next(i for i in range(T['n'])
                         if (T['pid'][i], T['tid'][i]) == (pid, tid))
                row = next(r for r in S['part_cost']
                           if r[0] == k and r[1] == t)
                ann = annotate_totals(f)
                self.assertEqual(head('summary'), ann, f)
                want = ann if name == 'procs' else head('totals')
                self.assertEqual(row[2:2 + len(ann)], want,
                                 '%s: the part\'s costs' % f)
        # combined.out, which callgrind_annotate cannot read (it adds
        # every part up): each part written alone with --part and --tid
        # (--output=callgrind), as tests/callgrind_threads_check.py does
        path, doc = self.report('combined')
        S = self.sdoc(Page(self.driver, path))
        for k, t, *cost in S['part_cost']:
            if not cost[0]:
                continue  # no cost line: callgrind_annotate says nothing
            one = os.path.join(self.tmp, 'part.out')
            report_base.run(['--part=%d' % S['dumps'][k],
                             '--tid=%d' % S['tracks']['tid'][t],
                             '--output=callgrind', '-o', one] +
                            INPUTS['combined'])
            self.assertEqual(cost[:1], annotate_totals(one)[:1],
                             'combined.out part %d thread %d'
                             % (S['dumps'][k], S['tracks']['tid'][t]))

    def test_threads_and_processes_as_the_command_line(self):
        p = self.open('procs')
        self.check(p, 'procs')
        path, doc = self.report('procs')
        pids = sorted({t['pid'] for t in cli(['--threads'] +
                                             INPUTS['procs'])['threads']})
        # one process off: --pid of the other
        self.click(p, '.track-proc[data-pid="%d"]' % pids[0])
        self.assertEqual(self.cli_opts(p), ['--pid=%d' % pids[1]])
        self.check(p, 'procs')
        self.shot(p, 'procs-one-process')
        # then its thread 3 off too: --pid and --tid
        track = self.track(p, pids[1], 3)
        self.click(p, '.track-thread[data-track="%d"]' % track)
        self.assertEqual(self.cli_opts(p), ['--pid=%d' % pids[1],
                                            '--tid=1,2'])
        self.check(p, 'procs')
        self.shot(p, 'procs-two-threads')
        # thread 1 of each process: --tid=1 alone
        p = self.open('procs')
        T = self.sdoc(p)['tracks']
        for t in range(6):
            if T['tid'][t] != 1:
                self.click(p, '.track-thread[data-track="%d"]' % t)
        self.assertEqual(self.cli_opts(p), ['--tid=1'])
        self.check(p, 'procs')
        # the main thread of one and a worker of the other: no options
        # say it, and the panel says so
        self.click(p, '.track-thread[data-track="%d"]' % T['tid'].index(2))
        self.assertIn('no --pid and --tid', p.js(
            "return document.getElementById('tracks-cli').textContent"))
        # a report made with --tid=3: one process's thread 3 is
        # --pid and that --tid, not the process's every thread
        p = self.open('procs-tid3')
        self.assertEqual(self.cli_opts(p), ['--tid=3'])
        self.check(p, 'procs-tid3')
        self.click(p, '.track-proc[data-pid="%d"]' % pids[0])
        self.assertEqual(self.cli_opts(p), ['--pid=%d' % pids[1], '--tid=3'])
        self.check(p, 'procs-tid3')
        # a report made with --part=2: its threads, --part kept
        p = self.open('combined-part2')
        self.assertEqual(self.cli_opts(p), ['--part=2'])
        self.assertIn('--part=2', p.js(
            "return document.getElementById('timeline-none').textContent"))
        self.click(p, '.track-thread[data-track="%d"]'
                   % self.track(p, self.sdoc(p)['tracks']['pid'][0], 1))
        self.assertEqual(self.cli_opts(p), ['--tid=2,3', '--part=2'])
        self.check(p, 'combined-part2')
        self.shot(p, 'combined-part2-threads')

    def test_dumps_as_the_command_line(self):
        for name in ('dumps', 'combined', 'igprof'):
            p = self.open(name)
            whole = self.check(p, name)
            S = self.sdoc(p)
            n = S['buckets']
            summed = {}
            for k in range(n):
                p = self.open(name)
                # a drag within a dump's stretch: that dump
                self.drag(p, (k + 0.3) / n, (k + 0.7) / n)
                self.assertEqual(self.cli_opts(p)[-1],
                                 '--part=%d' % S['dumps'][k])
                got = self.check(p, name)
                for key, v in got.items():
                    summed[key] = summed.get(key, 0) + v
                if k == 0:
                    self.shot(p, name + '-first-dump')
            self.assertEqual(summed, whole, '%s: the dumps add up' % name)
        # a stretch of dumps of one thread: its panel row is the sum of
        # those parts' --parts rows
        p = self.open('combined')
        self.drag(p, 0.3, 0.75, track=2)
        a, b = map(int, re.search(r'&time=(\d+)-(\d+)', self.rest(p))
                   .groups())
        S = self.sdoc(p)
        parts = cli(['--parts'] + INPUTS['combined'])['parts']
        nums = S['dumps'][a:b]
        for (pid, tid), (nparts, cost, share) in self.panel(p).items():
            rows = [q for q in parts if q['tid'] == tid and
                    (q['part'] or q['ordinal']) in nums]
            self.assertEqual((nparts, cost),
                             (len(rows), sum(q['cost'][0] for q in rows)),
                             'thread %d, dumps %s' % (tid, nums))
        self.shot(p, 'combined-stretch')
        # the function shown in its own colour along the strips
        spin = next(f['id'] for f in self.report('combined')[1]['functions']
                    if f['name'] == 'spin')
        p.go('#fn/%d%s' % (spin, self.rest(p)))
        self.shot(p, 'combined-stretch-fn')

    def test_whole_named_by_its_parts(self):
        """With nothing chosen the panel says 'every dump' (IgProf's
        'every buffer'), and so does the link back to it under a
        choice: a Callgrind file's dumps are no samples (said 'every
        sample' for both)."""
        for name, word in (('combined', 'dump'), ('igprof', 'buffer')):
            p = self.open(name)
            self.assertEqual(p.js("return document.getElementById("
                                  "'tracks-cli').textContent"),
                             '(no option: every %s)' % word)
            self.drag(p, 0.1, 0.3)
            self.assertEqual(p.d.find_element(By.ID, 'tracks-all').text,
                             'every ' + word)
            self.shot(p, name + '-every-' + word)

    def test_many_dumps(self):
        """300 dumps, past the 256 parts the page took while it read
        each part again alone (session 21 reads them in one pass): the
        panel is there, its thread is --threads's, and a dump chosen
        (by the hash: 300 dumps are a pixel or two each) is --part=N's
        figures, its tree estimated from its own calls"""
        name = 'many-dumps'
        path = os.path.join(self.tmp, name + '.out')
        with open(path, 'w') as f:
            f.write('# callgrind format\nversion: 1\ncreator: test\n'
                    'pid: 7\ncmd: ./many\npositions: line\n'
                    'events: Ir\n')
            for d in range(1, 301):
                w, leaf = 'work%d' % (d % 5), 'leaf%d' % (d % 3)
                own, sub, low = d % 7 + 1, 10 + d % 11, 3 + d % 4
                f.write('part: %d\nfl=many.c\nfn=main\n1 %d\n'
                        'cfn=%s\ncalls=%d 10\n2 %d\n'
                        'fn=%s\n10 %d\ncfn=%s\ncalls=1 20\n11 %d\n'
                        'fn=%s\n20 %d\ntotals: %d\n'
                        % (d, own, w, d % 4 + 1, sub + low, w, sub, leaf,
                           low, leaf, low, own + sub + low))
        INPUTS[name] = [path]
        try:
            p = self.open(name)
            S = self.sdoc(p)
            self.assertEqual(S['buckets'], 300)
            self.assertEqual({k: v[1] for k, v in self.panel(p).items()},
                             self.threads_json(INPUTS[name]))
            self.check(p, name)
            for k in (0, 137, 299):
                p = self.open(name)
                p.go('#top&time=%d-%d' % (k, k + 1))
                self.assertEqual(self.cli_opts(p)[-1],
                                 '--part=%d' % S['dumps'][k])
                self.check(p, name)
            self.shot(p, name)
        finally:
            del INPUTS[name]

    def test_many_buffers(self):
        """IgProf: 300 buffers, past the 256 the page took while it
        read each buffer again alone (session 21 hands each on at its
        end in one pass), most beginning below the stack the one before
        left: the panel is there, and buffers chosen by the hash are
        --part=N --json's figures, self and inclusive"""
        name = 'many-buffers'
        path = os.path.join(self.tmp, name + '.txt')
        lines = ['P=(ID=9 N=(./many) T=0.010000)']
        defined = set()
        for b in range(300):
            # the buffer's first frame at depth 1 to 3: under the
            # frames the buffer before left on the stack
            d0 = 1 + b % 3 if b else 1
            fr = [(d0, b % 7), (d0 + 1, b % 5), (d0 + 2, (b * 3) % 11),
                  (d0 + 1, b % 4), (d0, (b + 2) % 7)]
            for i, (d, f) in enumerate(fr):
                fn = ('FN%d=(F0%s+%d N=(f%d))+1' % (f, '' if lines[1:]
                                                   else '=(./many)',
                                                   100 * f, f)
                      if f not in defined else 'FN%d+1' % f)
                defined.add(f)
                v = ('V%d=(PERF_TICKS)' % b) if i == 0 else 'V%d' % b
                n = (b * 7 + i * 3) % 5
                lines.append('C%d %s %s:(%d,%d,%d)' % (d, fn, v, n, n, n))
        with open(path, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        INPUTS[name] = [path]
        try:
            p = self.open(name)
            S = self.sdoc(p)
            self.assertEqual(S['buckets'], 300)
            self.check(p, name)
            for k in (0, 1, 137, 299):
                p = self.open(name)
                p.go('#top&time=%d-%d' % (k, k + 1))
                self.assertEqual(self.cli_opts(p)[-1], '--part=%d' % (k + 1))
                self.check(p, name)
            self.shot(p, name)
        finally:
            del INPUTS[name]

    def test_tiny_buffers(self):
        """A file of 20000 buffers of a line each, each defining a new
        function (hostile, or a run of many short threads): read in one
        pass, in bounded time and memory, and the panel has them all
        (the page took 256 while it read each buffer again alone); one
        more buffer is past the parts a page takes, and the page says
        why"""
        for n in (20000, 20001):
            path = os.path.join(self.tmp, 'tiny-%d.txt' % n)
            with open(path, 'w') as f:
                f.write('P=(ID=1 N=(./x) T=0.01)\n')
                for i in range(n):
                    f.write('C1 FN%d=(F%d=(x)+%d N=(f%d))+0 '
                            'V%d=(T):(1,1,1)\n' % (i, i, i + 1, i % 50, i))
            out = os.path.join(self.tmp, 'tiny-%d.html' % n)
            r = subprocess.run(['/usr/bin/time', '-f', '%e %M',
                                report_base.BIN, '--output=html', '-o', out,
                                path], check=True, capture_output=True,
                               text=True)
            secs, kb = r.stderr.split()[-2:]
            # 0.15 s and 18 MiB here
            self.assertLess(float(secs), 20)
            self.assertLess(int(kb), 256 * 1024)
            p = Page(self.driver, out)
            p.go('#top')
            if n == 20000:
                self.assertEqual(self.sdoc(p)['buckets'], n)
                self.assertTrue(p.js("return !!document.querySelector"
                                     "('canvas.strip')"))
                self.shot(p, 'tiny-buffers')
                continue
            note = p.js("return document.getElementById('tracks-none')"
                        ".textContent")
            self.assertIn('more than 20000 parts', note)
            self.assertFalse(p.js("return !!document.querySelector"
                                  "('canvas.strip')"))
            self.shot(p, 'too-many-buffers')

    def test_page_size(self):
        """The parts' records against the same page without them (one
        part read, --part: no panel) of the same functions"""
        for name in INPUTS:
            path, doc = self.report(name, cut=True)
            size = os.path.getsize(path)
            text = open(path).read()
            i = text.index('id="cga-samples"')
            samples = text.index('</script>', i) - i
            self.assertLess(size, 1.5 * (size - samples), name)
