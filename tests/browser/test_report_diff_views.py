"""The diff report's Top sorted by a column and its flame graph's search
(issue 35), clicked and typed as a user does, against --diff --json.

- Top: a click on a column's title sorts by it, largest first (a name
  from A), a second click the other way; the rows shown are --json's
  functions in the order computed here from --json's numbers (ties in
  --json's order), every figure --json's. The hash keeps the sort
  ("&sort=KEY,desc"): a reload, a tab away and back, and the switch
  keep it; "back to the largest change first" is --json's order again.
- The differential flame graph's search: the frames whose name holds
  the text (any case) are marked, no other; what it matched on each
  side is --json's inclusive cost of the function for perf.data (exact
  stacks: each sample whose stack holds it, once), with its share of
  each side's total and the change (for Callgrind's estimate too where
  it is exact); the search reads names, not the object a label adds to
  tell two apart; the hash keeps the search, escaped, across a reload,
  a zoom and the zoom's reset.
- The Function view (#fn/N: one function's callers and callees on both
  sides, --diff --json's "callers" and "callees") is
  test_report_diff_fn's.

Run with tests/browser/run_report.py BINARY test_report_diff_views.
"""
import functools

from selenium.webdriver.common.by import By

import test_report_diff as diff
from test_report_diff import change_text, group, pct_text

# the columns' keys, as the hash says them, and what each sorts by in
# --json's terms (f: a function; B: BASE's total)
KEYS = ['selfbase', 'selfnew', 'selfchange', 'selfpct',
        'inclbase', 'inclnew', 'inclchange', 'inclpct', 'name']


def json_key(c, B):
    key = 'self' if c < 4 else 'inclusive'
    return [lambda f: f[key][0], lambda f: f[key][1],
            lambda f: f[key + '_delta'],
            lambda f: 100.0 * f[key + '_delta'] / B if B else 0][c % 4]


def json_cells(f, B):
    """A function's cells as Top shows them (costs)."""
    out = []
    for key in ('self', 'inclusive'):
        b, n = f[key]
        out += [group(b), group(n), change_text(f[key + '_delta']),
                pct_text(100.0 * (n - b) / B if B else 0)]
    return out


