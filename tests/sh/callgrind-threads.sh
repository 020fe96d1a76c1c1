# --threads, --parts, --pid and --tid on Callgrind against
# callgrind_annotate, on the files valgrind wrote of
# tests/callgrind-threads/threads.c (tests/callgrind_threads_check.py
# says what is checked).
bin=$1
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate is not installed"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
exec "$py" tests/callgrind_threads_check.py "$bin"
