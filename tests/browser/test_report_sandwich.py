"""The Sandwich view, the Function view's Callers and Callees tables and
the flame graphs' order of children (issue 34), on an IgProf profile, a
perf.data recorded with DWARF stacks and a Callgrind profile.

The sandwich of a function merges all its call paths through their
outermost frame of it: its middle is the function's inclusive cost as
--json gives it (a stack counted once however deep its recursion); its
callers above, its callees below. Where the profile has stacks the
halves are checked against the page's own tree, recomputed here from
the "cga-flame" document, and, for a function that is not recursive,
against --json's arcs. Callgrind's tree is estimated from arcs and
scaled to the measured inclusive cost: its middle equals --json's, its
nearest callees the arcs' costs within the estimate's 2%.
"""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from report_base import ReportBase, listed_cost, number

KINDS = ('igprof', 'perf-dwarf', 'callgrind')
H = 17	# px: a frame's height (flame.js)

FRAMES = """
    return [...document.querySelectorAll('#sandwich .fr')].map(d => ({
        half: d.dataset.half, unit: Number(d.dataset.unit),
        value: Number(d.dataset.value), x: parseFloat(d.style.left),
        w: parseFloat(d.style.width), top: parseFloat(d.style.top),
        name: d.title.replace(/: [^:]*$/, '')}));"""


def over(parent, frame):
    """Whether a frame a row away is over parent: its left edge within
    the parent's width (drawn to 0.01 px; a frame is at least 0.5 px
    wide, so a neighbour's child starts no less than that before the
    parent's right edge)."""
    return parent['x'] - 0.02 <= frame['x'] < parent['x'] + parent['w'] - 0.25


def merged(tree, u):
    """The sandwich of unit u in the flame tree, as the page should
    make it: {path of units from u: value} for its callers (nearest
    first) and its callees, the middle, and what starts at u."""
    unit, parent, value = tree['unit'], tree['parent'], tree['value']
    up, down = {}, {}
    kids = [[] for _ in unit]
    for i, p in enumerate(parent):
        if p >= 0:
            kids[p].append(i)
    mid = root = 0
    recursive = False
    for n in range(len(unit)):
        if unit[n] != u:
            continue
        p = parent[n]
        chain = []
        while p >= 0 and unit[p] != u:
            chain.append(unit[p])
            p = parent[p]
        if p >= 0:
            recursive = True
            continue	# not the outermost frame of u on its path
        v = value[n]
        mid += v
        if parent[n] < 0:
            root += v
        for k in range(1, len(chain) + 1):
            key = tuple(chain[:k])
            up[key] = up.get(key, 0) + v
        todo = [(k, ()) for k in kids[n]]
        while todo:
            k, path = todo.pop()
            key = path + (unit[k],)
            down[key] = down.get(key, 0) + value[k]
            todo += [(j, key) for j in kids[k]]
    return {'up': up, 'down': down, 'mid': mid, 'root': root,
            'recursive': recursive}