class TestDiffTopSort(diff.DiffBase):
    def click_title(self, p, key):
        p.d.find_element(By.CSS_SELECTOR, '#top-head [data-key="%s"]' % key).click()
        p.go(p.js('return location.hash'))

    def expected(self, doc, c, desc):
        """--json's functions sorted as the page sorts: by the value,
        ties in --json's order (Python's sort is stable); None by name
        (check_rows())."""
        if c == 8:
            return None
        B = doc['base']['total']
        fns = doc['functions']
        k = json_key(c, B)
        at = {id(f): i for i, f in enumerate(fns)}

        def cmp(x, y):
            a, b = k(x), k(y)
            if a != b:
                return (-1 if a > b else 1) if desc else (-1 if a < b else 1)
            return at[id(x)] - at[id(y)]
        return sorted(fns, key=functools.cmp_to_key(cmp))

    def check_rows(self, p, doc, want, what):
        rows = self.top_rows(p)
        self.assertGreaterEqual(len(rows), min(len(doc['functions']), 20), what)
        B = doc['base']['total']
        if want is None:
            # by name: the labels, which tell a name two functions
            # share apart by object and file (--json says these
            # apart): in order, each row one of --json's of its name
            labels = [c[8].rsplit(' (only in', 1)[0] for c in rows]
            self.assertEqual(labels, sorted(labels, reverse=not p.js(
                "return document.querySelector('#top-head .sorted.up') !== null")), what)
            for cells in rows:
                self.assertIn(cells[:8], [json_cells(f, B) for f in doc['functions']
                                          if cells[8].startswith(f['name'])], what)
            return
        for cells, f in zip(rows, want):
            self.assertEqual(cells[:8], json_cells(f, B), what + ': ' + f['name'])
            self.assertTrue(cells[8].startswith(f['name']), what + ': ' + cells[8])

    def test_each_column_both_ways(self):
        for kind in ('callgrind', 'perf', 'gmon'):
            p, doc = self.open(kind, '#top')
            for c, key in enumerate(KEYS):
                text = key == 'name'
                with self.subTest(kind=kind, key=key):
                    self.click_title(p, key)
                    first = 'asc' if text else 'desc'
                    self.assertIn('&sort=%s,%s' % (key, first), p.js('return location.hash'))
                    title = p.d.find_element(By.CSS_SELECTOR,
                                             '#top-head [data-key="%s"]' % key)
                    self.assertIn('sorted', title.get_attribute('class'))
                    self.check_rows(p, doc, self.expected(doc, c, not text), key)
                    if key in ('selfchange', 'inclnew'):
                        p.shot('diff-%s-top-sort-%s' % (kind, key))
                    self.click_title(p, key)
                    other = 'desc' if text else 'asc'
                    self.assertIn('&sort=%s,%s' % (key, other), p.js('return location.hash'))
                    self.assertEqual('up' in p.js(
                        "return document.querySelector('#top-head [data-key=\"%s\"]')"
                        ".className" % key), not text)
                    self.check_rows(p, doc, self.expected(doc, c, text), key + ' again')

    def test_hash_keeps_the_sort(self):
        p, doc = self.open('callgrind', '#top')
        self.click_title(p, 'inclchange')
        self.click_title(p, 'inclchange')
        want = self.expected(doc, 6, False)
        self.assertTrue(p.js('return location.hash').endswith('&sort=inclchange,asc'))
        # a reload of the address
        p.open('#top&sort=inclchange,asc')
        self.check_rows(p, doc, want, 'reloaded')
        # away and back by the tabs
        p.d.find_element(By.ID, 'tab-flame').click()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), '#flame')
        p.d.find_element(By.ID, 'tab-top').click()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), '#top&sort=inclchange,asc')
        self.check_rows(p, doc, want, 'back from the flame graph')
        # the switch on and off keeps it
        p.d.find_element(By.ID, 'shares').click()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), '#top&sort=inclchange,asc&shares=1')
        p.d.find_element(By.ID, 'shares').click()
        p.go(p.js('return location.hash'))
        self.check_rows(p, doc, want, 'after the switch')
        # back to --json's order
        p.d.find_element(By.ID, 'top-order-reset').click()
        p.go(p.js('return location.hash'))
        self.assertEqual(p.js('return location.hash'), '#top')
        self.assertFalse(p.js("return document.querySelector('#top-head .sorted')"))
        self.check_rows(p, doc, doc['functions'], 'reset')
        # a key this page has not: the default order
        p.open('#top&sort=calls,desc')
        self.check_rows(p, doc, doc['functions'], 'unknown key')

    def test_shares_sorted_by_change_of_share(self):
        p, doc = self.open('perf', '#top&shares=1')
        self.click_title(p, 'selfchange')
        self.assertTrue(p.js('return location.hash').endswith('&sort=selfchange,desc&shares=1')
                        or '&sort=selfchange,desc' in p.js('return location.hash'))
        B, N = doc['base']['total'], doc['new']['total']
        fns = {f['name']: f for f in doc['functions']}
        rows = self.top_rows(p)
        shown = [float(c[2].replace(' pt', '')) for c in rows]
        self.assertEqual(shown, sorted(shown, reverse=True))
        checked = 0
        for c in rows:
            f = fns.get(c[8].rsplit(' (only', 1)[0])
            if f is None:
                continue
            for k, key in ((0, 'self'), (4, 'inclusive')):
                b, n = f[key]
                sb, sn = 100.0 * b / B, 100.0 * n / N
                self.assertEqual(c[k + 2], diff.signed(sn - sb, '%.2f' % abs(sn - sb)) + ' pt',
                                 c[8])
                # how much the share grew; from none "new", none on
                # either side no change (main's self: "new" before)
                self.assertEqual(c[k + 3], pct_text(100.0 * (sn - sb) / sb) if sb
                                 else 'new' if sn else '0.00%', c[8] + ' ' + key)
            checked += 1
        titles = p.js("return [...document.querySelectorAll('#top-head span')]"
                      ".map(s => s.textContent)")
        self.assertEqual(titles[3], '% of share')
        self.assertEqual(titles[7], '% of share')
        self.assertGreaterEqual(checked, 3)
        p.shot('diff-perf-top-shares-sort')


