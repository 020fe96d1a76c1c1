"""The report's Source and Disassembly views for every input that has
positions (Callgrind with -b, gmon.out with -b, IgProf with -b, perf.data
recorded with frame pointers and with --call-graph dwarf, with -b and with
the recorded files; Callgrind without -b, the recorded object): the
numbers are those --json --annotate / --disasm and the text --annotate /
--disasm print; the disassembly's % is of the function; the function
picker finds a function by any part of its name; the source view opens
at the file's costliest line and lists its hot lines.
"""
import json
import os
import re
import subprocess
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import report_base
from report_base import PROFILES, Page, ReportBase, number, run

# the objects samples/recursion's and samples/cxx's profiles record, which
# --disasm takes without -b (when this machine has them)
LIBC = '/usr/lib/x86_64-linux-gnu/libc.so.6'
LDSO = '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2'

# the page's code document, as the views read it
CODE = 'const code = JSON.parse(document.getElementById("cga-code").textContent);'


def annotate_text(args):
    """--annotate's costs of the sort event: {path: {line: cost}}."""
    files, cur = {}, None
    for ln in run(['--annotate'] + args).splitlines():
        m = re.match(r'^-- (\S.*?)  \(', ln)
        if m:
            cur = files.setdefault(m.group(1), {})
            continue
        m = re.match(r'^\s*([\d,]+|\.)\s+(\d+)(\s|$)', ln)
        if cur is not None and m and m.group(1) != '.':
            cur[int(m.group(2))] = int(m.group(1).replace(',', ''))
    return files


def disasm_text(args, name):
    """--disasm=NAME's instructions with a cost: {address: (cost, pct)}."""
    out = {}
    for ln in run(['--disasm=' + name] + args).splitlines():
        m = re.match(r'^\s*([\d,]+)\s+(\d+\.\d\d)[* ]\s*([0-9a-f]+):', ln)
        if m:
            out[int(m.group(3), 16)] = (int(m.group(1).replace(',', '')),
                                        m.group(2) + '%')
    return out


def all_rows(p, table_id):
    """Every row of a table that draws only those in view: scrolled
    through from the top, as lists of cell texts."""
    rows = {}
    height = p.js("return document.getElementById(arguments[0]).scrollHeight",
                  table_id)
    for top in range(0, height + 400, 400):
        p.js("document.getElementById(arguments[0]).scrollTop = arguments[1]",
             table_id, top)
        p.wait()
        for r in p.js("""
                return [...document.querySelectorAll('#' + arguments[0] + ' .row')]
                    .map(r => [parseFloat(r.style.top),
                               [...r.children].map(c => c.textContent)]);""",
                      table_id):
            rows[r[0]] = r[1]
    return [rows[k] for k in sorted(rows)]


