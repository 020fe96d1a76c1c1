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

from report_base import ReportBase, number, run
import test_report_units as units

ARGS = ['--sort=MEM_MAX', 'tests/inputs/igprof/mem.txt']


class MaxTest(ReportBase):
    entry_view = units.UnitsTest.entry_view
    check_entry = units.UnitsTest.check_entry

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import report_base
        cls.max_page = os.path.join(cls.tmp, 'max.html')
        subprocess.run([report_base.BIN, '--output=html', '-o',
                        cls.max_page] + ARGS, check=True,
                       capture_output=True)
        cls.max_doc = json.loads(run(['--json'] + ARGS))
        cls.pages['max'] = cls.max_page

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
