"""The diff report's Function view (#fn/N, issue 35), reached and read
as a user does, against --diff --json's "callers" and "callees".

- Reached by a click on a function in Top, on a zoomed flame graph's
  "function view of" link, and on a name in the call tree and in
  bottom-up: each opens that function's view, its name the clicked one.
- Every figure is --json's: the function's base, new, change and % base
  of self and inclusive cost, and each caller's and callee's base, new
  and change of the calls' cost, in --json's order (largest change
  first), on the Callgrind, perf.data and gmon.out pairs of two builds
  (tests/diff/builds, tests/gmon) and the two programs of tests/diff.
- A function on one side only is marked so among the callers and
  callees (tests/diff: NEW's checksum is not BASE's).
- Each table sorts by a click on its titles, largest first, a second
  click the other way, ties in --json's order.
- The switch (&shares=1): each figure is the share of its side's total
  computed here from --json's costs and totals.

Run with tests/browser/run_report.py BINARY test_report_diff_fn.
"""
import functools
import json
import os

from selenium.webdriver.common.by import By

import test_report_diff as diff
from report_base import Page, run
from test_report_diff import change_text, group, pct_text

# the pairs read here: two builds of one program (Callgrind, perf.data,
# gmon.out) and tests/diff's two programs, whose functions are on one
# side only (their main programs are not matched)
PAIRS = {
    'callgrind': diff.DIFFS['callgrind'],
    'perf': diff.DIFFS['perf'],
    'gmon': diff.DIFFS['gmon'],
    'progs': ['tests/diff/base.cg', 'tests/diff/new.cg'],
}
ONLY = {'both': '', 'base': ' (only in base)', 'new': ' (only in new)'}


def share(v, total):
    return '%.2f%%' % (100.0 * v / total if total else 0)


def share_cells(b, n, B, N):
    """base, new, change and its % of the base share, as the switch
    shows them (diffmodel.js), from --json's costs and totals"""
    sb = 100.0 * b / B if B else 0
    sn = 100.0 * n / N if N else 0
    d = sn - sb
    pct = 'new' if not sb and sn else pct_text(100.0 * d / sb if sb else 0)
    return [share(b, B), share(n, N), diff.signed(d, '%.2f pt' % abs(d)), pct]


