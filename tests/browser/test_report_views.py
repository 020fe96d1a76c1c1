"""Every view of every input's report, as a user first opens it: each
draws without an error in the browser's console, shows something (not
a blank area), and is kept as a screenshot to look at
(build/test-artifacts/browser/views/KIND-VIEW.png).
"""
import os

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
