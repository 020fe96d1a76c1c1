"""The diff report (--diff --output=html, issue 35): its numbers against
--diff --json's for the same pair, on every input kind --diff reads.

- Top (costs): each row's base, new and change of self and inclusive
  cost and the change's percentage of BASE's total are --json's, in
  --json's order (largest change first), as many rows as it lists.
- The differential flame graph's root spans NEW's total and says BASE's,
  NEW's and the change on hover; so does a frame.
- The switch ("&shares=1"): Top's changes are of shares, each equal to
  NEW's share less BASE's as computed here from --json's costs and
  totals; the hash keeps it across the tabs.
- Two builds of one program at two paths (tests/diff/builds: fib -O0,
  fib-O2 -O2, Callgrind and perf.data) compare function by function: no
  name is both "only in base" and "only in new".
- perf.data (exact stacks): bottom-up's roots are the functions' self
  costs, --json's; the call tree's roots add up to each side's total.
- Against perf diff (tests/perf/fp-dwarf.diff, fp.data to dwarf.data):
  with the switch, each symbol's base share and change of share are
  perf diff's Baseline and Delta, in its order.
- No view leaves an error in the browser's console (ReportBase).

Run with tests/browser/run_report.py BINARY test_report_diff.
"""
import json
import os
import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from report_base import BIN, Page, ReportBase, number, run
import report_base

B = 'tests/diff/builds/'
DIFFS = {
    'callgrind': [B + 'fib.cg', B + 'fib-O2.cg'],
    'perf': ['-b', B + 'fib', '-b', B + 'fib-O2', B + 'fib.data',
             B + 'fib-O2.data'],
    'gmon': ['-b', 'tests/gmon/prog-pie', '-b', 'tests/gmon/prog-nopie',
             'tests/gmon/pie.gmon', 'tests/gmon/nopie.gmon'],
    'gperf': ['-b', 'tests/gperf/prog', '-b', 'tests/gperf/prog-nopie',
              'tests/gperf/prog.prof', 'tests/gperf/prog-nopie.prof'],
    # two programs' profiles: every function on one side only
    'pprof': ['tests/pprof/cpu.pb.gz', 'tests/pprof/nosym.pb.gz'],
    # IgProf's stacks; two programs, a C one and a C++ one
    'igprof': ['tests/inputs/igprof/mem.txt', 'tests/inputs/igprof/cxx-mem.txt'],
    # one profile written two ways: no change at all
    'igprof-same': ['tests/inputs/igprof/perf.txt', 'tests/inputs/igprof/hex.txt'],
}
# the two builds of one program
BUILDS = ('callgrind', 'perf')


def group(v):
    return '{:,}'.format(v)


def signed(v, text):
    """The page's signed figure: no sign where it rounds to zero."""
    return ('-' if v < 0 else '+') + text if any(c in '123456789' for c in text) \
        else text


def change_text(v):
    return signed(v, group(abs(v)))


def pct_text(p):
    return signed(p, '%.2f%%' % abs(p))


class DiffBase(ReportBase):
    made = {}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        if DiffBase.made:
            return
        for kind, args in DIFFS.items():
            path = os.path.join(cls.tmp, 'diff-' + kind + '.html')
            run(['--diff', '--output=html', '-o', path] + args)
            DiffBase.made[kind] = (path, json.loads(run(['--diff', '--json'] + args)))

    def open(self, kind, hash_=''):
        path, doc = DiffBase.made[kind]
        p = Page(self.driver, path)
        if hash_:
            p.go(hash_)
        return p, doc

    def top_rows(self, p):
        """Top's drawn rows: the cells' texts, top to bottom; a name
        shortened to fit is whole in its title, and is put whole in
        its cell's text here."""
        rows = p.js("""
            const rows = [...document.querySelectorAll('#top-table .row')];
            rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
            return rows.map(r => [...r.children].map(c => {
                const n = c.querySelector('.fname') || (c.classList.contains('fname') ? c : null);
                const only = c.querySelector('.only');
                return n ? n.title + (only ? only.textContent : '') : c.textContent;
            }));""")
        return rows


