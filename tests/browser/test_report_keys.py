"""The report's tables and pickers from the keyboard alone (Tab, Enter,
Space), where a mouse user clicks:

- Top's column titles sort the table on a click; they were spans, not
  Tab stops: the keyboard had no way to sort. Now each is a Tab stop
  and Enter or Space sorts as a click does, the focus staying on the
  title (dom.js: sortTitles()). The diff page's Top and Function titles
  too; there a sort draws the view again (the hash holds it), and the
  focus comes back to the title pressed.
- A table drawing only the rows in view (vtable.js): Tab to a row near
  the bottom scrolls, the paint that followed dropped the focused link,
  and the focus went back to the page's top: Tab never got past the
  first forty rows of Top (nor of a source file's: the same vtable). Now the row with
  the focus is drawn again and the focus kept in it.
- Top (and the diff page's Top) then had a Tab stop a row: 10,000
  functions took 10,000 Tabs to pass. Now the table is one Tab stop,
  the current row's link, and the arrows, Page Up/Down, Home and End
  move between rows, as in the call tree; Tab leaves the table.
- The disassembly's function picker: Tab from its box went to the list
  under it (Chromium makes a box that scrolls a Tab stop), which the
  box's blur hides: the focus dropped to the page's top.
- The call tree and bottom-up (treetable.js): the tree is a Tab stop
  with the arrows inside (Enter opens the selected row's function), but
  each row's link and menu button were Tab stops too: Tab walked every
  row drawn, and Enter on a link reached so opened the selected row's
  function, not the link's. Now the rows' links and buttons are out of
  the Tab order: Tab leaves the tree in one step.
- A view drawn again under the keys: Enter on a flame graph's frame
  (a zoom), on a sandwich's (another function's sandwich), back and
  forward: the focus fell to the page's top, and the keyboard had to
  Tab all the way back into the graph. Now the frame of the same node
  (the flame graph's nodes are the same at every zoom), else the
  drawing's Tab stop, has it again (dom.js: focusKeys(), focusBack()).
  A transform's button (Function view) likewise: the button of its
  kind at the same rank in the view drawn under the transform.
- A mouse click on a title of the diff page's Top or Function tables
  sorted, but the view drawn again dropped the focus to the page's top
  (Tab and the arrows started from there); on the main page's Top the
  title clicked keeps it. Now the diff page's title has it back too.
- The transforms menu ("m" on a frame or a tree's row): Tab out of it
  left it open over the view; now it closes, as a click outside does.
- The threads and time panel (timeline.js) is drawn anew on each
  change: Enter on its toggle, Space on a thread's box, Enter in the
  time's fields dropped the focus to the page's top (a second Enter on
  the toggle did nothing). The element of the same id, or the box of
  the same thread, has it again.

Run with tests/browser/run_report.py BINARY test_report_keys.
"""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from report_base import ReportBase, run
import test_report_diff as diff

# the element with the focus: its tag, id, classes, text, and the
# function its link opens
ACTIVE = """const a = document.activeElement;
    return {tag: a.tagName, id: a.id, cls: a.className,
            text: a.textContent.trim(), href: a.getAttribute('href'),
            head: !!a.closest('#top-head, table.difffn-calls tr:first-child'),
            key: a.dataset.key || null,
            row: a.closest('[data-row]') ? Number(a.closest('[data-row]').dataset.row) : null,
            table: a.closest('.vscroll') ? a.closest('.vscroll').id : null};"""


class KeysBase(ReportBase):
    def press(self, *keys):
        """Keys sent to the page, not to an element: a paint may put
        the focus in an element drawn again"""
        ActionChains(self.driver).send_keys(*keys).perform()

    def active(self, p):
        return p.js(ACTIVE)

    def focus(self, p, css):
        p.js('document.querySelector(arguments[0]).focus()', css)


