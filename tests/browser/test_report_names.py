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
            # every function, as -p --threshold=0 lists them
            subprocess.run([report_base.BIN, '--output=html',
                            '--threshold=0', '-o', path] + args,
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

    def docs_cxx(self):
        if 'doc' not in NamesBase.made:
            NamesBase.made['doc'] = json.loads(run(['--json'] + CXX))['functions']
        return NamesBase.made['doc']

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
            '*::~*', 'operator new', 'libstdc++.so.6.0.30', '*::*',
            'std::_Rb_tree*', '*::_M_*', '__*', '[a-m]*'])
        count, how, rows = self.filter(p, 'std::*')
        names = [self.docs_cxx()[f]['name'] for f in rows]
        self.assertTrue(any(n.startswith('void std::') for n in names), names)
        p.shot('names-filter-std')

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


# Long C++ names that look alike: two walk_tree_1 of one name in two files
# (gcc's cc1plus has them), methods of one long iterator class, and names
# that differ only inside their template arguments.
WALK = ('walk_tree_1(tree_node**, tree_node* (*)(tree_node**, int*, void*), '
        'void*, hash_set<tree_node*, false, default_hash_traits<tree_node*> >*, '
        'tree_node* (*)(tree_node**, int*, tree_node* (*)(tree_node**, int*, '
        'void*), void*, hash_set<tree_node*, false, '
        'default_hash_traits<tree_node*> >*))')
ITER = ('__gnu_cxx::__normal_iterator<sample::Point*, std::vector<sample::Point, '
        'std::allocator<sample::Point> > >::')
TABLE = ('ns::Table<%s, std::__cxx11::basic_string<char, std::char_traits<char>, '
         'std::allocator<char> >, std::hash<%s> >::size() const')
REALLOC = ('void std::vector<%s, std::allocator<%s> >::_M_realloc_insert<%s const&>'
           '(__gnu_cxx::__normal_iterator<%s*, std::vector<%s, std::allocator<%s> > >, '
           '%s const&)')
LONG_NAMES = [
    ('/src/gcc/tree.cc', WALK),
    ('/src/gcc/cp/tree.cc', WALK),
    ('/src/a.cc', ITER + 'operator++()'),
    ('/src/a.cc', ITER + 'operator*() const'),
    ('/src/a.cc', ITER + 'base() const'),
    ('/src/a.cc', TABLE % ('Alpha', 'Alpha')),
    ('/src/a.cc', TABLE % ('Bravo', 'Bravo')),
    ('/src/a.cc', REALLOC % (('int',) * 7)),
    ('/src/a.cc', REALLOC % (('long',) * 7)),
]


