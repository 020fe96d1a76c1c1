"""The flame graph's search reads a function's name, not what its label
adds to tell two functions of one name apart: in the -O0 build's
Callgrind profile "(below main)" is in libc and in the program, the
second labelled with the program's path ".../build-O0/fib", so a search
for "fib" once matched it too and said the whole program (2,156,724 Ir)
where fib's inclusive cost is 350,252 (--json's).

Screenshot: build/test-artifacts/browser/search-fib.png (look at it).
"""
import json
import os
import re
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import Page, ReportBase, number

PROFILE = 'tests/diff/builds/fib.cg'


class SearchTest(ReportBase):
    def test_search_reads_names_not_labels(self):
        path = os.path.join(self.tmp, 'search-fib.html')
        subprocess.run([report_base.BIN, '--output=html', '--threshold=0',
                        '-o', path, PROFILE], check=True, capture_output=True)
        doc = json.loads(report_base.run(['--json', PROFILE]))
        fns = {f['name']: f for f in doc['functions']}
        # the trap is there: two "(below main)", one in the program
        below = [f for f in doc['functions'] if f['name'] == '(below main)']
        self.assertTrue(any('fib' in (f.get('object') or '') for f in below))
        p = Page(self.driver, path)
        p.go('#flame')
        self.driver.find_element(By.ID, 'flame-search').send_keys('fib')
        p.wait()
        matched = self.driver.find_element(By.ID, 'flame-matched').text
        got = number(re.match(r'matched ([\d,]+)', matched).group(1))
        # fib's calls (fib'2 its recursion) lie inside fib's own frames
        self.assertEqual(got, fns['fib']['inclusive'][0])
        titles = p.js("return [...document.querySelectorAll('#flame .fr.hit')]"
                      ".map(f => f.title)")
        self.assertTrue(titles)
        for t in titles:
            self.assertTrue(t.split(':')[0].lower().startswith('fib'), t)
        p.shot('search-fib')