class TestDiffFunction(diff.DiffBase):
    made_fn = {}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        for kind, args in PAIRS.items():
            if kind in TestDiffFunction.made_fn:
                continue
            path = os.path.join(cls.tmp, 'difffn-' + kind + '.html')
            run(['--diff', '--output=html', '-o', path] + args)
            TestDiffFunction.made_fn[kind] = (
                path, json.loads(run(['--diff', '--json'] + args)))

    def open_fn(self, kind, hash_=''):
        path, doc = TestDiffFunction.made_fn[kind]
        p = Page(self.driver, path)
        if hash_:
            p.go(hash_)
        return p, doc

    def follow(self, p, css):
        """Click the link css finds, as a user, and wait for its view."""
        a = p.d.find_element(By.CSS_SELECTOR, css)
        href = a.get_attribute('href')
        p.d.execute_script('arguments[0].scrollIntoView({block: "center"})', a)
        a.click()
        p.go(p.js('return location.hash'))
        return href[href.index('#'):]

    def costs(self, p):
        return p.js("""
            return ['self', 'inclusive'].map(k => [...document
                .querySelectorAll('#fn-' + k + ' td')].map(c => c.textContent));""")

    def calls(self, p, which):
        """A calls table's rows: [base, new, change, %, name title + marks]"""
        return p.js("""
            return [...document.querySelectorAll('#fn-' + arguments[0] + ' tr[data-row]')]
                .map(r => [...r.children].map((c, i) => i < 4 ? c.textContent
                    : c.title + [...c.querySelectorAll('.only')].map(o => o.textContent).join('')));""",
                    which)

    def check_fn(self, p, doc, i, what):
        f = doc['functions'][i]
        B = doc['base']['total']
        want = []
        for key in ('self', 'inclusive'):
            b, n = f[key]
            want.append([group(b), group(n), change_text(f[key + '_delta']),
                         pct_text(100.0 * (n - b) / B if B else 0)])
        self.assertEqual(self.costs(p), want, what)
        name = p.js("return document.getElementById('fn-name').title")
        self.assertTrue(name.startswith(f['name']), (what, name, f['name']))
        for which in ('callers', 'callees'):
            rows = self.calls(p, which)
            self.assertEqual(len(rows), len(f[which]), (what, which))
            for r, g in zip(rows, f[which]):
                b, n = g['cost']
                self.assertEqual(r[:4], [group(b), group(n), change_text(g['cost_delta']),
                                         pct_text(100.0 * (n - b) / B if B else 0)],
                                 (what, which, g['name']))
                self.assertTrue(r[4].startswith(g['name']), (what, r[4], g['name']))
                self.assertEqual(ONLY[g['in']] in r[4], True, (what, r[4]))
                if g['in'] == 'both':
                    self.assertNotIn('(only in', r[4], what)
        return sum(len(f[w]) for w in ('callers', 'callees'))

    def test_every_listed_function_is_json(self):
        for kind in PAIRS:
            with self.subTest(kind=kind):
                p, doc = self.open_fn(kind, '#top')
                # as a user: Top's first row's name
                href = self.follow(p, '#top-table .row a')
                self.assertEqual(href.split('&')[0], '#fn/0', kind)
                checked = self.check_fn(p, doc, 0, kind + ' 0')
                p.shot('difffn-' + kind)
                for i in range(1, min(len(doc['functions']), 25)):
                    p.go('#fn/%d' % i)
                    checked += self.check_fn(p, doc, i, '%s %d' % (kind, i))
                self.assertGreater(checked, 3, kind)

    def test_one_side_only_is_marked(self):
        p, doc = self.open_fn('progs')
        # NEW's main: its callees are NEW's functions only, its caller
        # (below main) is in both, its calls to it NEW's only
        i = next(i for i, f in enumerate(doc['functions'])
                 if f['name'] == 'main' and f['in'] == 'new')
        p.go('#fn/%d' % i)
        self.check_fn(p, doc, i, 'progs main')
        callees = self.calls(p, 'callees')
        self.assertTrue(any(r[4].endswith('(only in new)') and r[4].startswith('checksum')
                            for r in callees), callees)
        callers = self.calls(p, 'callers')
        self.assertTrue(callers[0][4].endswith('(calls only in new)'), callers)
        p.shot('difffn-progs-main')

    def test_tables_sort_by_their_titles(self):
        p, doc = self.open_fn('callgrind')
        i = max(range(len(doc['functions'])),
                key=lambda i: len(doc['functions'][i]['callees']))
        f = doc['functions'][i]
        self.assertGreater(len(f['callees']), 2)
        p.go('#fn/%d' % i)
        at = {id(g): k for k, g in enumerate(f['callees'])}
        for key, v in (('base', lambda g: g['cost'][0]), ('new', lambda g: g['cost'][1]),
                       ('change', lambda g: g['cost_delta'])):
            for desc in (True, False):
                p.d.find_element(By.CSS_SELECTOR, '#fn-callees th[data-key="%s"]' % key).click()
                p.wait()

                def cmp(x, y):
                    a, b = v(x), v(y)
                    if a != b:
                        return (-1 if a > b else 1) if desc else (-1 if a < b else 1)
                    return at[id(x)] - at[id(y)]
                want = sorted(f['callees'], key=functools.cmp_to_key(cmp))
                rows = self.calls(p, 'callees')
                self.assertEqual([r[:3] for r in rows],
                                 [[group(g['cost'][0]), group(g['cost'][1]),
                                   change_text(g['cost_delta'])] for g in want],
                                 (key, desc))
                th = p.d.find_element(By.CSS_SELECTOR, '#fn-callees th[data-key="%s"]' % key)
                self.assertIn('sorted', th.get_attribute('class'))
                self.assertEqual('up' in th.get_attribute('class').split(), not desc)
        p.shot('difffn-callgrind-sorted')

    def test_shares(self):
        for kind in ('perf', 'gmon'):
            with self.subTest(kind=kind):
                p, doc = self.open_fn(kind, '#top')
                p.d.find_element(By.ID, 'shares').click()
                p.go(p.js('return location.hash'))
                href = self.follow(p, '#top-table .row a')
                self.assertIn('&shares=1', href)
                B, N = doc['base']['total'], doc['new']['total']
                # the row Top lists first with the switch, by its link;
                # its callers and callees are --json's if it lists it
                i = int(href.split('&')[0][4:])
                self.assertLess(i, len(doc['functions']), kind)
                f = doc['functions'][i]
                want = [share_cells(f[k][0], f[k][1], B, N)
                        for k in ('self', 'inclusive')]
                self.assertEqual(self.costs(p), want, kind)
                for which in ('callers', 'callees'):
                    rows = self.calls(p, which)
                    self.assertEqual([r[:4] for r in rows],
                                     [share_cells(g['cost'][0], g['cost'][1], B, N)
                                      for g in f[which]], (kind, which))
                p.shot('difffn-' + kind + '-shares')

    def test_reached_from_the_trees_and_flame_graph(self):
        for kind in ('perf', 'callgrind', 'gmon'):
            with self.subTest(kind=kind):
                p, doc = self.open_fn(kind, '#calltree')
                name = p.js("return document.querySelector('#calltree .row .fname').title")
                href = self.follow(p, '#calltree .row .fname a')
                self.assertTrue(href.startswith('#fn/'))
                self.assertEqual(p.js("return document.getElementById('fn-name').title"), name)
                p.go('#bottomup')
                name = p.js("return document.querySelector('#bottomup .row .fname').title")
                self.follow(p, '#bottomup .row .fname a')
                self.assertEqual(p.js("return document.getElementById('fn-name').title"), name)
                p.go('#flame')
                # a frame below the root: a click zooms, its link opens the view
                fr = p.d.find_elements(By.CSS_SELECTOR, '#flame .fr:not(.root)')
                fr = max(fr, key=lambda e: e.size['width'])
                label = fr.get_attribute('title').split(':')[0]
                fr.click()
                p.go(p.js('return location.hash'))
                self.follow(p, '#flame-fn')
                shown = p.js("return document.getElementById('fn-name').title")
                self.assertTrue(label.startswith(shown.split(' (')[0]), (label, shown))
                p.shot('difffn-' + kind + '-from-flame')

    def sorted_calls(self, f, which, key, desc):
        """f's callers or callees sorted as the page sorts them by key,
        ties in --json's order"""
        v = {'base': lambda g: g['cost'][0], 'new': lambda g: g['cost'][1],
             'change': lambda g: g['cost_delta']}[key]
        at = {id(g): k for k, g in enumerate(f[which])}

        def cmp(x, y):
            a, b = v(x), v(y)
            if a != b:
                return (-1 if a > b else 1) if desc else (-1 if a < b else 1)
            return at[id(x)] - at[id(y)]
        return [[group(g['cost'][0]), group(g['cost'][1]), change_text(g['cost_delta'])]
                for g in sorted(f[which], key=functools.cmp_to_key(cmp))]

    def check_sorts(self, p, f, sorts, what):
        """Both tables as sorts says ({which: (key, desc)}, absent for
        --json's order), rows and titles' marks"""
        for which in ('callers', 'callees'):
            rows = [r[:3] for r in self.calls(p, which)]
            marked = p.js("""return [...document.querySelectorAll(
                '#fn-' + arguments[0] + ' th.sorted')].map(t => [t.dataset.key,
                t.classList.contains('up')])""", which)
            if which in sorts:
                key, desc = sorts[which]
                self.assertEqual(rows, self.sorted_calls(f, which, key, desc),
                                 (what, which))
                self.assertEqual(marked, [[key, not desc]], (what, which))
            else:
                self.assertEqual(rows, [[group(g['cost'][0]), group(g['cost'][1]),
                                         change_text(g['cost_delta'])] for g in f[which]],
                                 (what, which))
                self.assertEqual(marked, [], (what, which))

    def click(self, p, css):
        p.d.find_element(By.CSS_SELECTOR, css).click()
        p.go(p.js('return location.hash'))

    def test_tab_and_sorts_in_the_hash(self):
        p, doc = self.open_fn('callgrind', '#top')
        tab = p.d.find_element(By.ID, 'tab-fn')
        self.assertEqual(tab.text, 'Function')
        # no function seen yet: the tab says where to pick one
        self.click(p, '#tab-fn')
        self.assertEqual(p.js('return location.hash'), '#fn')
        self.assertTrue(p.js("return document.getElementById('fn-none').textContent")
                        .startswith('No function chosen yet'))
        self.assertIn('on', p.js("return document.getElementById('tab-fn').className"))
        # the function with the most callers and callees
        F = doc['functions']
        i = max(range(len(F)), key=lambda i: min(len(F[i]['callees']),
                                                  len(F[i]['callers'])) * 100 +
                len(F[i]['callees']))
        f = F[i]
        self.assertGreater(len(f['callees']), 2)
        p.go('#fn/%d' % i)
        self.assertIn('on', p.js("return document.getElementById('tab-fn').className"))
        self.check_sorts(p, f, {}, 'default')
        self.click(p, '#fn-callees th[data-key="base"]')
        self.assertEqual(p.js('return location.hash'), '#fn/%d&callees=base,desc' % i)
        self.click(p, '#fn-callees th[data-key="base"]')
        self.assertEqual(p.js('return location.hash'), '#fn/%d&callees=base,asc' % i)
        self.click(p, '#fn-callers th[data-key="change"]')
        want_hash = '#fn/%d&callers=change,desc&callees=base,asc' % i
        self.assertEqual(p.js('return location.hash'), want_hash)
        both = {'callers': ('change', True), 'callees': ('base', False)}
        self.check_sorts(p, f, both, 'clicked')
        p.shot('difffn-callgrind-sorts-in-hash')
        # away by a tab and back by the Function tab: that function,
        # those sorts
        self.click(p, '#tab-flame')
        self.assertEqual(p.d.find_element(By.ID, 'tab-fn').get_attribute('href')
                         .split('#', 1)[1], want_hash[1:])
        self.click(p, '#tab-fn')
        self.assertEqual(p.js('return location.hash'), want_hash)
        self.check_sorts(p, f, both, 'by the tab')
        # back: the flame graph, back again: the sorts before the last
        # click, forward: as clicked
        p.d.back()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash').split('&')[0], '#flame')
        p.d.back()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), want_hash)
        p.d.back()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), '#fn/%d&callees=base,asc' % i)
        self.check_sorts(p, f, {'callees': ('base', False)}, 'back')
        p.d.forward()
        p.go(p.js('return location.hash'))
        self.check_sorts(p, f, both, 'forward')
        # a reload of the address
        p.d.refresh()
        p.wait()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), want_hash)
        self.check_sorts(p, f, both, 'reloaded')
        # the switch keeps them; a key this page has not: the default
        self.click(p, '#shares')
        self.assertEqual(p.js('return location.hash'), want_hash + '&shares=1')
        p.go('#fn/%d&callers=calls,desc' % i)
        self.check_sorts(p, f, {}, 'unknown key')

    def test_gmon_figures_say_ticks(self):
        """gmon.out's event is "seconds" but --diff compares its ticks:
        the text's title says "seconds (in ticks of 0.01 s)" and --json
        "unit_seconds": 0.01 beside figures in ticks. Every caption of
        the page says so too, and every title says "(ticks)": none says
        "cost of seconds" over a column of ticks."""
        p, doc = self.open_fn('gmon', '#fn/0')
        self.assertEqual(doc['event'], 'seconds')
        self.assertEqual(doc['unit_seconds'], 0.01)
        text = run(['--diff'] + PAIRS['gmon'])
        self.assertIn('Differences in seconds (in ticks of 0.01 s) from', text)
        said = 'seconds (in ticks of 0.01 s)'
        how = p.js("return document.getElementById('fn-calls-how').textContent")
        self.assertIn('inclusive cost of ' + said + ' on each side', how)
        for table in ('fn-costs', 'fn-callers', 'fn-callees'):
            titles = p.js("""return [...document.querySelectorAll(
                '#' + arguments[0] + ' th')].map(t => t.textContent)""", table)
            self.assertEqual([t for t in titles if t.split(' ')[0] in
                              ('base', 'new', 'change')],
                             ['base (ticks)', 'new (ticks)', 'change (ticks)'], table)
        self.assertEqual(p.js("return document.querySelector('#diff-sides tr:last-child"
                              " td:nth-child(2)').textContent"), said)
        for place, css in (('#flame', '#diffflame-view .controls span'),
                           ('#calltree', '#calltree-view .controls span'),
                           ('#bottomup', '#bottomup-view .controls span')):
            p.go(place)
            self.assertTrue(p.js("return document.querySelector(arguments[0]).textContent",
                                 css).endswith(said) or said + ':' in p.js(
                "return document.querySelector(arguments[0]).textContent", css), place)
        # Callgrind's Ir is its own unit: no unit said
        p, doc = self.open_fn('callgrind', '#fn/0')
        self.assertNotIn('unit_seconds', doc)
        self.assertIn('inclusive cost of Ir on each side',
                      p.js("return document.getElementById('fn-calls-how').textContent"))
