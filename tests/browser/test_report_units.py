"""Units and numbers in the report, against the text listings and the
peers (issue 37: "units").

- perf.data (frame pointers, --call-graph dwarf): a sampled profile. Top
  has a samples column (--json's "samples", the text flat profile's,
  perf report's Samples of tests/perf/NAME.self) and no calls column;
  no view says "called" or "calls"; the header gives the event's unit
  (ns) and perf's total Samples; the Function view's arcs are the text
  call graph's.
- gmon.out: the page's seconds are the text listings' and gprof -b's
  (Top, Function view, header total, flame readout).
- Callgrind with recursion: a cycle member's children are -q's, the
  arcs' shares are rounded as the text rounds them, % reads 100.00%.

Run with the other test_report*.py by tests/browser/run_report.py.
"""
import json
import os
import re
import shutil
import subprocess
import unittest

from selenium.webdriver.common.by import By

from report_base import PROFILES, Page, ReportBase, listed_cost, number, run

PERF = ['-b', 'tests/perf/prog', '-b', 'tests/perf/libwork.so',
        '--sysroot=tests/perf', '--kallsyms=tests/perf/kallsyms']
SAMPLED = {'fp': PERF + ['tests/perf/fp.data'],
           'dwarf': PERF + ['tests/perf/dwarf.data']}


def strip_index(name):
    return re.sub(r' [\[(]\d+[\])]$', '', name.strip())


def flat_rows(args):
    """The text flat profile (-p) as {name: [its columns but the name]},
    split on runs of two spaces and more, the name last."""
    rows = {}
    for line in run(['-p', '--brief', '--threshold=0'] + args).splitlines():
        parts = re.split(r'\s{2,}', line.strip())
        if len(parts) > 3 and re.match(r'^\d+\.\d\d$', parts[0]):
            rows[strip_index(parts[-1])] = parts[:-1]
    return rows


def graph_entries(args):
    """The text call graph (-q) as {entry name: {'self', 'children',
    'callers': {name: [(self, children)]}, 'callees': ...}}: the two cost
    columns by position (their width from the header), names after the
    last run of two spaces."""
    text = run(['-q', '--brief', '--threshold=0'] + args)
    lines = text.splitlines()
    head = next(l for l in lines if l.startswith('index'))
    seconds = '% time' in head
    if seconds:	# gprof's "%7.2f %7.2f" after 13 columns
        cols = ((13, 20), (21, 28))
    else:		# "%6s %6s " then two columns of the header's width
        w = head.index('self') + 4 - 14
        cols = ((14, 14 + w), (15 + w, 15 + 2 * w))
    entries = {}
    block = []
    for line in lines[lines.index(head) + 1:]:
        if line.startswith('-----') or not line.strip():
            if block:
                entries.update(_entry(block, cols))
            block = []
            if not line.strip():
                break
            continue
        block.append(line)
    return entries


def _entry(block, cols):
    def costs(line):
        return tuple(line[a:b].strip() for a, b in cols)

    def name(line):	# a count before it may be one space away
        last = re.split(r'\s{2,}', line.strip())[-1]
        return strip_index(re.sub(r'^[\d,]+[+/][\d,]+ ', '', last))
    def by_name(lines):	# a cycle's entry has an arc per member
        arcs = {}
        for l in lines:
            if '<spontaneous>' not in l:
                arcs.setdefault(name(l), []).append(costs(l))
        return arcs
    at = next(i for i, l in enumerate(block) if l.startswith('['))
    me = block[at]
    self_, children = costs(me)
    return {name(me): {
        'self': self_, 'children': children, 'pct': me.split()[1],
        'callers': by_name(block[:at]), 'callees': by_name(block[at + 1:])}}


