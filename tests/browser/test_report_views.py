"""Every view of every input's report, as a user first opens it: each
draws without an error in the browser's console, shows something (not
a blank area), and is kept as a screenshot to look at
(build/test-artifacts/browser/views/KIND-VIEW.png).
"""
import os
import re

from report_base import ARTIFACTS, PROFILES, Page, ReportBase

VIEWS = ('top', 'fn', 'flame', 'icicle', 'sandwich', 'calltree', 'bottomup',
         'source', 'disasm')


class ViewsTest(ReportBase):

    def test_every_view_of_every_input(self):
        os.makedirs(os.path.join(ARTIFACTS, 'views'), exist_ok=True)
        for kind in PROFILES:
            p = Page(self.driver, self.pages[kind])
            for view in VIEWS:
                with self.subTest(kind=kind, view=view):
                    p.open('#' + view)
                    shown = p.js("""
                        const v = document.getElementById('view');
                        const r = v.getBoundingClientRect();
                        return {text: v.innerText.trim().length,
                                height: r.height,
                                tab: (document.querySelector('#tabs a.on') || {}).id};
                        """)
                    self.assertGreater(shown['text'], 0, 'an empty view')
                    self.assertGreater(shown['height'], 20, 'a blank view')
                    self.assertEqual(shown['tab'], 'tab-' + view)
                    p.shot(os.path.join('views', kind + '-' + view))


class CallRowsTest(ReportBase):
    """The source view's call rows word their counts as --annotate does:
    "(3 calls)", "(7,049,154 recursive, counted in the outer call)"."""

    def test_gmon_call_counts(self):
        from report_base import run
        text = run(['--annotate'] + PROFILES['gmon'])
        want = sorted(re.findall(r'=> \S.* (\([^()]*(?:calls?|outer call)\))$',
                                 text, re.M))
        p = Page(self.driver, self.pages['gmon'])
        got = []
        for k in range(p.js("return document.querySelectorAll("
                            "'#source-file option').length") or 1):
            p.open('#source/%d' % k)
            got += p.js("""
                const t = document.getElementById('source-table');
                t.scrollTop = 0;
                const out = [];
                for (let y = 0; y <= t.scrollHeight; y += t.clientHeight / 2) {
                    t.scrollTop = y;
                    t.paint();
                    for (const r of t.querySelectorAll('.callrow'))
                        out.push(r.parentNode.style.top + '|' + r.textContent);
                }
                return [...new Set(out)].map(s => s.replace(/^[^|]*\\|/, ''));""")
        got = sorted(re.search(r'(\([^()]*\))$', g).group(1) for g in got
                     if re.search(r'\([^()]*\)$', g))
        self.assertGreater(len(want), 3)
        self.assertEqual(got, want)


class FlameLabelsTest(ReportBase):
    """A flame graph frame too narrow for its C++ name shows it
    shortened in the middle: the name's last component (the method), or
    in a narrow frame the method's end, not the name's start ("void
    std::"), with the whole name in the frame's title."""

    def test_cxx_labels_keep_the_method(self):
        import subprocess
        import report_base
        path = os.path.join(self.tmp, 'cxx-flame.html')
        subprocess.run([report_base.BIN, '--output=html', '-o', path,
                        '-b', 'tests/perf/cxx', '--sysroot=tests/perf',
                        'tests/perf/cxx.data'], check=True,
                       capture_output=True)
        p = Page(self.driver, path)
        p.open('#flame')
        frames = p.js("""
            return [...document.querySelectorAll('#flame .fr')]
                .filter(d => d.textContent.includes('\\u2026'))
                .map(d => [d.textContent, d.title]);""")
        self.assertGreater(len(frames), 3, 'no frame was shortened')
        checked = 0
        for text, title in frames:
            whole = title.rsplit(': ', 1)[0]
            # the last component: after the last "::" outside <...>
            # and (...), before its own template arguments or parameters
            depth, last = 0, 0
            for i, c in enumerate(whole):
                if c in '<(':
                    depth += 1
                elif c in '>)':
                    depth -= 1
                elif c == ':' and depth == 0 and whole[i + 1:i + 2] == ':':
                    last = i + 2
            method = re.split(r'[<(]', whole[last:])[0]
            if len(text) < 10:
                continue    # the name's start, cut
            # the method, or in a narrow frame its end
            self.assertTrue(method in text or (
                text.startswith('\u2026') and method.endswith(text[1:])),
                (text, whole))
            checked += 1
        self.assertGreater(checked, 0, 'every shortened frame too narrow')
        p.shot('cxx-flame-labels')
