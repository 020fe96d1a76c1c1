"""The run's messages in the report's header: a run with a warning (the
numbers may not be what they seem) shows them open, with the count of
warnings in the summary; a run with notes only keeps them folded.

tests/perf/nofp.data (perf record -g of -O2 code, tests/perf/make-nofp.sh)
warns that its call chains are cut short; before, the warning sat in the
folded "Messages of the run (2)" while Top showed the callers' inclusive
costs as if whole. The Callgrind sample has notes only.

Run with the other test_report*.py by tests/browser/run_report.py.
"""
import os
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import Page, ReportBase

NOFP = ['-b', 'tests/perf/nofp', '--kallsyms=tests/perf/kallsyms',
        'tests/perf/nofp.data']


class TestReportWarnings(ReportBase):

    def summary(self):
        d = self.driver.find_element(By.ID, 'warnings')
        return (d.find_element(By.TAG_NAME, 'summary').text,
                d.get_attribute('open') is not None,
                d.find_element(By.TAG_NAME, 'pre').get_attribute('textContent'))

    def test_warning_open(self):
        page = os.path.join(self.tmp, 'nofp.html')
        err = subprocess.run([report_base.BIN, '--output=html', '-o', page] +
                             NOFP, check=True, capture_output=True,
                             text=True).stderr
        warned = [l for l in err.splitlines() if ': warning: ' in l]
        self.assertEqual(len(warned), 1, err)
        p = Page(self.driver, page)
        text, opened, pre = self.summary()
        self.assertTrue(opened, 'the messages are folded: ' + text)
        self.assertRegex(text, r'^Messages of the run \(\d+, 1 warning\)$')
        self.assertIn('call chains cut short', pre)
        p.shot('warnings-open')

    def test_notes_folded(self):
        self.page('callgrind')
        text, opened, pre = self.summary()
        self.assertNotIn('warning', pre)
        self.assertFalse(opened, 'notes alone are shown open: ' + text)
        self.assertRegex(text, r'^Messages of the run \(\d+\)$')
