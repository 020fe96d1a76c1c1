"""The flame graphs from the keyboard (frames.js: framesKeys()).

- One Tab stop a drawing: a flame graph of thousands of frames gave
  each one (tabindex 0), so Tab walked through thousands. Now only the
  root (the sandwich's middle) is in the Tab order: Tab from the search
  box reaches it, the next Tab leaves the graph.
- The arrows move inside: Up and Down to the row above or below, to the
  frame over the middle of this one; Left and Right to the next frame of
  the row; Home back to the root. Each move carries the Tab stop, and a
  drawing again (a search) keeps it on the frame last focused.
- The icicle (rows downwards), the sandwich and the diff page's
  differential flame graph do the same.

Run with tests/browser/run_report.py BINARY test_report_flame_keys.
"""
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from report_base import Page, ReportBase, run

# the rows of a frame: its left, width and top in px, as drawn
BOX = """const f = arguments[0];
    return [parseFloat(f.style.left), parseFloat(f.style.width),
            parseFloat(f.style.top)];"""


class FlameKeysTest(ReportBase):
    def stops(self, p, area):
        return p.js("""return [...document.querySelectorAll(
            '#' + arguments[0] + ' .fr')].filter(f => f.tabIndex >= 0)
            .map(f => f.dataset.node)""", area)

    def active(self, p):
        return p.d.switch_to.active_element

    def key(self, p, k):
        self.active(p).send_keys(k)
        return self.active(p)

    def box(self, p, f):
        return p.js(BOX, f)

    def check_moves(self, p, area, up):
        """From the root: Up (or Down in the icicle) to the row of its
        children, Right along it, Left back, Down to the root, Home."""
        root = p.d.find_element(By.CSS_SELECTOR, '#%s .fr.root' % area)
        p.js('arguments[0].focus()', root)
        rx, rw, ry = self.box(p, root)
        child = self.key(p, Keys.ARROW_UP if up else Keys.ARROW_DOWN)
        cx, cw, cy = self.box(p, child)
        self.assertEqual(child.get_attribute('class').split()[0], 'fr')
        # the next row that way, over the root's middle
        self.assertEqual(cy, ry - 17 if up else ry + 17, area)
        self.assertLessEqual(cx, rx + rw / 2 + 0.01)
        self.assertEqual(self.stops(p, area), [child.get_attribute('data-node')])
        # along the row: the next frame to the right, if any, and back
        row = p.js("""return [...document.querySelectorAll('#' + arguments[0] +
            ' .fr')].filter(f => parseFloat(f.style.top) === arguments[1])
            .map(f => parseFloat(f.style.left)).sort((a, b) => a - b)""", area, cy)
        right = self.key(p, Keys.ARROW_RIGHT)
        later = [x for x in row if x > cx]
        if later:
            self.assertEqual(self.box(p, right), [later[0], self.box(p, right)[1], cy])
            back = self.key(p, Keys.ARROW_LEFT)
            self.assertEqual(self.box(p, back)[0], cx)
        else:
            self.assertEqual(self.box(p, right)[0], cx)	# nowhere to go
        # back down (up) to the root's row; Home to the root
        self.key(p, Keys.ARROW_DOWN if up else Keys.ARROW_UP)
        self.assertEqual(self.box(p, self.active(p))[2], ry)
        self.key(p, Keys.ARROW_UP if up else Keys.ARROW_DOWN)
        self.key(p, Keys.HOME)
        self.assertIn('root', self.active(p).get_attribute('class'))
        return len(row)

    def test_one_tab_stop_and_arrows(self):
        for kind in ('perf', 'callgrind'):
            with self.subTest(kind=kind):
                p = self.page(kind)
                p.open('#flame')
                n = p.js("return document.querySelectorAll('#flame .fr').length")
                self.assertGreater(n, 10, kind)
                self.assertEqual(self.stops(p, 'flame'), ['-1'], kind)
                # Tab from the search box: the root, then out of it
                search = p.d.find_element(By.ID, 'flame-search')
                p.js('arguments[0].focus()', search)
                seen = []
                for _ in range(12):
                    a = self.key(p, Keys.TAB)
                    node = a.get_attribute('data-node')
                    if node is None and seen:
                        break
                    if node is not None:
                        seen.append(node)
                self.assertEqual(seen, ['-1'], kind)
                self.check_moves(p, 'flame', True)
                # a frame focused keeps the stop over a drawing again
                p.js("document.querySelector('#flame .fr.root').focus()")
                a = self.key(p, Keys.ARROW_UP)
                node = a.get_attribute('data-node')
                p.d.find_element(By.ID, 'flame-search').send_keys('zz-no-such')
                p.wait()
                self.assertEqual(self.stops(p, 'flame'), [node], kind)
                p.shot('flame-keys-' + kind)
                p.open('#icicle')
                self.assertEqual(self.stops(p, 'flame'), ['-1'], kind)
                self.check_moves(p, 'flame', False)

    def test_sandwich_and_diff(self):
        p = self.page('callgrind')
        doc = self.docs['callgrind']
        f = max(doc['functions'], key=lambda f: f['inclusive'][self.ev(doc)]
                if f['name'] != 'main' and f['self'][self.ev(doc)] else 0)
        p.go('#sandwich/%d' % f['id'])
        self.assertEqual(len(self.stops(p, 'sandwich')), 1)
        self.assertIn('mid', p.js("""return document.querySelector(
            '#sandwich .fr[tabindex="0"]').className"""))
        path = os.path.join(self.tmp, 'flame-keys-diff.html')
        run(['--diff', '--output=html', '-o', path,
             'tests/diff/base.cg', 'tests/diff/new.cg'])
        p = Page(self.driver, path)
        p.go('#flame')
        self.assertGreater(p.js("return document.querySelectorAll('#flame .fr').length"), 10)
        self.assertEqual(self.stops(p, 'flame'), ['-1'])
        self.check_moves(p, 'flame', True)
