"""Every view of every input's report, as a user first opens it: each
draws without an error in the browser's console, shows something (not
a blank area), and is kept as a screenshot to look at
(build/test-artifacts/browser/views/KIND-VIEW.png).
"""
import os
import re

from report_base import ARTIFACTS, PROFILES, Page, ReportBase

VIEWS = ('top', 'fn', 'flame', 'icicle', 'source', 'disasm')


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