class SandwichTest(ReportBase):

    def tree(self, p):
        return p.js("""
            const d = JSON.parse(document.getElementById('cga-flame').textContent);
            return d.trees.find(t => t);""")

    def frames(self, p):
        fr = p.js(FRAMES)
        mid = [f for f in fr if f['half'] == 'middle']
        self.assertEqual(len(mid), 1)
        return mid[0], fr

    def ring(self, frames, mid, half, depth):
        """The frames depth rows away from the middle in half."""
        top = mid['top'] + (-depth if half == 'callers' else depth) * H
        return [f for f in frames if f['half'] == half and f['top'] == top]

    # ---- the middle ----

    def test_middle_is_the_inclusive_cost(self):
        for kind in KINDS:
            doc = self.docs[kind]
            ev = self.ev(doc)
            cycles = {c['id']: c for c in doc['cycles']}
            p = self.page(kind)
            estimated = kind == 'callgrind'
            checked = 0
            for f in doc['functions']:
                incl = f['inclusive'][ev]
                if incl <= 0:
                    continue
                p.go('#sandwich/%d' % f['id'])
                mid = p.js(FRAMES)
                mid = [m for m in mid if m['half'] == 'middle']
                if not mid:
                    # an estimated tree keeps paths down to a share of
                    # the total: a function under it has no frame, and
                    # the view says so
                    self.assertTrue(estimated, (kind, f['name']))
                    self.assertIn('has no frame', p.js(
                        "return document.getElementById('view').innerText"))
                    continue
                want = incl
                if estimated and f['cycle'] is not None:
                    # the estimate takes a cycle as one: its sandwich
                    want = cycles[f['cycle']]['inclusive'][ev]
                self.assertEqual(mid[0]['value'], want, (kind, f['name']))
                facts = p.js("return document.getElementById("
                             "'sandwich-facts').textContent")
                self.assertIn('Inclusive ' + format(want, ','), facts)
                checked += 1
            self.assertGreater(checked, 5 if kind != 'callgrind' else 40, kind)
            self.assertEqual(bool(self.driver.find_elements(
                By.ID, 'flame-estimated')), estimated, kind)

    # ---- the halves ----

    def check_halves(self, kind, name):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        f = next(x for x in fns if x['name'] == name)
        p = self.page(kind)
        p.go('#sandwich/%d' % f['id'])
        p.shot('sandwich-%s-%s' % (kind, name))
        mid, frames = self.frames(p)
        want = merged(self.tree(p), f['id'])
        self.assertEqual(mid['value'], want['mid'])
        self.assertEqual(mid['value'], f['inclusive'][ev])
        callers = self.ring(frames, mid, 'callers', 1)
        callees = self.ring(frames, mid, 'callees', 1)
        # the nearest callers and what starts at f make its cost; its
        # callees and its self cost too
        self.assertEqual(sum(c['value'] for c in callers) + want['root'],
                         mid['value'])
        self.assertLessEqual(sum(c['value'] for c in callees), mid['value'])
        facts = p.js("return document.getElementById('sandwich-facts')"
                     ".textContent")
        self.assertIn('in its callees %s' % format(
            sum(v for k, v in want['down'].items() if len(k) == 1), ','),
            facts)
        # every frame of each half as the tree merged here: each path
        # from f once, its value
        for half, paths in (('callers', want['up']), ('callees', want['down'])):
            got = {}
            rows = {}
            for fr in frames:
                if fr['half'] == half:
                    rows.setdefault(abs(fr['top'] - mid['top']) // H, []).append(fr)
            # a frame's path: its own unit after its parent's, the
            # frame one row nearer the middle over its left edge
            path = {id(mid): ()}
            prev = [mid]
            for d in sorted(rows):
                for fr in rows[d]:
                    par = next(q for q in prev
                               if over(q, fr))
                    path[id(fr)] = path[id(par)] + (fr['unit'],)
                    got[path[id(fr)]] = fr['value']
                # children no wider than their parent
                for q in prev:
                    kids = [fr for fr in rows[d]
                            if over(q, fr)]
                    self.assertLessEqual(sum(k['value'] for k in kids),
                                         q['value'])
                prev = rows[d]
            self.assertGreater(len(got), 0, (kind, name, half))
            self.assertEqual(got, {k: v for k, v in paths.items() if k in got},
                             (kind, name, half))
            # none left out that is a few pixels wide (the page is
            # wider than 1000 px)
            scale = 1000 / mid['value']
            self.assertLessEqual({k for k, v in paths.items()
                                  if v * scale >= 2 and len(k) < 300}, set(got))
        # a function called once on each stack: its nearest callers and
        # callees are --json's arcs
        if not want['recursive']:
            arcs_in = {a['caller']: a['inclusive'][ev] for a in doc['arcs']
                       if a['callee'] == f['id']}
            arcs_out = {a['callee']: a['inclusive'][ev] for a in doc['arcs']
                        if a['caller'] == f['id']}
            self.assertEqual({c['unit']: c['value'] for c in callers}, arcs_in)
            self.assertEqual({c['unit']: c['value'] for c in callees}, arcs_out)
        return want

    def test_halves_igprof(self):
        self.check_halves('igprof', 'work')
        self.check_halves('igprof', 'main')

    def test_halves_perf_dwarf(self):
        # leaf: under hot, lib_apply and (recursive) fib
        self.check_halves('perf-dwarf', 'leaf')
        # fib: recursion, counted once in the middle
        want = self.check_halves('perf-dwarf', 'fib')
        self.assertTrue(want['recursive'])

    def test_middle_as_perf_report_children(self):
        """The peer: perf report --children (tests/perf/dwarf.children,
        made by perf from the same recording) gives each symbol's share
        of the stacks holding it, a stack counted once however deep its
        recursion (fib's 12.50%): the sandwich's middle, as a share of
        the total, is that for every symbol both name."""
        import re
        doc = self.docs['perf-dwarf']
        by_name = {f['name']: f for f in doc['functions']}
        rows = re.findall(r'^\s+([\d.]+)%\s+[\d.]+%\s+\d+\s+\S+\s+\[.\]\s+(\S+)\s*$',
                          open('tests/perf/dwarf.children').read(), re.M)
        p = self.page('perf-dwarf')
        checked = 0
        for children, sym in rows:
            if sym not in by_name:
                continue	# libc's symbols, named by offset here
            p.go('#sandwich/%d' % by_name[sym]['id'])
            facts = p.js("return document.getElementById("
                         "'sandwich-facts').textContent")
            self.assertIn('(%s%% of the total)' % children, facts, sym)
            checked += 1
        self.assertGreaterEqual(checked, 7)

    def test_halves_callgrind_estimated(self):
        """Estimated from arcs and scaled to the measured inclusive
        cost: the nearest callees are the arcs' inclusive costs, within
        what the estimate cuts (paths under 2e-5 of the total)."""
        doc = self.docs['callgrind']
        ev = self.ev(doc)
        fns = doc['functions']
        for name in ('work', 'main', 'fib'):
            f = next(x for x in fns if x['name'] == name)
            p = self.page('callgrind')
            p.go('#sandwich/%d' % f['id'])
            p.shot('sandwich-callgrind-%s' % name)
            mid, frames = self.frames(p)
            self.assertEqual(mid['value'], f['inclusive'][ev])
            callees = self.ring(frames, mid, 'callees', 1)
            # a callee in a cycle: the cycle as one, its arcs' sum
            arcs_out = {}
            for a in doc['arcs']:
                if a['caller'] == f['id']:
                    c = fns[a['callee']]['cycle']
                    to = a['callee'] if c is None else -c
                    arcs_out[to] = arcs_out.get(to, 0) + a['inclusive'][ev]
            self.assertGreater(len(callees), 0)
            for c in callees:
                self.assertAlmostEqual(c['value'], arcs_out[c['unit']],
                                       delta=0.02 * arcs_out[c['unit']],
                                       msg=(name, c['name']))
            callers = self.ring(frames, mid, 'callers', 1)
            self.assertAlmostEqual(sum(c['value'] for c in callers),
                                   mid['value'], delta=1e-6 * mid['value'])

    # ---- how it is reached ----

    def test_reached_by_link_click_and_keyboard(self):
        doc = self.docs['perf-dwarf']
        fns = doc['functions']
        leaf = next(x['id'] for x in fns if x['name'] == 'leaf')
        p = self.page('perf-dwarf')
        # the Function view's link
        p.go('#fn/%d' % leaf)
        self.driver.find_element(By.ID, 'fn-sandwich').click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/%d' % leaf)
        self.assertEqual(self.driver.find_element(By.ID, 'sandwich-name').text,
                         'leaf')
        # a caller's frame, clicked: its sandwich
        mid, frames = self.frames(p)
        hot = next(x['id'] for x in fns if x['name'] == 'hot')
        self.driver.find_element(
            By.CSS_SELECTOR, '#sandwich .fr[data-half="callers"]'
            '[data-unit="%d"]' % hot).click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/%d' % hot)
        # a callee's, from the keyboard
        frame = self.driver.find_element(
            By.CSS_SELECTOR, '#sandwich .fr[data-half="callees"]'
            '[data-unit="%d"]' % leaf)
        frame.send_keys(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/%d' % leaf)
        # the middle: the Function view
        self.driver.find_element(
            By.CSS_SELECTOR, '#sandwich .fr[data-half="middle"]').click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#fn/%d' % leaf)
        # the tab: the function last shown
        self.driver.find_element(By.ID, 'tab-sandwich').click()
        p.wait()
        self.assertEqual(self.driver.find_element(By.ID, 'sandwich-name').text,
                         'leaf')
        # back: the Function view again
        self.driver.back()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#fn/%d' % leaf)
        # a flame graph frame's readout
        p.go('#flame')
        node = p.js("""
            const T = JSON.parse(document.getElementById('cga-flame').textContent)
                .trees.find(t => t);
            return T.unit.indexOf(arguments[0]);""", hot)
        fr = self.driver.find_element(By.CSS_SELECTOR,
                                      '#flame .fr[data-node="%d"]' % node)
        ActionChains(self.driver).move_to_element(fr).perform()
        self.driver.find_element(By.CSS_SELECTOR,
                                 '#flame-info a[href^="#sandwich/"]').click()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/%d' % hot)
        # a flame graph frame from the keys: in focus, its readout;
        # "s", its sandwich; Enter, a zoom to it
        p.go('#flame')
        fr = self.driver.find_element(By.CSS_SELECTOR,
                                      '#flame .fr[data-node="%d"]' % node)
        p.js('arguments[0].focus()', fr)
        self.assertIn('hot', self.driver.find_element(By.ID, 'flame-info').text)
        fr.send_keys('s')
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#sandwich/%d' % hot)
        self.driver.back()
        p.wait()
        self.driver.find_element(By.CSS_SELECTOR,
                                 '#flame .fr[data-node="%d"]' % node).send_keys(Keys.ENTER)
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame/%d' % node)

    def test_cycle_member_callgrind(self):
        """A member of a cycle, in a tree estimated from arcs: its
        cycle's sandwich, said so."""
        doc = self.docs['callgrind']
        ev = self.ev(doc)
        f = next(x for x in doc['functions'] if x['cycle'] is not None)
        c = next(x for x in doc['cycles'] if x['id'] == f['cycle'])
        p = self.page('callgrind')
        p.go('#sandwich/%d' % f['id'])
        mid, _ = self.frames(p)
        self.assertEqual(mid['unit'], -c['id'])
        self.assertEqual(mid['value'], c['inclusive'][ev])
        self.assertIn('is part of <cycle %d as a whole>' % c['id'],
                      p.js("return document.getElementById('view').innerText"))
        p.shot('sandwich-callgrind-cycle')


    def test_cycles_igprof(self):
        """A cycle as a whole, in a tree of stacks: the frames of all
        its members merged, each stack once; its middle the cycle's
        inclusive cost, reached from the cycle's view."""
        doc = self.docs['igprof']
        ev = self.ev(doc)
        self.assertGreater(len(doc['cycles']), 0)
        p = self.page('igprof')
        for c in doc['cycles']:
            p.go('#cycle/%d' % c['id'])
            self.driver.find_element(By.ID, 'fn-sandwich').click()
            p.wait()
            self.assertEqual(p.js('return location.hash'),
                             '#sandwich/-%d' % c['id'])
            mid, frames = self.frames(p)
            self.assertEqual(mid['value'], c['inclusive'][ev])
            self.assertEqual(mid['name'], '<cycle %d as a whole>' % c['id'])
            callers = self.ring(frames, mid, 'callers', 1)
            self.assertGreater(len(callers), 0)
            # no member above the middle: each path from its outermost;
            # the member each enters by below it
            self.assertFalse({f['unit'] for f in frames
                              if f['half'] == 'callers'} & set(c['members']))
            entered = self.ring(frames, mid, 'callees', 1)
            self.assertLessEqual({f['unit'] for f in entered}, set(c['members']))
            self.assertEqual(sum(f['value'] for f in entered), mid['value'])
        p.shot('sandwich-igprof-cycle')


class FunctionTablesTest(ReportBase):
    """The Function view's Callers and Callees tables: each arc of
    --json, its count, cost and share of the function's inclusive cost
    as pct() prints it (two decimals of 100 * cost / inclusive)."""

    def tables(self, p):
        return p.js("""
            const rows = id => [...document.querySelectorAll('#' + id + ' tbody tr')]
                .map(tr => ({cells: [...tr.children].map(c => c.textContent),
                             fn: tr.querySelector('a') ? Number(tr.querySelector('a')
                                 .getAttribute('href').slice(4)) : null}));
            return {callers: rows('fn-callers'), callees: rows('fn-callees'),
                    labels: [...document.querySelectorAll('.entry-label')]
                        .map(l => l.textContent)};""")

    def check_tables(self, kind):
        doc = self.docs[kind]
        ev = self.ev(doc)
        fns = doc['functions']
        cycles = {c['id']: c for c in doc['cycles']}
        sampled = doc.get('sampled')
        p = self.page(kind)
        checked = 0
        for f in fns:
            p.go('#fn/%d' % f['id'])
            t = self.tables(p)
            self.assertTrue(t['labels'][0].startswith('Callers (%d)' %
                                                      len(t['callers']))
                            or not [a for a in doc['arcs']
                                    if a['callee'] == f['id']])
            self.assertTrue(t['labels'][1].startswith('Callees'))
            cyc = f['cycle']
            # what a caller's arc is a share of: the callee's cycle's
            # cost when it has one (the text graph splits it so)
            of_in = cycles[cyc]['inclusive'][ev] if cyc is not None \
                else f['inclusive'][ev]
            for side, me, other, of in (('callers', 'callee', 'caller', of_in),
                                        ('callees', 'caller', 'callee',
                                         f['inclusive'][ev])):
                want = {}
                for a in doc['arcs']:
                    if a[me] != f['id'] or a.get('deleted'):
                        continue
                    inside = a[other] == f['id'] or (
                        cyc is not None and fns[a[other]]['cycle'] == cyc)
                    cost = a['inclusive'][ev]
                    want[a[other]] = (
                        '' if inside else '%.2f%%' % (100 * cost / of) if of else '',
                        '' if inside else format(listed_cost(doc, ev, cost), ','),
                        a['count'])
                rows = t[side]
                if not want:
                    self.assertEqual(len(rows), 1)
                    self.assertEqual(rows[0]['cells'][-1],
                                     '<spontaneous>' if side == 'callers'
                                     else 'none')
                    continue
                got = {r['fn']: (r['cells'][0], r['cells'][3],
                                 number(r['cells'][4].split('/')[0]))
                       for r in rows}
                self.assertEqual(got, want, (kind, f['name'], side))
                checked += len(rows)
                if not sampled:
                    for r in rows:
                        if '/' in r['cells'][4]:
                            callee = f['id'] if side == 'callers' else r['fn']
                            c = fns[callee]['cycle']
                            calls = cycles[c]['calls'] if c is not None \
                                else fns[callee]['calls']
                            self.assertEqual(number(r['cells'][4].split('/')[1]),
                                             calls)
        self.assertGreater(checked, 5)

    def test_tables_igprof(self):
        self.check_tables('igprof')

    def test_tables_perf_dwarf(self):
        self.check_tables('perf-dwarf')

    def test_tables_callgrind(self):
        self.check_tables('callgrind')

    def test_sorting(self):
        doc = self.docs['callgrind']
        fns = doc['functions']
        # the function with the most callers
        by = {}
        for a in doc['arcs']:
            by[a['callee']] = by.get(a['callee'], 0) + 1
        f = max(by, key=lambda k: (by[k], -k))
        self.assertGreater(by[f], 3)
        p = self.page('callgrind')
        p.go('#fn/%d' % f)

        def column(k):
            return p.js("""
                return [...document.querySelectorAll('#fn-callers tbody tr')]
                    .map(tr => tr.children[arguments[0]].textContent);""", k)

        def key(k, text):
            if k == 5:
                return text.lower()
            if k == 4:
                return number(text.split('/')[0])
            return number(text.rstrip('%'))
        cols = ('share', 'self', 'children', 'incl', 'count', 'name')
        for k, c in enumerate(cols):
            button = self.driver.find_element(
                By.CSS_SELECTOR, '#fn-callers th[data-key="%s"] button' % c)
            # a column not sorted yet: its largest first (a name: A to Z)
            if p.js("return document.querySelector('#fn-callers th[data-key=\"%s\"]')"
                    ".getAttribute('aria-sort')" % c) != 'none':
                button.click()	# the default column: the other way first
            button.click()
            first = p.js("return document.querySelector('#fn-callers "
                         "th[data-key=\"%s\"]').getAttribute('aria-sort')" % c)
            vals = [key(k, v) for v in column(k) if v]
            self.assertGreater(len(vals), 3, c)
            self.assertEqual(vals, sorted(vals, reverse=first == 'descending'), c)
            self.assertEqual(first, 'ascending' if c == 'name' else 'descending')
            button.click()	# and back
            vals = [key(k, v) for v in column(k) if v]
            self.assertEqual(vals, sorted(vals, reverse=first != 'descending'), c)
        p.shot('function-sorted-by-name')
        # the sort stays for the next function
        p.go('#fn/%d' % next(x['id'] for x in fns if x['name'] == 'fib'))
        self.assertEqual(p.js("return document.querySelector('#fn-callers "
                              "th[data-key=\"name\"]').getAttribute('aria-sort')"),
                         'descending')


class FlameOrderTest(ReportBase):
    """Children as recorded (the default), heaviest first, or by name:
    a choice kept in the address."""

    def siblings(self, p, area):
        """Each frame's children drawn, left to right: in the flame
        graph the frames a row above it, in the sandwich a row further
        from the middle, over its width."""
        fr = p.js("""
            return [...document.querySelectorAll('#' + arguments[0] + ' .fr')]
                .map(d => ({x: parseFloat(d.style.left), w: parseFloat(d.style.width),
                            top: parseFloat(d.style.top), half: d.dataset.half || '',
                            name: d.dataset.node === '-1' ? '' :
                                  d.title.replace(/: [^:]*$/, '')}));""", area)
        steps = {'': [('', -H)], 'middle': [('callers', -H), ('callees', H)],
                 'callers': [('callers', -H)], 'callees': [('callees', H)]}
        groups = []
        for q in fr:
            for half, step in steps[q['half']]:
                kids = sorted((k for k in fr if k['top'] == q['top'] + step and
                               k['half'] == half and
                               over(q, k)),
                              key=lambda k: k['x'])
                if len(kids) > 1:
                    groups.append(kids)
        return groups

    def test_order(self):
        for kind in KINDS:
            p = self.page(kind)
            p.go('#flame')
            default = self.siblings(p, 'flame')
            self.assertGreater(len(default), 0, kind)
            self.driver.find_element(By.CSS_SELECTOR,
                                     '#flame-order a[data-order="name"]').click()
            p.wait()
            self.assertEqual(p.js('return location.hash'), '#flame&order=name')
            p.shot('flame-by-name-' + kind)
            for g in self.siblings(p, 'flame'):
                names = [k['name'] for k in g]
                self.assertEqual(names, sorted(names, key=lambda s: (s.lower(), s)),
                                 kind)
            # a zoom keeps the order
            frame = self.driver.find_element(By.CSS_SELECTOR,
                                             '#flame .fr[data-node="0"]')
            frame.click()
            p.wait()
            self.assertEqual(p.js('return location.hash'), '#flame/0&order=name')
            self.assertEqual(self.driver.find_element(
                By.CSS_SELECTOR, '#flame-order b').get_attribute('data-order'),
                'name')
            # heaviest first
            p.go('#flame&order=weight')
            for g in self.siblings(p, 'flame'):
                widths = [k['w'] for k in g]
                self.assertEqual(widths, sorted(widths, reverse=True), kind)
            # back: by name, then as recorded
            self.driver.back()
            p.wait()
            self.driver.back()
            p.wait()
            self.assertEqual(p.js('return location.hash'), '#flame&order=name')
            self.driver.back()
            p.wait()
            self.assertEqual(p.js('return location.hash'), '#flame')
            self.assertEqual(self.siblings(p, 'flame'), default)
        # the Callgrind tree as recorded is not by name: the test above
        # can fail
        p = self.page('callgrind')
        p.go('#flame')
        self.assertTrue(any([k['name'] for k in g] !=
                            sorted((k['name'] for k in g),
                                   key=lambda s: (s.lower(), s)))
                        for g in self.siblings(p, 'flame'))

    def test_sandwich_order(self):
        doc = self.docs['perf-dwarf']
        leaf = next(x['id'] for x in doc['functions'] if x['name'] == 'leaf')
        p = self.page('perf-dwarf')
        p.go('#sandwich/%d&order=name' % leaf)
        groups = self.siblings(p, 'sandwich')
        self.assertGreater(len(groups), 0)
        for g in groups:
            names = [k['name'] for k in g]
            self.assertEqual(names, sorted(names, key=lambda s: (s.lower(), s)))
        # the tab keeps it
        self.assertTrue(self.driver.find_element(By.ID, 'tab-sandwich')
                        .get_attribute('href').endswith('#sandwich&order=name'))
        p.shot('sandwich-perf-dwarf-leaf-by-name')

    def test_event_keeps_the_order(self):
        """Another event: the zoom (a node of the other event's tree)
        is dropped, the order kept; the sandwich of the same function
        in the other event's tree, its middle that event's inclusive."""
        from selenium.webdriver.support.ui import Select
        doc = self.docs['events']
        p = self.page('events')
        p.go('#flame/3&order=name')
        Select(self.driver.find_element(By.ID, 'event')).select_by_index(2)
        p.wait()
        p.wait()
        self.assertEqual(p.js('return location.hash'), '#flame&order=name')
        f = next(x for x in doc['functions'] if x['name'] == 'main')
        p.go('#sandwich/%d&order=name' % f['id'])
        Select(self.driver.find_element(By.ID, 'event')).select_by_index(1)
        p.wait()
        mid = p.js("return Number(document.querySelector("
                   "'#sandwich .fr[data-half=\"middle\"]').dataset.value)")
        self.assertEqual(mid, f['inclusive'][1])
        self.assertEqual(p.js('return location.hash'),
                         '#sandwich/%d&order=name' % f['id'])
