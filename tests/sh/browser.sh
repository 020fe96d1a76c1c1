# The HTML report in headless Chromium through Selenium
# (tests/browser/test_report*.py, run by run_report.py): the views
# against --json, --annotate, --disasm and --output=folded, names with
# markup shown as text, no error in the browser's console. Screenshots in build/test-artifacts/browser/.
# Needs Debian's chromium, chromium-driver and python3-selenium (sh
# bootstrap.sh check installs them); without them the test is skipped,
# but not in CI (CI=true), where a missing browser fails it.
bin=$1
py=/usr/bin/python3	# Debian's python3-selenium is for Debian's python
missing=
[ -x "$py" ] || missing="$missing python3"
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v chromedriver >/dev/null 2>&1 || missing="$missing chromium-driver"
[ -x "$py" ] && ! "$py" -c 'import selenium' 2>/dev/null && missing="$missing python3-selenium"
if [ -n "$missing" ]; then
	echo "browser tests: not installed:$missing (sh bootstrap.sh check installs them)"
	[ "$CI" = true ] && exit 1
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$py" tests/browser/run_report.py "$bin" >"$log" 2>&1
status=$?
if [ $status -ne 0 ]; then
	# chromedriver's stack traces are addresses without names: left out
	grep -v '^#[0-9]* 0x' "$log"
	exit 1
fi