class TestDiffFlameSearch(diff.DiffBase):
    def type_search(self, p, text):
        box = p.d.find_element(By.ID, 'flame-search')
        box.clear()
        box.send_keys(text)
        p.wait()

    def state(self, p):
        return p.js("""
            return {
                hash: location.hash,
                box: document.getElementById('flame-search').value,
                matched: document.getElementById('flame-matched').textContent,
                hits: [...document.querySelectorAll('#flame .fr.match')]
                    .map(f => f.title.split(': base ')[0]),
                names: [...document.querySelectorAll('#flame .fr:not(.root)')]
                    .map(f => f.title.split(': base ')[0]),
            };""")

    def matched_text(self, doc, f):
        B, N = doc['base']['total'], doc['new']['total']
        b, n = f['inclusive']
        return 'matched: base %s (%.2f%%), new %s (%.2f%%), change %s (%s)' % (
            group(b), 100.0 * b / B, group(n), 100.0 * n / N,
            change_text(f['inclusive_delta']), pct_text(100.0 * (n - b) / B))

    def test_search_marks_and_sums(self):
        p, doc = self.open('perf', '#flame')
        fns = {f['name']: f for f in doc['functions']}
        for text, fn in (('mix', 'mix'), ('MIX', 'mix'), ('fib', 'fib'),
                         # main's caller holds the text too: its cost
                         ('main', '__libc_start_call_main')):
            with self.subTest(text=text):
                self.type_search(p, text)
                s = self.state(p)
                self.assertEqual(s['hash'], '#flame&search=' + text)
                self.assertEqual(s['matched'], self.matched_text(doc, fns[fn]))
                self.assertTrue(s['hits'])
                for n in s['names']:
                    self.assertEqual(n in s['hits'], text.lower() in n.lower(), n)
        self.type_search(p, 'mix')
        p.shot('diff-perf-flame-search')
        self.type_search(p, 'no such name')
        s = self.state(p)
        self.assertEqual(s['matched'], 'no frame matches')
        self.assertEqual(s['hits'], [])
        self.assertEqual(s['hash'], '#flame&search=no%20such%20name')

    def test_search_reads_names_not_objects(self):
        # Callgrind's two "(below main)" are told apart by their objects,
        # one the build's fib: a search for fib is of names, and finds
        # fib and fib'2, not that one
        p, doc = self.open('callgrind', '#flame')
        self.type_search(p, 'fib')
        s = self.state(p)
        self.assertTrue(s['hits'])
        self.assertEqual(set(h.split(' (')[0] for h in s['hits']), {'fib', "fib'2"})
        below = [n for n in s['names'] if n.startswith('(below main)') and 'fib' in n]
        self.assertTrue(below, s['names'])
        # fib's frames hold fib'2's: what matched is fib's inclusive
        # cost, --json's (the tree is an estimate from arcs, exact here:
        # fib has one caller, main); (below main)'s whole cost before
        fib = [f for f in doc['functions'] if f['name'] == 'fib']
        self.assertEqual(len(fib), 1)
        self.assertEqual(s['matched'], self.matched_text(doc, fib[0]))
        p.shot('diff-callgrind-flame-search')

    def test_hash_keeps_the_search(self):
        p, doc = self.open('perf', '#flame')
        fns = {f['name']: f for f in doc['functions']}
        self.type_search(p, 'mix')
        want = self.matched_text(doc, fns['mix'])
        p.open('#flame&search=mix')
        s = self.state(p)
        self.assertEqual((s['box'], s['matched']), ('mix', want))
        # a zoom to main keeps it, and so does its reset
        main = [f for f in p.d.find_elements(By.CSS_SELECTOR, '#flame .fr:not(.root)')
                if f.text == 'main'][0]
        main.click()
        p.go(p.js('return location.hash'))
        s = self.state(p)
        self.assertRegex(s['hash'], r'^#flame/\d+&search=mix$')
        self.assertEqual(s['matched'], want)
        p.d.find_element(By.ID, 'flame-reset').click()
        p.go(p.js('return location.hash'))
        self.assertEqual(self.state(p)['hash'], '#flame&search=mix')
        # the tabs: Top's link leaves it out, the flame graph's has it
        self.assertEqual(p.js("return document.getElementById('tab-top').getAttribute('href')"),
                         '#top')
        self.assertEqual(p.js("return document.getElementById('tab-flame')"
                              ".getAttribute('href')"), '#flame&search=mix')
        # with the switch: the shares of the match and their change
        p.d.find_element(By.ID, 'shares').click()
        p.go(p.js('return location.hash'))
        s = self.state(p)
        self.assertEqual(s['hash'], '#flame&search=mix&shares=1')
        B, N = doc['base']['total'], doc['new']['total']
        b, n = fns['mix']['inclusive']
        sb, sn = 100.0 * b / B, 100.0 * n / N
        self.assertEqual(s['matched'], 'matched: base %.2f%%, new %.2f%%, change %s (%s)' % (
            sb, sn, diff.signed(sn - sb, '%.2f' % abs(sn - sb)) + ' pt',
            pct_text(100.0 * (sn - sb) / sb)))
        p.shot('diff-perf-flame-search-shares')

    def test_escaped_search(self):
        # characters the hash escapes: a space and parentheses that
        # match ("(below main)"), and "&", "=", "%" that would end or
        # break a parameter
        p, doc = self.open('callgrind', '#flame')
        for text in ('(below m', 'a&b=c %zz'):
            with self.subTest(text=text):
                self.type_search(p, text)
                before = self.state(p)
                self.assertNotIn(' ', before['hash'])
                self.assertEqual(before['hash'].count('&'), 1, before['hash'])
                p.open(before['hash'])
                s = self.state(p)
                self.assertEqual(s['box'], text)
                self.assertEqual((s['hits'], s['matched']),
                                 (before['hits'], before['matched']))
                self.assertEqual(bool(s['hits']), text.startswith('(below'))


