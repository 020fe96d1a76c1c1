# --threads and --time on perf.data against perf report's answers
# (tests/perf_threads_check.py says what is checked), and --time refused
# where it cannot be honoured: a recording without the samples' times,
# and a range with no sample in it.
bin=$1
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
status=0
"$py" tests/perf_threads_check.py "$bin" || status=1
err=$("$bin" --time=0%-50% tests/perf/notime.data 2>&1 >/dev/null)
case $err in
*"notime.data: offset 0x"*"--time needs the samples' times"*) ;;
*) echo "perf-threads: notime.data under --time: $err"; status=1 ;;
esac
err=$("$bin" --time=+100, tests/perf/procs.data 2>&1 >/dev/null)
case $err in
*"none of its 176 samples is in --time=+100,"*"(+0 to +0."*) ;;
*) echo "perf-threads: an empty range: $err"; status=1 ;;
esac
exit $status
