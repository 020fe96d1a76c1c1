"""IgProf's MEM_MAX in the report (issue 32): a maximum, every number the
largest value under it, as igprof-analyse shows a counter whose name ends
in _MAX (src/analyse.cc: isMax). The page's numbers are the text
listings': the header's total (the largest, said to be one), the Top
table's self and inclusive (--json's), each Function view's self,
children (the largest call, igprof-analyse's KIDS), % total and arc lines
(the largest under the call, no share) as -q prints them; the flame graph
has no tree of a maximum and says why.

Run with the other test_report*.py by tests/browser/run_report.py.
"""
import json
import os
import subprocess

from report_base import ReportBase, number, run, strip_cycle
import test_report_units as units

ARGS = ['--sort=MEM_MAX', 'tests/inputs/igprof/mem.txt']

# a cycle (a calls b, which calls a again) and MEM_MAX alone: no event
# of it adds up, so no flame graph at all
CYCLE = """P=(ID=1 N=(p) T=0.0)
C1 FN0=(F0=(p)+16 N=(main))+0 V0=(MEM_MAX):(1,100,100)
C2 FN1=(F0+32 N=(a))+0 V0:(2,300,300)
C3 FN2=(F0+48 N=(b))+0 V0:(1,50,50)
C4 FN1+0 V0:(1,500,500)
C2 FN2+0 V0:(3,200,200)
"""


class MaxTest(ReportBase):
    entry_view = units.UnitsTest.entry_view
    check_entry = units.UnitsTest.check_entry

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import report_base
        cls.max_page = os.path.join(cls.tmp, 'max.html')
        # every function, ids as --json's
        subprocess.run([report_base.BIN, '--output=html', '--threshold=0', '-o',
                        cls.max_page] + ARGS, check=True,
                       capture_output=True)
        cls.max_doc = json.loads(run(['--json'] + ARGS))
        cls.pages['max'] = cls.max_page
        cls.cycle_in = os.path.join(cls.tmp, 'max-cycle.txt')
        with open(cls.cycle_in, 'w') as f:
            f.write(CYCLE)
        cls.pages['max-cycle'] = os.path.join(cls.tmp, 'max-cycle.html')
        subprocess.run([report_base.BIN, '--output=html', '--threshold=0', '-o',
                        cls.pages['max-cycle'], cls.cycle_in], check=True,
                       capture_output=True)

    def test_max_numbers(self):
        doc = self.max_doc
        ev = doc['events'].index('MEM_MAX')
        self.assertTrue(doc['event_info'][ev]['maximum'])
        # the largest allocation of all (a sum would be 1,904)
        self.assertEqual(doc['totals'][ev], 1024)
        p = self.page('max')
        p.shot('max-top')
        text = p.js('return document.body.innerText')
        self.assertIn('the largest: a maximum, not a sum', text)
        fns = doc['functions']
        rows = p.rows('top-table')
        self.assertGreater(len(rows), 3)
        for r in rows:
            f = fns[r['fn']]
            self.assertEqual(number(r['cells'][0]), f['self'][ev])
            self.assertEqual(number(r['cells'][2]), f['inclusive'][ev])
        # work: self 800, largest call 32 (fib's), 78.1% of 1,024
        graph = units.graph_entries(ARGS)
        self.assertEqual((graph['work']['self'], graph['work']['children'],
                          graph['work']['pct']), ('800', '32', '78.1'))
        for f in fns:
            if f['name'] not in graph:
                continue
            shown = self.entry_view(p, '#fn/%d' % f['id'])
            if f['name'] == 'work':
                p.shot('max-function-work')
            self.check_entry('mem', shown, graph[f['name']], f['name'])
        p.go('#flame')
        p.shot('max-flame')
        text = p.js('return document.body.innerText')
        self.assertIn('MEM_MAX is a maximum (the largest single value, '
                      'not a sum), which a flame graph cannot show', text)

    def test_max_cycle(self):
        """Each member's view and the cycle's as -q's lines: a member's
        children take in the calls inside the cycle (a's 500, under b),
        the cycle's none leave it."""
        args = [self.cycle_in]
        doc = json.loads(run(['--json'] + args))

        # entries by plain name; arcs as both name them ("b <cycle 1>")
        graph = {strip_cycle(k): e
                 for k, e in units.graph_entries(args).items()}
        compared = [0]
        check = self.check_entry

        def count(kind, shown, entry, what):
            for r in shown['rows']:
                side = entry['callers' if r['dir'] == 'caller'
                             else 'callees']
                compared[0] += r['dir'] != 'primary' and r['name'] in side
            check(kind, shown, entry, what)
        self.check_entry = count
        self.assertEqual((graph['b']['self'], graph['b']['children']),
                         ('200', '500'))
        p = self.page('max-cycle')
        for f in doc['functions']:
            shown = self.entry_view(p, '#fn/%d' % f['id'])
            self.check_entry('cycle', shown, graph[f['name']], f['name'])
        for c in doc['cycles']:
            what = '<cycle %d as a whole>' % c['id']
            shown = self.entry_view(p, '#cycle/%d' % c['id'])
            p.shot('max-cycle-entry')
            self.check_entry('cycle', shown, graph[what], what)
        self.assertEqual(len(doc['cycles']), 1)
        # the arcs from main and between a and b were compared
        self.assertGreaterEqual(compared[0], 6)
        p.go('#flame')
        self.assertIn('no event of this profile adds up',
                      p.js('return document.body.innerText'))
        # the views built on the flame graph's tree (issue 34) say the
        # same, and the Function view offers no transforms of stacks it
        # has none of
        for place in ('#calltree', '#bottomup', '#sandwich/1'):
            p.go(place)
            self.assertIn('no event of this profile adds up',
                          p.js('return document.body.innerText'), place)
        p.go('#fn/1')
        self.assertFalse(p.js('return !!document.getElementById('
                              '"fn-xforms")'))
        self.assertNotIn('null', p.js('return document.body.innerText'))
