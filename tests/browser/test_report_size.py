"""The report at the default threshold (issue 33, src/print/report_keep.c):
the functions of 0.5% of the total or more (self or inclusive, of some
event) with their callers and callees; every list the page cuts says how
many it leaves out and that --threshold=0 embeds them, and every number
it shows is still --json's. The other browser tests make their pages
with --threshold=0 (every function, ids as --json's).
"""
import collections
import json
import os
import re
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import (PROFILES, Page, ReportBase, calls_text, listed_cost,
                         number, path_cost, run)
from test_report_explore import ALL_ROWS
from test_report_text import ROWS, text_tree

# the recursion sample: 301 functions, about a third below 0.5%
KIND = 'callgrind'
THRESHOLD = 0.5


def hot(doc, f):
    """Whether --json's function f reaches the threshold in some event,
    self or inclusive (report_keep.c's rule)."""
    for e, t in enumerate(doc['totals']):
        if t and (f['self'][e] >= t * THRESHOLD / 100 or
                  f['inclusive'][e] >= t * THRESHOLD / 100):
            return True
    return False


class ReportSizeTest(ReportBase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cut_page = os.path.join(cls.tmp, 'size-' + KIND + '.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', cls.cut_page]
                       + PROFILES[KIND], check=True, capture_output=True)

    def open_cut(self, where=''):
        p = Page(self.driver, self.cut_page)
        if where:
            p.go(where)
        return p

    @staticmethod
    def data(p, name='data'):
        """The page's document cga-NAME (html_data.h)."""
        return p.js("return JSON.parse(document.getElementById("
                    "'cga-' + arguments[0]).textContent);", name)

    def ids(self, p):
        """The page's functions' --json ids, by page id."""
        return self.data(p)['functions'].get('id')

    def test_what_is_embedded(self):
        """Every function that reaches the threshold and each of its
        callers and callees is in the page, and nothing else is; the
        count left out is said."""
        doc = self.docs[KIND]
        fns = doc['functions']
        p = self.open_cut()
        ids = self.ids(p)
        self.assertIsNotNone(ids, 'the recursion sample has functions below 0.5%')
        kept = set(ids)
        hot_ids = {f['id'] for f in fns if hot(doc, f)}
        want = set(hot_ids)
        for a in doc['arcs']:
            if a['caller'] in hot_ids or a['callee'] in hot_ids:
                want.update((a['caller'], a['callee']))
        want.add(ids[self.data(p)['start_function']])
        self.assertEqual(kept, want)
        self.assertLess(len(kept), len(fns))
        for f in fns:
            if f['id'] not in kept:
                self.assertFalse(hot(doc, f), f['name'])
        more = self.driver.find_element(By.ID, 'top-more').text
        self.assertIn('%d more functions below 0.5%% of the total' %
                      (len(fns) - len(kept)), more)
        self.assertIn('--threshold=0', more)
        p.shot('size-top')

    def check_top_numbers(self, kind, p):
        """Top's rows: --json's numbers for the function the row is (a
        sampled profile's samples in place of calls)."""
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        ids = self.ids(p)
        self.assertIsNotNone(ids, kind + ': the threshold cuts nothing')
        names = self.data(p)['functions']['name']
        rows = p.rows('top-table')
        self.assertGreater(len(rows), 0)
        for r in rows:
            f = fns[ids[r['fn']]]
            self.close(number(r['cells'][0]),
                       listed_cost(doc, ev, f['self'][ev]), 'self')
            self.close(number(r['cells'][2]),
                       listed_cost(doc, ev, f['inclusive'][ev]), 'inclusive')
            if doc.get('sampled'):
                self.assertEqual(number(r['cells'][4]), f['samples'][ev])
            else:
                self.assertEqual(r['cells'][4], calls_text(doc, f))
            self.assertEqual(names[r['fn']], f['name'])

    def test_top_numbers_are_json(self):
        self.check_top_numbers(KIND, self.open_cut())

    def test_top_numbers_are_json_perf(self):
        page = os.path.join(self.tmp, 'size-perf.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page] +
                       PROFILES['perf'], check=True, capture_output=True)
        p = Page(self.driver, page)
        self.check_top_numbers('perf', p)
        p.shot('size-perf-top')

    def test_search_says_what_it_cannot_find(self):
        """A function left out is not found, and the page says why."""
        doc = self.docs[KIND]
        p = self.open_cut()
        kept = set(self.ids(p))
        gone = next(f for f in doc['functions'] if f['id'] not in kept and
                    not any(f['name'] in g['name'] for g in doc['functions']
                            if g['id'] in kept))
        box = self.driver.find_element(By.ID, 'filter')
        box.send_keys(gone['name'])
        p.wait()
        p.wait()
        self.assertEqual(p.rows('top-table'), [])
        more = self.driver.find_element(By.ID, 'top-more').text
        self.assertIn('This search cannot find the %d functions below 0.5%% '
                      'of the total' % (len(doc['functions']) - len(kept)), more)
        self.assertIn('below 0.5% of the total', more)
        self.assertIn('--threshold=0', more)
        p.shot('size-search')

    def test_function_view_counts_the_calls_left_out(self):
        """A function whose callees are partly left out: the callees the
        page has, with --json's numbers, and a line counting the rest."""
        doc = self.docs[KIND]
        ev = self.ev(doc)
        fns = doc['functions']
        p = self.open_cut()
        ids = self.ids(p)
        page_of = {f: i for i, f in enumerate(ids)}
        # the function with the most calls to functions left out
        out = {}
        for a in doc['arcs']:
            if a['caller'] in page_of and a['callee'] not in page_of:
                out[a['caller']] = out.get(a['caller'], 0) + 1
        self.assertTrue(out)
        f = max(out, key=lambda g: (out[g], -g))
        p.go('#fn/%d' % page_of[f])
        line = self.driver.find_element(By.ID, 'fn-more-callees').text
        self.assertIn('%d more %s below 0.5%% of the total' %
                      (out[f], 'callees' if out[f] > 1 else 'callee'), line)
        self.assertIn('--threshold=0', line)
        facts = self.driver.find_element(By.ID, 'function').text
        want = listed_cost(doc, ev, fns[f]['inclusive'][ev])
        self.assertIn('{:,}'.format(int(want)), facts)
        # the callees shown: each one in the page, --json's arc
        shown = [ids[i] for i in p.js("""return [...document.querySelectorAll(
            'tr.callee a[href^="#fn/"]')].map(a => Number(a.getAttribute('href').slice(4)));""")]
        want = sorted(a['callee'] for a in doc['arcs']
                      if a['caller'] == f and a['callee'] in page_of
                      and a['callee'] != f)
        self.assertEqual(sorted(shown), want)
        p.shot('size-function')

    def test_flame_merges_narrow_frames(self):
        """The flame graph: "N more" frames under their parent, whose
        totals are those of the whole profile's tree."""
        doc = self.docs[KIND]
        ev = self.ev(doc)
        p = self.open_cut('#flame')
        ids = self.ids(p)
        tree = self.data(p, 'flame')['trees'][ev]
        tree['unit'] = [u if u < 0 else ids[u] for u in tree['unit']]
        self.assertEqual(tree['total'], doc['totals'][ev])
        self.assertGreater(len(tree['more_parent']), 0)
        # the whole tree, from the page with every function
        full = self.data(Page(self.driver, self.pages[KIND]), 'flame')['trees'][ev]

        def paths(t):
            out, key = {}, []
            for i, (u, par) in enumerate(zip(t['unit'], t['parent'])):
                key.append((key[par] if par >= 0 else ()) + (u,))
                out[key[i]] = (t['value'][i], key[par] if par >= 0 else ())
            return out
        cut, whole = paths(tree), paths(full)
        for k, (v, _) in cut.items():
            self.assertEqual(whole[k][0], v, k)
        # what each parent's merged frame stands for: the children of
        # the whole tree the cut one has not
        merged = {}
        for k, (v, par) in whole.items():
            if k not in cut and (par in cut or par == ()):
                n, s = merged.get(par, (0, 0))
                merged[par] = (n + 1, s + v)
        keys = {i: k for i, k in enumerate(cut)}
        got = {(keys[p0] if p0 >= 0 else ()): (n, v) for p0, n, v in
               zip(tree['more_parent'], tree['more_n'], tree['more_value'])}
        self.assertEqual(set(got), set(merged))
        for k in got:
            self.assertEqual(got[k][0], merged[k][0], k)
            self.assertAlmostEqual(got[k][1], merged[k][1], 6, k)
        # drawn, and said what they are
        p = self.open_cut('#flame')
        frames = self.driver.find_elements(By.CSS_SELECTOR, '#flame .fr.more')
        self.assertGreater(len(frames), 0)
        title = frames[0].get_attribute('title')
        self.assertIn('more call path', title)
        self.assertIn('below 0.5% of the total', title)
        self.assertIn('--threshold=0', title)
        p.shot('size-flame')

    def test_call_tree_self_leaves_merged_frames_out(self):
        """The call tree's self of a node is its total less its
        children's and less the frames merged under it, as --tree
        prints a node's self: not the merged functions' cost."""
        doc = self.docs[KIND]
        ev = self.ev(doc)
        p = self.open_cut('#calltree')
        tree = self.data(p, 'flame')['trees'][ev]
        more = dict(zip(tree['more_parent'], tree['more_value']))
        kids = {}
        for i, par in enumerate(tree['parent']):
            kids[par] = kids.get(par, 0) + tree['value'][i]
        # every row, opened, in the view's order: depth first,
        # heaviest first (calltree.js)
        self.driver.find_element(By.ID, 'calltree-all').click()
        p.wait()
        rows = p.js("""const t = document.getElementById('calltree');
            const seen = new Map();
            for (let y = 0; ; y += t.clientHeight / 2) {
                t.scrollTop = y;
                t.redrawRows();
                for (const r of t.querySelectorAll('.row'))
                    seen.set(Number(r.dataset.i), [...r.children].map(c => c.textContent));
                if (y + t.clientHeight >= t.scrollHeight)
                    break;
            }
            return [...seen.keys()].sort((a, b) => a - b).map(k => seen.get(k));""")
        children = {}
        for i, par in enumerate(tree['parent']):
            children.setdefault(par, []).append(i)
        # each node's merged frames: one row after its children
        # ("N more"), its total their cost, no self
        def kids_of(i):
            return sorted(children.get(i, []), key=lambda k: -tree['value'][k]) + \
                ([('more', i)] if i in more else [])
        order, stack = [], kids_of(-1)[::-1]
        while stack:
            i = stack.pop()
            order.append(i)
            if not isinstance(i, tuple):
                stack.extend(kids_of(i)[::-1])
        self.assertEqual(len(rows), len(order))
        self.assertTrue(any(isinstance(i, tuple) for i in order))
        n_of = dict(zip(tree['more_parent'], tree['more_n']))
        for r, i in zip(rows, order):
            if isinstance(i, tuple):
                self.assertEqual(number(r[0]), path_cost(doc, ev, more[i[1]]), 'merged')
                self.assertEqual(r[3], '')
                self.assertIn('%d more, each under a pixel or below 0.5%%' % n_of[i[1]],
                              r[5])
                continue
            want = max(0, tree['value'][i] - kids.get(i, 0) - more.get(i, 0))
            self.assertEqual(number(r[3]), path_cost(doc, ev, want), 'self')
        p.shot('size-calltree')

    def test_fold_of_levels_self_leaves_merged_frames_out(self):
        """Every function's recursion levels folded (fold=*) on a cut
        page of Callgrind's levels: each row of the call tree that is
        not the frames merged under a node ("N more") is a row of --tree
        --fold-recursion, self as it prints it. Until session 24's review
        the folded tree of a cut page did not follow the paths under a
        pixel (html_folded.c), so that their cost was their caller's
        self: __libc_start_main's 166 where --tree prints 74."""
        args = ['tests/callgrind-levels/recs4.out']
        page = os.path.join(self.tmp, 'size-recs4.html')
        run(['--output=html', '-o', page] + args)
        want = collections.Counter(
            text_tree(['--fold-recursion'] + args))
        p = Page(self.driver, page)
        p.go('#calltree&fold=*')
        self.driver.find_element(By.ID, 'calltree-all').click()
        p.wait()
        got = [(depth, c[0], c[1], c[3], c[4])
               for depth, c in p.js(ROWS, 'calltree')
               if 'more, each under a pixel' not in c[5] and
               'not in this report' not in c[5]]
        self.assertGreater(len(got), 100)
        self.assertEqual(dict(collections.Counter(got) - want), {})
        p.shot('size-calltree-fold-levels')

    def test_focus_total_is_measured(self):
        """A first focus on one function totals its measured inclusive
        cost on a cut page too, as --tree --focus
        totals it (test_report_text.py test_focus_total_is_measured for
        the page of every function): samples/cxx's main 164,390, where
        the cut page, its stacks not pinned, said 164,391."""
        cases = (
            # (fib, with its levels fib'2..., is 29,289 of its 29,290:
            # the stacks of the levels' narrow paths are merged into the
            # unit of the functions left out, which the pin cannot move)
            ('callgrind', PROFILES['callgrind'], ('main', 'work')),
            ('cxx', ['-b', 'samples/cxx/prog',
                     'samples/cxx/callgrind.instr.out'], ('main',)),
        )
        for kind, args, names in cases:
            page = os.path.join(self.tmp, 'size-focus-%s.html' % kind)
            run(['--output=html', '-o', page] + args)
            doc = json.loads(run(['--json', '--threshold=0'] + args))
            ev = self.ev(doc)
            p = Page(self.driver, page)
            for name in names:
                incl = sum(f['inclusive'][ev] for f in doc['functions']
                           if f['name'] == name)
                # (an ignore's total is the cut tree's total less the
                # stacks pinned: within a few units, as the cut page's
                # note says, its functions' selfs over the tree not
                # quite the profile's)
                for op, want in (('focus', incl),):
                    p.go('#calltree&%s=%s' % (op, name))
                    shown = p.js("return document.getElementById('in-view')"
                                 ".textContent")
                    got = re.match(r'in view: ([\d,]+)', shown)
                    self.assertEqual(number(got.group(1)), want,
                                     '%s %s=%s: %s' % (kind, op, name, shown))
                    if kind == 'cxx' and op == 'focus':
                        p.shot('size-cxx-focus-main')

    def test_bottom_up_roots_sum_to_the_total(self):
        """Bottom-up: of the tree with the paths the page merged
        (transform.js: flameWhole()), so each function's root is its
        self cost in the whole tree, and the functions left out are one
        root, which says so; the roots add up to the total."""
        doc = self.docs[KIND]
        ev = self.ev(doc)
        p = self.open_cut('#bottomup')
        rows = [r['cells'] for r in p.js(ALL_ROWS, 'bottomup')
                if r['depth'] == 0]
        # (Callgrind's tree is estimated: each root shown in whole
        # units as --tree rounds them, their sum within half a unit of
        # each of the total)
        self.assertAlmostEqual(sum(number(r[0]) for r in rows),
                               listed_cost(doc, ev, doc['totals'][ev]),
                               delta=0.5 * len(rows), msg='the roots')
        shown = [r for r in rows if 'not in this report' in r[3]]
        self.assertEqual(len(shown), 1)
        self.assertIn('below 0.5%', shown[0][3])
        other = self.driver.find_element(By.CSS_SELECTOR,
                                         '#bottomup .cut-fn')
        self.assertIn('--threshold=0', other.get_attribute('title'))
        p.shot('size-bottomup')

    def test_threshold_0_has_everything(self):
        """--threshold=0: every function, and no line about any left out."""
        doc = self.docs[KIND]
        p = self.page(KIND)
        self.assertNotIn('cut', self.data(p))
        self.assertEqual(len(self.data(p)['functions']['name']),
                         len(doc['functions']))
        self.assertFalse(self.driver.find_elements(By.ID, 'top-more'))
        self.assertFalse(self.driver.find_elements(By.CSS_SELECTOR, '.fr.more'))

    def test_no_cost_leaves_nothing_out(self):
        """A profile whose total is 0: the flat profile lists every
        function (nothing is below a share of nothing), so does the
        page."""
        prof = os.path.join(self.tmp, 'size-zero.out')
        with open(prof, 'w', encoding='utf-8') as f:
            f.write('events: Ir\nfn=main\n1 0\ncfn=f\ncalls=1 1\n1 0\n'
                    'fn=f\n1 0\nfn=g\n1 0\n')
        page = os.path.join(self.tmp, 'size-zero.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page, prof],
                       check=True, capture_output=True)
        p = Page(self.driver, page)
        self.assertNotIn('cut', self.data(p))
        self.assertEqual(len(self.data(p)['functions']['name']), 3)
        self.assertFalse(self.driver.find_elements(By.ID, 'top-more'))

    def test_code_views_name_functions_left_out(self):
        """The annotated source's calls: to the function --annotate
        names, or, for one the page leaves out, a note that it is below
        the threshold."""
        p = self.open_cut()
        ids = self.ids(p)
        kept = set(ids)
        p.go('#source')
        shown = self.driver.find_element(
            By.CSS_SELECTOR, '#source-file option:checked').text
        doc = json.loads(run(['--json', '--annotate'] + PROFILES[KIND]))
        callees = {c['callee'] for l in doc['lines'] if l['file'] == shown
                   for c in l['calls']}
        rows = p.js("""return [...document.querySelectorAll('#source-table .callrow')]
            .map(r => { const a = r.querySelector('a[href^="#fn/"]');
                        return [a ? Number(a.getAttribute('href').slice(4)) : -1,
                                !!r.querySelector('.cut-fn')]; });""")
        self.assertTrue(rows, 'no call drawn at the costliest line')
        for page_id, cut in rows:
            if cut:
                self.assertTrue(callees - kept)
            else:
                self.assertIn(ids[page_id], callees)
        p.shot('size-source')

if __name__ == '__main__':
    import unittest
    unittest.main()
