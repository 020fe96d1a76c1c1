"""The page against the text listings, figure for figure.

Top's calls against the flat profile's column: a function's calls of
itself after a "+" ("8+2,780", valgrind's fib'2; IgProf's "17+13"), none
blank, gmon.out's calls alone as gprof's flat profile has them. The page
showed the calls from others alone ("8") and "0" for none.

The header's total of the event shown, folded with many events, against
the flat profile's title: in its unit ("14,223,040 bytes"; the page
left a heap profile's bytes unsaid).

The page's call tree against --tree, line for line. --tree prints the
flame graph's tree of call paths as text: each path's total and self,
whole units (an estimate's rounded) or gmon.out's seconds, and both as
a share of the total. The page's Call tree, every row opened, shows the
same paths with the same figures, for each input kind: Callgrind
(estimated from call arcs), gmon.out, IgProf and perf.data (exact
stacks). Two defects it found (session 22):

- an estimated tree's figures had two decimals on the page
  (115,775,472.06, a self of 15.00) where --tree prints 115,775,472 and
  15;
- the page's tree cut paths below 2e-5 of the total into their caller's
  self, --tree below 1e-5: a caller's self was larger on the page than
  in --tree by the paths between the two (a Callgrind profile of a
  C++ program: fill() 28,373,021 on the page, 28,368,752 in --tree).

The page's transforms against --tree with the same options: exact for
recorded stacks (perf.data, IgProf) and, since session 23, for trees
estimated from call arcs (test_transforms_of_estimates).
"""
import collections
import json
import os
import re
import subprocess

from selenium.webdriver.common.by import By

import report_base
from report_base import (PROFILES, TOP_ROWS, Page, ReportBase, number, run,
                         strip_cycle)

# Every row of a tree view, opened, scrolled through (treetable.js):
# its depth and cells. TREE_ROWS is a function of the view's id, for
# test_firefox.py's BiDi evaluation too; ROWS calls it in Chromium.
TREE_ROWS = """(function (id) {
    const t = document.getElementById(id);
    const seen = new Map();
    for (let y = 0; ; y += t.clientHeight / 2) {
        t.scrollTop = y;
        t.redrawRows();
        for (const r of t.querySelectorAll('.row'))
            seen.set(Number(r.dataset.i), [Number(r.dataset.depth),
                [...r.children].map(c => c.textContent)]);
        if (y + t.clientHeight >= t.scrollHeight)
            break;
    }
    return [...seen.keys()].sort((a, b) => a - b).map(k => seen.get(k));
})"""
ROWS = 'return ' + TREE_ROWS + '(arguments[0]);'

# main calls big (1,000,000) and tiny (15: 1.5e-5 of the total, a path
# --tree keeps and a cut at 2e-5 put in main's self)
TINY_PATH = """events: Ir
fn=main
1 100
cfn=big
calls=1 1
1 999885
cfn=tiny
calls=1 1
1 15
fn=big
1 999885
fn=tiny
1 15
"""


def flat_calls(args):
    """The flat profile's calls column by function name (its cycle
    left off), as printed."""
    out = {}
    for line in run(['-p', '--brief', '--threshold=0'] + args).splitlines():
        m = re.match(r' *[\d.]+ +[\d,.]+ +[\d,.]+ +'
                     r'(?:([\d,]+(?:\+[\d,]+)?) +(?:[\d,.]+ +[\d,.]+ +)?)?'
                     r' (\S.*)$', line)
        if m:
            out[strip_cycle(m.group(2))] = m.group(1) or ''
    return out


def text_tree(args):
    """--tree --threshold=0's lines as (depth, total, total%, self,
    self%) tuples, the figures as printed."""
    out = []
    lines = run(['--tree', '--threshold=0'] + args).splitlines()
    head = next(i for i, line in enumerate(lines)
                if line.lstrip().startswith('total%'))
    for line in lines[head + 1:]:
        m = re.match(r' *([\d.]+) +([\d.]+) +([\d,.]+) +([\d,.]+)  ( *)(\((\d+)\) )?', line)
        if not m:
            break
        depth = int(m.group(7)) if m.group(7) else len(m.group(5)) // 2
        out.append((depth, m.group(3), m.group(1) + '%', m.group(4),
                    m.group(2) + '%'))
    return out


