"""The report's layout in a real browser: what must be in view.

Run with the other test_report*.py by tests/browser/run_report.py.
- a 1,000-deep recursion's flame graph and icicle show their root, and
  the readout of a hovered deep frame, inside the window;
- the Function view opens on the program's own heaviest function, not
  the dynamic loader's entry (a Callgrind profile full of ld.so);
- many events are folded behind a toggle above the table;
- at 800 px wide no view scrolls the whole page sideways, and every
  column of the Top table can be seen;
- the object column shows a file name, with the path on hover; the
  Function view's numbers are right-aligned.
"""
import os
import subprocess

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import report_base
from report_base import PROFILES, Page, ReportBase, run

DEPTH = 1000


def deep_igprof(path):
    """An IgProf profile (the format of tests/inputs/igprof/) of a
    program whose main spends 1,000 ticks in work() and 5 at the bottom
    of a recursion 1,000 calls deep: one narrow, deep stack."""
    lines = ['P=(ID=1 N=(./deep) T=0.010000)',
             'C1 FN0=(F0=(/lib/x86_64-linux-gnu/libc.so.6)+160330 '
             'N=(__libc_start_call_main))+138',
             'C2 FN1=(F1=(./deep)+4400 N=(main))+40',
             'C3 FN2=(F1+4300 N=(work))+20 V0=(PERF_TICKS):(1000,1000,1000)',
             'C3 FN3=(F1+4200 N=(rec))+10',
             'C4 FN4=(F1+4210 N=(rec))+20']
    for d in range(5, 3 + DEPTH):
        lines.append('C%d FN4+20' % d)
    lines.append('C%d FN5=(F1+4100 N=(leaf))+5 V0:(5,5,5)' % (3 + DEPTH))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')


VIEWS = ('#top', '#fn', '#flame', '#icicle', '#source', '#disasm')


class LayoutTest(ReportBase):
    def tearDown(self):
        super().tearDown()
        self.driver.set_window_size(1400, 1000)

    def report(self, name, args):
        path = os.path.join(self.tmp, name + '.html')
        if not os.path.exists(path):
            subprocess.run([report_base.BIN, '--output=html', '-o', path] + args,
                           check=True, capture_output=True)
        return Page(self.driver, path)

    def rect(self, p, selector):
        return p.js("""
            const e = document.querySelector(arguments[0]);
            if (!e)
                return null;
            const r = e.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                    height: r.height, text: e.textContent,
                    nav: document.getElementById('tabs').getBoundingClientRect().bottom,
                    vh: innerHeight, vw: document.documentElement.clientWidth};
            """, selector)

    def assertInView(self, r, what):
        """r is drawn inside the window, below the tabs that stick to
        its top."""
        self.assertIsNotNone(r, what + ' is drawn')
        self.assertGreater(r['height'], 0, what)
        self.assertGreaterEqual(r['top'], r['nav'] - 0.5, what + ': %r' % r)
        self.assertLessEqual(r['bottom'], r['vh'] + 0.5, what + ': %r' % r)
        self.assertGreaterEqual(r['left'], 0, what)
        self.assertLessEqual(r['right'], r['vw'] + 0.5, what)

    # ---- the flame graph of a deep stack ----

    def check_deep(self, width, height):
        prof = os.path.join(self.tmp, 'deep.txt')
        deep_igprof(prof)
        self.driver.set_window_size(width, height)
        p = self.report('deep', [prof])
        for view in ('#flame', '#icicle'):
            p.open(view)	# a new page: the view's first draw
            tall = p.js("return document.getElementById('flame').offsetHeight")
            self.assertGreater(tall, 2 * height, 'the graph is deeper than the window')
            self.assertInView(self.rect(p, '#flame .fr.root'), view + ' root')
            p.shot('deep-%s-%d' % (view[1:], width))
            # the deepest frame drawn: hovered, it and the readout are in view
            deepest = p.js("""
                const fr = [...document.querySelectorAll('#flame .fr')];
                const top = d => parseFloat(d.style.top);
                fr.sort((a, b) => top(a) - top(b));
                return (arguments[0] ? fr[fr.length - 1] : fr[0]).dataset.node;
                """, view == '#icicle')
            sel = '#flame .fr[data-node="%s"]' % deepest
            ActionChains(self.driver).move_to_element(
                self.driver.find_element(By.CSS_SELECTOR, sel)).perform()
            p.wait()
            self.assertInView(self.rect(p, sel), view + ' deepest frame')
            info = self.rect(p, '#flame-info')
            self.assertInView(info, view + ' readout')
            self.assertIn('rec', info['text'])
            p.shot('deep-%s-%d-hover' % (view[1:], width))

    def test_deep_flame(self):
        self.check_deep(1400, 1000)

    def test_deep_flame_small_window(self):
        self.check_deep(800, 600)