class ShortNamesTest(NamesBase):
    def long_report(self):
        """A Callgrind profile of LONG_NAMES, each of its own cost."""
        if 'long' not in NamesBase.made:
            prof = os.path.join(self.tmp, 'long-names.out')
            with open(prof, 'w', encoding='utf-8') as f:
                f.write('events: Ir\nfl=/src/main.c\nfn=main\n1 1\n')
                for i, (fl, fn) in enumerate(LONG_NAMES):
                    f.write('cfl=%s\ncfn=%s\ncalls=1 1\n1 %d\n' % (fl, fn, 100 + i))
                for i, (fl, fn) in enumerate(LONG_NAMES):
                    f.write('fl=%s\nfn=%s\n1 %d\n' % (fl, fn, 100 + i))
            NamesBase.made['long-args'] = [prof]
        return self.report('long', NamesBase.made['long-args'])

    def name_cells(self, p):
        """Each drawn row's name: the text shown, the whole name on
        hover, the label before fitting, and whether the cell cuts it."""
        return p.js("""
            const rows = [...document.querySelectorAll('#top-table .row')];
            rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
            return rows.map(r => {
                const cell = r.querySelector('.fname'), a = cell.querySelector('a');
                return {text: a.textContent, title: a.title,
                        label: a.dataset.label,
                        fn: Number(a.getAttribute('href').slice(4)),
                        cut: cell.scrollWidth > cell.clientWidth + 1};
            });""")

    def test_short_name(self):
        """shortName() on the real names of samples/cxx: within the
        width, the start or the end kept, the last component's name
        whenever it fits."""
        names = [f['name'] for f in self.docs_cxx() if len(f['name']) > 30]
        self.assertGreater(len(names), 10)
        src = ''.join(open('src/print/html/js/%s.js' % m, encoding='utf-8').read()
                      for m in ('match', 'names'))
        p = self.report('cxx', CXX)
        got = p.js("'use strict';\n"
                   "const D = {short_names: false, labels: {}, short_labels: {}};\n"
                   # names.js keeps the profile's cycles (FN.cycle) as it loads
                   "const FN = {cycle: []};\n"
                   + src + """
            const out = [];
            for (const s of arguments[0])
                for (const max of [20, 40, 60, 100]) {
                    const n = nameParts(s);
                    out.push({s, max, t: shortName(s, max),
                              last: s.slice(n.last, n.targs)});
                }
            return out;""", names)
        for g in got:
            t, s, max_ = g['t'], g['s'], g['max']
            what = '%r at %d: %r' % (s, max_, t)
            self.assertLessEqual(len(t), max_, what)
            self.assertTrue(t.startswith(s[:3]) or t.startswith('\u2026'), what)
            if len(s) > max_:
                self.assertIn('\u2026', t, what)
            if len(g['last']) + 8 < max_ // 2:
                self.assertIn(g['last'], t, what)
        # the longest: "void std::__introsort_loop<...>(...)'2"
        intro = next(g for g in got if g['s'].startswith('void std::__introsort_loop')
                     and g['s'].endswith("'2") and g['max'] == 40)
        self.assertEqual(intro['t'], "void std::__introsort_loop<\u2026>(\u2026)'2")

    def check_distinct(self, p, doc_fns, width):
        self.driver.set_window_size(width, 1000)
        p.wait()
        p.wait()
        cells = self.name_cells(p)
        self.assertGreater(len(cells), 5)
        texts = {}
        for c in cells:
            name = doc_fns[c['fn']]['name']
            what = '%d px: %r' % (width, c)
            # the whole name on hover: the name and what tells it apart
            self.assertTrue(c['title'].startswith(name), what)
            self.assertFalse(c['cut'], what + ' is cut at its end')
            other = texts.setdefault(c['text'], c['title'])
            self.assertEqual(other, c['title'],
                             '%d px: two names read %r' % (width, c['text']))
        return cells

    def test_rows_distinct(self):
        """Long names that look alike never read the same, at 1400 and
        at 800 px, never cut at their end, the whole name on hover."""
        p = self.long_report()
        doc = json.loads(run(['--json'] + NamesBase.made['long-args']))
        try:
            for width in (1400, 1000, 800):
                cells = self.check_distinct(p, doc['functions'], width)
                p.shot('names-long-%d' % width)
                walks = [c for c in cells if c['title'].startswith('walk_tree_1')]
                self.assertEqual(len(walks), 2)
                self.assertNotEqual(walks[0]['text'], walks[1]['text'])
                if width == 1400:
                    # the method that ends the name is kept
                    for end in ('operator++()', 'operator*() const', 'base() const'):
                        self.assertTrue(any(c['text'].endswith(end) for c in cells), end)
            p2 = self.report('cxx', CXX)
            self.check_distinct(p2, self.docs_cxx(), 800)
        finally:
            self.driver.set_window_size(1400, 1000)

    def test_function_view_whole_name(self):
        p = self.long_report()
        cells = self.name_cells(p)
        c = next(c for c in cells if c['title'].startswith('walk_tree_1'))
        self.assertNotEqual(c['text'], c['title'])
        self.driver.find_element(By.CSS_SELECTOR,
                                 '#top-table a[href="#fn/%d"]' % c['fn']).click()
        p.wait()
        self.assertEqual(self.driver.find_element(By.ID, 'fn-name').text, c['title'])
        p.shot('names-function-whole')

    def test_toggle(self):
        """The short-names box: off, the whole names (as the listings
        without --short-names); on, --short-names' names; its default
        the run's --short-names."""
        short_text = run(['--short-names', '--threshold=0', '-p'] + CXX)
        p = self.report('cxx', CXX)
        box = self.driver.find_element(By.ID, 'short-names')
        self.assertFalse(box.is_selected())
        fns = self.docs_cxx()
        before = self.name_cells(p)
        for c in before:
            self.assertTrue(c['label'].startswith(fns[c['fn']]['name']), c)
        box.click()
        p.wait()
        p.wait()
        after = self.name_cells(p)
        self.assertEqual([c['fn'] for c in after], [c['fn'] for c in before])
        shortened = 0
        for c in after:
            self.assertIn(' ' + c['label'] + '\n', short_text)
            self.assertTrue(c['title'].startswith(fns[c['fn']]['name']), c)
            shortened += c['label'] != fns[c['fn']]['name'] and \
                not c['label'].startswith(fns[c['fn']]['name'])
        self.assertGreater(shortened, 2)
        p.shot('names-toggle-short')
        box.click()
        p.wait()
        # --short-names: the box starts checked
        p2 = self.report('cxx-short', ['--short-names'] + CXX)
        self.assertTrue(self.driver.find_element(By.ID, 'short-names').is_selected())
        for c in self.name_cells(p2):
            self.assertIn(' ' + c['label'] + '\n', short_text)