class TestKeys(KeysBase):
    def test_top_titles_sort_from_keys(self):
        p = self.page('callgrind')
        self.focus(p, '#short-names')
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertTrue(a['head'], a)
        self.assertEqual(a['key'], 'self')
        # Tab to "inclusive" (after self's %), Enter sorts by it
        self.press(Keys.TAB, Keys.TAB, Keys.ENTER)
        p.wait()
        a = self.active(p)
        self.assertEqual(a['key'], 'incl')
        sorted_by = "return document.querySelector('#top-head .sorted').dataset.key"
        self.assertEqual(p.js(sorted_by), 'incl')
        doc = self.docs['callgrind']
        ev = self.ev(doc)
        first = p.rows('top-table')[0]['fn']
        self.assertEqual(first, max(doc['functions'],
                                    key=lambda f: f['inclusive'][ev])['id'])
        # Space: the other way, smallest first
        self.press(' ')
        p.wait()
        self.assertIn('up', p.js(
            "return document.querySelector('#top-head .sorted').className"))
        self.assertEqual(self.active(p)['key'], 'incl')

    def test_top_title_click_keeps_the_focus(self):
        """A mouse click on a title sorts, the title keeps the focus and
        Tab goes on to the next title (the diff page's Top does the same:
        TestDiffKeys)"""
        p = self.page('callgrind')
        p.d.find_element(By.CSS_SELECTOR, '#top-head [data-key="incl"]').click()
        p.wait()
        a = self.active(p)
        self.assertEqual((a['key'], a['head']), ('incl', True), a)
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertEqual((a['key'], a['head']), ('inclpct', True), a)

    def test_top_one_tab_stop_arrows_walk(self):
        """Top's 171 functions (callgrind, --threshold=0): Tab from the
        last title lands on the first row's link; the down arrow walks
        the rows in the table's order, well past the ~40 drawn at
        first; End, Home and Page Down go where they say; Tab leaves the
        table in one step and Shift+Tab comes back to the row left"""
        p = self.page('callgrind')
        n = p.js("return document.querySelector('#top-count').textContent")
        n = int(n.split()[0])
        drawn = p.js("return document.querySelectorAll('#top-table .row').length")
        # one Tab stop among the rows drawn
        self.assertEqual(p.js("return document.querySelectorAll("
                              "'#top-table [tabindex=\"0\"]').length"), 1)
        self.focus(p, '#top-head [data-key=object]')
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertEqual((a['tag'], a['table'], a['row']), ('A', 'top-table', 0), a)
        seen = [0]
        for _ in range(drawn + 30):
            self.press(Keys.ARROW_DOWN)
            a = self.active(p)
            self.assertEqual((a['tag'], a['table']), ('A', 'top-table'), a)
            seen.append(a['row'])
        # row after row, in the table's order (one link a row)
        self.assertEqual(seen, list(range(len(seen))))
        self.assertGreater(len(seen), drawn)
        # the link with the focus is the one the row shows, in view
        self.assertTrue(p.js("""const a = document.activeElement, r = a.getBoundingClientRect(),
            t = document.querySelector('#top-table').getBoundingClientRect();
            return r.top >= t.top && r.bottom <= t.bottom;"""))
        self.press(Keys.END)
        self.assertEqual(self.active(p)['row'], n - 1)
        self.press(Keys.HOME)
        self.assertEqual(self.active(p)['row'], 0)
        self.press(Keys.PAGE_DOWN)
        page = self.active(p)['row']
        self.assertGreater(page, 5)
        self.press(Keys.ARROW_UP)
        self.assertEqual(self.active(p)['row'], page - 1)
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertNotEqual(a['table'], 'top-table', a)
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB) \
            .key_up(Keys.SHIFT).perform()
        a = self.active(p)
        self.assertEqual((a['table'], a['row']), ('top-table', page - 1), a)
        # Enter opens that row's function
        href = p.js("return document.activeElement.getAttribute('href')")
        self.press(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), href)

    def test_disasm_picker_tab(self):
        p = self.page('callgrind')
        p.go('#disasm')
        # a click: the window focused too (a script's focus() in a
        # window without it fires no focus event, and the list stays hidden)
        p.d.find_element(By.ID, 'disasm-find').click()
        self.assertFalse(p.js("return document.getElementById('disasm-list').hidden"))
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertNotEqual(a['tag'], 'BODY', a)
        self.assertTrue(p.js("return document.getElementById('disasm-list').hidden"))
        # Shift+Tab back to the box, the list shown again; Escape hides it
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB) \
            .key_up(Keys.SHIFT).perform()
        self.assertEqual(self.active(p)['id'], 'disasm-find')
        self.assertFalse(p.js("return document.getElementById('disasm-list').hidden"))
        self.press(Keys.ESCAPE)
        self.assertTrue(p.js("return document.getElementById('disasm-list').hidden"))

    def test_tree_one_tab_stop(self):
        for view in ('calltree', 'bottomup'):
            with self.subTest(view=view):
                p = self.page('callgrind')
                p.go('#' + view)
                self.assertEqual(p.js("""return [...document.querySelectorAll(
                    '#' + arguments[0] + ' .row a, #' + arguments[0] +
                    ' .row button')].filter(a => a.tabIndex >= 0).length""",
                    view), 0)
                self.focus(p, '#' + view)
                self.press(Keys.ARROW_DOWN, Keys.ARROW_DOWN)
                sel = p.js("""return document.querySelector('#' +
                    arguments[0] + ' .row.sel a').getAttribute('href')""", view)
                self.press(Keys.TAB)
                a = self.active(p)
                self.assertNotEqual(a['table'], view, a)
                # back (Shift+Tab) to the tree, Enter: the selected row's function
                ActionChains(self.driver).key_down(Keys.SHIFT).send_keys(
                    Keys.TAB).key_up(Keys.SHIFT).perform()
                self.assertEqual(self.active(p)['id'], view)
                self.press(Keys.ENTER)
                p.wait()
                self.assertEqual(p.js('return location.hash'), sel)

    def frame(self, p):
        """The focused frame: its area and node, None for none"""
        return p.js("""const a = document.activeElement;
            return a.classList.contains('fr')
                ? [a.closest('[id]').id, a.dataset.node] : null""")

    def test_flame_enter_and_back_keep_the_focus(self):
        p = self.page('callgrind')
        p.go('#flame')
        self.focus(p, '#flame .fr.root')
        self.press(Keys.ARROW_UP)
        area, node = self.frame(p)
        self.press(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame/' + node)
        self.assertEqual(self.frame(p), ['flame', node])
        # back to the whole graph, forward to the zoom: still there
        for way in ('back', 'forward'):
            p.js('history.' + way + '()')
            p.wait()
            p.wait()
            self.assertEqual(self.frame(p), ['flame', node], way)
        # the keys go on in the graph: Home to its root
        self.press(Keys.HOME)
        self.assertEqual(self.frame(p)[0], 'flame')

    def test_sandwich_enter_keeps_the_focus(self):
        p = self.page('callgrind')
        p.go('#sandwich')
        self.focus(p, '#sandwich .fr.mid')
        self.press(Keys.ARROW_UP)
        unit = p.js('return document.activeElement.dataset.unit')
        self.press(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/' + unit)
        self.assertIn('mid', p.js('return document.activeElement.className'))

    def test_menu_closes_on_tab_out(self):
        p = self.page('callgrind')
        p.go('#calltree')
        self.focus(p, '#calltree')
        menu = "return !!document.getElementById('xmenu')"
        self.press('m')
        self.assertTrue(p.js(menu))
        # the arrows and Tab inside it keep it open
        n = p.js("return document.querySelectorAll('#xmenu button').length")
        self.press(Keys.ARROW_DOWN, Keys.TAB)
        self.assertTrue(p.js(menu))
        self.assertEqual(p.js("return document.activeElement.parentElement.id"), 'xmenu')
        # Escape closes it, the focus back on the tree
        self.press(Keys.ESCAPE)
        self.assertFalse(p.js(menu))
        self.assertEqual(self.active(p)['id'], 'calltree')
        # Tab past its last item: closed
        self.press('m')
        self.press(*[Keys.TAB] * n)
        p.wait()	# the menu checks where the focus went a task later
        self.assertNotEqual(p.js("return document.activeElement.closest('#xmenu')"
                                 " ? 'in' : 'out'"), 'in')
        self.assertFalse(p.js(menu))

    def test_threads_panel_keeps_the_focus(self):
        p = self.page('perf')
        p.go('#flame')
        expanded = ("return document.getElementById('tracks-toggle')"
                    ".getAttribute('aria-expanded')")
        was = p.js(expanded)
        p.d.find_element(By.ID, 'tracks-toggle').click()
        p.wait()
        self.assertEqual(self.active(p)['id'], 'tracks-toggle')
        self.press(Keys.ENTER)
        p.wait()
        self.assertEqual(self.active(p)['id'], 'tracks-toggle')
        self.assertEqual(p.js(expanded), was)
        # a thread's box: Space twice, the hash back to #flame
        box = p.d.find_element(By.CSS_SELECTOR, 'input.track-thread')
        track = box.get_attribute('data-track')
        box.click()
        p.wait()
        self.assertIn('threads=', p.js('return location.hash'))
        self.press(' ')
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame')
        self.assertEqual(p.js('return document.activeElement.dataset.track'), track)

    def test_transform_button_keeps_the_focus(self):
        p = self.page('callgrind')
        doc = self.docs['callgrind']
        f = next(x['id'] for x in doc['functions'] if x['name'] == 'fib')
        p.go('#fn/%d' % f)
        self.focus(p, 'button.xf')
        self.press(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#fn/%d&focus=fib' % f)
        self.assertEqual(p.js("return document.activeElement.className"), 'xf')
        self.assertEqual(p.js("return document.activeElement === "
                              "document.querySelector('#view button.xf')"), True)


class TestDiffKeys(diff.DiffBase, KeysBase):
    def test_diff_top_titles(self):
        p, doc = self.open('callgrind')
        self.focus(p, '#top-head [data-key]')
        first = self.active(p)['key']
        self.press(Keys.TAB)
        key = self.active(p)['key']
        self.assertNotEqual(key, first)
        self.press(Keys.ENTER)
        p.wait()
        p.wait()
        self.assertIn(key, p.js('return location.hash'))
        a = self.active(p)
        self.assertEqual(a['key'], key, a)
        self.assertTrue(a['head'])

    def click_title(self, p, css):
        p.d.find_element(By.CSS_SELECTOR, css).click()
        p.wait()
        p.wait()

    def test_diff_top_title_click_keeps_the_focus(self):
        """As the main page's Top (test_top_title_click_keeps_the_focus):
        the title clicked keeps the focus and Tab goes on from it"""
        p, doc = self.open('callgrind')
        self.click_title(p, '#top-head [data-key="inclchange"]')
        self.assertIn('sort=inclchange', p.js('return location.hash'))
        p.shot('diff-top-title-clicked')
        a = self.active(p)
        self.assertEqual((a['key'], a['head']), ('inclchange', True), a)
        # Tab goes on from there, to the next title, not from the top
        self.press(Keys.TAB)
        a = self.active(p)
        self.assertEqual((a['key'], a['head']), ('inclpct', True), a)
        # from the last title, to the table, whose rows the arrows walk
        self.focus(p, '#top-head [data-key="file"]')
        self.press(Keys.TAB, Keys.ARROW_DOWN)
        a = self.active(p)
        self.assertEqual((a['tag'], a['table'], a['row']), ('A', 'top-table', 1), a)

    def test_diff_fn_title_click_keeps_the_focus(self):
        p, doc = self.open('callgrind')
        p.go(p.js("return document.querySelector('#top-table a')"
                  ".getAttribute('href')"))
        th = p.js("const t = document.querySelectorAll("
                  "'table.difffn-calls th[data-key]'); return t.length ? "
                  "t[t.length > 1 ? 1 : 0].closest('table').id + ' ' + "
                  "t[t.length > 1 ? 1 : 0].dataset.key : null")
        self.assertTrue(th)
        table, key = th.split()
        self.click_title(p, '#%s th[data-key="%s"]' % (table, key))
        a = self.active(p)
        self.assertEqual((a['tag'], a['key']), ('TH', key), a)

    def test_diff_fn_titles(self):
        p, doc = self.open('callgrind')
        # the first function of Top, which has callers or callees
        p.go(p.js("return document.querySelector('#top-table a')"
                  ".getAttribute('href')"))
        th = "table.difffn-calls th[data-key]"
        self.assertTrue(p.js("return !!document.querySelector(arguments[0])", th))
        self.focus(p, th)
        self.press(Keys.TAB)
        key = self.active(p)['key']
        self.press(' ')
        p.wait()
        p.wait()
        a = self.active(p)
        self.assertEqual(a['key'], key, a)
        self.assertEqual(a['tag'], 'TH')

    def test_diff_flame_enter_keeps_the_focus(self):
        p, doc = self.open('callgrind', '#flame')
        self.focus(p, '#flame .fr.root')
        self.press(Keys.ARROW_UP)
        node = p.js('return document.activeElement.dataset.node')
        self.press(Keys.ENTER)
        p.wait()
        self.assertIn('flame/' + node, p.js('return location.hash'))
        self.assertEqual(p.js('return document.activeElement.dataset.node'), node)