class CodeViews(ReportBase):

    # ---- source ----

    def check_source(self, kind):
        # as the page was made: every file with a cost (report_base)
        args = ['--threshold=0'] + PROFILES[kind]
        doc = json.loads(run(['--json', '--annotate'] + args))
        ev = self.ev(doc)
        text = annotate_text(args)
        files = [f for f in doc['annotation']['files']
                 if f['status'] in ('listed', 'not_found')]
        self.assertTrue(files, kind + ': --annotate lists no file')
        p = self.page(kind)
        p.go('#source')
        # the files --annotate lists, hottest first; the page opens on
        # the hottest whose source is here
        self.assertEqual(p.js("""return [...document.querySelectorAll(
                '#source-file option')].map(o => o.textContent)"""),
                         [f['path'] for f in files], kind)
        shown = self.driver.find_element(
            By.CSS_SELECTOR, '#source-file option:checked').text
        listed = [f['path'] for f in files if f['status'] == 'listed']
        self.assertEqual(shown, (listed or [files[0]['path']])[0], kind)
        k = [f['path'] for f in files].index(shown)
        lines = sorted((l for l in doc['lines'] if l['file'] == shown
                        and l['cost'][ev]),
                       key=lambda l: (-l['cost'][ev], l['line']))
        self.assertTrue(lines, kind)
        # opened at the costliest line, in view
        here = p.js("""
            const r = document.querySelector('#source-table .row.here');
            const box = document.getElementById('source-table').getBoundingClientRect();
            const at = r && r.getBoundingClientRect();
            return r ? [Number(r.dataset.line), at.top >= box.top && at.bottom <= box.bottom]
                     : null;""")
        self.assertEqual(here, [lines[0]['line'], True], kind)
        # the hot lines: the costliest first, with --json's costs
        hot = p.js("""
            return [...document.querySelectorAll('#source-hot tr')].map(tr =>
                [...tr.children].map(td => td.textContent));""")
        self.assertEqual([h[0] for h in hot],
                         ['line %d' % l['line'] for l in lines[:len(hot)]], kind)
        self.assertEqual(len(hot), min(15, len(lines)), kind)
        total = doc['totals'][ev]
        for h, l in zip(hot, lines):
            self.assertEqual(number(h[1]), l['cost'][ev], kind)
            self.assertEqual(h[2], '%.2f%%' % (100.0 * l['cost'][ev] / total), kind)
        p.shot(kind + '-source')
        # the event's column as --annotate titles it (gmon.out: ticks)
        col = p.js("""return document.querySelector(
            '#view .hdr.src-grid').children[1].textContent""")
        self.assertTrue(any(l.split()[:2] == [col, 'line'] for l in
                            run(['--annotate'] + args).splitlines()),
                        '%s: column %s' % (kind, col))
        for l in lines[:8]:
            p.go('#source/%d/%d' % (k, l['line']))
            row = p.js("""
                const r = document.querySelector('#source-table .row[data-line="' + arguments[0] + '"]');
                return r ? [...r.children].map(c => c.textContent) : null;""", l['line'])
            self.assertIsNotNone(row, '%s: line %d not drawn' % (kind, l['line']))
            self.assertEqual(number(row[1]), l['cost'][ev], '%s line %d' % (kind, l['line']))
            self.assertEqual(row[2], '%.2f%%' % (100.0 * l['cost'][ev] / total), kind)
            if shown in text and self.ev(doc) == ev:
                self.assertEqual(text[shown].get(l['line']), l['cost'][ev],
                                 '%s: --annotate line %d' % (kind, l['line']))
        self.assertIn(shown, text, kind + ': the text --annotate lists it')

    def test_source_callgrind(self):
        self.check_source('callgrind')

    def test_source_gmon(self):
        self.check_source('gmon')

    def test_source_igprof(self):
        self.check_source('igprof-b')

    def test_source_perf_fp(self):
        # its sources are not found: listed by line number, as --annotate
        self.check_source('perf')
        self.assertTrue(self.driver.find_elements(By.ID, 'source-not-found'))

    def test_source_perf_recorded(self):
        # no -b: the recorded files under --sysroot, as --annotate
        self.check_source('perf-recorded')

    def test_source_perf_dwarf(self):
        self.check_source('perf-dwarf')
        self.assertFalse(self.driver.find_elements(By.ID, 'source-not-found'))

    def test_source_calls_in_annotate_order(self):
        """The calls under a source line, heaviest first as --annotate
        lists them (its ties in the order the calls were read). The page
        listed them in the order its document holds them: main.cc:20's
        _dl_runtime_resolve_xsave (703) above printf (1,361) in
        tests/split-dwarf, where --annotate lists printf first."""
        cases = (
            ('callgrind', PROFILES['callgrind'], None,
             '/work/main/samples/recursion/prog.c'),
            ('split-dwarf', ['-b', 'tests/split-dwarf/whole',
                             'tests/split-dwarf/callgrind.out'],
             os.path.join(self.tmp, 'code-split-dwarf.html'),
             '/tmp/cganalyze-split/main.cc'),
        )
        for kind, args, page, path in cases:
            # --annotate's call lines of the file, in order: their costs
            want, cur = [], None
            for ln in run(['--annotate', '--threshold=0'] + args).splitlines():
                m = re.match(r'^-- (\S.*?)  \(', ln)
                if m:
                    cur = m.group(1)
                    continue
                m = re.match(r'^\s*([\d,]+|\.)\s+=> (.*) \(', ln)
                if m and cur is not None and cur.endswith(path.split('/')[-1]):
                    want.append((number(m.group(1).replace('.', '')) or 0,
                                 m.group(2)))
            self.assertGreater(len(want), 1, kind)
            if page:
                run(['--output=html', '--threshold=0', '-o', page] + args)
                p = Page(self.driver, page)
            else:
                p = self.page(kind)
            p.go('#source')
            files = p.js("""return [...document.querySelectorAll(
                '#source-file option')].map(o => o.textContent)""")
            k = next(i for i, f in enumerate(files)
                     if f.endswith(path.split('/')[-1]))
            p.go('#source/%d' % k)
            got = [(number(r[1]) or 0,
                    re.sub(r' \((\d|[\d,]+ recursive).*$', '', r[3][2:]))
                   for r in all_rows(p, 'source-table')
                   if len(r) > 3 and r[3].startswith('\u2192 ')]
            self.assertEqual(got, want, kind)
        p.shot('split-dwarf-source-calls')

    def test_source_find(self):
        """The view's own find reaches lines the table has not drawn."""
        p = self.page('callgrind')
        p.go('#source')
        src = CODE + 'const k = Number(document.getElementById("source-file").value);'
        lines = p.js(src + 'return code.sources[k].lines;')
        drawn = set(p.js("""return [...document.querySelectorAll('#source-table .row')]
                            .map(r => Number(r.dataset.line || 0));"""))
        # a text on one line only, far from the lines drawn
        low = [l.lower() for l in lines]
        at = next(i + 1 for i in range(len(lines) - 1, -1, -1)
                  if len(lines[i].strip()) >= 6 and i + 1 not in drawn and
                  sum(lines[i].strip().lower() in t for t in low) == 1)
        box = self.driver.find_element(By.ID, 'source-find')
        box.send_keys(lines[at - 1].strip())
        box.send_keys(Keys.ENTER)
        p.wait()
        found = p.js("""
            const r = document.querySelector('#source-table .row.found');
            return r ? Number(r.dataset.line) : null;""")
        self.assertEqual(found, at)
        status = self.driver.find_element(By.ID, 'source-find-status').text
        self.assertEqual(status, 'match 1 of 1 (line %d)' % at)
        p.shot('callgrind-source-find')
        # Enter again: the next match (here the same), Shift+Enter back
        box.send_keys(Keys.SHIFT, Keys.ENTER)
        self.assertEqual(self.driver.find_element(By.ID, 'source-find-status').text,
                         'match 1 of 1 (line %d)' % at)
        box.clear()
        box.send_keys('no such text in the file, surely')
        box.send_keys(Keys.ENTER)
        self.assertIn('not found',
                      self.driver.find_element(By.ID, 'source-find-status').text)
        # a text on many lines: Enter goes from one match to the next
        box.clear()
        box.send_keys('return')
        box.send_keys(Keys.ENTER)
        first = self.driver.find_element(By.ID, 'source-find-status').text
        box.send_keys(Keys.ENTER)
        second = self.driver.find_element(By.ID, 'source-find-status').text
        self.assertRegex(first, r'^match 1 of (\d+) ')
        self.assertRegex(second, r'^match 2 of (\d+) ')

    def test_source_from_function(self):
        """A function's link opens the source at its own line."""
        doc = self.docs['callgrind']
        f = next(i for i, fn in enumerate(doc['functions'])
                 if fn['name'] == 'fib')
        p = self.page('callgrind')
        p.go('#fn/%d' % f)
        link = self.driver.find_element(By.CSS_SELECTOR, '#view a[href^="#source/"]')
        line = int(link.get_attribute('href').rsplit('/', 1)[1])
        self.assertEqual(line, doc['functions'][f]['line'])
        link.click()
        p.wait()
        here = p.js("""
            const r = document.querySelector('#source-table .row.here');
            return r ? Number(r.dataset.line) : null;""")
        self.assertEqual(here, line)

    # ---- disassembly ----

    def check_disasm(self, kind, args=None, page=None):
        args = args or PROFILES[kind]
        doc = json.loads(run(['--json', '--disasm'] + args))
        ev = self.ev(doc)
        self.assertTrue(doc['disasm'], kind + ': --disasm lists nothing')
        p = Page(self.driver, page) if page else self.page(kind)
        p.go('#disasm')
        listed = p.js(CODE + 'return code.disasm.map(d => d.name)')
        # every function --disasm lists (1% or more) is in the page,
        # in its order, and those of less cost after them
        self.assertEqual(listed[:len(doc['disasm'])],
                         [d['name'] for d in doc['disasm']], kind)
        for want in doc['disasm'][:3]:
            name = want['name']
            self.pick(p, name)
            self.assertEqual(
                self.driver.find_element(By.ID, 'disasm-find').get_attribute('value'),
                name, kind)
            self.assertEqual(p.js('return location.hash'),
                             '#disasm/%d' % listed.index(name), kind)
            text = disasm_text(args, name)
            self.assertTrue(text, kind + ': ' + name)
            self_cost = want['self'][ev]
            rows = all_rows(p, 'disasm-table')
            by_addr = {'0x%x' % i['address']: i for i in want['instructions']}
            seen = 0
            for cells in rows:
                if cells[0] not in by_addr:
                    continue
                ins = by_addr[cells[0]]
                cost = ins['cost'][ev]
                self.assertEqual(number(cells[1]) or 0, cost, kind)
                if not cost:
                    self.assertEqual(cells[2], '', kind)
                    continue
                seen += 1
                # % of the function, as the terminal's --disasm
                self.assertEqual(cells[2],
                                 '%.2f%%' % (100.0 * cost / self_cost), kind)
                self.assertEqual(text[ins['address']], (cost, cells[2]),
                                 '%s %s %s' % (kind, name, cells[0]))
            # every instruction with a cost, as --disasm=NAME
            self.assertEqual(seen, len(text), kind + ': ' + name)
            # then the cost at no instruction of it, without a percent
            elsewhere = [c for c in rows if len(c) > 3 and c[3].startswith('cost ')]
            self.assertEqual([(number(c[1]), c[2]) for c in elsewhere],
                             [(x['cost'][ev], '') for x in want['elsewhere']
                              if x['cost'][ev]], kind + ': ' + name)
            about = self.driver.find_element(By.ID, 'disasm-about').text
            self.assertIn('self ' + '{:,}'.format(self_cost), about)
            # the event's column as --disasm titles it (gmon.out: ticks)
            col = p.js("""return document.querySelector(
                '#view .hdr.asm-grid').children[1].textContent""")
            self.assertRegex(run(['--disasm=' + name] + args),
                             r'(?m)^ *' + re.escape(col) + r' +% +addr +instruction$')
        self.pick(p, doc['disasm'][0]['name'])
        p.shot(kind + '-disasm')

    def test_disasm_inline_chains(self):
        """Under a source line of inlined code, the chain of functions
        inlined there, as --disasm prints it after file:line: for every
        function the page lists, each chain the terminal prints for it,
        under the same file:line, in the same order, and no other (a
        split-DWARF program's unsplit build: acc::add and shape::area
        inlined into total_area, std::vector's iterators into both)."""
        args = ['-b', 'tests/split-dwarf/whole', 'tests/split-dwarf/callgrind.out']
        page = os.path.join(self.tmp, 'inline-chains.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page] + args,
                       check=True, capture_output=True)
        p = Page(self.driver, page)
        p.go('#disasm')
        names = p.js(CODE + 'return code.disasm.map(d => d.name)')
        chains = 0
        for name in names:
            want = []
            for ln in run(['--disasm=' + name] + args).splitlines():
                m = re.match(r'^\s*(\S+):(\d+)  (\(inlined: .*\))$', ln)
                if m:
                    want.append((m.group(1).split('/')[-1] + ':' + m.group(2),
                                 m.group(3)))
            chains += len(want)
            self.pick(p, name)
            shown, where = [], None
            for cells in all_rows(p, 'disasm-table'):
                if len(cells) == 3 and cells[1].startswith('(inlined: '):
                    shown.append((where, cells[1]))
                elif len(cells) == 3:
                    where = cells[0]
            self.assertEqual(shown, want, name)
            if want and len(want) == chains:
                p.js('document.activeElement.blur()')	# the picker's list
                p.shot('inline-chains-disasm')
        self.assertGreater(chains, 20, 'no inline chain to compare')

    def pick(self, p, name):
        """Type the name into the picker and take the first match."""
        box = self.driver.find_element(By.ID, 'disasm-find')
        box.click()
        box.send_keys(Keys.CONTROL, 'a')
        box.send_keys(name)
        items = p.js("""return [...document.querySelectorAll('#disasm-list li')]
                        .map(li => li.firstChild.textContent);""")
        self.assertIn(name, items)
        # the exact name first when another contains it
        while items[0] != name:
            box.send_keys(Keys.ARROW_DOWN)
            items = items[1:] + items[:1]
        box.send_keys(Keys.ENTER)
        p.wait()

    def test_disasm_callgrind(self):
        self.check_disasm('callgrind')

    def test_disasm_gmon(self):
        self.check_disasm('gmon')

    def test_disasm_igprof(self):
        self.check_disasm('igprof-b')

    def test_disasm_perf_fp(self):
        self.check_disasm('perf')

    def test_disasm_perf_recorded(self):
        self.check_disasm('perf-recorded')

    def test_disasm_perf_dwarf(self):
        self.check_disasm('perf-dwarf')

    @unittest.skipUnless(os.path.exists(LIBC), LIBC + ' is not here')
    def test_disasm_without_b(self):
        """No -b: the code of the object the profile records, as the
        terminal's --disasm takes it."""
        args = ['samples/recursion/callgrind.instr.out']
        page = os.path.join(self.tmp, 'no-b.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page] + args,
                       check=True, capture_output=True)
        self.check_disasm('callgrind-no-b', args, page)
        self.assertFalse(self.driver.find_elements(By.ID, 'disasm-none'))

    def test_disasm_picker_finds_any_part(self):
        """The picker narrows by any part of a name, in any case, and
        lists every function with a cost at its instructions."""
        p = self.page('perf')
        p.go('#disasm')
        box = self.driver.find_element(By.ID, 'disasm-find')
        box.click()
        every = p.js("return document.querySelectorAll('#disasm-list li').length")
        self.assertEqual(every, p.js(CODE + 'return code.disasm.length'))
        box.send_keys(Keys.CONTROL, 'a')
        box.send_keys('SPIN')
        items = p.js("""return [...document.querySelectorAll('#disasm-list li')]
                        .map(li => li.firstChild.textContent);""")
        self.assertEqual(items, ['lib_spin'])
        p.shot('perf-disasm-picker')
        box.send_keys(Keys.ENTER)
        p.wait()
        self.assertEqual(self.driver.find_element(By.ID, 'disasm-find')
                         .get_attribute('value'), 'lib_spin')
        box = self.driver.find_element(By.ID, 'disasm-find')
        box.click()
        box.send_keys(Keys.CONTROL, 'a')
        box.send_keys('no_such_function')
        self.assertTrue(self.driver.find_elements(By.ID, 'disasm-missing'))

    def test_disasm_every_function_with_cost(self):
        """Below --disasm's 1%: every function with a cost at its code is
        in the page, as --disasm --threshold=0 lists them."""
        args = PROFILES['callgrind']
        doc = json.loads(run(['--json', '--disasm', '--threshold=0'] + args))
        want = [d['name'] for d in doc['disasm']]
        p = self.page('callgrind')
        p.go('#disasm')
        got = p.js(CODE + 'return code.disasm.map(d => d.name)')
        self.assertEqual(sorted(got), sorted(want))
        self.assertFalse(self.driver.find_elements(By.ID, 'disasm-more'))

    @unittest.skipUnless(os.path.exists(LDSO), LDSO + ' is not here')
    def test_disasm_left_out(self):
        """Many functions with a cost: the hottest are in the page, all
        those --disasm lists among them; the page says how many more
        there are and how to list them, and so does the picker for a
        name left out."""
        args = ['samples/cxx/callgrind.instr.out']
        page = os.path.join(self.tmp, 'cxx-no-b.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', page] + args,
                       check=True, capture_output=True)
        every = [d['name'] for d in json.loads(run(
            ['--json', '--disasm', '--threshold=0'] + args))['disasm']]
        hot = [d['name'] for d in json.loads(run(
            ['--json', '--disasm'] + args))['disasm']]
        p = Page(self.driver, page)
        p.go('#disasm')
        got = p.js(CODE + 'return code.disasm.map(d => d.name)')
        self.assertLess(len(got), len(every))
        self.assertEqual(got, every[:len(got)])
        self.assertEqual(got[:len(hot)], hot)
        more = self.driver.find_element(By.ID, 'disasm-more').text
        self.assertIn('{:,} more'.format(len(every) - len(got)), more)
        self.assertIn('--disasm=NAME', more)
        p.shot('callgrind-no-b-disasm-more')
        box = self.driver.find_element(By.ID, 'disasm-find')
        box.click()
        box.send_keys(Keys.CONTROL, 'a')
        box.send_keys(every[-1])
        missing = self.driver.find_elements(By.ID, 'disasm-missing')
        if every[-1] not in ' '.join(got):
            self.assertTrue(missing)
            self.assertIn('--disasm=NAME', missing[0].text)

    # ---- the file column ----

    def check_files(self, kind):
        """Every function's file and line is --json's, and the Top table
        shows the hottest function's (perf.data's from the line table)."""
        doc = self.docs[kind]
        p = self.page(kind)
        data = p.js("""
            const D = JSON.parse(document.getElementById('cga-data').textContent);
            const F = D.functions;
            return F.name.map((n, f) => [F.file[f] < 0 ? null : D.paths[F.file[f]],
                                         F.line[f] || null]);""")
        want = [[f['file'], f['line']] for f in doc['functions']]
        self.assertEqual(data, want, kind)
        self.assertTrue(any(f for f, _ in want), kind + ': no function has a file')
        ev = self.ev(doc)
        hot = max((f for f in doc['functions'] if f['file']),
                  key=lambda f: f['self'][ev])
        row = next(r for r in p.rows('top-table') if r['fn'] == hot['id'])
        # (its file name at least: a long path may be shortened)
        self.assertIn('%s:%d' % (os.path.basename(hot['file']), hot['line']),
                      ' '.join(row['cells']), kind)

    def test_files_perf(self):
        self.check_files('perf')

    def test_files_perf_dwarf(self):
        self.check_files('perf-dwarf')

    def test_files_gmon(self):
        self.check_files('gmon')

    def test_files_igprof(self):
        self.check_files('igprof-b')
