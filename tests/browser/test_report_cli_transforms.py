"""The report written with the command line's transforms (--focus,
--ignore, --hide: issue 34) shows the transformed profile: the flame
graph's root is --json's transformed total (exact from IgProf's and
perf.data's stacks, within a unit for Callgrind's estimated paths, whose
frame says "estimated"), the Top view lists the function focused on
with --json's inclusive cost, and the run's note saying what is in view
is among the page's messages.

The page's own transforms (breadcrumbs) are tested with its views; this
is only the data the command line hands it.

Run with the other test_report*.py by tests/browser/run_report.py.
"""
import json
import os
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import PROFILES, ReportBase, run

CASES = {
    # kind: (the transforms, whether the stacks are estimated)
    'igprof': (['--focus=fib'], False),
    'perf': (['--ignore=fib', '--hide=main'], False),
    'perf-dwarf': (['--focus=lib_apply'], False),
    'callgrind': (['--focus=fib'], True),
}


class TestCliTransforms(ReportBase):
    made = {}

    def transformed(self, kind):
        """The report and --json of the kind's profile, transformed."""
        if kind not in self.made:
            args = CASES[kind][0] + PROFILES[kind]
            path = os.path.join(self.tmp, 'cli-' + kind + '.html')
            subprocess.run([report_base.BIN, '--output=html', '-o', path] +
                           args, check=True, capture_output=True)
            self.made[kind] = (path, json.loads(run(['--json'] + args)))
        return self.made[kind]

    def check(self, kind):
        path, doc = self.transformed(kind)
        estimated = CASES[kind][1]
        ev = self.ev(doc)
        total = doc['totals'][ev]
        self.assertLess(total, doc['transforms']['totals_before'][ev] + 1)
        self.assertEqual(doc['transforms']['estimated'], estimated)
        p = report_base.Page(self.driver, path)
        p.go('#flame')
        root = p.js("""
            const f = [...document.querySelectorAll('#view .fr')]
                .find(d => Number(d.dataset.node) === -1);
            return f ? Number(f.dataset.value) : null;""")
        self.assertIsNotNone(root, 'no root frame')
        self.assertAlmostEqual(root, total, delta=1 if estimated else 0)
        self.assertEqual(bool(self.driver.find_elements(
            By.ID, 'flame-estimated')), estimated)
        p.shot('cli-transforms-' + kind + '-flame')
        # the run's messages: what is in view
        warnings = self.driver.find_element(By.ID, 'warnings')
        text = warnings.get_attribute('textContent')
        self.assertIn(' in view', text)
        self.assertIn(CASES[kind][0][0][2:], text)
        # Top lists the focused function at --json's inclusive cost
        if CASES[kind][0][0].startswith('--focus='):
            name = CASES[kind][0][0][len('--focus='):]
            p.go('#top')
            p.shot('cli-transforms-' + kind + '-top')
            rows = p.rows('top-table')
            names = [r['cells'] for r in rows]
            self.assertTrue(any(name in ' '.join(c) for c in names),
                            '%s not in Top: %s' % (name, names[:5]))

    def test_igprof_focus(self):
        self.check('igprof')

    def test_perf_ignore_hide(self):
        self.check('perf')

    def test_perf_dwarf_focus(self):
        self.check('perf-dwarf')

    def test_callgrind_estimated(self):
        self.check('callgrind')
