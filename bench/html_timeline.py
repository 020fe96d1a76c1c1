"""Time the report's threads and timeline (issue 35) in headless Chromium.

python3 bench/html_timeline.py [-n N] REPORT.html: N rounds (default 3),
each a fresh browser session on the report and on a copy of it without
the samples (its "cga-samples" emptied: the report as it was before the
timeline), in turn, so that a busy machine slows both alike. Each
session reads the first view's time (data-draw-ms: from the script's
start to the frame that paints Top), the tracks panel's (data-tracks-ms,
the samples decoded and the strips' table built), then for each view a
range of time chosen as a drag would (&time=A-B in the address, a new
range each time; the view first drawn, "+" a second range in it): the time from the address's change to the second
animation frame after the view is drawn, and the part spent making the
tree (data-xform-ms: the samples summed into the tree and every
function's costs in it). The copy without the samples goes through the
same views with a transform that removes nothing instead
(&ignore=no-such-...): what the views take to draw from a transformed
tree, whatever made it. Prints one line per session, then the medians
with the spread.
"""
import os
import re
import statistics
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

VIEWS = ('top', 'flame', 'calltree', 'bottomup', 'fn')


def without_samples(path):
    text = open(path, encoding='utf-8').read()
    out = re.sub(r'(<script type="application/json" id="cga-samples">).*?'
                 r'(</script>)', r'\1{"tracks": null, "why": "bench"}\2',
                 text, flags=re.S)
    fd, copy = tempfile.mkstemp(suffix='.html')
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        f.write(out)
    return copy, len(text.encode()), len(out.encode())


def session(path, ranges, baseline=False):
    opts = Options()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu',
              '--disable-dev-shm-usage', '--window-size=1400,900'):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'),
                         options=opts)
    try:
        d.set_script_timeout(60)
        d.get('file://' + os.path.abspath(path))
        for _ in range(600):
            got = d.execute_script('return [document.body.dataset.drawMs,'
                                   ' document.body.dataset.tracksMs]')
            if got[0] and got[1]:
                break
            time.sleep(0.05)
        res = {'first': float(got[0]), 'panel': float(got[1])}
        if not ranges:
            return res
        for view, (a, b), again in [(v, r, k) for v, r in zip(VIEWS, ranges)
                                    for k in ('', '+')]:
            if again:
                a, b = a + 50, b - 50
            ms = d.execute_async_script("""
                const done = arguments[1], t0 = performance.now();
                location.hash = arguments[0];
                const drawn = () => document.body.dataset.route === location.hash
                    ? requestAnimationFrame(() => requestAnimationFrame(
                        () => done(performance.now() - t0)))
                    : setTimeout(drawn, 1);
                drawn();""", ('#%s&ignore=no-such-%d-%d' if baseline
                           else '#%s&time=%d-%d') % (view, a, b))
            res[view + again] = ms
            res[view + again + '-tree'] = float(d.execute_script(
                'return document.body.dataset.xformMs'))
        return res
    finally:
        d.quit()


def main():
    args = sys.argv[1:]
    n = 3
    if args[:1] == ['-n']:
        n = int(args[1])
        args = args[2:]
    path = args[0]
    copy, size, size_without = without_samples(path)
    print('report %d bytes, %d without the samples: %.3f times'
          % (size, size_without, size / size_without))
    rows = {'with': [], 'without': []}
    for r in range(n):
        ranges = [(100 + 37 * k + r * 11, 900 + 53 * k + r * 7)
                  for k in range(len(VIEWS))]
        for name, p, base in (('with', path, False), ('without', copy, True)):
            res = session(p, ranges, base)
            rows[name].append(res)
            print(name, ' '.join('%s %.0f' % kv for kv in res.items()))
    for name, rs in rows.items():
        for key in rs[0]:
            v = [x[key] for x in rs]
            print('%-8s %-14s median %7.1f ms [%.1f - %.1f]'
                  % (name, key, statistics.median(v), min(v), max(v)))
    os.unlink(copy)


if __name__ == '__main__':
    main()
