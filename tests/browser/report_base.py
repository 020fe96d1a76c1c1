"""What the report's browser tests share: the profiles of each input
kind, their reports and --json documents (made once for every test
class), the browser, and a Page to read what a view shows.

Each tests/browser/test_report*.py holds test classes derived from
ReportBase; tests/browser/run_report.py runs them all.
"""
import json
import math
import os
import re
import subprocess
import tempfile
import unittest

# set by run_report.py: the cganalyze to test, absolute
BIN = None
ARTIFACTS = os.path.join('build', 'test-artifacts', 'browser')

# Top's rows, [[page function id, [cell texts]]]: the table draws only
# the rows in sight, so it is scrolled through
TOP_ROWS = """
            const t = document.getElementById('top-table');
            const seen = new Map();
            for (let y = 0; ; y += t.clientHeight / 2) {
                t.scrollTop = y;
                t.paint();
                for (const r of t.querySelectorAll('.row')) {
                    const a = r.querySelector('a[href^="#fn/"]');
                    seen.set(parseInt(a.getAttribute('href').slice(4)),
                             [...r.children].map(c => c.textContent));
                }
                if (y + t.clientHeight >= t.scrollHeight)
                    break;
            }
            return [...seen.entries()];"""

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
except ImportError:
    webdriver = None

PROFILES = {
    'callgrind': ['-b', 'samples/recursion/prog',
                  'samples/recursion/callgrind.instr.out'],
    'gmon': ['-b', 'tests/gmon/prog-nopie', 'tests/gmon/nopie.gmon'],
    'igprof': ['tests/inputs/igprof/perf.txt'],
    'events': ['samples/recursion/callgrind.cache.out'],
    'perf': ['-b', 'tests/perf/prog', '-b', 'tests/perf/libwork.so',
             '--sysroot=tests/perf', '--kallsyms=tests/perf/kallsyms',
             'tests/perf/fp.data'],
    # --call-graph dwarf, its sources found (the code views)
    'perf-dwarf': ['-b', 'tests/perf/prog', '-b', 'tests/perf/libwork.so',
                   '--sysroot=tests/perf', '--kallsyms=tests/perf/kallsyms',
                   '--source-map=/tmp/cganalyze-perf=tests/perf',
                   'tests/perf/dwarf.data'],
    # no -b: the recorded files, found under --sysroot (the code views)
    'perf-recorded': ['--sysroot=tests/perf/sysroot',
                      '--kallsyms=tests/perf/kallsyms', 'tests/perf/fp.data'],
    # IgProf's offsets resolved in the binary (the code views)
    'igprof-b': ['-b', 'samples/recursion/prog',
                 'tests/inputs/igprof/perf.txt'],
}


def run(args):
    return subprocess.run([BIN] + args, capture_output=True, text=True,
                          check=True).stdout


def number(text):
    text = text.strip().replace(',', '')
    return float(text) if text else None


def listed_cost(doc, ev, v):
    """What the text listings print for a cost v of event ev: gmon.out's
    ticks as gprof's seconds with two decimals (the event's "listed_as"),
    else v itself."""
    info = doc['event_info'][ev]
    if info.get('listed_as') == 'seconds':
        return float('%.2f' % (v * info['unit_seconds']))
    return v


def path_cost(doc, ev, v):
    """What --tree prints for a call path's cost v of event ev, and the
    page's tree views: gmon.out's ticks in seconds, else whole units,
    an estimate's rounded half away from zero (llround())."""
    if doc['event_info'][ev].get('listed_as') == 'seconds':
        return listed_cost(doc, ev, v)
    return float(math.floor(v + 0.5))


def calls_text(doc, f):
    """Function f's calls as the flat profile prints them: none blank,
    its calls of itself after a "+" ("2+9,996"); gmon.out's flat
    profile, gprof's, the calls alone."""
    listed = doc['event_info'][doc['events'].index(doc['sort_event'])]
    own = 0 if listed.get('listed_as') == 'seconds' else f['self_calls']
    return (format(f['calls'], ',') if f['calls'] or own else '') + \
        ('+' + format(own, ',') if own else '')


