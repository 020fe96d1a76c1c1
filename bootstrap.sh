#!/bin/sh
# Set up and build on a fresh Debian machine, then do one thing:
#   sh bootstrap.sh demo    build, run cganalyze on a bundled sample and
#                           write its HTML report
#   sh bootstrap.sh check   build, and run every test (CI runs this)
# Debian packages that are missing are installed with apt-get (as root,
# or through sudo); packages already there are left alone.
set -e
cd "$(dirname "$0")"

# What the build and the tests need, as Debian package names
# (linux-libc-dev: <linux/perf_event.h>, the perf.data record layouts;
# libdw-dev: elfutils' unwinder, for perf.data's --call-graph dwarf stacks;
# libzstd-dev: perf record -z's compressed records).
PACKAGES="gcc make pkg-config libc6-dev linux-libc-dev zlib1g-dev libbz2-dev libcmocka-dev binutils-dev libelf-dev libdwarf-dev libdw-dev libzstd-dev"
# The tests also run the end-to-end cases under valgrind memcheck, and the
# disassembly listings interleave the C++ sample's libstdc++ headers
# (/usr/include/c++/12, which comes with g++); tests/sh/ formats the
# manual page (groff, man) and fakes a terminal (script, in bsdutils);
# Graphviz's dot reads every --dot output of the tests and draws --svg.
# The HTML report is tested in headless Chromium through Selenium, with
# Debian's python3 (tests/sh/browser.sh), and in headless Firefox through
# WebDriver BiDi over a websocket (tests/sh/firefox.sh). tests/sh/gperf.sh
# records a program with gperftools' libprofiler and reads it with
# google-pprof (google-perftools) beside the committed profiles. The
# committed recordings sampled this machine's libc, whose functions'
# files the listings name from its debug file (libc6-dbg).
[ "${1:-demo}" = check ] && PACKAGES="$PACKAGES valgrind g++ groff-base man-db bsdutils graphviz python3 chromium chromium-driver python3-selenium firefox-esr python3-websocket google-perftools libc6-dbg"

missing=""
for pkg in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $pkg"
	fi
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing missing Debian packages:$missing"
	if [ "$(id -u)" -eq 0 ]; then
		sudo=""
	elif command -v sudo >/dev/null 2>&1; then
		sudo="sudo"
	else
		echo "bootstrap: need root (or sudo) to install:$missing" >&2
		exit 1
	fi
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

case "${1:-demo}" in
demo)
	make
	# the walkthrough's program (README.md): a sieve, a sort through
	# qsort and a recursion; its profile was made in /tmp/walkthrough
	set -- --source-map=/tmp/walkthrough=samples/walkthrough \
		-b samples/walkthrough/prog samples/walkthrough/callgrind.out
	./cganalyze -p --brief "$@"
	echo
	./cganalyze --annotate=count_primes --context=3 "$@" 2>/dev/null
	./cganalyze --output=html -o build/demo-report.html "$@" 2>/dev/null
	echo
	echo "Every view of this profile is in one page: open"
	echo "  file://$(pwd)/build/demo-report.html"
	echo "in a browser (Top, Function, Flame graph, Call tree, Bottom-up, Sandwich, Source, Disassembly)."
	;;
check)
	make check
	;;
*)
	echo "usage: sh bootstrap.sh [demo|check]" >&2
	exit 2
	;;
esac