class TestDiffTop(DiffBase):
    def test_top_is_json(self):
        for kind in DIFFS:
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#top')
                rows = self.top_rows(p)
                fns = doc['functions']
                count = p.js("return document.getElementById('top-count').textContent")
                self.assertTrue(count.startswith('%d of ' % len(fns)), count)
                self.assertEqual(len(rows), min(len(fns), len(rows)))
                self.assertGreaterEqual(len(rows), min(len(fns), 20), kind)
                for cells, f in zip(rows, fns):
                    what = '%s: %s' % (kind, f['name'])
                    self.assertTrue(cells[8].startswith(f['name']), what)
                    for k, key in ((0, 'self'), (4, 'inclusive')):
                        b, n = f[key]
                        self.assertEqual(cells[k], group(b), what + ' base')
                        self.assertEqual(cells[k + 1], group(n), what + ' new')
                        self.assertEqual(cells[k + 2], change_text(f[key + '_delta']),
                                         what + ' change')
                        # --json's "%.4f" and the page's two decimals
                        # of one value
                        pct = 100.0 * (n - b) / doc['base']['total']
                        self.assertEqual(cells[k + 3], pct_text(pct), what)
                        self.assertAlmostEqual(pct, f[key + '_delta_pct'], 4)
                    mark = {'base': '(only in base)', 'new': '(only in new)'}
                    if f['in'] in mark:
                        self.assertIn(mark[f['in']], cells[8], what)
                    else:
                        self.assertNotIn('(only in', cells[8], what)
                p.shot('diff-' + kind + '-top')

    def test_header_totals(self):
        for kind in DIFFS:
            with self.subTest(kind=kind):
                p, doc = self.open(kind)
                text = p.js("return ['total-base', 'total-new', 'total-change']"
                            ".map(i => document.getElementById(i).textContent)")
                self.assertEqual(number(text[0].split()[0]), doc['base']['total'])
                self.assertEqual(number(text[1].split()[0]), doc['new']['total'])
                self.assertTrue(text[2].startswith(change_text(doc['delta'])), text[2])

    def test_builds_match_function_by_function(self):
        for kind in BUILDS:
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#top')
                self.assertTrue(doc['main_programs']['matched'])
                rows = self.top_rows(p)
                names = {'base': set(), 'new': set()}
                for cells in rows:
                    for side in names:
                        if cells[8].endswith('(only in %s)' % side):
                            names[side].add(cells[8].rsplit(' (only', 1)[0])
                self.assertEqual(names['base'] & names['new'], set(), kind)
                marked = [c[8] for c in rows if c[8].split(' ')[0] in
                          ('fib', 'mix', 'main')]
                self.assertTrue(marked, kind)
                for m in marked:
                    self.assertNotIn('only in', m, kind)
                note = p.js("return document.getElementById('diff-mains').textContent")
                self.assertIn('compared as one object', note)


class TestDiffShares(DiffBase):
    def test_shares_are_computed_from_json(self):
        for kind in ('callgrind', 'perf', 'gmon', 'gperf'):
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#top&shares=1')
                self.assertTrue(p.js("return document.getElementById('shares').checked"))
                B, N = doc['base']['total'], doc['new']['total']
                by_name = {}
                for f in doc['functions']:
                    by_name.setdefault(f['name'], []).append(f)
                checked = 0
                for cells in self.top_rows(p):
                    label = cells[8].rsplit(' (only', 1)[0]
                    fs = by_name.get(label)
                    if not fs or len(fs) != 1:
                        continue	# unchanged in costs: not in --json
                    f = fs[0]
                    for k, key in ((0, 'self'), (4, 'inclusive')):
                        b, n = f[key]
                        sb, sn = 100 * b / B, 100 * n / N
                        self.assertEqual(cells[k], '%.2f%%' % sb, label)
                        self.assertEqual(cells[k + 1], '%.2f%%' % sn, label)
                        self.assertEqual(cells[k + 2],
                                         signed(sn - sb, '%.2f' % abs(sn - sb)) + ' pt',
                                         label)
                    checked += 1
                self.assertGreaterEqual(checked, 3, kind)
                p.shot('diff-' + kind + '-top-shares')

    def test_hash_keeps_the_switch(self):
        p, doc = self.open('perf', '#top')
        p.d.find_element(By.ID, 'shares').click()
        p.wait()
        self.assertIn('&shares=1', p.js('return location.hash'))
        for tab in ('flame', 'calltree', 'bottomup', 'top'):
            href = p.js("return document.getElementById('tab-' + arguments[0])"
                        ".getAttribute('href')", tab)
            self.assertEqual(href, '#' + tab + '&shares=1')
        p.go('#flame&shares=1')
        root = p.js("return document.querySelector('#flame .fr.root').title")
        B, N = doc['base']['total'], doc['new']['total']
        self.assertEqual(root, 'all: base 100.00%, new 100.00%, change 0.00 pt (0.00%)')
        p.open('#calltree&shares=1')
        self.assertTrue(p.js("return document.getElementById('shares').checked"))