class TestDiffTreeText(diff.DiffBase):
    """The call tree of a diff page, every row opened, against --tree
    of each side: its base column holds BASE's --tree figures, its new
    column NEW's, each path once (a path only one side has shows 0 on
    the other). Session 22 left the diff page cutting its tree at 2e-5
    of the total where --tree cuts at 1e-5 (print_tree.c): BASE's paths
    of 23 to 45 Ir of fib.cg's 2,278,007 (sbrk's 44, isatty's 34) were
    no rows; and the estimate's figures had decimals (2,156,723.84)
    where --tree prints whole units, rounded."""

    def side(self, rows, k):
        from collections import Counter
        return Counter(c[k] for _, c in rows if c[k] != '0')

    def test_tree_is_each_sides_tree(self):
        from collections import Counter
        from selenium.webdriver.common.by import By
        from test_report_text import ROWS, text_tree
        for kind in ('callgrind', 'gmon', 'perf'):
            with self.subTest(kind=kind):
                p, doc = self.open(kind, '#calltree')
                self.driver.find_element(By.ID, 'calltree-all').click()
                p.wait()
                rows = p.js(ROWS, 'calltree')
                args = diff.DIFFS[kind]
                opts = [args[i + 1] for i, a in enumerate(args) if a == '-b']
                profs = [a for i, a in enumerate(args)
                         if a != '-b' and (i == 0 or args[i - 1] != '-b')]
                for k, prof in enumerate(profs):
                    side = (['-b', opts[k]] if opts else []) + [prof]
                    want = Counter(r[1] for r in text_tree(side))
                    got = self.side(rows, k)
                    if kind == 'gmon':
                        # the page's ticks, --tree's seconds (gprof's:
                        # ticks of 0.01 s with two decimals)
                        got = Counter({'%.2f' % (float(t.replace(',', '')) * 0.01): n
                                       for t, n in got.items()})
                    want.pop('0', None)
                    want.pop('0.00', None)
                    got.pop('0.00', None)
                    self.assertEqual((dict(want - got), dict(got - want)), ({}, {}),
                                     '%s side %d' % (kind, k))
                    self.assertGreater(sum(want.values()), 3, kind)
                p.shot('diff-%s-calltree-text' % kind)