class TreeTextTest(ReportBase):

    def page_tree(self, p):
        """The call tree's rows, every one opened, as text_tree()'s
        tuples."""
        p.go('#calltree')
        self.driver.find_element(By.ID, 'calltree-all').click()
        p.wait()
        return [(depth, c[0], c[1], c[3], c[4])
                for depth, c in p.js(ROWS, 'calltree')]

    def check(self, p, args, what):
        want = text_tree(args)
        got = self.page_tree(p)
        self.assertGreater(len(want), 2, what)
        # siblings of one total may come in another order: the rows as
        # a multiset, each with its depth
        missing = collections.Counter(want) - collections.Counter(got)
        extra = collections.Counter(got) - collections.Counter(want)
        self.assertEqual((dict(missing), dict(extra)), ({}, {}), what)
        self.assertEqual(len(got), len(want), what)
        return got

    def test_estimated(self):
        """Callgrind: the tree estimated from call arcs, whole units
        as --tree rounds them (failed with two decimals)."""
        self.assertIn('(estimated from call arcs)',
                      run(['--tree'] + PROFILES['callgrind']))
        p = self.page('callgrind')
        got = self.check(p, PROFILES['callgrind'], 'callgrind')
        self.assertFalse([r for r in got if '.' in r[1] + r[3]])
        p.shot('tree-text-callgrind')

    def test_exact(self):
        for kind in ('perf', 'igprof', 'gmon'):
            self.check(self.page(kind), PROFILES[kind], kind)

    def check_events(self, args, name):
        """Each event's call tree against --tree --sort=EVENT; a
        maximum's heading says why the tree is another event's."""
        from selenium.webdriver.support.ui import Select
        doc = json.loads(run(['--json'] + args))
        page = os.path.join(self.tmp, 'text-%s.html' % name)
        run(['--output=html', '--threshold=0', '-o', page] + args)
        p = Page(self.driver, page)
        for k, event in enumerate(doc['events']):
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(k)
            p.wait()
            p.go('#calltree')
            head = p.js("return document.querySelector("
                        "'#calltree-view .controls span').textContent")
            if doc['event_info'][k].get('maximum'):
                self.assertIn(event + ' is a maximum', head)
                self.assertNotIn('--sort', head)
                continue
            self.assertEqual(head, 'Call tree of ' + event)
            self.check(p, ['--sort=' + event] + args, '%s %s' % (name, event))
        p.shot('text-%s-calltree' % name)

    def test_every_event(self):
        """Every event of a cache simulation (13, each its own tree),
        IgProf's memory counters (a maximum among them: its heading
        said 'estimated for the event --sort chose only') and a heap
        profile's four (paths of none of the event's cost were rows of
        0s, which --tree leaves out: 26 of inuse_space's 43)."""
        self.check_events(PROFILES['events'], 'events')
        self.check_events(['tests/inputs/igprof/mem.txt'], 'igprof-mem')
        self.check_events(['tests/pprof/heap.pb.gz'], 'pprof-heap')

    TRANSFORMS = [('focus', 'main', '--focus=main'),
                  ('ignore', 'main', '--ignore=main'),
                  ('hide', 'fib*', '--hide=fib*'),
                  ('focus', 'work', '--focus=work'),
                  ('fold', '*', '--fold-recursion')]

    def check_transforms(self, kind, cases, event=None, made=()):
        """The page's transforms (the hash's) against --tree with the
        same options, row for row; event: another event than --sort's,
        chosen in the page's menu; made: options the report and every
        --tree are made with."""
        from selenium.webdriver.support.ui import Select
        if made:
            path = os.path.join(self.tmp, kind + '-made.html')
            run(['--output=html', '--threshold=0', '-o', path] + list(made) +
                PROFILES[kind])
            p = Page(self.driver, path)
        else:
            p = self.page(kind)
        sort = list(made)
        if event is not None:
            doc = self.docs[kind]
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(
                doc['events'].index(event))
            p.wait()
            sort += ['--sort=' + event]
        for op, arg, opt in cases:
            want = text_tree(sort + ([opt] if opt else []) + PROFILES[kind])
            p.go('#calltree&%s=%s' % (op, arg) if op else '#calltree')
            p.js("document.getElementById('calltree-all').click()")
            p.wait()
            got = [(depth, c[0], c[1], c[3], c[4])
                   for depth, c in p.js(ROWS, 'calltree')]
            what = '%s %s=%s %s' % (kind, op, arg, event or '')
            self.assertEqual((dict(collections.Counter(want) -
                                   collections.Counter(got)),
                              dict(collections.Counter(got) -
                                   collections.Counter(want))),
                             ({}, {}), what)
            if op == 'focus' and arg == 'main':
                self.assertGreater(len(got), 2, what)
        return p

    def test_transforms_of_stacks(self):
        """The page's transforms (the hash's focus, ignore, hide,
        fold) against --tree with the same options, for the profiles
        with stacks (perf.data, IgProf), where both transform the
        recorded stacks."""
        for kind in ('perf', 'perf-dwarf', 'igprof'):
            self.check_transforms(kind, self.TRANSFORMS)

    def test_transforms_of_estimates(self):
        """The same for the trees estimated from call arcs (Callgrind,
        gmon.out). One definition for both (doc/REFERENCE.md): the
        transforms start from the tree --tree prints (its paths cut at
        1e-5 of the total) with each function's self cost spread over
        its paths and one whose paths were all cut put under its
        heaviest caller (flame_exact_self()), each path's self rounded
        to whole units as a running sum: print/arc_stacks.c on the
        command line, exact.js on the page, by the same operations in
        the same order. Session 22 left them apart by a unit or more
        (Callgrind's --ignore=main: 58,956 in --tree, 58,958 on the
        page; 8 rows fewer on the page; gmon.out's percentages of
        fractional ticks), the command line transforming paths cut at
        1e-6, which the page could not carry. (On gprof2dot's xapian,
        bzr and issue34 profiles, 600 to 4,000 rows each, the page
        equals --tree with --hide, --focus=main and --ignore=*alloc*.)

        The fold of Callgrind's recursion levels (fib'2) is compared in
        test_fold_of_recursion_levels. gmon.out has no levels: folds are
        compared here."""
        cases = self.TRANSFORMS[:-1] + [('hide', 'main', '--hide=main'),
                                        ('focus', 'fib', '--focus=fib')]
        p = self.check_transforms('callgrind', cases)
        p.shot('text-callgrind-transformed')
        self.check_transforms('gmon', cases + self.TRANSFORMS[-1:])
        # each event its own tree: a cache miss event's
        self.check_transforms('events', cases[:3], event='D1mr')

    # Callgrind profiles of recursion levels (tests/callgrind-levels/
    # make.sh): valgrind's default --separate-recs=2 and 4 levels
    LEVELS = {
        'callgrind': PROFILES['callgrind'],
        'recs2': ['tests/callgrind-levels/recs2.out'],
        'recs4': ['tests/callgrind-levels/recs4.out'],
    }
    # (the page's transforms, the command line's options): every
    # function's levels folded, alone and before and after others
    LEVEL_CASES = [
        ('fold=*', ['--fold-recursion']),
        ('focus=main&fold=*', ['--fold-recursion', '--focus=main']),
        ('fold=*&focus=leaf', ['--fold-recursion', '--focus=leaf']),
        ('fold=*&ignore=even', ['--fold-recursion', '--ignore=even']),
        ('fold=*&hide=ring_b', ['--fold-recursion', '--hide=ring_b']),
        ('fold=*&focus=fib', ['--fold-recursion', '--focus=fib']),
        ('fold=*&focus=ring_a', ['--fold-recursion', '--focus=ring_a']),
        ('fold=*&hide=*alloc*&focus=main',
         ['--fold-recursion', '--hide=*alloc*', '--focus=main']),
    ]

    def test_fold_of_recursion_levels(self):
        """Callgrind's recursion levels folded by the page (fold=*, a
        report made without --fold-recursion) against --tree
        --fold-recursion with the same transforms, row for row, on
        samples/recursion and tests/callgrind-levels' profiles (mutual
        recursion, a ring of three, levels to '4). The command line folds
        fib'2 into fib as it reads, so its tree is estimated from the
        folded arcs and their cycles; until session 24 the page folded
        the paths estimated with the levels apart: 677 rows against 666
        on samples/recursion, even'2 and odd'2 a cycle of their own (294
        each) beside even and odd (18 each) where the folded arcs make one
        cycle of even and odd (312 each), ring_a, ring_b and ring_c a
        chain above their levels' cycle. The report now carries the
        folded profile's trees (html_folded.c, fold.js) and the page
        starts from them when its folds fold every function's levels;
        the transforms bar's note (#crumbs-levels) is left for a fold of
        some functions' levels only, which no command line does. A report
        made with --fold-recursion equals it too, its folds folding
        nothing more. (On gprof2dot's xapian, issue34, bool and selinux
        profiles, whose levels valgrind made, the page equals --tree
        --fold-recursion with fold=*, fold=*&hide=*alloc* and
        focus=main&fold=*, up to 2,225 rows: checked in session 24.)"""
        levels = "return !!document.getElementById('crumbs-levels')"
        for kind, args in self.LEVELS.items():
            page = os.path.join(self.tmp, 'levels-%s.html' % kind)
            run(['--output=html', '--threshold=0', '-o', page] + args)
            p = Page(self.driver, page)
            for place, opts in self.LEVEL_CASES:
                # fib is samples/recursion's, leaf levels.c's
                if ('fib' in place) != (kind == 'callgrind') and \
                        ('fib' in place or 'leaf' in place):
                    continue
                want = text_tree(opts + args)
                p.go('#calltree&' + place)
                p.js("document.getElementById('calltree-all').click()")
                p.wait()
                got = [(depth, c[0], c[1], c[3], c[4])
                       for depth, c in p.js(ROWS, 'calltree')]
                what = '%s %s' % (kind, place)
                self.assertTrue(want, what)
                self.assertEqual((dict(collections.Counter(want) -
                                       collections.Counter(got)),
                                  dict(collections.Counter(got) -
                                       collections.Counter(want))),
                                 ({}, {}), what)
                self.assertFalse(p.js(levels), what)
                if kind == 'recs4' and place == 'fold=*':
                    p.shot('text-callgrind-fold-levels')
        p = self.check_transforms('callgrind',
                                  [(None, None, None)] + self.TRANSFORMS +
                                  [('ignore', 'fib', '--ignore=fib')],
                                  made=['--fold-recursion'])
        p.go('#calltree&fold=*')
        self.assertFalse(p.js(levels), 'made with --fold-recursion')
        # some functions' levels folded: the paths', said
        p = self.page('callgrind')
        for place, said in (('fold=fib', True), ('focus=main&fold=fib', True),
                            ('fold=main', False), ('hide=fib', False),
                            ('fold=*', False)):
            p.go('#calltree&' + place)
            self.assertEqual(p.js(levels), said, place)
        p = self.page('gmon')
        p.go('#calltree&fold=*')
        self.assertFalse(p.js(levels), 'gmon.out')

    def test_fold_by_clicks(self):
        """As a user folds: the call tree of tests/callgrind-levels'
        recs4.out (levels to '4), the transforms form's "fold recursion
        of" with "*" added, then "focus on" main, each with "open all"
        clicked: the rows --tree --fold-recursion's, then with
        --focus=main; the cycles of the folded arcs shown (even and odd
        one cycle, ring_a, ring_b and ring_c another), none of a level."""
        from selenium.webdriver.support.ui import Select
        args = self.LEVELS['recs4']
        page = os.path.join(self.tmp, 'levels-clicks.html')
        run(['--output=html', '--threshold=0', '-o', page] + args)
        p = Page(self.driver, page)
        p.open('#calltree')
        for op, glob, opts in (('fold', '*', ['--fold-recursion']),
                               ('focus', 'main', ['--fold-recursion',
                                                  '--focus=main'])):
            Select(self.driver.find_element(By.CSS_SELECTOR, '.xf-op')
                   ).select_by_value(op)
            box = self.driver.find_element(By.CSS_SELECTOR, '.xf-glob')
            box.clear()
            box.send_keys(glob)
            self.driver.find_element(By.XPATH,
                                     "//span[@class='xf-form']/button").click()
            p.wait()
            self.driver.find_element(By.ID, 'calltree-all').click()
            p.wait()
            rows = p.js(ROWS, 'calltree')
            got = [(depth, c[0], c[1], c[3], c[4]) for depth, c in rows]
            want = text_tree(opts + args)
            self.assertEqual(sorted(got), sorted(want), glob)
            names = [c[5].strip('\u25be\u25b8\u00b7\u22ef') for _, c in rows]
            self.assertFalse([n for n in names if re.search(r"'\d", n)],
                             glob)
            # the folded arcs' cycles, as --tree --fold-recursion
            # numbers them (the levels apart make 5)
            for n in ('<cycle 1 as a whole>', '<cycle 2 as a whole>',
                      'even <cycle 1>', 'odd <cycle 1>', 'ring_a <cycle 2>',
                      'ring_b <cycle 2>', 'ring_c <cycle 2>'):
                self.assertIn(n, names, glob)
            p.js("document.getElementById('calltree').scrollTop = 0")
            p.wait()
            p.shot('text-callgrind-fold-clicks-' + op)

    def test_path_between_the_cuts(self):
        """A path of 1.5e-5 of the total: a row of its own, and not in
        its caller's self (failed: main's self 115, tiny no row)."""
        prof = os.path.join(self.tmp, 'tiny-path.out')
        with open(prof, 'w', encoding='utf-8') as f:
            f.write(TINY_PATH)
        page = os.path.join(self.tmp, 'tiny-path.html')
        run(['--output=html', '--threshold=0', '-o', page, prof])
        got = self.check(Page(self.driver, page), [prof], 'tiny path')
        self.assertIn((1, '15', '0.00%', '15', '0.00%'), got)
        self.assertIn((0, '1,000,000', '100.00%', '100', '0.01%'), got)


