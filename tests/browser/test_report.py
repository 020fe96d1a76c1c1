"""The HTML report in a real browser: headless Chromium through Selenium.

Run with the other test_report*.py by tests/browser/run_report.py.
For a Callgrind profile with -b, a gmon.out and an IgProf profile, each
report is written by BINARY and opened from file://; what the page shows
is held against what BINARY prints with --json, --annotate and
--output=folded. Screenshots go to build/test-artifacts/browser/ (git
ignores build/).
"""
import json
import os
import re
import subprocess

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

import report_base
from report_base import (PROFILES, Page, ReportBase, calls_text, listed_cost,
                         number, run, strip_cycle)

# A profile whose names and file are markup, a script end and a line
# separator: the page must show them as text.
HOSTILE = """events: Ir
fl=<b>bold</b>.c
fn=<script>alert(1)</script>
1 100
cfn=</script><img src=x onerror=alert(2)>
calls=1 1
1 50
fn=</script><img src=x onerror=alert(2)>
1 50
fn=<!--comment\u2028line
1 7
"""



class ReportTest(ReportBase):
    # ---- Top ----

    def check_top(self, kind):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        p = self.page(kind)
        p.shot(kind + '-top')
        rows = p.rows('top-table')
        self.assertGreater(len(rows), 0)
        # each row: the numbers --json gives for its function (in the
        # listings' unit); a sampled profile's samples, not calls
        count = 'samples' if doc.get('sampled') else 'calls'
        for r in rows:
            f = fns[r['fn']]
            self.close(number(r['cells'][0]),
                       listed_cost(doc, ev, f['self'][ev]), 'self')
            self.close(number(r['cells'][2]),
                       listed_cost(doc, ev, f['inclusive'][ev]), 'inclusive')
            if count == 'samples':
                self.assertEqual(number(r['cells'][4]), f['samples'][ev])
            else:
                self.assertEqual(r['cells'][4], calls_text(doc, f))
        # in the order of the column: self (the default), then others
        for col, key in ((None, 'self'), ('incl', 'inclusive'),
                         (count, count)):
            if col:
                self.driver.find_element(
                    By.CSS_SELECTOR, '#top-head [data-key="%s"]' % col).click()
                p.wait()
            rows = p.rows('top-table')
            got = [fns[r['fn']][key] for r in rows]
            got = [v[ev] if isinstance(v, list) else v for v in got]
            want = sorted((f[key][ev] if isinstance(f[key], list) else f[key]
                           for f in fns), reverse=True)[:len(got)]
            self.assertEqual(got, want, 'sorted by ' + key)
        # a second click turns the order
        self.driver.find_element(
            By.CSS_SELECTOR, '#top-head [data-key="%s"]' % count).click()
        p.wait()
        key = ((lambda f: f['samples'][ev]) if count == 'samples'
               else (lambda f: f['calls']))
        got = [key(fns[r['fn']]) for r in p.rows('top-table')]
        self.assertEqual(got, sorted(key(f) for f in fns)[:len(got)])

    def test_top_callgrind(self):
        self.check_top('callgrind')

    def test_top_gmon(self):
        self.check_top('gmon')

    def test_top_igprof(self):
        self.check_top('igprof')

    def test_top_perf(self):
        self.check_top('perf')

    def test_event_chooser(self):
        """Another event: the table's costs and order are of it."""
        from selenium.webdriver.support.ui import Select
        doc = self.docs['events']
        fns = doc['functions']
        self.assertGreater(len(doc['events']), 3)
        p = self.page('events')
        for ev in (2, len(doc['events']) - 1):
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(ev)
            p.wait()
            rows = p.rows('top-table')
            got = [fns[r['fn']]['self'][ev] for r in rows]
            want = sorted((f['self'][ev] for f in fns), reverse=True)
            self.assertEqual(got, want[:len(got)])
            for r in rows:
                self.assertEqual(number(r['cells'][0]), fns[r['fn']]['self'][ev])
        p.shot('events-top')

    def filter_rows(self, p, text):
        box = self.driver.find_element(By.ID, 'filter')
        box.clear()
        box.send_keys(text)
        p.wait()
        return p.rows('top-table')

    def test_file_column_sorts_by_line(self):
        """Top's file column, "prog.c:18", sorted by its title: by file,
        then by line within a file (the rows of one file came in the
        order of their self cost), both ways."""
        p = self.page('gmon')
        for desc in (False, True):
            self.driver.find_element(By.CSS_SELECTOR,
                                     '#top-head [data-key="file"]').click()
            p.wait()
            cells = [r['cells'][6] for r in p.rows('top-table')]
            where = [(c.rsplit(':', 1)[0], int(c.rsplit(':', 1)[1]))
                     for c in cells if re.search(r':\d+$', c)]
            self.assertGreater(len(set(f for f, _ in where)), 0)
            self.assertGreater(len(where), 3)
            self.assertEqual(where, sorted(where, reverse=desc), cells)

    def test_filter(self):
        doc = self.docs['callgrind']
        fns = doc['functions']
        p = self.page('callgrind')
        # a name: valgrind's recursion levels too (fib'2), as -p
        got = {r['fn'] for r in self.filter_rows(p, 'fib')}
        want = {f['id'] for f in fns
                if re.sub(r"'\d+$", '', f['name']) == 'fib'}
        self.assertEqual(got, want)
        self.assertGreater(len(want), 1)
        # a glob
        # a glob: names, and files by their last components, as -p
        got = {r['fn'] for r in self.filter_rows(p, 'msort*')}
        self.assertEqual(got, {f['id'] for f in fns
                               if f['name'].startswith('msort') or
                               (f['file'] or '').split('/')[-1].startswith('msort')})
        # a file by its last components
        got = {r['fn'] for r in self.filter_rows(p, 'prog.c')}
        self.assertEqual(got, {f['id'] for f in fns
                               if (f['file'] or '').endswith('/prog.c')})
        # FILE:FUNC, FILE:LINE (with -b, functions have lines)
        got = {r['fn'] for r in self.filter_rows(p, 'prog.c:f*')}
        self.assertEqual(got, {f['id'] for f in fns
                               if (f['file'] or '').endswith('/prog.c') and
                               f['name'].startswith('f')})
        self.assertGreater(len(got), 0)
        # FILE:LINE: the function starting last at or before the line
        got = {r['fn'] for r in self.filter_rows(p, 'prog.c:30')}
        at = max(f['line'] for f in fns
                 if (f['file'] or '').endswith('/prog.c') and
                 f['line'] and f['line'] <= 30)
        self.assertEqual(got, {f['id'] for f in fns
                               if (f['file'] or '').endswith('/prog.c') and
                               f['line'] == at})
        self.assertGreater(len(got), 0)
        p.shot('callgrind-filter')
        # nothing
        self.assertEqual(self.filter_rows(p, 'no-such-function'), [])

    # ---- Function ----

    def check_function(self, kind, name):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        f = next(x['id'] for x in fns if x['name'] == name)
        p = self.page(kind)
        rows = self.filter_rows(p, name)	# the table draws the rows in view
        link = self.driver.find_element(By.CSS_SELECTOR,
                                        '#top-table a[href="#fn/%d"]' % f)
        link.click()
        p.wait()
        self.assertEqual(self.driver.find_element(By.ID, 'fn-name').text,
                         p.js('return document.getElementById("fn-name").textContent'))
        p.shot('%s-function-%s' % (kind, name))
        shown = p.js("""
            return [...document.querySelectorAll('table.entry tr.caller, table.entry tr.callee')]
              .filter(tr => tr.querySelector('a'))
              .map(tr => ({dir: tr.className,
                           fn: Number(tr.querySelector('a').getAttribute('href').slice(4)),
                           count: tr.children[4].textContent.split('/')[0],
                           self: tr.children[1].textContent,
                           children: tr.children[2].textContent,
                           incl: tr.children[3].textContent}));""")
        cycle = fns[f]['cycle']
        want = []
        for a in doc['arcs']:
            for direction, me, other in (('caller', 'callee', 'caller'),
                                         ('callee', 'caller', 'callee')):
                if a[me] == f and not a.get('deleted'):
                    inside = a[other] == f or (
                        cycle is not None and fns[a[other]]['cycle'] == cycle)
                    want.append((direction, a[other], a['count'],
                                 None if inside else
                                 listed_cost(doc, ev, a['inclusive'][ev])))
        got = [(s['dir'], s['fn'], number(s['count']), number(s['incl']))
               for s in shown]
        # self and children split the arc's inclusive cost
        for s in shown:
            if number(s['incl']) is not None:
                self.assertAlmostEqual(number(s['self']) + number(s['children']),
                                       number(s['incl']), delta=0.02)
        self.assertEqual(len(got), len(want))
        for g in got:
            match = [w for w in want if w[:3] == g[:3]]
            self.assertTrue(match, 'no such arc in --json: %r' % (g,))
            self.close(g[3], match[0][3], 'arc cost of %r' % (g,))
        # the browser's back and forward
        self.driver.back()
        p.wait()
        self.assertTrue(self.driver.find_elements(By.ID, 'top-table'))
        self.assertEqual(p.js('return location.hash'), '')
        self.driver.forward()
        p.wait()
        self.assertTrue(self.driver.find_elements(By.ID, 'fn-name'))
        self.assertEqual(len(rows) > 0, True)

    def test_function_callgrind(self):
        self.check_function('callgrind', 'work')

    def test_function_callgrind_recursive(self):
        self.check_function('callgrind', 'fib')

    def test_function_gmon(self):
        self.check_function('gmon', 'ping')	# in a cycle

    def test_function_igprof(self):
        self.check_function('igprof', 'work')

    def test_opened_at_a_view(self):
        """A view's address opened directly: the views but Top wait for
        the data after the script, then draw."""
        doc = self.docs['callgrind']
        work = next(x['id'] for x in doc['functions'] if x['name'] == 'work')
        p = self.page('callgrind')

        def load(hash_):	# a new document, not a change of the address's #
            self.driver.get('about:blank')
            p.open(hash_)
            self.assertEqual(p.js('return document.readyState'), 'complete')
        load('#fn/%d' % work)
        self.assertEqual(self.driver.find_element(By.ID, 'fn-name').text, 'work')
        load('#flame')
        self.assertTrue(self.driver.find_elements(
            By.CSS_SELECTOR, '#flame .fr[data-node="-1"]'))
        load('#source')
        self.assertTrue(self.driver.find_elements(By.ID, 'source-table'))

    def test_function_links(self):
        doc = self.docs['callgrind']
        fns = doc['functions']
        work = next(x['id'] for x in fns if x['name'] == 'work')
        p = self.page('callgrind')
        p.go('#fn/%d' % work)
        callee = self.driver.find_element(By.CSS_SELECTOR,
                                          'table.entry tr.callee a')
        target = int(callee.get_attribute('href').split('#fn/')[1])
        callee.click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#fn/%d' % target)
        self.driver.back()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#fn/%d' % work)

    # ---- flame graph ----

    def frames(self, p):
        return p.js("""
            const area = document.getElementById('flame');
            return {width: area.clientWidth, frames:
              [...area.querySelectorAll('.fr')].map(d => ({
                node: Number(d.dataset.node), value: Number(d.dataset.value),
                width: parseFloat(d.style.width), hit: d.classList.contains('hit'),
                title: d.title}))};""")

    def check_flame_root(self, kind, estimated):
        doc = self.docs[kind]
        p = self.page(kind)
        for view in ('#flame', '#icicle'):
            p.go(view)
            p.shot(kind + '-' + view[1:])
            got = self.frames(p)
            root = next(fr for fr in got['frames'] if fr['node'] == -1)
            total = doc['totals'][self.ev(doc)]
            # an estimate's fractions: within a unit of the total
            self.assertAlmostEqual(root['value'], total,
                                   delta=1 if estimated else 0)
            self.assertAlmostEqual(root['width'], got['width'], delta=1)
            self.assertEqual(bool(self.driver.find_elements(
                By.ID, 'flame-estimated')), estimated)

    def test_flame_callgrind(self):
        self.check_flame_root('callgrind', True)

    def test_flame_gmon(self):
        self.check_flame_root('gmon', True)

    def test_flame_igprof_exact(self):
        self.check_flame_exact('igprof')

    def test_flame_perf_exact(self):
        self.check_flame_exact('perf')

    def check_flame_exact(self, kind):
        """Each frame is what the stacks through it hold: the sum of the
        folded lines its path starts."""
        self.check_flame_root(kind, False)
        folded = run(['--output=folded'] + PROFILES[kind])
        lines = [ln.rsplit(' ', 1) for ln in folded.splitlines()]
        p = self.page(kind)
        p.go('#flame')
        paths = p.js("""
            const out = {};
            for (const d of document.querySelectorAll('#flame .fr'))
                out[d.dataset.node] = d.dataset.value;
            return out;""")
        # the tree's paths, from the page's data
        tree = p.js("""
            const data = id => JSON.parse(document.getElementById(id).textContent);
            const D = data('cga-data');
            const T = data('cga-flame').trees.find(t => t);
            const name = u => u < 0 ? '<cycle ' + (-u) + ' as a whole>'
                : (D.labels[u] || D.functions.name[u]);
            return T.unit.map((u, i) => {
                const parts = [];
                for (let k = i; k >= 0; k = T.parent[k])
                    parts.unshift(name(T.unit[k]));
                return parts.join(';');
            });""")
        drawn = 0
        for node, value in paths.items():
            node = int(node)
            if node < 0:
                continue
            path = ';'.join(strip_cycle(x) for x in tree[node].split(';'))
            want = sum(int(v) for pth, v in lines
                       if pth == path or pth.startswith(path + ';'))
            self.assertEqual(float(value), want, path)
            drawn += 1
        self.assertGreater(drawn, 5)

    def test_flame_zoom_and_search(self):
        p = self.page('callgrind')
        p.go('#flame')
        got = self.frames(p)
        # zoom: a frame clicked spans the width, back returns
        big = max((fr for fr in got['frames'] if fr['node'] >= 0 and
                   fr['width'] < got['width'] / 2), key=lambda fr: fr['width'])
        self.driver.find_element(
            By.CSS_SELECTOR, '#flame .fr[data-node="%d"]' % big['node']).click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame/%d' % big['node'])
        zoomed = self.frames(p)
        me = next(fr for fr in zoomed['frames'] if fr['node'] == big['node'])
        self.assertAlmostEqual(me['width'], zoomed['width'], delta=1)
        p.shot('callgrind-flame-zoomed')
        self.driver.back()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame')
        # search: the frames whose name has it, and only those
        box = self.driver.find_element(By.ID, 'flame-search')
        box.send_keys('fib')
        p.wait()
        got = self.frames(p)
        hits = [fr for fr in got['frames'] if fr['hit']]
        self.assertGreater(len(hits), 0)
        for fr in got['frames']:
            name = fr['title'].rsplit(': ', 1)[0]
            self.assertEqual(fr['hit'], fr['node'] >= 0 and 'fib' in name.lower(),
                             name)
        self.assertIn('matched', self.driver.find_element(By.ID, 'flame-matched').text)
        p.shot('callgrind-flame-search')

    def test_flame_event(self):
        """The event chooser draws the flame graph of the event chosen."""
        from selenium.webdriver.support.ui import Select
        doc = self.docs['events']
        p = self.page('events')
        for ev in (0, 2, len(doc['events']) - 1):
            Select(self.driver.find_element(By.ID, 'event')).select_by_index(ev)
            p.wait()
            p.go('#flame')
            got = self.frames(p)
            root = next(fr for fr in got['frames'] if fr['node'] == -1)
            self.assertEqual(root['value'], doc['totals'][ev], doc['events'][ev])
            self.assertIn('of ' + doc['events'][ev],
                          self.driver.find_element(By.CSS_SELECTOR,
                                                   '#view .controls').text)
            p.go('#top')
        p.shot('events-flame')

    def test_short_names(self):
        """--short-names: the names the text listings show."""
        args = ['samples/cxx/callgrind.out']
        page = os.path.join(self.tmp, 'short.html')
        subprocess.run([report_base.BIN, '--output=html', '--short-names',
                        '--threshold=0', '-o', page] + args,
                       check=True, capture_output=True)
        text = run(['--short-names', '--threshold=0', '-p'] + args)
        fns = json.loads(run(['--json'] + args))['functions']
        p = Page(self.driver, page)
        rows = p.rows('top-table')
        # the label before it is fitted to the column (names.js)
        labels = p.js("""return Object.fromEntries([...document.querySelectorAll(
            '#top-table .fname a')].map(a => [a.getAttribute('href').slice(4),
                                              a.dataset.label]));""")
        shortened = 0
        for r in rows:
            shown = labels[str(r['fn'])]
            self.assertIn(' ' + shown + '\n', text)
            if len(shown) < len(fns[r['fn']]['name']):
                shortened += 1
        self.assertGreater(shortened, 0)
        # the filter takes the whole name too, as -p does
        full = next(f for f in fns if '_M_realloc_insert' in f['name'])
        got = {r['fn'] for r in self.filter_rows(p, full['name'])}
        self.assertIn(full['id'], got)
        p.shot('short-names-top')

    def test_filter_demangled(self):
        """A mangled name shown is matched by its demangled form too."""
        prof = os.path.join(self.tmp, 'mangled.out')
        with open(prof, 'w', encoding='utf-8') as f:
            f.write('events: Ir\nfn=main\n1 5\ncfn=_ZN2ns4workEi\n'
                    'calls=1 1\n1 10\nfn=_ZN2ns4workEi\n1 10\n')
        page = os.path.join(self.tmp, 'mangled.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page, prof], check=True,
                       capture_output=True)
        p = Page(self.driver, page)
        for spec in ('ns::work', 'work', '*::work', '_ZN2ns4workEi'):
            names = [r['cells'][5] for r in self.filter_rows(p, spec)]
            self.assertEqual(names, ['_ZN2ns4workEi'], spec)
        self.assertEqual(self.filter_rows(p, 'ns::other'), [])

    # ---- source and disassembly ----

    def test_source_costs(self):
        doc = json.loads(run(['--json', '--annotate'] + PROFILES['callgrind']))
        ev = self.ev(doc)
        p = self.page('callgrind')
        p.go('#source')
        path = self.driver.find_element(
            By.CSS_SELECTOR, '#source-file option:checked').text
        k = int(self.driver.find_element(By.ID, 'source-file').get_attribute('value'))
        lines = sorted((l for l in doc['lines'] if l['file'] == path),
                       key=lambda l: -l['cost'][ev])
        self.assertGreater(len(lines), 5)
        for l in lines[:8]:
            p.go('#source/%d/%d' % (k, l['line']))
            row = p.js("""
                const r = document.querySelector('#source-table .row[data-line="' + arguments[0] + '"]');
                return r ? [...r.children].map(c => c.textContent) : null;""", l['line'])
            self.assertIsNotNone(row, 'line %d not drawn' % l['line'])
            self.assertEqual(number(row[1]), l['cost'][ev], 'line %d' % l['line'])
        p.shot('callgrind-source')
        # every call line: its callee and count, as --annotate
        calls = p.js("""
            return [...document.querySelectorAll('#source-table .callrow a')]
                .map(a => a.getAttribute('href'));""")
        self.assertTrue(all(c.startswith('#fn/') for c in calls))

    def test_disasm(self):
        doc = json.loads(run(['--json', '--disasm'] + PROFILES['callgrind']))
        ev = self.ev(doc)
        p = self.page('callgrind')
        p.go('#disasm/0')
        name = self.driver.find_element(
            By.ID, 'disasm-find').get_attribute('value')
        want = next(d for d in doc['disasm'] if d['name'] == name)
        rows = p.rows('disasm-table')
        self.assertGreater(len(rows), 3)
        by_addr = {'0x%x' % i['address']: i for i in want['instructions']}
        # the source lines interleaved, as --disasm prints them
        text = run(['--disasm=' + name] + PROFILES['callgrind'])
        sources = [r for r in rows if not r['cells'][0].startswith('0x')]
        self.assertGreater(len(sources), 0)
        for r in sources:
            self.assertRegex(r['cells'][0], r'^[^:]+:\d+$')
            self.assertIn(r['cells'][0], text)
            self.assertIn(r['cells'][1], text)
        for r in rows:
            if r in sources:
                continue
            ins = by_addr[r['cells'][0]]
            self.assertEqual(number(r['cells'][1]) or 0, ins['cost'][ev])
            if ins.get('jumps'):
                self.assertIn('jump', r['cells'][4])
        p.shot('callgrind-disasm')

    def test_header(self):
        p = self.page('callgrind')
        head = self.driver.find_element(By.ID, 'head').get_attribute('textContent')
        self.assertIn('246,671', head)
        self.assertIn('load offset 0x0', head)
        self.assertIn('callgrind.instr.out', head)
        self.assertIn('Messages of the run', head)

    # ---- names are text ----

    def test_markup_in_names_is_text(self):
        prof = os.path.join(self.tmp, 'hostile.out')
        with open(prof, 'w', encoding='utf-8') as f:
            f.write(HOSTILE)
        page = os.path.join(self.tmp, 'hostile.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page, prof], check=True,
                       capture_output=True)
        p = Page(self.driver, page)
        for view in ('#top', '#flame', '#fn/0'):
            p.go(view)
            with self.assertRaises(NoAlertPresentException):
                self.driver.switch_to.alert.text
            self.assertEqual(p.js("return document.querySelectorAll('img, #view script').length"), 0)
        p.go('#top')
        names = {r['cells'][5] for r in p.rows('top-table')}
        self.assertIn('<script>alert(1)</script>', names)
        self.assertIn('</script><img src=x onerror=alert(2)>', names)
        self.assertIn('<!--comment\u2028line', names)
        files = {r['cells'][6] for r in p.rows('top-table')}
        self.assertIn('<b>bold</b>.c', files)
        p.shot('hostile-top')