def strip_cycle(name):
    return re.sub(r' <cycle \d+>$', '', name)


class Page:
    """A report opened in the browser, with what the page holds."""

    def __init__(self, driver, path):
        self.d = driver
        self.path = path
        self.open('')

    def open(self, hash_):
        self.d.get('file://' + os.path.abspath(self.path) + hash_)
        self.wait()

    def go(self, hash_):
        self.d.execute_script('location.hash = arguments[0]', hash_)
        # the view of that place drawn (route() marks it), not the one
        # before it: on a loaded machine the hashchange can come after
        # two animation frames
        self.d.execute_async_script(
            'const done = arguments[0];'
            'const drawn = () => document.body.dataset.route === location.hash'
            '    ? done() : setTimeout(drawn, 10);'
            'drawn();')
        self.wait()

    def wait(self):
        # two animation frames: the views draw in requestAnimationFrame
        self.d.execute_async_script(
            'const done = arguments[0];'
            'requestAnimationFrame(() => requestAnimationFrame(done));')

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def rows(self, table_id):
        """The drawn rows of a table, top to bottom, as lists of cell
        texts with the function id of the row's first link (or None)."""
        return self.js("""
            const rows = [...document.querySelectorAll('#' + arguments[0] + ' .row')];
            rows.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
            return rows.map(r => {
                const a = r.querySelector('a[href^="#fn/"]');
                return {cells: [...r.children].map(c => c.textContent),
                        fn: a ? Number(a.getAttribute('href').slice(4)) : null};
            });""", table_id)

    def shot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.d.save_screenshot(os.path.join(ARTIFACTS, name + '.png'))


_made = {}


def _shared():
    """The browser and every profile's report and --json, made once."""
    if _made:
        return _made
    opts = Options()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu',
              '--disable-dev-shm-usage', '--window-size=1400,1000'):
        opts.add_argument(a)
    opts.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    service = Service('/usr/bin/chromedriver') \
        if os.path.exists('/usr/bin/chromedriver') else Service()
    driver = webdriver.Chrome(service=service, options=opts)
    driver.set_script_timeout(20)
    _made['driver'] = driver
    _made['tmp'] = tempfile.mkdtemp(prefix='cganalyze-browser-')
    _made['pages'] = {}
    _made['docs'] = {}
    for kind, args in PROFILES.items():
        path = os.path.join(_made['tmp'], kind + '.html')
        # every function, as --json has them: the views are checked
        # against --json by function id (at the default threshold the
        # report leaves functions out: test_report_size.py)
        subprocess.run([BIN, '--output=html', '--threshold=0', '-o', path] +
                       args, check=True, capture_output=True)
        _made['pages'][kind] = path
        _made['docs'][kind] = json.loads(run(['--json'] + args))
    return _made


def quit_browser():
    if _made:
        _made['driver'].quit()


class ReportBase(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        made = _shared()
        cls.driver = made['driver']
        cls.tmp = made['tmp']
        cls.pages = made['pages']
        cls.docs = made['docs']

    def setUp(self):
        self.driver.get_log('browser')	# forget what came before

    def tearDown(self):
        errors = [e for e in self.driver.get_log('browser')
                  if e['level'] in ('SEVERE', 'ERROR')]
        self.assertEqual(errors, [], 'the browser console has errors')

    def page(self, kind):
        return Page(self.driver, self.pages[kind])

    @staticmethod
    def ev(doc):
        return doc['events'].index(doc['sort_event'])

    def close(self, shown, want, what):
        """A cost as the page shows it: whole, or to two decimals."""
        if want is None or shown is None:
            self.assertEqual(shown, want, what)
        elif float(want).is_integer():
            self.assertEqual(shown, want, what)
        else:
            self.assertAlmostEqual(shown, round(want, 2), 2, what)