class TransformedTopTest(ReportBase):

    def test_top_of_estimates_transformed(self):
        """Top under a transform of a tree estimated from call arcs:
        each function's self and inclusive cost are --json's with the
        same transform (Callgrind, gmon.out). Session 22's page
        differed in 70 of Callgrind's 98 rows under focus=main and 129
        of 297 under ignore=fib (its transforms started from other
        stacks than the command line's: test_transforms_of_estimates)."""
        for kind in ('callgrind', 'gmon'):
            whole = self.docs[kind]
            p = self.page(kind)
            for x, opt in (('focus=main', '--focus=main'),
                           ('ignore=fib', '--ignore=fib'),
                           ('hide=work', '--hide=work')):
                doc = json.loads(run(['--json', '--threshold=0', opt] +
                                     PROFILES[kind]))
                ev = self.ev(doc)
                byname = {}
                for f in doc['functions']:
                    byname.setdefault((f['name'], f['file'], f['object']), f)
                p.open('#top&' + x)
                rows = p.js(TOP_ROWS)
                self.assertGreater(len(rows), 5, kind + ' ' + x)
                for fid, cells in rows:
                    w = whole['functions'][fid]
                    f = byname.get((w['name'], w['file'], w['object']))
                    what = '%s %s: %s' % (kind, x, w['name'])
                    self.assertIsNotNone(f, what)
                    self.assertEqual(
                        (number(cells[0]), number(cells[2])),
                        (report_base.listed_cost(doc, ev, f['self'][ev]),
                         report_base.listed_cost(doc, ev, f['inclusive'][ev])),
                        what)

    def test_top_of_folds_alone(self):
        """Top under fold=* alone on a tree estimated from arcs with no
        recursion levels (gmon.out, a Callgrind report made with
        --fold-recursion) is --json --fold-recursion's, the profile as
        read (the command line folds nothing more: analyze.c
        only_folds()). The page gave the tree's estimate, to two
        decimals: msort_with_tmp.part.0 66,571.79 for 66,568, 68 of 292
        rows apart."""
        made = os.path.join(self.tmp, 'callgrind-folded.html')
        run(['--output=html', '--threshold=0', '--fold-recursion', '-o',
             made] + PROFILES['callgrind'])
        for kind, path in (('gmon', self.pages['gmon']), ('callgrind', made)):
            doc = json.loads(run(['--json', '--threshold=0',
                                  '--fold-recursion'] + PROFILES[kind]))
            ev = self.ev(doc)
            p = Page(self.driver, path)
            p.open('#top&fold=*')
            rows = p.js(TOP_ROWS)
            self.assertGreater(len(rows), 5, kind)
            for fid, cells in rows:
                f = doc['functions'][fid]
                self.assertEqual(
                    (number(cells[0]), number(cells[2])),
                    (report_base.listed_cost(doc, ev, f['self'][ev]),
                     report_base.listed_cost(doc, ev, f['inclusive'][ev])),
                    kind + ': ' + f['name'])

    def test_focus_total_is_measured(self):
        """A first focus on one function of a Callgrind profile (and an
        ignore of it) totals its measured inclusive cost (--json's,
        callgrind_annotate --inclusive=yes's), exactly: the page's
        stacks are pinned to it as the command line's are (exact.js
        pinFunction(), src/print/arc_pin.h). Unpinned, the self costs
        spread over the estimated paths left main at 82,044 of its
        82,036 and worker at 58,682 of 58,685."""
        doc = self.docs['callgrind']
        ev = self.ev(doc)
        total = doc['totals'][ev]
        p = self.page('callgrind')
        for name in ('main', 'work', 'fib', 'worker'):
            incl = sum(f['inclusive'][ev] for f in doc['functions']
                       if f['name'] == name)
            self.assertGreater(incl, 0, name)
            for op, want in (('focus', incl), ('ignore', total - incl),
                             ('fold=*&focus', incl)):
                p.go('#calltree&%s=%s' % (op, name))
                page = p.js("return document.getElementById('in-view')"
                            ".textContent")
                got = re.match(r'in view: ([\d,]+)', page)
                self.assertEqual(number(got.group(1)), want,
                                 '%s=%s: %s' % (op, name, page))

    def test_top_of_folded_levels(self):
        """Top when the page folds every function's recursion levels
        (fold=*, a report made without --fold-recursion) is --json
        --fold-recursion's with the same transforms: alone, a function's
        self its levels' added and its inclusive the folded profile's
        measured one (fib 29,290 and 29,290; the page gave the estimate
        of the levels apart); with a focus, the transformed figures.
        A level folded into another has no row. Also on a report cut
        at the default threshold (0.5%), whose functions left out are
        one unit of its trees: under fold=* alone its Top's folded
        figures hold the levels it leaves out too."""
        for kind, cut in (('callgrind', False), ('recs4', False),
                          ('recs4', True)):
            args = TreeTextTest.LEVELS[kind]
            page = os.path.join(self.tmp, 'top-levels-%s%d.html' % (kind, cut))
            run(['--output=html'] + ([] if cut else ['--threshold=0']) +
                ['-o', page] + args)
            p = Page(self.driver, page)
            # each page function's name, file and object
            with open(page, encoding='utf-8') as f:
                data = json.loads(re.search(
                    r'<script type="application/json" id="cga-data">(.*?)'
                    r'</script>', f.read(), re.S).group(1))
            cols = data['functions']
            path = lambda i: data['paths'][i] if i is not None and i >= 0 else ''
            names = [(n, path(cols['file'][f]), path(cols['object'][f]))
                     for f, n in enumerate(cols['name'])]
            # (a cut page's other transforms take its trees' own self
            # costs: equal to the command line at --threshold=0 only)
            for place, opts in (('fold=*', []), ('fold=*&focus=main',
                                                 ['--focus=main']))[:2 - cut]:
                doc = json.loads(run(['--json', '--threshold=0',
                                      '--fold-recursion'] + opts + args))
                ev = self.ev(doc)
                byname = {(f['name'], f['file'] or '', f['object'] or ''): f
                          for f in doc['functions']}
                p.open('#top&' + place)
                rows = p.js(TOP_ROWS)
                what = '%s %s' % (kind, place)
                self.assertGreater(len(rows), 5, what)
                for fid, cells in rows:
                    name, file, obj = names[fid]
                    key = (re.sub(r"'\d+(?='|$)", '', name, count=1),
                           file or '', obj or '')
                    f = byname.get(key)
                    self.assertIsNotNone(f, '%s: %s' % (what, name))
                    self.assertEqual(
                        (number(cells[0]), number(cells[2])),
                        (f['self'][ev], f['inclusive'][ev]),
                        '%s: %s' % (what, name))
                    self.assertEqual(key[0], name,
                                     '%s: a level has a row' % what)
            if cut:	# the tree of the folded arcs, said so by no note
                p.go('#calltree&fold=*')
                self.assertFalse(p.js("return !!document.getElementById("
                                      "'crumbs-levels')"), 'cut page')
                p.shot('text-callgrind-fold-levels-cut')

    def test_top_of_some_levels_folded(self):
        """Top when the page folds some functions' recursion levels only
        (fold=fib, fold=walk: no command line folds so; the transforms
        bar says so) stands on the stacks in whole units that the other
        transforms of an estimate start from (exact.js): every figure
        whole, the selfs adding up to the total. Top showed the estimate's
        sums to two decimals, leaf's self as 219,635.00 under fold=walk
        and msort_with_tmp.part.0'2's as 59,883.34 under fold=fib,
        beside the call tree's whole units."""
        for kind, fold in (('callgrind', 'fib'), ('recs4', 'walk')):
            args = TreeTextTest.LEVELS[kind]
            page = os.path.join(self.tmp, 'top-some-levels-%s.html' % kind)
            run(['--output=html', '--threshold=0', '-o', page] + args)
            doc = json.loads(run(['--json', '--threshold=0'] + args))
            ev = self.ev(doc)
            p = Page(self.driver, page)
            p.open('#top&fold=' + fold)
            self.assertTrue(p.js("return !!document.getElementById("
                                 "'crumbs-levels')"), kind)
            rows = p.js(TOP_ROWS)
            self.assertGreater(len(rows), 5, kind)
            selfs = 0
            for fid, cells in rows:
                f = doc['functions'][fid]
                what = '%s fold=%s: %s %s' % (kind, fold, f['name'], cells[:4])
                self.assertNotIn('.', cells[0] + cells[2], what)
                selfs += number(cells[0])
                # (the stacks' whole units are a running sum over every
                # node, as the command line's under a transform: a
                # function's self within a few units of the profile's,
                # _dl_lookup_symbol_x's 16,716 for 16,718)
                if not f['name'].startswith(fold):
                    self.assertLessEqual(abs(number(cells[0]) -
                                             f['self'][ev]), 5, what)
            self.assertEqual(selfs, doc['totals'][ev], kind)

    def test_in_view_is_the_notes(self):
        """The transforms bar's "in view: X of Y (P%)" against the
        command line's note "X of Y EVENT (P%) in view": the same
        figures, the share to its one decimal. gmon.out's tree adds up
        to 92.13 of its 92 ticks: the page gave its share of that,
        hide=work "99.85%" where the note says 100.0%."""
        for kind in ('callgrind', 'gmon', 'perf', 'igprof'):
            p = self.page(kind)
            for x in ('focus=fib', 'hide=work', 'focus=work', 'ignore=main'):
                p.go('#calltree&' + x)
                page = p.js("return document.getElementById('in-view')"
                            ".textContent")
                err = subprocess.run([report_base.BIN, '-p', '--brief', '--' + x] +
                                     PROFILES[kind], capture_output=True,
                                     text=True).stderr
                note = re.search(r': ([\d,.]+) of ([\d,.]+) .*?\(([\d.]+)%\) in view',
                                 err)
                got = re.match(r'in view: ([\d,.]+)(?: \S+)? of ([\d,.]+)'
                               r'(?: \S+)? \(([\d.]+)%\)', page)
                what = '%s %s: %r %r' % (kind, x, page, note.group(0))
                self.assertEqual(got.group(1, 2), note.group(1, 2), what)
                self.assertEqual('%.1f' % float(got.group(3)), note.group(3), what)


