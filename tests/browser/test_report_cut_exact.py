"""The cut page's figures (issue 33, src/print/report_keep.c): at the
default threshold the report embeds the functions that reach it with
their callers and callees, and merges narrow call paths and those of the
functions it leaves out into "N more" frames. It keeps those paths for
its figures (report_keep.h: the hidden nodes), so that under a choice
of threads or processes, a range of time, and the transforms, every
function it lists has the command line's figures: Top's self and
inclusive costs, bottom-up's roots, the call tree's total and the
function's part of each thread's strip, against --json with the panel's
--pid/--tid/--time or the transform's --focus/--ignore/--hide/
--fold-recursion; where the page cannot be exact (a glob cannot match
the functions it leaves out), the transforms bar says so.

On fp.data (committed) and on a recording made here of a real program
with many functions (gcc -O2 -c of three of our sources: gcc, cc1 and
as, about 2,000 functions of which the page leaves 40 to 45% out), so
that the page is really cut; and Callgrind's estimated tree, the cut
page against the page of every function.

Screenshots: build/test-artifacts/browser/cut-exact/ (look at them).
"""
import json
import os
import subprocess
import unittest

import report_base
import test_report_threads as threads
from report_base import ARTIFACTS, PROFILES, Page, ReportBase, number
from test_report_explore import ALL_ROWS

# the sources gcc compiles for the big recording
SOURCES = ['src/print/html_data.c', 'src/print/print_json.c',
           'src/print/flame_data.c']


def cli(args):
    return json.loads(report_base.run(['--json'] + args))


