"""The HTML report in headless Firefox, through WebDriver BiDi (bidi.py).

Run by tests/sh/firefox.sh as  python3 tests/browser/test_firefox.py
BINARY FIREFOX. Fewer checks than test_report.py makes in Chromium:
that the report works in the other engine. For a Callgrind profile with
-b and an IgProf profile: the page loads with no error logged, the Top
table's rows are --json's numbers in --json's order of self cost,
clicking a function opens its view with --json's callers and callees,
the flame graph's root spans the total, the call tree opened
all is --tree's row for row, and Top is one Tab stop whose rows the
arrows walk. Exit status: 0 passed, 1
failed.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from bidi import Firefox
import report_base
from report_base import calls_text
from test_report_text import TREE_ROWS, text_tree

BIN = None
FIREFOX = None

PROFILES = {
    'callgrind': ['-b', 'samples/recursion/prog',
                  'samples/recursion/callgrind.instr.out'],
    'igprof': ['tests/inputs/igprof/perf.txt'],
}

# two animation frames: the views draw in requestAnimationFrame
DRAWN = 'new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))'

ROWS = """(() => {
    const rows = [...document.querySelectorAll('#top-table .row')];
    rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return rows.map(r => {
        const a = r.querySelector('a[href^="#fn/"]');
        return {cells: [...r.children].map(c => c.textContent),
                fn: a ? Number(a.getAttribute('href').slice(4)) : null};
    });
})()"""


def number(text):
    text = text.strip().replace(',', '')
    return float(text) if text else None


class FirefoxTest(unittest.TestCase):
    ff = None

    @classmethod
    def setUpClass(cls):
        cls.ff = Firefox(FIREFOX)
        cls.tmp = tempfile.mkdtemp(prefix='cganalyze-firefox-pages-')
        cls.pages, cls.docs = {}, {}
        for kind, args in PROFILES.items():
            path = os.path.join(cls.tmp, kind + '.html')
            # every function, ids as --json's (report_base.py)
            subprocess.run([BIN, '--output=html', '--threshold=0', '-o', path]
                           + args, check=True, capture_output=True)
            cls.pages[kind] = path
            cls.docs[kind] = json.loads(subprocess.run(
                [BIN, '--json'] + args, check=True, capture_output=True,
                text=True).stdout)

    @classmethod
    def tearDownClass(cls):
        if cls.ff:
            cls.ff.quit()

    def setUp(self):
        self.ff.errors.clear()

    def tearDown(self):
        self.assertEqual(self.ff.errors, [], 'the page logged errors')

    def open(self, kind, hash_=''):
        self.ff.open(self.pages[kind] + hash_)
        self.ff.js(DRAWN)
        doc = self.docs[kind]
        return doc, doc['events'].index(doc['sort_event'])

    def check_top(self, kind):
        doc, ev = self.open(kind)
        fns = doc['functions']
        rows = self.ff.js(ROWS)
        self.assertGreater(len(rows), 0)
        for r in rows:
            f = fns[r['fn']]
            self.assertEqual(number(r['cells'][0]), f['self'][ev])
            self.assertEqual(number(r['cells'][2]), f['inclusive'][ev])
            self.assertEqual(r['cells'][4], calls_text(doc, f))
        got = [fns[r['fn']]['self'][ev] for r in rows]
        want = sorted((f['self'][ev] for f in fns), reverse=True)
        self.assertEqual(got, want[:len(got)])

    def test_top_callgrind(self):
        self.check_top('callgrind')

    def test_top_igprof(self):
        self.check_top('igprof')

    def test_top_keys(self):
        """Top is one Tab stop; the down arrow walks its rows past those
        drawn at first, End goes to the last (test_report_keys.py has
        the whole walk in Chromium)."""
        doc, ev = self.open('callgrind')
        row = """(() => {
            const a = document.activeElement, r = a.closest('#top-table [data-row]');
            return r ? Number(r.dataset.row) : null;
        })()"""
        self.ff.js("document.querySelector('#top-head [data-key=object]').focus()")
        self.ff.keys('\ue004')                  # Tab
        self.assertEqual(self.ff.js(row), 0)
        drawn = self.ff.js("document.querySelectorAll('#top-table .row').length")
        self.ff.keys(*['\ue015'] * (drawn + 5))  # the down arrow
        self.ff.js(DRAWN)
        self.assertEqual(self.ff.js(row), drawn + 5)
        self.ff.keys('\ue010')                  # End
        self.assertEqual(self.ff.js(row), len(doc['functions']) - 1)
        self.ff.keys('\ue004')
        self.assertIsNone(self.ff.js(row))

    def test_function(self):
        doc, ev = self.open('callgrind')
        fns = doc['functions']
        work = next(f['id'] for f in fns if f['name'] == 'work')
        clicked = self.ff.js("""(() => {
            const a = document.querySelector('#top-table a[href="#fn/%d"]');
            if (a)
                a.click();
            return !!a;
        })()""" % work)
        self.assertTrue(clicked)
        self.ff.js(DRAWN)
        self.assertEqual(self.ff.js('location.hash'), '#fn/%d' % work)
        self.assertEqual(self.ff.js(
            "document.getElementById('fn-name').textContent"), 'work')
        shown = self.ff.js("""[...document.querySelectorAll(
                'table.entry tr.caller, table.entry tr.callee')]
            .filter(tr => tr.querySelector('a'))
            .map(tr => [tr.className,
                        Number(tr.querySelector('a').getAttribute('href').slice(4)),
                        tr.children[4].textContent.split('/')[0],
                        tr.children[3].textContent])""")
        want = sorted([('caller', a['caller'], a['count'], a['inclusive'][ev])
                       for a in doc['arcs'] if a['callee'] == work] +
                      [('callee', a['callee'], a['count'], a['inclusive'][ev])
                       for a in doc['arcs'] if a['caller'] == work])
        got = sorted((d, f, number(c), number(i)) for d, f, c, i in shown)
        self.assertEqual(got, want)

    def test_flame(self):
        for kind in PROFILES:
            doc, ev = self.open(kind, '#flame')
            root = self.ff.js("""(() => {
                const area = document.getElementById('flame');
                const d = area.querySelector('.fr[data-node="-1"]');
                return [Number(d.dataset.value), parseFloat(d.style.width),
                        area.clientWidth];
            })()""")
            self.assertAlmostEqual(root[0], doc['totals'][ev], delta=1)
            self.assertAlmostEqual(root[1], root[2], delta=1)

    def test_call_tree(self):
        """The call tree opened all is --tree's, row for row
        (test_report_text.py in Chromium)."""
        for kind in PROFILES:
            self.open(kind, '#calltree')
            self.ff.js("document.getElementById('calltree-all').click()")
            self.ff.js(DRAWN)
            rows = self.ff.js(TREE_ROWS + "('calltree')")
            got = sorted((d, c[0], c[1], c[3], c[4]) for d, c in rows)
            want = sorted(text_tree(PROFILES[kind]))
            self.assertGreater(len(want), 5, kind)
            self.assertEqual(got, want, kind)


def main():
    global BIN, FIREFOX
    BIN = os.path.abspath(sys.argv[1])
    report_base.BIN = BIN
    FIREFOX = sys.argv[2]
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(FirefoxTest)
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)


if __name__ == '__main__':
    main()