class FlatTextTest(ReportBase):

    def check_calls(self, kind, numeric=False):
        doc = self.docs[kind]
        fns = doc['functions']
        flat = flat_calls(PROFILES[kind])
        p = self.page(kind)
        rows = p.js(TOP_ROWS)
        self.assertGreater(len(flat), 3)
        # a name two functions share is labelled with the object and
        # file in the flat profile: the others are compared
        once = [n for n, k in collections.Counter(
            f['name'] for f in fns).items() if k == 1]
        seen = 0
        for fid, cells in rows:
            name = fns[fid]['name']
            if name not in flat:
                continue	# the flat profile leaves out what has nothing
            seen += 1
            if numeric:	# gprof's column has no digit groups
                self.assertEqual(number(cells[4]), number(flat[name]), name)
            else:
                self.assertEqual(cells[4], flat[name], name)
        self.assertEqual(seen, len([n for n in once if n in flat]))
        return rows

    def test_callgrind_calls_of_itself(self):
        rows = self.check_calls('callgrind')
        self.assertTrue([r for r in rows if '+' in r[1][4]])
        self.page('callgrind').shot('text-callgrind-top')

    def test_igprof_calls_of_itself(self):
        rows = self.check_calls('igprof')
        self.assertTrue([r for r in rows if '+' in r[1][4]])

    def test_calls_not_cut(self):
        """The calls column is as wide as its widest text, "42+49,107"
        wider than "1,296,016" for the same number of characters (was
        measured by the characters: cut to "42+49,10")."""
        prof = os.path.join(self.tmp, 'wide-calls.out')
        with open(prof, 'w', encoding='utf-8') as f:
            f.write('events: Ir\nfn=main\n1 10\ncfn=a\ncalls=1296016 1\n'
                    '1 1296016\ncfn=b\ncalls=42 1\n1 100\nfn=a\n1 1296016\n'
                    'fn=b\n1 50\ncfn=b\ncalls=49107 1\n1 50\n')
        page = os.path.join(self.tmp, 'wide-calls.html')
        run(['--output=html', '--threshold=0', '-o', page, prof])
        p = Page(self.driver, page)
        for width in (1400, 800):
            self.driver.set_window_size(width, 1000)
            p.open('')
            cells = p.js("""return [...document.querySelectorAll(
                '#top-table .row span.num')].map(s =>
                [s.textContent, s.scrollWidth <= s.clientWidth])""")
            self.assertIn(['42+49,107', True], cells, width)
            self.assertIn(['1,296,016', True], cells, width)
            self.assertEqual([c for c in cells if not c[1]], [], width)
        self.driver.set_window_size(1400, 1000)

    def test_gmon_calls_alone(self):
        rows = self.check_calls('gmon', numeric=True)
        self.assertFalse([r for r in rows if '+' in r[1][4]])
        # a function with no calls: blank, not 0
        self.assertTrue([r for r in rows if r[1][4] == ''])


