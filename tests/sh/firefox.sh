# The HTML report in headless Firefox (tests/browser/test_firefox.py),
# driven through WebDriver BiDi, which Firefox speaks itself, by the
# small client tests/browser/bidi.py: no geckodriver, which Debian does
# not package. Needs Debian's firefox-esr (129 or later) and
# python3-websocket (sh bootstrap.sh check installs them); without them
# the test is skipped, but not in CI (CI=true), where it fails.
bin=$1
py=/usr/bin/python3	# Debian's python3-websocket is for Debian's python
missing=
firefox=
for f in firefox-esr firefox; do
	command -v "$f" >/dev/null 2>&1 && { firefox=$f; break; }
done
[ -n "$firefox" ] || missing="$missing firefox-esr"
[ -x "$py" ] || missing="$missing python3"
[ -x "$py" ] && ! "$py" -c 'import websocket' 2>/dev/null && missing="$missing python3-websocket"
if [ -n "$missing" ]; then
	echo "firefox tests: not installed:$missing (sh bootstrap.sh check installs them)"
	[ "$CI" = true ] && exit 1
	exit 77
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "$py" tests/browser/test_firefox.py "$bin" "$firefox" >"$log" 2>&1; then
	cat "$log"
	exit 1
fi