class UnitsTest(ReportBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        for kind, args in SAMPLED.items():
            if kind in cls.pages:
                continue
            path = os.path.join(cls.tmp, 'units-' + kind + '.html')
            # every function, ids as --json's (test_report_size.py
            # checks the default's cut page)
            subprocess.run([cls.bin()] + ['--output=html', '--threshold=0',
                                          '-o', path] + args,
                           check=True, capture_output=True)
            cls.pages[kind] = path
            cls.docs[kind] = json.loads(run(['--json'] + args))

    @staticmethod
    def bin():
        import report_base
        return report_base.BIN

    def args(self, kind):
        return SAMPLED.get(kind) or PROFILES[kind]

    def page_text(self, p):
        return p.js('return document.body.innerText')

    def function_view(self, p, f):
        return self.entry_view(p, '#fn/%d' % f)

    def check_cycles(self, kind, doc, graph):
        """Each cycle's view: its entry's line and arcs as -q's
        <cycle N as a whole>."""
        p = self.page(kind)
        for c in doc['cycles']:
            what = '<cycle %d as a whole>' % c['id']
            shown = self.entry_view(p, '#cycle/%d' % c['id'])
            self.check_entry(kind, shown, graph[what], what)
        self.assertGreater(len(doc['cycles']), 0)

    def entry_view(self, p, hash_):
        p.go(hash_)
        return p.js("""
            const cell = td => td.textContent.trim();
            const row = tr => ({
                dir: tr.className,
                name: tr.querySelector('a') ? tr.querySelector('a').textContent
                    : tr.lastElementChild.textContent,
                cells: [...tr.children].map(cell)});
            const facts = document.querySelector('#function > p:nth-of-type(2)');
            return {facts: facts ? facts.textContent : '',
                    head: [...document.querySelectorAll('table.entry th')].map(cell),
                    rows: [...document.querySelectorAll('table.entry tr.caller, table.entry tr.primary, table.entry tr.callee')]
                        .filter(tr => tr.querySelector('a') || tr.className === 'primary')
                        .map(row)};""")

    def check_entry(self, kind, shown, entry, what):
        """The Function view's self and children columns, of the entry's
        own line and of each caller and callee, as the text graph's."""
        prim = next(r for r in shown['rows'] if r['dir'] == 'primary')
        self.assertEqual((prim['cells'][1], prim['cells'][2]),
                         (entry['self'], entry['children']),
                         '%s %s: self, children' % (kind, what))
        # the text's one decimal of the same share (gmon.out's of the
        # time the functions got, as gprof's)
        self.assertLessEqual(abs(float(prim['cells'][0].rstrip('%')) -
                                 float(entry['pct'])), 0.0501,
                             '%s %s: %% total' % (kind, what))
        for r in shown['rows']:
            if r['dir'] == 'primary':
                continue
            side = entry['callers' if r['dir'] == 'caller' else 'callees']
            other = r['name']
            if other not in side:
                continue	# inside a cycle: the text shows no cost
            want = [w for w in side[other] if w[0] or w[1]]
            if not want:
                continue
            self.assertIn((r['cells'][1], r['cells'][2]), want,
                          '%s %s: arc with %s' % (kind, what, other))

    # ---- perf.data: samples, not calls ----

    def check_sampled(self, kind):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        self.assertTrue(doc.get('sampled'))
        self.assertEqual(doc['event_info'][ev]['unit'], 'ns')
        # perf report's answers for this recording
        perf = open('tests/perf/%s.self' % kind).read()
        total = int(re.search(r"# Samples: (\d+)", perf).group(1))
        self.assertEqual(doc['event_info'][ev]['samples'], total)
        # the text flat profile's samples column is --json's and perf's
        flat = flat_rows(self.args(kind))
        by_name = {f['name']: f for f in fns}
        perf_rows = re.findall(r'^\s+\S+%\s+(\d+)\s+(\d+)\s+\S+\s+\[.\]\s+(\S+)\s*$',
                               perf, re.M)
        self.assertGreater(len(perf_rows), 2)
        for period, samples, sym in perf_rows:
            if sym not in by_name:
                continue	# libc's names on another machine
            self.assertEqual(by_name[sym]['samples'][ev], int(samples), sym)
            self.assertEqual(int(flat[sym][3].replace(',', '')), int(samples),
                             'text flat profile: ' + sym)
        p = self.page(kind)
        p.shot('units-%s-top' % kind)
        head = p.js("return [...document.querySelectorAll('#top-head span')]"
                    ".map(s => s.dataset.key)")
        self.assertIn('samples', head)
        self.assertNotIn('calls', head)
        for r in p.rows('top-table'):
            f = fns[r['fn']]
            self.assertEqual(number(r['cells'][4]), f['samples'][ev])
            self.assertEqual(number(r['cells'][0]), f['self'][ev])
            if f['samples'][ev]:
                self.assertEqual(r['cells'][4], flat[r['cells'][5]][3])
        text = self.page_text(p)
        self.assertIn('%s ns' % format(doc['totals'][ev], ','), text)
        self.assertIn('%s samples' % format(total, ','), text)
        self.assertNotRegex(text, r'\bcall(s|ed)\b')
        # the Function view of each function with samples, and main
        graph = graph_entries(self.args(kind))
        names = [f['name'] for f in fns if f['samples'][ev]] + ['main']
        for name in names:
            f = by_name[name]
            shown = self.function_view(p, f['id'])
            if name in ('leaf', 'main'):
                p.shot('units-%s-function-%s' % (kind, name))
            n = f['samples'][ev]
            self.assertIn(' in %s sample%s,' % (format(n, ','),
                                                '' if n == 1 else 's'),
                          shown['facts'])
            self.assertIn('self %s ns' % format(f['self'][ev], ','),
                          shown['facts'])
            self.assertNotIn('called', shown['head'])
            self.assertNotRegex(self.page_text(p), r'\bcall(s|ed)\b|times')
            self.check_entry(kind, shown, graph[name], name)
        p.go('#flame')
        root = p.js('return document.querySelector(\'#flame .fr[data-node="-1"]\').title')
        self.assertEqual(root, 'all: %s ns (100.00%%)' % format(doc['totals'][ev], ','))
        # nor any other view (the disassembly's "call" instructions are
        # the code's)
        for view in ('#flame', '#icicle', '#source', '#disasm'):
            p.go(view)
            self.assertNotRegex(self.page_text(p), r'\bcall(s|ed)\b', view)

    def test_sampled_fp(self):
        self.check_sampled('fp')

    def test_sampled_dwarf(self):
        self.check_sampled('dwarf')

    # ---- gmon.out: gprof's seconds ----

    def test_gmon_seconds(self):
        doc = self.docs['gmon']
        ev = self.ev(doc)
        fns = doc['functions']
        args = self.args('gmon')
        flat = flat_rows(args)
        gprof = {}
        if shutil.which('gprof'):
            out = subprocess.run(['gprof', '-b', '-p'] + args[1:],
                                 capture_output=True, text=True,
                                 check=True).stdout
            for m in re.finditer(r'^\s*(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+\.\d\d)'
                                 r'.*?\s(\S+)\s*$', out, re.M):
                gprof[m.group(4)] = m.group(3)
            self.assertGreater(len(gprof), 3)
        p = self.page('gmon')
        p.shot('units-gmon-top')
        rows = p.rows('top-table')
        for r in rows:
            f = fns[r['fn']]
            label = r['cells'][5]
            self.assertEqual(number(r['cells'][0]),
                             listed_cost(doc, ev, f['self'][ev]))
            if label in flat:	# the text's self seconds, and gprof's
                self.assertEqual(r['cells'][0], flat[label][2], label)
            if f['name'] in gprof:
                self.assertEqual(r['cells'][0], gprof[f['name']], f['name'])
        self.assertTrue(set(gprof) & {f['name'] for f in fns})
        head = p.js("return [...document.querySelectorAll('#top-head span')]"
                    ".map(s => s.textContent)")
        self.assertIn('self (s)', head)
        # the header's total: "0.92 in all"
        total = re.search(r'([\d.]+) in all', run(['-p', '--brief'] + args)).group(1)
        self.assertIn(total + ' s', self.page_text(p))
        # the Function view of every function: the text graph's seconds
        graph = graph_entries(args)
        for f in fns:
            shown = self.function_view(p, f['id'])
            label = f['name'] + (' <cycle %d>' % f['cycle']
                                 if f['cycle'] else '')
            if f['name'] == 'ping':
                p.shot('units-gmon-function-ping')
            self.assertIn('self %.2f s' % listed_cost(doc, ev, f['self'][ev]),
                          shown['facts'])
            self.check_entry('gmon', shown, graph[label], label)
        # the flame graph's readout
        p.go('#flame')
        root = p.js('return document.querySelector(\'#flame .fr[data-node="-1"]\').title')
        self.assertEqual(root, 'all: %s s (100.00%%)' % total)
        # main's inclusive: of the time the functions got, as gprof's
        # call graph (test_gmon_shares_of_the_time_got), once 100.15%
        self.assertIn('100.00%', self.check_percent_cells(p))
        self.check_cycles('gmon', doc, graph)

    # ---- Callgrind: a cycle's members, rounding, 100.00% ----

    def test_cycle_member_and_rounding(self):
        doc = self.docs['callgrind']
        fns = doc['functions']
        args = self.args('callgrind')
        graph = graph_entries(args)
        p = self.page('callgrind')
        members = [f for f in fns if f['cycle']]
        self.assertGreater(len(members), 2)
        checked = 0
        for f in members + [f for f in fns if f['name'] in ('work', 'main')]:
            label = f['name'] + (' <cycle %d>' % f['cycle'] if f['cycle'] else '')
            if label not in graph:
                continue
            shown = self.function_view(p, f['id'])
            if f['name'] == 'odd':
                p.shot('units-callgrind-function-odd')
            self.check_entry('callgrind', shown, graph[label], label)
            # shares of measured costs: whole numbers, as the text's
            for r in shown['rows']:
                for c in r['cells'][1:4]:
                    self.assertNotIn('.', c, '%s: %r' % (label, r))
            checked += 1
        self.assertGreater(checked, 3)
        self.check_cycles('callgrind', doc, graph)
        # a member whose children -q gives apart from its inclusive cost
        odd = next(f for f in fns if f['name'] == 'odd' and f['cycle'])
        self.assertNotEqual(graph['odd <cycle %d>' % odd['cycle']]['children'],
                            format(odd['inclusive'][0] - odd['self'][0], ','))
        self.check_percent_cells(p)

    def test_every_entry(self):
        """Every function's and cycle's view, of each input, as its -q
        entry (the graph lists them all with --threshold=0)."""
        for kind in ('igprof', 'callgrind', 'gmon', 'fp'):
            doc = self.docs[kind]
            graph = graph_entries(self.args(kind))
            p = self.page(kind)
            checked = 0
            for f in doc['functions']:
                label = f['name'] + (' <cycle %d>' % f['cycle']
                                     if f['cycle'] else '')
                if label not in graph:
                    continue	# a name the listing tells apart otherwise
                self.check_entry(kind, self.function_view(p, f['id']),
                                 graph[label], label)
                checked += 1
            self.assertGreater(checked, len(doc['functions']) // 2, kind)

    def check_percent_cells(self, p):
        """Top's % columns: two decimals, as the flat profile's, and
        whole in their cells (by inclusive cost, the largest first:
        gmon.out's main has 100.00%, once 100.15%)."""
        p.go('')
        self.driver.find_element(By.CSS_SELECTOR,
                                 '#top-head [data-key="incl"]').click()
        p.wait()
        # the text's width against the cell's (an ellipsis leaves
        # scrollWidth equal to clientWidth)
        cells = p.js("""
            return [...document.querySelectorAll('#top-table .row')].flatMap(r =>
                [r.children[1], r.children[3]]).map(c => {
                    const r = document.createRange(), cs = getComputedStyle(c);
                    r.selectNodeContents(c);
                    return {text: c.textContent,
                            cut: r.getBoundingClientRect().width > c.clientWidth -
                                parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)};
                });""")
        self.assertGreater(len(cells), 4)
        for c in cells:
            self.assertRegex(c['text'], r'^\d+\.\d\d%$')
            self.assertFalse(c['cut'], c['text'])
        return [c['text'] for c in cells]

    def test_gmon_shares_of_the_time_got(self):
        """gprof shares a histogram bin in whole 2-byte units of a width
        that need not be whole (resolve_gmon.c): nopie.gmon's functions
        got 1.0015 times its 92 ticks. gprof's flat profile gives self
        shares of the ticks (they add up to 100.16%), its call graph
        shares of the time the functions got: main, which holds every
        tick, 100.0%. The call graph is right (a share of the run is
        at most all of it), and our call graph, --tree, the page's call
        tree and Top's inclusive % follow it (main showed 100.15% in Top,
        the call tree and --tree); Top's self % and bottom-up stay the
        flat profile's, gprof's (test_report_explore), so that spin's
        self % (65.32) tops its inclusive % (65.22) as gprof's flat
        profile tops its call graph (65.2).
        Bottom-up has a root per function with a self cost: no
        "<cycle 1 as a whole>" of 0.00 (a residue of the subtraction)."""
        args = self.args('gmon')
        gprof = subprocess.run(['gprof', '-b', '-q', 'tests/gmon/prog-nopie',
                                'tests/gmon/nopie.gmon'], capture_output=True,
                               text=True, check=True).stdout
        self.assertRegex(gprof, r'\[1\]\s+100\.0\s+0\.00\s+0\.92\s+main')
        tree = {}
        for line in run(['--tree', '--threshold=0'] + args).splitlines():
            m = re.match(r'^\s*([\d.]+)\s+([\d.]+)\s+[\d.]+\s+[\d.]+  (\S.*)$', line)
            if m and m.group(3) == m.group(3).lstrip():
                tree[m.group(3)] = m.group(1)
        self.assertEqual(tree['main'], '100.00')
        p = self.page('gmon')
        p.go('#top')
        rows = {r['cells'][5]: r['cells'] for r in p.rows('top-table')}
        self.assertEqual(rows['main'][3], '100.00%')
        self.assertEqual(rows['spin'][1], '65.32%')	# gprof's flat
        self.assertEqual(rows['spin'][3], '65.22%')	# its call graph's 65.2
        self.assertEqual(rows['work'][3], '35.77%')	# gprof's 35.8, --tree's
        p.go('#calltree')
        top = p.js("""return [...document.querySelectorAll('#calltree .row')]
            .map(r => [...r.children].map(c => c.textContent))""")
        self.assertEqual([c for c in top[0] if c.endswith('%')][0], '100.00%')
        p.go('#bottomup')
        names = p.js("""return [...document.querySelectorAll('#bottomup-view .row')]
            .map(r => r.lastElementChild.textContent)""")
        self.assertFalse([n for n in names if 'as a whole' in n], names)
        self.assertEqual(len(names), 6, names)
        p.shot('units-gmon-bottomup')


    def test_pprof_samples_once(self):
        """A Go CPU profile's "samples" sample type is the samples'
        count, which the samples column gives (go tool pprof -top shows
        one type, its samples in the title): the header says its total
        once, Top has no samples column beside it when it is the event
        shown (--sort=samples' flat profile neither), and keeps one
        beside "cpu", as the text flat profile does."""
        path = os.path.join(self.tmp, 'pprof-samples.html')
        run(['--output=html', '-o', path, 'tests/pprof/cpu.pb.gz'])
        doc = json.loads(run(['--json', 'tests/pprof/cpu.pb.gz']))
        self.assertEqual([e.get('sample_count', False) for e in doc['event_info']],
                         [False, True])
        text = run(['tests/pprof/cpu.pb.gz'])
        self.assertNotIn('self samples', text)
        self.assertIn(' samples  name', text)
        by_count = run(['--sort=samples', 'tests/pprof/cpu.pb.gz'])
        self.assertIn('Flat profile of samples, 38 samples in all', by_count)
        self.assertNotIn('samples samples', by_count)
        p = Page(self.driver, path)
        rows = p.js("""return [...document.querySelectorAll('#events tr')]
            .map(r => [...r.children].map(c => c.textContent))""")
        self.assertEqual(rows[0][3], '38 samples')
        self.assertEqual(rows[1][2:4], ['38', ''])
        self.assertIn('the samples counted', rows[1][4])
        heads = "return [...document.querySelectorAll('#top-head span')].map(s => s.dataset.key)"
        self.assertIn('samples', p.js(heads))
        p.js("const s = document.getElementById('event'); s.value = 1;"
             "s.dispatchEvent(new Event('change'))")
        p.wait()
        self.assertNotIn('samples', p.js(heads))
        want = [l.split()[2] for l in by_count.splitlines()
                if re.match(r'^\s*\d+\.\d\d\s', l)]
        shown = [r['cells'][0] for r in p.rows('top-table')][:len(want)]
        self.assertEqual(shown, want)
        p.shot('units-pprof-samples')

    def test_entry_head_and_called_as_text(self):
        """The Function view's own line heads its share as -q does
        ("%total"; gmon.out's "% time", gprof's) and leaves "called"
        blank where -q does (a function no call was recorded into),
        for a profile whose arcs have no cost (Cachegrind's, which has
        none; it said "% time" and 0) as for the others."""
        args = {'cachegrind': ['samples/recursion/cachegrind.out'],
                'callgrind': PROFILES['callgrind'],
                'gmon': PROFILES['gmon']}
        for kind, a in args.items():
            path = os.path.join(self.tmp, 'entry-' + kind + '.html')
            run(['--output=html', '--threshold=0', '-o', path] + a)
            doc = json.loads(run(['--json'] + a))
            text = run(['-q', '--brief', '--threshold=0'] + a)
            head = next(l for l in text.splitlines() if l.startswith('index'))
            want_head = '% time' if '% time' in head else '% total'
            entries = {}
            for l in text.splitlines():
                m = re.match(r'^\[\d+\]\s+\S+\s+\S+\s+\S+(.*)$', l)
                if m:
                    parts = re.split(r'\s{2,}', m.group(1).strip())
                    entries[strip_index(parts[-1])] = \
                        parts[0] if len(parts) > 1 else ''
            p = Page(self.driver, path)
            checked = 0
            for f in doc['functions']:
                label = f['name'] + (' <cycle %d>' % f['cycle']
                                     if f['cycle'] else '')
                if label not in entries:
                    continue
                shown = self.function_view(p, f['id'])
                self.assertEqual(shown['head'][0], want_head, kind)
                prim = next(r for r in shown['rows'] if r['dir'] == 'primary')
                # gprof's graph groups no digits
                self.assertEqual(prim['cells'][4].replace(',', ''),
                                 entries[label].replace(',', ''),
                                 '%s %s: called' % (kind, label))
                checked += 1
            self.assertGreater(checked, 3, kind)
            self.assertIn('', entries.values(), kind)
            p.shot('units-entry-' + kind)
    def test_zero_total_shares(self):
        """A profile whose total is 0 (gmon.out with no tick, "no time
        accumulated", here a Callgrind file of 0 costs): its shares are
        0.00%, as the text listings print them (-p's "0.00", -q's
        "0.0"), not blank cells and "()" in the Function view's facts
        and "( of the total)" in the sandwich's."""
        src = os.path.join(self.tmp, 'zero.out')
        with open(src, 'w') as f:
            f.write('# callgrind format\nversion: 1\nevents: Ir\n'
                    'fl=(1) z.c\nfn=(1) main\n1 0\ncfn=(2) idle\n'
                    'calls=4 2\n2 0\nfn=(2)\n2 0\n')
        path = os.path.join(self.tmp, 'zero.html')
        run(['--output=html', '--threshold=0', '-o', path, src])
        self.assertIn('  0.00  ', run(['-p', '--threshold=0', src]))
        self.assertRegex(run(['-q', '--threshold=0', src]),
                         r'(?m)^\[1\]\s+0\.0\s')
        doc = json.loads(run(['--json', src]))
        p = Page(self.driver, path)
        rows = p.rows('top-table')
        self.assertEqual(len(rows), len(doc['functions']))
        for r in rows:
            self.assertEqual((r['cells'][1], r['cells'][3]),
                             ('0.00%', '0.00%'), r)
        for f in doc['functions']:
            shown = self.function_view(p, f['id'])
            self.assertNotIn('()', shown['facts'])
            self.assertIn('self 0 (0.00%), inclusive 0 (0.00%)',
                          shown['facts'])
            prim = next(r for r in shown['rows'] if r['dir'] == 'primary')
            self.assertEqual(prim['cells'][0], '0.00%')
            p.go('#sandwich/%d' % f['id'])
            text = self.page_text(p)
            self.assertIn('Inclusive 0 (0.00% of the total)', text)
        p.go('#fn/%d' % doc['functions'][0]['id'])
        p.shot('units-zero-function')
    def test_zero_total_disasm(self):
        """The Disassembly of a profile with instruction addresses and
        its binary but no cost (a total of 0) says so and how to list a
        function (--disasm=NAME does), not "the binary of the
        profile's code is not here. Give it with -b BINARY" (it was
        given)."""
        main = subprocess.run(['nm', 'samples/recursion/prog'],
                              capture_output=True, text=True).stdout
        addr = re.search(r'^0*([0-9a-f]+) T main$', main, re.M).group(1)
        src = os.path.join(self.tmp, 'zero-instr.out')
        with open(src, 'w') as f:
            f.write('# callgrind format\nversion: 1\npositions: instr line\n'
                    'events: Ir\nob=(1) %s\nfl=(1) prog.c\nfn=(1) main\n'
                    '0x%s 1 0\n' % (os.path.abspath('samples/recursion/prog'),
                                     addr))
        args = ['-b', 'samples/recursion/prog', src]
        self.assertIn('Disassembly of main', run(['--disasm=main'] + args))
        path = os.path.join(self.tmp, 'zero-instr.html')
        run(['--output=html', '-o', path] + args)
        p = Page(self.driver, path)
        p.go('#disasm')
        text = self.page_text(p)
        p.shot('units-zero-disasm')
        self.assertNotIn('Give it with -b', text)
        self.assertIn('no function has a cost', text)
        self.assertIn('cganalyze --disasm=NAME', text)


if __name__ == '__main__':
    unittest.main()