class HeaderTextTest(ReportBase):

    def test_total_in_its_unit(self):
        """A pprof heap profile's four events: the summary's total of
        each, as the flat profile's title of it (--sort=EVENT)."""
        from selenium.webdriver.support.ui import Select
        args = ['tests/pprof/heap.pb.gz']
        doc = json.loads(run(['--json'] + args))
        self.assertGreater(len(doc['events']), 3)	# folded
        page = os.path.join(self.tmp, 'text-heap.html')
        run(['--output=html', '-o', page] + args)
        p = Page(self.driver, page)
        units = 0
        for k, name in enumerate(doc['events']):
            title = run(['-p', '--brief', '--sort=' + name] + args).splitlines()[0]
            total = re.match(r'Flat profile of \S+, (.*?) in all', title).group(1)
            units += total.endswith(' bytes')
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(k)
            p.wait()
            self.assertEqual(p.js("return document.getElementById("
                                  "'event-total').textContent"),
                             ': %s %s (%d events)' % (name, total,
                                                      len(doc['events'])))
        self.assertEqual(units, 2)	# inuse_space, alloc_space
        p.shot('text-heap-header')


class FunctionTextTest(ReportBase):

    def test_samples_counted(self):
        """perf.data: the Function view's 'in N samples' as the flat
        profile's samples column, '1 sample' for one (said '1
        samples')."""
        doc = self.docs['perf']
        ev = self.ev(doc)
        fns = doc['functions']
        one = next(f for f in fns if f['samples'][ev] == 1)
        many = max(fns, key=lambda f: f['samples'][ev])
        p = self.page('perf')
        for f, want in ((one, ' in 1 sample,'),
                        (many, ' in %s samples,' % format(many['samples'][ev], ','))):
            p.go('#fn/%d' % f['id'])
            facts = p.js("return [...document.querySelectorAll('#function p')]"
                         ".map(e => e.textContent)"
                         ".find(t => t.startsWith('self '))")
            self.assertIn(want, facts, f['name'])

    def test_sample_count_said_once(self):
        """pprof's "samples" event shown: its self is the samples'
        count, not said again ('self 24 (38.71%) in 24 samples'); the
        cpu event beside it says it."""
        from selenium.webdriver.support.ui import Select
        args = ['tests/pprof/cpu.pb.gz']
        doc = json.loads(run(['--json'] + args))
        k = doc['events'].index('samples')
        self.assertTrue(doc['event_info'][k].get('sample_count'))
        page = os.path.join(self.tmp, 'text-cpu.html')
        run(['--output=html', '-o', page] + args)
        p = Page(self.driver, page)
        f = max(doc['functions'], key=lambda f: f['self'][k])
        for e in range(len(doc['events'])):
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(e)
            p.wait()
            p.go('#fn/%d' % f['id'])
            facts = p.js("return [...document.querySelectorAll('#function p')]"
                         ".map(e => e.textContent)"
                         ".find(t => t.startsWith('self '))")
            n = format(f['self'][k], ',')
            if e == k:
                self.assertTrue(facts.startswith('self %s (' % n), facts)
                self.assertNotIn(' samples', facts)
            else:
                self.assertIn(' in %s samples,' % n, facts)
