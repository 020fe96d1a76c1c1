"""The report's layout in a real browser: what must be in view.

Run with the other test_report*.py by tests/browser/run_report.py.
- a 1,000-deep recursion's flame graph and icicle show their root, and
  the readout of a hovered deep frame, inside the window;
- the Function view opens on the program's own heaviest function, not
  the dynamic loader's entry (a Callgrind profile full of ld.so);
- many events are folded behind a toggle above the table;
- at 800 px wide no view scrolls the whole page sideways, the tabs and
  the event's select are one row, and every column of the Top table can
  be seen;
- the object column shows a file name, with the path on hover; the
  Function view's numbers are right-aligned.
"""
import json
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
            # every function, ids as --json's
            subprocess.run([report_base.BIN, '--output=html', '--threshold=0',
                            '-o', path] + args, check=True, capture_output=True)
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

    # ---- where the report opens ----

    # the C runtime's code around main and a thread's function
    STARTUP = {'_start', '__libc_start_main', '__libc_start_call_main',
               '(below main)', 'start_thread', 'clone', 'clone3', '_dl_start'}

    def program_heaviest(self, doc):
        """The heaviest function, by inclusive cost, of main's object
        that is named by a symbol and not start-up code."""
        ev = self.ev(doc)
        fns = doc['functions']
        program = next(f['object'] for f in fns if f['name'] == 'main')
        mine = [f for f in fns if f['object'] == program and
                not f['name'].replace('@?', '').startswith('0x') and
                f['name'].split('@')[0] not in self.STARTUP]
        top = max(f['inclusive'][ev] for f in mine)
        heaviest = [f['name'] for f in mine if f['inclusive'][ev] == top]
        return 'main' if 'main' in heaviest else heaviest[0]

    def test_function_default(self):
        """The Function view opened without a function: the program's
        own heaviest, never the dynamic loader's entry, for every kind
        of input."""
        profiles = dict(PROFILES, hello=['samples/hello/callgrind.out'])
        shown = {}
        for kind, args in sorted(profiles.items()):
            doc = self.docs.get(kind) or json.loads(run(['--json'] + args))
            p = self.report(kind, args) if kind == 'hello' else self.page(kind)
            p.go('#fn')
            shown[kind] = self.driver.find_element(By.ID, 'fn-name').text
            self.assertEqual(shown[kind], self.program_heaviest(doc), kind)
            f = next(x for x in doc['functions'] if x['name'] == shown[kind])
            self.assertFalse(os.path.basename(f['object'] or '').startswith('ld-'), kind)
            p.shot('%s-function-default' % kind)
            if kind == 'hello':
                # the loader's entry is the heaviest function of all
                ev = self.ev(doc)
                heaviest = max(doc['functions'], key=lambda x: x['inclusive'][ev])
                self.assertTrue(os.path.basename(heaviest['object'])
                                .startswith('ld-linux'))
        self.assertEqual(shown['hello'], 'main')
        self.assertEqual(shown['callgrind'], 'work')	# its thread's too

    def test_flame_program_link(self):
        """A flame graph mostly of start-up code links to the program."""
        args = ['samples/hello/callgrind.out']
        doc = json.loads(run(['--json'] + args))
        main = next(f['id'] for f in doc['functions'] if f['name'] == 'main')
        p = self.report('hello', args)
        for view in ('#flame', '#icicle'):
            p.go(view)
            link = self.driver.find_element(By.ID, 'flame-program')
            self.assertEqual(link.text, 'zoom to main')
            link.click()
            p.wait()
            node = int(p.js('return location.hash').split('/')[1])
            self.assertEqual(p.js("""return JSON.parse(document.getElementById(
                'cga-flame').textContent).trees[0].unit[arguments[0]]""", node), main)
            p.shot('hello-%s-program' % view[1:])
            # zoomed: the link back to the whole graph instead
            self.assertFalse(self.driver.find_elements(By.ID, 'flame-program'))

    # ---- many events ----

    def test_events_collapsed(self):
        from selenium.webdriver.support.ui import Select
        doc = self.docs['events']
        self.assertGreater(len(doc['events']), 3)
        p = self.page('events')
        self.assertIsNone(p.js("return document.getElementById('events').getAttribute('open')"))
        summary = self.driver.find_element(By.CSS_SELECTOR, '#events summary')
        ev = self.ev(doc)
        self.assertEqual(summary.text, 'Events and totals: %s %s (%d events)' % (
            doc['events'][ev], '{:,}'.format(doc['totals'][ev]), len(doc['events'])))
        # the table's first rows are in view
        r = self.rect(p, '#top-table .row')
        self.assertLess(r['bottom'], r['vh'] / 2)
        p.shot('events-collapsed')
        # the summary follows the event chosen
        Select(self.driver.find_element(By.ID, 'event')).select_by_index(2)
        p.wait()
        self.assertIn('%s %s (' % (doc['events'][2], '{:,}'.format(doc['totals'][2])),
                      summary.text)
        # the rest behind the toggle
        summary.click()
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, '#events tr')),
                         len(doc['events']))
        # the event shown is marked among them
        self.assertEqual(p.js("""return [...document.querySelectorAll('#events tr')]
            .findIndex(r => r.classList.contains('on'))"""), 2)
        p.shot('events-open')
        # a few events: listed open, as before
        p = self.page('callgrind')
        self.assertEqual(p.js("return document.getElementById('events').open"), True)
        self.assertEqual(self.driver.find_element(By.ID, 'event-total').text, '')

    # ---- 800 px wide ----

    def test_narrow_window(self):
        """At 800 px nothing needs a sideways scroll of the page, and
        every title of the Top table is in view and whole."""
        for width in (1400, 800):
            self.driver.set_window_size(width, 900)
            for kind in ('callgrind', 'events', 'gmon', 'igprof', 'perf', 'cxx'):
                # cxx: C++ names of 200 characters
                p = self.report(kind, ['samples/cxx/callgrind.out']) \
                    if kind == 'cxx' else self.page(kind)
                for view in VIEWS:
                    p.go(view)
                    w = p.js("""const e = document.documentElement;
                        return [e.scrollWidth, e.clientWidth];""")
                    self.assertLessEqual(w[0], w[1], '%s %s at %d' % (kind, view, width))
                    p.shot('%s-%s-%d' % (kind, view[1:] or 'top', width))
                p.go('#top')
                # the tabs and the event's select on one row (at 800 px
                # Disassembly and the select went to a second)
                rows = p.js("""
                    return [...document.getElementById('tabs').children]
                        .map(e => Math.round(e.getBoundingClientRect().bottom));""")
                self.assertLessEqual(max(rows) - min(rows), 4,
                                     '%s tabs at %d: %r' % (kind, width, rows))
                heads = p.js("""
                    const vw = document.documentElement.clientWidth;
                    return [...document.querySelectorAll('#top-head > span')].map(s => {
                        const r = s.getBoundingClientRect();
                        return {text: s.textContent, left: r.left, right: r.right, vw: vw,
                                cut: s.scrollWidth > s.clientWidth + 1};
                    });""")
                self.assertGreaterEqual(len(heads), 8)
                for h in heads:
                    self.assertGreaterEqual(h['left'], 0, h)
                    self.assertLessEqual(h['right'], h['vw'], h)
                    self.assertFalse(h['cut'], h)
                # the header's columns over the rows'
                cols = p.js("""
                    const g = e => getComputedStyle(e).gridTemplateColumns;
                    return [g(document.getElementById('top-head')),
                            g(document.querySelector('#top-table .row'))];""")
                self.assertEqual(cols[0], cols[1], kind)

    def test_narrow_threads_panel(self):
        """At 800 px the threads' panel needs no sideways scroll: the
        time axis' hint wraps, its ends ("0 s", the recording's span)
        are whole and in view, apart from the hint (failed: the hint on
        one line made the panel 80 px too wide, the span cut off behind
        a scroll bar, "0 sdrag across...")."""
        self.driver.set_window_size(800, 900)
        p = self.page('perf')
        got = p.js("""
            const s = document.getElementById('tracks-scroll');
            const box = s.getBoundingClientRect();
            const ends = [...document.querySelectorAll('#tracks-table .axis > span')]
                .map(e => { const r = e.getBoundingClientRect();
                            return [e.textContent, r.left, r.right]; });
            return [s.scrollWidth, s.clientWidth, box.left, box.right, ends];""")
        width, client, left, right, ends = got
        self.assertLessEqual(width, client)
        self.assertEqual(len(ends), 3)
        self.assertEqual(ends[0][0], '0 s')
        self.assertRegex(ends[2][0], r'^[\d.]+ s$')
        for text, l, r in (ends[0], ends[2]):
            self.assertGreaterEqual(l, left, text)
            self.assertLessEqual(r, right, text)
        # the hint between them, not over them
        self.assertLess(ends[0][2], ends[1][1])
        self.assertLess(ends[1][2], ends[2][1])
        p.shot('perf-threads-800')

    def test_titles_whole(self):
        """Each column title of the tree and code views is whole and
        apart from the next, a unit in it too (failed: the call tree's
        "self (nanoseconds)" ran into "self %", the code views' 8em
        cut perf's "cpu-clock:ppp")."""
        # (each page opened in its turn: one browser)
        for page, views in (
                (lambda: self.report('pprof-cpu', ['tests/pprof/cpu.pb.gz']),
                 ('#calltree', '#bottomup')),
                (lambda: self.page('perf'),
                 ('#calltree', '#bottomup', '#source', '#disasm'))):
            p = page()
            for view in views:
                p.go(view)
                spans = p.js("""
                    const h = document.querySelector('#view .hdr');
                    return [...h.children].map(s => {
                        const r = s.getBoundingClientRect();
                        const t = document.createRange();
                        t.selectNodeContents(s);
                        const q = t.getBoundingClientRect();
                        return [s.textContent, r.left, r.right, q.left, q.right];
                    });""")
                self.assertGreater(len(spans), 2, view)
                for text, left, right, tleft, tright in spans:
                    if text:	# the text inside its cell
                        self.assertGreaterEqual(tleft, left - 0.5, (view, text))
                        self.assertLessEqual(tright, right + 0.5, (view, text))
                texts = [s for s in spans if s[0]]
                for a, b in zip(texts, texts[1:]):
                    self.assertLessEqual(a[4], b[3], (view, a[0], b[0]))
                p.shot('titles-%s' % view[1:])

    def test_disasm_name_whole_on_hover(self):
        """The Disassembly's function box cuts a C++ name: its title
        is the whole name (had none)."""
        p = self.report('cxx-instr', ['-b', 'samples/cxx/prog',
                                      'samples/cxx/callgrind.instr.out'])
        p.go('#disasm')
        box = p.js("""const i = document.getElementById('disasm-find');
            return i ? [i.value, i.title, i.scrollWidth > i.clientWidth] : null;""")
        if box is None:
            self.skipTest('no disassembly of samples/cxx here')
        self.assertEqual(box[1], box[0])
        self.assertTrue(box[2], 'the name fits: no C++ name to cut')

    def test_code_views_nothing_cut(self):
        """The Disassembly and the Source at 800 px and full width: no
        cell cut with "\u2026" (failed at 800 px: Callgrind's calls,
        "call fib'2 \u00d74 (18,076) call fib'2 \u00d71,390 (129,355)",
        perf.data's instructions beside an empty calls column, IgProf's
        "cost inside the function, ...", a source line "__attribute__
        ((noinline)) static unsigned rec(int d, uns\u2026"). Where the
        window is narrower than the listing, it scrolls sideways in its
        box, its titles with it: scrolled to its right end, the last
        column's cells are in the window, each under its title."""
        views = (('#disasm', 'disasm-table', 'asm-grid'),
                 ('#source', 'source-table', 'src-grid'))
        for kind in ('callgrind', 'perf', 'perf-dwarf', 'gmon', 'igprof-b'):
            for width in (800, 1400):
                self.driver.set_window_size(width, 1000)
                p = self.page(kind)
                for view, table, grid in views:
                    p.go(view)
                    got = p.js("""
                        const t = document.getElementById(arguments[0]);
                        t.scrollLeft = t.scrollWidth;
                        t.dispatchEvent(new Event('scroll'));
                        const cut = [...t.querySelectorAll('.row > span')]
                            .filter(s => s.scrollWidth > s.clientWidth + 1)
                            .map(s => s.textContent);
                        const tb = t.getBoundingClientRect();
                        const h = document.querySelector('#view .hdr.' + arguments[1]);
                        const last = h.lastChild.getBoundingClientRect();
                        const ends = [...t.querySelectorAll('.row')]
                            .map(r => r.lastChild)
                            .filter(s => s.textContent && !s.classList.contains('wide'))
                            .map(s => s.getBoundingClientRect());
                        return {cut, rows: t.querySelectorAll('.row').length,
                            out: ends.filter(r => r.right > tb.right + 0.5 ||
                                Math.abs(r.left - last.left) > 1).length,
                            ends: ends.length,
                            page: document.documentElement.scrollWidth >
                                document.documentElement.clientWidth};""",
                        table, grid)
                    what = '%s %s at %d px' % (kind, view, width)
                    self.assertGreater(got['rows'], 1, what)
                    self.assertEqual(got['cut'], [], what)
                    self.assertEqual(got['out'], 0, what)
                    self.assertFalse(got['page'], what + ': the page scrolls sideways')
                    if kind == 'callgrind':
                        self.assertGreater(got['ends'], 1, what)
                    p.shot('code-%s-%s-%d-right' % (kind, view[1:], width))

    def test_function_view_short_names_whole(self):
        """The Function view at 800 px: a short name is on one line
        and the callers' and callees' boxes do not scroll sideways
        (failed: pprof's "runtime.main" broke into "runtime." and
        "main", "<spontaneous>" and "main.main" too, beside titles
        kept on one line: "samples (all events)")."""
        self.driver.set_window_size(800, 1000)
        p = self.report('pprof-cpu', ['tests/pprof/cpu.pb.gz'])
        doc = json.loads(run(['--json', 'tests/pprof/cpu.pb.gz']))
        f = next(f for f in doc['functions'] if f['name'] == 'runtime.main')
        p.go('#fn/%d' % f['id'])
        got = p.js("""
            const line = parseFloat(getComputedStyle(document.body).lineHeight) || 20;
            return {
                broken: [...document.querySelectorAll('table.entry td:last-child')]
                    .filter(td => td.textContent.length <= 14 &&
                                  td.getBoundingClientRect().height > 1.6 * line)
                    .map(td => td.textContent),
                names: [...document.querySelectorAll('table.entry td:last-child')]
                    .map(td => td.textContent),
                sideways: [...document.querySelectorAll('.entry-scroll')]
                    .filter(b => b.scrollWidth > b.clientWidth + 1).length,
                page: document.documentElement.scrollWidth >
                    document.documentElement.clientWidth};""")
        p.shot('function-pprof-800')
        self.assertIn('main.main', got['names'])
        self.assertEqual(got['broken'], [])
        self.assertEqual(got['sideways'], 0)
        self.assertFalse(got['page'])

    # ---- object column, numbers ----

    def test_object_file_name(self):
        doc = self.docs['callgrind']
        fns = doc['functions']
        p = self.page('callgrind')
        rows = p.js("""
            return [...document.querySelectorAll('#top-table .row')].map(r => {
                const a = r.querySelector('a[href^="#fn/"]'), o = r.lastChild;
                return {fn: Number(a.getAttribute('href').slice(4)),
                        text: o.textContent, title: o.title};
            });""")
        self.assertGreater(len(rows), 5)
        for r in rows:
            path = fns[r['fn']]['object'] or ''
            self.assertEqual(r['title'], path)
            self.assertEqual(r['text'], os.path.basename(path))
        self.assertTrue(any('/' in r['title'] for r in rows))
        # the Function view's "in ..."
        work = next(f for f in fns if f['name'] == 'work')
        p.go('#fn/%d' % work['id'])
        o = self.driver.find_element(By.ID, 'fn-object')
        self.assertEqual(o.get_attribute('title'), work['object'])
        self.assertEqual(o.text, os.path.basename(work['object']))

    def test_function_numbers_right_aligned(self):
        doc = self.docs['callgrind']
        work = next(f for f in doc['functions'] if f['name'] == 'work')
        p = self.page('callgrind')
        p.go('#fn/%d' % work['id'])
        cells = p.js("""
            return [...document.querySelectorAll('table.entry tr')].map(tr =>
                [...tr.children].slice(0, 5).map(c => {
                    const r = document.createRange();
                    r.selectNodeContents(c);
                    return {align: getComputedStyle(c).textAlign,
                            text: c.textContent,
                            right: r.getBoundingClientRect().right};
                }));""")
        self.assertGreater(len(cells), 3)
        for col in range(5):
            shown = [row[col] for row in cells if row[col]['text']]
            self.assertGreater(len(shown), 1, col)
            for c in shown:
                self.assertEqual(c['align'], 'right', c)
            # the figures end at one edge
            rights = {round(c['right']) for c in shown}
            self.assertLessEqual(max(rights) - min(rights), 1, (col, shown))

    # ---- the readout above the flame graphs ----

    def test_readout_moves_no_frame(self):
        """Hovering a frame whose C++ name is longer than the window
        is wide leaves every frame where it was: the readout above the
        graph stays one line (it wrapped to two and pushed the graph
        down under the pointer, so that a click meant for a frame of
        the top row landed on none, or on the one below), the name cut
        with an ellipsis and the links after it in view; and a click on
        that frame zooms to it."""
        p = self.report('cxx-perf', ['-b', 'tests/perf/cxx',
                                     '--sysroot=tests/perf',
                                     'tests/perf/cxx.data'])
        where = """return [...document.querySelectorAll('#view .fr')]
            .map(f => f.dataset.node + ' ' + f.dataset.unit + ' ' +
                 Math.round(f.getBoundingClientRect().top))"""
        for width in (1400, 800):
            self.driver.set_window_size(width, 1000)
            for view in ('#flame', '#icicle', '#sandwich'):
                p.go(view)
                longest = p.js("""
                    const fr = [...document.querySelectorAll('#view .fr')]
                        .filter(f => f.getBoundingClientRect().width > 8);
                    fr.sort((a, b) => b.title.length - a.title.length);
                    return fr.slice(0, 3).map((f, k) => (f.dataset.k = k, k));""")
                self.assertTrue(longest, view)
                before = p.js(where)
                for k in longest:
                    fr = self.driver.find_element(By.CSS_SELECTOR,
                                                  '#view .fr[data-k="%d"]' % k)
                    title = fr.get_attribute('title')
                    ActionChains(self.driver).move_to_element(fr).perform()
                    p.wait()
                    self.assertEqual(p.js(where), before,
                                     '%s %d: frames moved' % (view, width))
                    info = self.rect(p, '#flame-info')
                    self.assertIn(title, info['text'])
                    self.assertLess(info['height'], 30, view)
                    # the cost, at the title's end, whole and in view
                    cost = p.js("""const c = document.querySelector(
                        '#flame-info .readout-cost');
                        return [c.textContent, c.getBoundingClientRect().right]""")
                    self.assertTrue(title.endswith(cost[0]), (title, cost))
                    self.assertRegex(cost[0], r'^: [\d,.]+ ')
                    self.assertLessEqual(cost[1], info['vw'], view)
                    links = p.js("""return [...document.querySelectorAll(
                        '#flame-info a')].map(a => a.getBoundingClientRect().right)""")
                    self.assertTrue(links, view)
                    for right in links:
                        self.assertLessEqual(right, info['vw'], view)
                if view == '#flame':
                    p.shot('readout-long-%d' % width)
                    node = p.js("""return document.querySelector(
                        '#view .fr[data-k="0"]').dataset.node""")
                    self.driver.find_element(
                        By.CSS_SELECTOR, '#view .fr[data-k="0"]').click()
                    p.wait()
                    self.assertEqual(p.js('return location.hash'),
                                     '#flame/' + node)