class CutExactTest(ReportBase):
    made = {}
    top = threads.ThreadsTest.top
    cli_opts = threads.ThreadsTest.cli_opts
    rest = threads.ThreadsTest.rest

    def recording(self, name):
        """The arguments of a recording: fp.data's, or a perf record
        of gcc made once here (None where perf cannot record)"""
        if name == 'fp':
            return PROFILES['perf']
        if name == 'igprof-mem':
            return ['tests/inputs/igprof/mem.txt']
        if name == 'combined':
            return ['tests/callgrind-threads/combined.out']
        data = os.path.join(self.tmp, 'cut-gcc.data')
        if not os.path.exists(data):
            obj = os.path.join(self.tmp, 'cut-obj')
            os.makedirs(obj, exist_ok=True)
            top = os.getcwd()
            r = subprocess.run(
                ['perf', 'record', '-q', '-F', '1999', '--call-graph',
                 'dwarf,8192', '-o', data, '--', 'gcc', '-O2', '-c',
                 '-I' + os.path.join(top, 'src'), '-I' + top] +
                [os.path.join(top, s) for s in SOURCES],
                cwd=obj, capture_output=True)
            if r.returncode:
                return None
        return [data]

    def report(self, name):
        """(the page, the recording's arguments, its --json, and the
        page's functions as (name, object) by page id)"""
        if name not in self.made:
            args = self.recording(name)
            if args is None:
                raise unittest.SkipTest('perf record cannot record here')
            path = os.path.join(self.tmp, 'cut-' + name + '.html')
            subprocess.run([report_base.BIN, '--output=html', '-o', path] +
                           args, check=True, capture_output=True)
            whole = cli(args)
            p = Page(self.driver, path)
            ids = p.js("return JSON.parse(document.getElementById("
                       "'cga-data').textContent).functions.id")
            self.assertTrue(ids, name + ': the page is not cut')
            byid = {f['id']: (f['name'], f['file'], f['object'])
                    for f in whole['functions']}
            self.made[name] = (path, args, whole, [byid[i] for i in ids])
        return self.made[name]

    def figures(self, p, name, opts, what):
        """Every number Top, bottom-up and the call tree show against
        --json of opts (the panel's, or a transform's options)"""
        path, args, whole, keys = self.report(name)
        want = cli(opts + args)
        total = want['totals'][0]
        wfn = {(f['name'], f['file'], f['object']): f for f in want['functions']}
        page = set(keys)
        shown = {}
        for fid, cells in self.top(p):
            shown[keys[fid]] = (number(cells[0]), number(cells[2]))
        for key in page:
            f = wfn.get(key)
            cost = (f['self'][0], f['inclusive'][0]) if f else (0, 0)
            if cost == (0, 0):
                self.assertNotIn(key, shown, '%s: %s' % (what, key))
            else:
                self.assertEqual(shown.get(key), cost, '%s: %s in Top'
                                 % (what, key))
        rest = self.rest(p)
        p.go('#bottomup' + rest)
        roots = [r for r in p.js(ALL_ROWS, 'bottomup') if r['depth'] == 0]
        self.assertEqual(sum(number(r['cells'][0]) for r in roots), total,
                         what + ': bottom-up')
        for r in roots:
            if r['fn'] is not None:
                self.assertEqual(number(r['cells'][0]),
                                 wfn[keys[r['fn']]]['self'][0],
                                 '%s: %s in bottom-up' % (what, keys[r['fn']]))
        p.go('#calltree' + rest)
        self.assertEqual(sum(number(r['cells'][0]) for r in
                             p.js(ALL_ROWS, 'calltree') if r['depth'] == 0),
                         total, what + ': the call tree')
        p.go('#top' + rest)
        return want

    def shot(self, p, name):
        os.makedirs(os.path.join(ARTIFACTS, 'cut-exact'), exist_ok=True)
        p.shot(os.path.join('cut-exact', name))

    def threads_and_time(self, name):
        path = self.report(name)[0]
        p = Page(self.driver, path)
        p.go('#top')
        tracks = p.js("return [...document.querySelectorAll('.thread-row')]"
                      ".map(r => r.dataset.track)")
        self.assertTrue(tracks)
        # no choice: bottom-up's roots too (with the merged paths)
        self.figures(p, name, [], 'no choice')
        for t in tracks[:4]:
            p.go('#top&threads=' + t)
            opts = self.cli_opts(p)
            self.assertTrue(opts[0].startswith(('--tid=', '--pid=')), opts)
            self.figures(p, name, opts, 'thread %s' % t)
        for a, b in ((0, 1024), (1024, 2048), (300, 700)):
            p.go('#top&time=%d-%d' % (a, b))
            opts = self.cli_opts(p)
            self.assertTrue(opts[0].startswith('--time='), opts)
            self.figures(p, name, opts, 'time %d-%d' % (a, b))
        # both at once
        p.go('#top&threads=%s&time=0-1024' % tracks[0])
        self.figures(p, name, self.cli_opts(p), 'thread and time')
        self.assertFalse(p.js(
            "return !!document.getElementById('crumbs-cut')"))
        self.shot(p, name + '-slice')
        p.go('#flame&threads=%s' % tracks[0])
        self.shot(p, name + '-slice-flame')

    def test_callgrind_parts(self):
        """A Callgrind file of threads and dumps (html_parts.c): each
        part's costs of functions the page leaves out, on paths the
        whole tree has not, are on nodes of their own unit, not their
        callers' self (they were, before the merge of the two)"""
        name = 'combined'
        p = Page(self.driver, self.report(name)[0])
        p.go('#top')
        tracks = p.js("return [...document.querySelectorAll('.thread-row')]"
                      ".map(r => r.dataset.track)")
        self.assertTrue(tracks)
        for t in tracks:
            p.go('#top&threads=' + t)
            opts = self.cli_opts(p)
            self.assertTrue(opts[0].startswith(('--tid=', '--pid=')), opts)
            self.figures(p, name, opts, 'thread %s' % t)
        # one dump at a time (a stretch of them has no --part)
        n = p.js("return JSON.parse(document.getElementById("
                 "'cga-samples').textContent).buckets")
        for a in range(n):
            p.go('#top&time=%d-%d' % (a, a + 1))
            opts = self.cli_opts(p)
            self.assertEqual(opts, ['--part=%d' % (a + 1)])
            self.figures(p, name, opts, 'dump %d' % (a + 1))
        self.shot(p, name + '-dumps')

    def test_fp_threads_and_time(self):
        """fp.data: each thread, halves and a middle of the time"""
        self.threads_and_time('fp')

    def test_gcc_threads_and_time(self):
        """gcc's recording: its processes' threads and the time"""
        self.threads_and_time('gcc')

    def heavy(self, name, n):
        """The page ids of its n heaviest functions that are not on
        every stack"""
        path, args, whole, keys = self.report(name)
        incl = {(f['name'], f['file'], f['object']): f['inclusive'][0]
                for f in whole['functions']}
        order = sorted(range(len(keys)), key=lambda f: -incl[keys[f]])
        return [f for f in order if incl[keys[f]] < whole['totals'][0]][:n]

    def test_gcc_sandwich(self):
        """The sandwich of a function sums its frames: on the cut page
        with no choice made, those it merged too (transform.js:
        flameWhole()), so its middle is --json's inclusive cost"""
        path, args, whole, keys = self.report('gcc')
        p = Page(self.driver, path)
        incl = {(f['name'], f['file'], f['object']): f['inclusive'][0]
                for f in whole['functions']}
        for f in self.heavy('gcc', 6):
            p.go('#sandwich/%d' % f)
            self.assertEqual(p.js("""return Number(document.querySelector(
                '#sandwich .fr[data-half="middle"]').dataset.value)"""),
                incl[keys[f]], keys[f])
        self.shot(p, 'gcc-sandwich')

    def test_gcc_strips(self):
        """The part of each thread's strip that is the function shown
        (timeline.js, darker) is its --tid inclusive cost, merged
        paths and all"""
        path, args, whole, keys = self.report('gcc')
        p = Page(self.driver, path)
        p.go('#top')
        tids = p.js(r"""return Object.fromEntries([...document
            .querySelectorAll('.thread-row')].map(r => [r.dataset.track,
            Number(r.textContent.match(/\(tid (-?\d+)\)/)[1])]))""")
        docs = {}
        for f in self.heavy('gcc', 4):
            p.go('#fn/%d' % f)
            strips = p.js("return [...document.querySelectorAll("
                          "'canvas.strip')].map(c => [c.dataset.track, "
                          "Number(c.dataset.hit)])")
            self.assertEqual(len(strips), len(tids))
            for t, hit in strips:
                tid = tids[t]
                if tid not in docs:
                    docs[tid] = {(g['name'], g['file'], g['object']): g
                                 for g in cli(['--tid=%d' % tid] + args)
                                 ['functions']}
                g = docs[tid].get(keys[f])
                self.assertEqual(hit, g['inclusive'][0] if g else 0,
                                 '%s in thread %d' % (keys[f], tid))
        self.shot(p, 'gcc-strips')

    def transforms(self, name, n, left_out_paths):
        """Focus on, ignore and hide the n heaviest functions of the
        page that are not roots, one at a time, as the command line's
        --focus, --ignore and --hide"""
        path, args, whole, keys = self.report(name)
        p = Page(self.driver, path)
        # whether the tree shown has paths of functions left out: then,
        # and only then, a glob may miss some of what --focus matches
        other = p.js("""
            const d = JSON.parse(document.getElementById('cga-data').textContent);
            const e = d.events.indexOf(d.sort_event);
            const t = JSON.parse(document.getElementById('cga-flame')
                .textContent).trees[e];
            return (t.hidden_unit || []).includes(d.functions.name.length);""")
        self.assertEqual(other, left_out_paths)
        for f in self.heavy(name, n):
            fname = keys[f][0]
            glob = p.js("return arguments[0].replace(/[*?[\\\\]/g, '\\\\$&')",
                        fname)
            for op in ('focus', 'ignore', 'hide'):
                p.go('#top&%s=%s' % (op, p.js(
                    "return encodeURIComponent(arguments[0])", glob)))
                self.figures(p, name, ['--%s=%s' % (op, glob)],
                             '%s=%s' % (op, fname))
                # the note: the globs match the page's functions only
                note = p.js("const n = document.getElementById("
                            "'crumbs-cut'); return n ? n.textContent : ''")
                if not other:
                    self.assertEqual(note, '')
                    continue
                self.assertIn('%s=%s: its glob matches the ' % (op, glob),
                              note)
                self.assertIn('functions of this page, not the', note)
                self.assertIn('--threshold=0', note)
        # fold: no function's figures change, nor does the page say
        # they may
        p.go('#top&fold=*')
        self.figures(p, name, ['--fold-recursion'], 'fold=*')
        self.assertFalse(p.js("return !!document.getElementById('crumbs-cut')"))
        self.shot(p, name + '-transform')

    def test_estimated_transforms_as_the_whole_page(self):
        """Callgrind's tree is estimated from the arcs, as the page and
        --json each estimate it (test_report_cli_transforms.py), so the
        cut page is held to the page of every function
        (--threshold=0): under each transform, each function it lists
        has the whole page's figures, within a few units: the whole
        page's transforms start from each function's self spread
        exactly over its paths (exact.js, as --tree's), which needs the
        functions the cut page leaves out; the cut page starts from its
        tree's own, and says so (up to 39 Ir of 246,671 apart,
        _dl_map_object_deps' inclusive under hide=main)."""
        args = PROFILES['callgrind']
        whole = cli(args)
        byid = {f['id']: (f['name'], f['file'], f['object']) for f in whole['functions']}
        pages = {}
        for th in ('0.5', '0'):
            path = os.path.join(self.tmp, 'cut-cg-%s.html' % th)
            subprocess.run([report_base.BIN, '--output=html',
                            '--threshold=' + th, '-o', path] + args,
                           check=True, capture_output=True)
            p = Page(self.driver, path)
            ids = p.js("return JSON.parse(document.getElementById("
                       "'cga-data').textContent).functions.id")
            pages[th] = (p, [byid[i] for i in ids] if ids
                         else [byid[i] for i in range(len(byid))])
        self.assertLess(len(pages['0.5'][1]), len(pages['0'][1]))
        for x in ('focus=fib', 'hide=main', 'ignore=fib', 'hide=work'):
            shown = {}
            for th, (p, keys) in pages.items():
                p.open('#top&' + x)
                shown[th] = {keys[f]: cells[:4] for f, cells in self.top(p)}
            self.assertTrue(shown['0.5'])
            total = whole['totals'][whole['events'].index(whole['sort_event'])]
            for key, cells in shown['0.5'].items():
                want = shown['0'].get(key)
                self.assertIsNotNone(want, '%s: %s' % (x, key))
                # 2e-4 of the total, and the two percentages each
                # rounded to 0.01
                for k in (0, 2):
                    self.assertLessEqual(abs(number(cells[k]) - number(want[k])),
                                         2e-4 * total, '%s: %s' % (x, key))
                    self.assertLessEqual(abs(number(cells[k + 1][:-1]) -
                                             number(want[k + 1][:-1])), 0.03 + 1e-9)
            p = pages['0.5'][0]
            p.open('#top&' + x)
            note = p.js("const n = document.getElementById('crumbs-cut');"
                        "return n ? n.textContent : ''")
            self.assertIn('estimated from call arcs', note)
            self.assertIn('within a few units', note)
            for key, cells in shown['0'].items():
                # (a function of a few units the cut page may not
                # have in view: _dl_debug_state's 1 Ir under hide=main)
                if key in set(pages['0.5'][1]) and \
                        number(cells[2]) > 2e-4 * total:
                    self.assertIn(key, shown['0.5'], '%s: %s' % (x, key))

    def test_igprof_transforms(self):
        """IgProf's stacks (a memory profile: MEM_TOTAL shown), cut"""
        self.transforms('igprof-mem', 3, False)

    def test_fp_transforms(self):
        self.transforms('fp', 4, True)

    def test_gcc_transforms(self):
        self.transforms('gcc', 3, True)


if __name__ == '__main__':
    unittest.main()
