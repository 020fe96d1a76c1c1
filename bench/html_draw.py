"""Time the first drawing of an HTML report in headless Chromium.

python3 bench/html_draw.py REPORT.html [N]: N fresh browser sessions
(default 3) each open the report from file:// and read what the page's
script records when its first view is drawn (report.js): the time since
the page started loading, and since the script started; then the flame
graph is drawn and timed. Prints one line per session.
"""
import os
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
        flame = d.execute_async_script("""
            const done = arguments[0], t0 = performance.now();
            location.hash = '#flame';
            requestAnimationFrame(() => requestAnimationFrame(
                () => done(performance.now() - t0)));""")
        return int(got[0]), int(got[1]), flame
    finally:
        d.quit()


def main():
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    for i in range(n):
        loaded, script, flame = session(path)
        print('session %d: first view drawn %d ms after the page started '
              'loading (%d ms after the script started); flame graph %d ms'
              % (i + 1, loaded, script, flame))


main()
