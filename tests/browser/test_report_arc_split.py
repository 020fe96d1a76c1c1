"""The Function view's caller and callee lines of a profile of whole
stacks (perf.data, IgProf): self and children are the exact split the
text graph and --json's arcs print (an arc's "self", its inclusive less
that), carried in the page's data, not worked out again by the callee's
ratio; and a Callgrind profile's page still splits by the ratio (it has
no exact split to carry).

Run with the other test_report*.py by tests/browser/run_report.py.
"""
from selenium.webdriver.common.by import By

from report_base import ReportBase, number

# whether the page's calls carry the exact self parts (html_data.c)
SPARSE = ("return 'self_sparse' in JSON.parse("
          "document.getElementById('cga-calls').textContent).calls")


class ArcSplitTest(ReportBase):

    def lines(self, p, kind, f):
        p.go('#fn/%d' % f)
        self.assertTrue(self.driver.find_elements(By.ID, 'fn-name'))
        return p.js("""
            return [...document.querySelectorAll('table.entry tr.caller, table.entry tr.callee')]
              .filter(tr => tr.querySelector('a'))
              .map(tr => ({dir: tr.className,
                           fn: Number(tr.querySelector('a').getAttribute('href').slice(4)),
                           self: tr.children[1].textContent,
                           children: tr.children[2].textContent,
                           incl: tr.children[3].textContent}));""")

    def check(self, kind, names, shot):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        p = self.page(kind)
        # the page carries the exact parts
        self.assertTrue(p.js(SPARSE))
        differ = intos = 0
        for name in names:
            f = next(x['id'] for x in fns if x['name'] == name)
            shown = self.lines(p, kind, f)
            if name == names[0]:
                p.shot(shot)
            self.assertTrue(shown, 'no lines of ' + name)
            cycle = fns[f]['cycle']
            for s in shown:
                me, other = (('callee', 'caller') if s['dir'] == 'caller'
                             else ('caller', 'callee'))
                arc = next(a for a in doc['arcs']
                           if a[me] == f and a[other] == s['fn'])
                inside = s['fn'] == f or (
                    cycle is not None and fns[s['fn']]['cycle'] == cycle)
                if inside:	# no share of a self-call or inside a cycle
                    self.assertIsNone(number(s['incl']))
                    continue
                got = (number(s['self']), number(s['children']),
                       number(s['incl']))
                into = fns[arc['callee']]['cycle']
                if into is not None:
                    # into a cycle: one unit, split by its ratio, and
                    # --json has no exact part for it (cg_arc_share())
                    self.assertNotIn('self', arc)
                    y = next(c for c in doc['cycles'] if c['id'] == into)
                    incl = arc['inclusive'][ev]
                    part = (incl * y['self'][ev] / y['inclusive'][ev]
                            if y['inclusive'][ev] else 0)
                    self.assertEqual(got[2], incl)
                    self.assertAlmostEqual(got[0], part, delta=0.5)
                    self.assertAlmostEqual(got[1], incl - part, delta=0.5)
                    intos += 1
                    continue
                want = (arc['self'][ev],
                        arc['inclusive'][ev] - arc['self'][ev],
                        arc['inclusive'][ev])
                self.assertEqual(got, want, '%s %s line of %s' %
                                 (s['dir'], fns[s['fn']]['name'], name))
                # unlike the callee's ratio (self:inclusive of the
                # callee, as cganalyze splits Callgrind's arcs)
                callee = fns[arc['callee']]
                if callee['inclusive'][ev] and arc['inclusive'][ev]:
                    ratio = arc['inclusive'][ev] * \
                        callee['self'][ev] / callee['inclusive'][ev]
                    differ += abs(ratio - want[0]) >= 1
        self.assertGreater(differ, 0, 'no line where the ratio differs')
        return intos

    def test_perf_fp(self):
        self.check('perf', ['leaf', 'lib_spin', 'hot', 'fib'],
                   'arc-split-perf-leaf')

    def test_perf_dwarf(self):
        self.check('perf-dwarf', ['leaf', 'fib'], 'arc-split-dwarf-leaf')

    def test_igprof(self):
        # work's callers exactly, and its calls into the cycles (even/odd
        # and ring_a/b/c) by the cycle's ratio
        self.assertGreater(
            self.check('igprof', ['work', 'fib'], 'arc-split-igprof-work'), 0)

    def test_callgrind_ratio(self):
        """Callgrind's arcs carry inclusive cost alone: no exact parts in
        the page, and the lines split by the callee's ratio."""
        doc = self.docs['callgrind']
        ev = self.ev(doc)
        fns = doc['functions']
        p = self.page('callgrind')
        self.assertFalse(p.js(SPARSE))
        self.assertFalse(any('self' in a for a in doc['arcs']))
        f = next(x['id'] for x in fns if x['name'] == 'work')
        for s in self.lines(p, 'callgrind', f):
            if s['dir'] != 'caller':
                continue
            arc = next(a for a in doc['arcs']
                       if a['callee'] == f and a['caller'] == s['fn'])
            fn = fns[f]
            want = arc['inclusive'][ev] * fn['self'][ev] / fn['inclusive'][ev]
            self.assertAlmostEqual(number(s['self']), want, delta=0.5)
