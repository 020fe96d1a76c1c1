"""Run every browser test of the report: the classes of each
tests/browser/test_report*.py, in headless Chromium through Selenium.

Run by tests/sh/browser.sh as  python3 tests/browser/run_report.py BINARY.
Names after BINARY (test_report_flame, ...) run those modules alone.
Screenshots go to build/test-artifacts/browser/ (git ignores build/).
Exit status: 0 passed, 1 failed (or no test ran), 77 no browser here.
"""
import glob
import importlib
import os
import sys
import unittest

import report_base


def main():
    report_base.BIN = os.path.abspath(sys.argv[1])
    if report_base.webdriver is None:
        print('python3-selenium is not installed')
        sys.exit(77)
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.TestSuite()
    only = set(sys.argv[2:])
    known = {os.path.basename(p)[:-3]
             for p in glob.glob(os.path.join(here, 'test_report*.py'))}
    if only - known:
        print('no such browser test module: ' + ', '.join(sorted(only - known)),
              file=sys.stderr)
        sys.exit(1)
    for path in sorted(glob.glob(os.path.join(here, 'test_report*.py'))):
        if only and os.path.basename(path)[:-3] not in only:
            continue
        module = importlib.import_module(os.path.basename(path)[:-3])
        suite.addTests(unittest.defaultTestLoader.loadTestsFromModule(module))
    try:
        result = unittest.TextTestRunner(verbosity=1).run(suite)
    finally:
        report_base.quit_browser()
    sys.exit(0 if result.wasSuccessful() and result.testsRun else 1)


if __name__ == '__main__':
    main()