class TestDiffFlame(DiffBase):
    def test_root_spans_new_total(self):
        for kind in DIFFS:
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#flame')
                root = p.d.find_element(By.CSS_SELECTOR, '#flame .fr.root')
                self.assertEqual(float(root.get_attribute('data-value')),
                                 doc['new']['total'], kind)
                self.assertEqual(float(root.get_attribute('data-base')),
                                 doc['base']['total'], kind)
                area = p.js("return document.getElementById('flame').clientWidth")
                self.assertAlmostEqual(root.size['width'], area, delta=1)
                ActionChains(p.d).move_to_element(root).perform()
                info = p.js("return document.getElementById('flame-info').textContent")
                pct = 100.0 * doc['delta'] / doc['base']['total'] \
                    if doc['base']['total'] else 0
                self.assertEqual(info, 'all: base %s, new %s, change %s (%s)' % (
                    group(doc['base']['total']), group(doc['new']['total']),
                    change_text(doc['delta']), pct_text(pct)), kind)
                p.shot('diff-' + kind + '-flame')

    def test_frame_hover_has_both_sides(self):
        p, doc = self.open('perf', '#flame')
        fns = {f['name']: f for f in doc['functions']}
        frames = {f.text: f for f in
                  p.d.find_elements(By.CSS_SELECTOR, '#flame .fr:not(.root)')}
        # perf.data's stacks are exact. -O2 made fib's loop call mix from
        # main's caller (main tail-calls it): a path BASE has not, all of
        # NEW's mix, marked new and red (more on that path)
        mix = frames['mix']
        ActionChains(p.d).move_to_element(mix).perform()
        info = p.js("return document.getElementById('flame-info').textContent")
        n = fns['mix']['self'][1]
        self.assertEqual(info, 'mix: base 0, new %s, change %s (%s) \u00b7 new: '
                         'not in base' % (group(n), change_text(n),
                                          pct_text(100.0 * n / doc['base']['total'])))
        self.assertIn('newpath', mix.get_attribute('class'))
        self.assertEqual(self.rgb(mix)[0], max(self.rgb(mix)))
        # main: on one path in both, its inclusive cost: faster, blue
        main = frames['main']
        ActionChains(p.d).move_to_element(main).perform()
        info = p.js("return document.getElementById('flame-info').textContent")
        f = fns['main']
        self.assertEqual(info, 'main: base %s, new %s, change %s (%s)' % (
            group(f['inclusive'][0]), group(f['inclusive'][1]),
            change_text(f['inclusive_delta']), pct_text(
                100.0 * f['inclusive_delta'] / doc['base']['total'])))
        r, g, b = self.rgb(main)
        self.assertGreater(b, r)

    @staticmethod
    def rgb(frame):
        c = frame.value_of_css_property('background-color')
        return [int(x) for x in c[c.index('(') + 1:].split(',')[:3]]

    def test_new_paths_are_marked(self):
        p, doc = self.open('pprof', '#flame')
        # two programs: every frame of NEW is a path BASE has not
        frames = p.d.find_elements(By.CSS_SELECTOR, '#flame .fr:not(.root)')
        self.assertTrue(frames)
        for f in frames[:20]:
            self.assertIn('newpath', f.get_attribute('class'))
            self.assertIn('new: not in base', f.get_attribute('title'))
        legend = p.js("return document.getElementById('flame-legend').textContent")
        self.assertIn('slower', legend)
        self.assertIn('faster', legend)


