"""The report's names: the Top filter is -p's rule (the shared cases of
tests/name-match.cases run through the page's match.js, and the rows
the filter leaves equal to what `-p SPEC --json` lists), the substring
search a plain word falls back to, long C++ names shortened in the
middle and told apart, with the whole name on hover, and the
short-names toggle.
"""
import json
import os
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import Page, ReportBase, run

CXX = ['-b', 'samples/cxx/prog', 'samples/cxx/callgrind.out']


def name_cases():
    """tests/name-match.cases as [pattern, name, want]."""
    cases = []
    with open('tests/name-match.cases', encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            want, pattern, name = line.split('\t')
            cases.append([pattern, name, want == 'yes'])
    return cases


class NamesBase(ReportBase):
    made = {}

    def report(self, key, args):
        """A report of args, made once for the tests of this file."""
        if key not in NamesBase.made:
            path = os.path.join(self.tmp, 'names-' + key + '.html')
            subprocess.run([report_base.BIN, '--output=html', '-o', path] + args,
                           check=True, capture_output=True)
            NamesBase.made[key] = path
        return Page(self.driver, NamesBase.made[key])

    def filter(self, p, text):
        """Type text into the Top filter: the count it shows, what it
        says it did, and the ids of the rows drawn."""
        box = self.driver.find_element(By.ID, 'filter')
        box.clear()
        box.send_keys(text or ' ')	# the page trims it: nothing
        p.wait()
        count = self.driver.find_element(By.ID, 'top-count').text
        how = self.driver.find_element(By.ID, 'filter-how').text
        return int(count.split()[0]), how, [r['fn'] for r in p.rows('top-table')]

    @staticmethod
    def selected(args, spec):
        """The ids -p SPEC lists in the flat profile, from --json."""
        doc = json.loads(run(['--json', '-p' + spec] + args))
        return {f['id'] for f in doc['functions'] if f['in_flat']}


class FilterTest(NamesBase):
    def test_shared_cases(self):
        """match.js decides every case of tests/name-match.cases as
        test_symspec.c's symspec_name_matches() does."""
        with open('src/print/html/js/match.js', encoding='utf-8') as f:
            src = f.read()
        cases = name_cases()
        self.assertGreater(len(cases), 50)
        p = self.report('cxx', CXX)
        got = p.js("'use strict';\n" + src + """
            return arguments[0].map(c => nameMatches(c[0], globRegExp(c[0]), c[1]));""",
                   cases)
        wrong = [(c[0], c[1][:60], c[2]) for c, g in zip(cases, got) if g != c[2]]
        self.assertEqual(wrong, [])

    def check_specs(self, key, args, specs):
        p = self.report(key, args)
        for spec in specs:
            want = self.selected(args, spec)
            count, how, rows = self.filter(p, spec)
            self.assertGreater(len(want), 0, spec)
            self.assertEqual(count, len(want), spec)
            self.assertIn('matching as -p ' + spec, how)
            # every row in view is one -p lists; all of them when they fit
            self.assertLessEqual(set(rows), want, spec)
            if len(want) <= 30:
                self.assertEqual(set(rows), want, spec)
        return p

    def test_equal_to_p_callgrind(self):
        """FILE:LINE, FILE:FUNC, a glob, a plain name, a file, an
        object: the rows -p lists (recursion levels too)."""
        args = report_base.PROFILES['callgrind']
        p = self.check_specs('callgrind', args, [
            'prog.c:30', 'prog.c:60', 'prog.c:f*', 'fib', 'msort*',
            'prog.c', 'prog', 'ld-linux-x86-64.so.2'])
        p.shot('names-filter-file-line')

    def test_equal_to_p_cxx(self):
        """std::* finds the templated functions with a return type."""
        p = self.check_specs('cxx', CXX, [
            'std::*', 'prog.cpp:50', 'prog.cpp:80', 'prog.cpp:sample::*',
            'std::__introsort_loop', '_M_realloc_insert',
            '*::~*', 'operator new', 'libstdc++.so.6.0.30'])
        count, how, rows = self.filter(p, 'std::*')
        names = [self.docs_cxx()[f]['name'] for f in rows]
        self.assertTrue(any(n.startswith('void std::') for n in names), names)
        p.shot('names-filter-std')

    def docs_cxx(self):
        if 'doc' not in NamesBase.made:
            NamesBase.made['doc'] = json.loads(run(['--json'] + CXX))['functions']
        return NamesBase.made['doc']

    def test_equal_to_p_gmon_perf(self):
        self.check_specs('gmon', report_base.PROFILES['gmon'],
                         ['main', 'prog.c:20', 'prog.c:*'])
        self.check_specs('perf', report_base.PROFILES['perf'],
                         ['libwork.so', 'lib_*', 'main'])

    def test_substring(self):
        """A plain word that -p finds nothing for: the names containing
        it, in any case, and the page says so; a glob never falls back."""
        fns = self.docs_cxx()
        p = self.report('cxx', CXX)
        self.assertEqual(self.selected(CXX, 'sort'), set())
        count, how, rows = self.filter(p, 'Sort')
        want = {f['id'] for f in fns if 'sort' in f['name'].lower()}
        self.assertGreater(len(want), 3)
        self.assertEqual(count, len(want))
        self.assertEqual(set(rows), want)
        self.assertIn('names containing "Sort"', how)
        p.shot('names-filter-substring')
        # a glob is -p's, even when it finds nothing
        count, how, rows = self.filter(p, 'Sort*')
        self.assertEqual((count, rows), (0, []))
        self.assertIn('matching as -p Sort*', how)
        # a word -p finds is -p's, and the page says how to ask for more
        count, how, rows = self.filter(p, 'main')
        self.assertEqual(set(rows), self.selected(CXX, 'main'))
        self.assertIn('type *main* for names containing it', how)
        # not a SPEC
        count, how, rows = self.filter(p, 'a:b:c')
        self.assertEqual(count, 0)
        self.assertIn("more than one ':'", how)
        count, how, rows = self.filter(p, '')
        self.assertEqual(count, len(fns))
        self.assertEqual(how, '')
