"""Time the first drawing of HTML reports in headless Chromium.

python3 bench/html_draw.py [-n N] REPORT.html...: N rounds (default 3),
each opening every report once in a fresh browser session, in turn, so
that a busy machine slows them alike. Each session reads what the
page's script records when its first view is drawn (report.js): the
time since the page started loading, and since the script started;
then when the whole page had been read (DOMContentLoaded) and how long
the function view and the flame graph took to draw, each the first
time. One line per session, then per report
the median, the fastest and the slowest first view.
"""
import os
import statistics
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def session(path):
    opts = Options()
    for a in ('--headless=new', '--no-sandbox', '--disable-gpu',
              '--disable-dev-shm-usage', '--window-size=1400,900'):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=opts)
    try:
        d.set_script_timeout(60)
        d.get('file://' + os.path.abspath(path))
        for _ in range(600):
            got = d.execute_script('return [document.body.dataset.loadedMs,'
                                   ' document.body.dataset.drawMs]')
            if got[0]:
                break
            time.sleep(0.05)
        read = d.execute_script("return performance.getEntriesByType("
                                "'navigation')[0].domContentLoadedEventStart")
        # the first function view, then the flame graph: each the time
        # to the second animation frame after the address changes
        views = [d.execute_async_script("""
            const done = arguments[1], t0 = performance.now();
            location.hash = arguments[0];
            requestAnimationFrame(() => requestAnimationFrame(
                () => done(performance.now() - t0)));""", h)
            for h in ('#fn', '#flame')]
        return int(got[0]), int(got[1]), read, views[0], views[1]
    finally:
        d.quit()


def main():
    args = sys.argv[1:]
    n = 3
    if len(args) > 1 and args[0] == '-n':
        n = int(args[1])
        args = args[2:]
    first = {p: [] for p in args}
    for i in range(n):
        for p in args:
            loaded, script, read, fn, flame = session(p)
            first[p].append(loaded)
            print('round %d %s: first view drawn %d ms after the page started '
                  'loading (%d ms after the script started); page read at '
                  '%d ms; function view %d ms, flame graph %d ms'
                  % (i + 1, os.path.basename(p), loaded, script, read, fn,
                     flame), flush=True)
    for p in args:
        v = sorted(first[p])
        print('%s: first view median %d ms, fastest %d, slowest %d (%d sessions)'
              % (os.path.basename(p), statistics.median(v), v[0], v[-1], len(v)))


main()