class TestDiffPerfDiff(DiffBase):
    def test_shares_are_perf_diffs(self):
        args = ['--sysroot=tests/perf/sysroot', '--kallsyms=tests/perf/kallsyms',
                'tests/perf/fp.data', 'tests/perf/dwarf.data']
        path = os.path.join(self.tmp, 'diff-perf-peer.html')
        run(['--diff', '--output=html', '-o', path] + args)
        peer = []
        with open('tests/perf/fp-dwarf.diff') as f:
            for line in f:
                m = re.match(r'^ +([\d.]+)% +([-+][\d.]+%)? +\S+ +\[.\] (\S+)$',
                             line)
                if m:
                    peer.append((m.group(3), m.group(1), m.group(2)))
        self.assertGreaterEqual(len(peer), 4)
        p = Page(self.driver, path)
        p.go('#top&shares=1')
        rows = {}
        order = []
        for cells in self.top_rows(p):
            name = cells[8].rsplit(' (only', 1)[0]
            rows[name] = cells
            order.append(name)
        for name, base, delta in peer:
            self.assertEqual(rows[name][0], base + '%', name)
            if delta:
                self.assertEqual(rows[name][2], delta[:-1] + ' pt', name)
            else:
                # perf diff leaves the change of a symbol NEW has no
                # sample of blank; it is the whole base share, which
                # the page says
                self.assertEqual(rows[name][1], '0.00%', name)
                self.assertEqual(rows[name][2], '-' + base + ' pt', name)
        # perf diff's order, by the change of share (its blank last)
        self.assertEqual([n for n in order if n in dict((x[0], 1) for x in peer)],
                         [x[0] for x in peer])
        p.shot('diff-perf-peer-top-shares')


class TestDiffMaximum(DiffBase):
    def test_maximum_has_no_paths(self):
        """IgProf's MEM_MAX: costs are the largest values under them,
        paths add up: the views of paths say so rather than sum them
        (a call tree read 1,904 under a total of 1,024)."""
        path = os.path.join(self.tmp, 'diff-max.html')
        args = ['--sort=MEM_MAX', 'tests/inputs/igprof/mem.txt',
                'tests/inputs/igprof/mem.txt.gz']
        run(['--diff', '--output=html', '-o', path] + args)
        doc = json.loads(run(['--diff', '--json'] + args))
        p = Page(self.driver, path)
        for place in ('#flame', '#calltree', '#bottomup'):
            p.go(place)
            note = p.js("const n = document.getElementById('flame-max');"
                        "return n ? n.textContent : null")
            self.assertIn('MEM_MAX is a maximum', note or '', place)
        p.go('#top')
        text = p.js("return document.getElementById('total-new').textContent")
        self.assertEqual(number(text), doc['new']['total'])


class TestDiffTrees(DiffBase):
    def tree_rows(self, p, table):
        return [r['cells'] for r in p.rows(table)]

    def test_bottom_up_roots_are_self_costs(self):
        p, doc = self.open('perf', '#bottomup')
        rows = {c[4].strip('\u25b8\u25be\u00b7\u22ef '): c
                for c in self.tree_rows(p, 'bottomup')}
        checked = 0
        for f in doc['functions']:
            c = rows.get(f['name'])
            if c is None or not (f['self'][0] or f['self'][1]):
                continue
            self.assertEqual(c[0], group(f['self'][0]), f['name'])
            self.assertEqual(c[1], group(f['self'][1]), f['name'])
            self.assertEqual(c[2], change_text(f['self_delta']), f['name'])
            checked += 1
        self.assertGreaterEqual(checked, 2)
        p.shot('diff-perf-bottomup')

    def test_call_tree_roots_add_up(self):
        for kind in ('perf', 'callgrind', 'gperf'):
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#calltree')
                p.js("document.getElementById('calltree-none').click()")
                p.wait()
                rows = self.tree_rows(p, 'calltree')
                base = sum(number(c[0]) for c in rows)
                new = sum(number(c[1]) for c in rows)
                self.assertAlmostEqual(base, doc['base']['total'], delta=1)
                self.assertAlmostEqual(new, doc['new']['total'], delta=1)
                p.js("document.getElementById('calltree-all').click()")
                p.wait()
                p.shot('diff-' + kind + '-calltree')
