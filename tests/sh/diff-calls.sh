# --diff --json's callers and callees against each profile's --json
# arcs and gprof -q (tests/diff_calls_check.py says what is checked).
bin=$1
command -v gprof >/dev/null || { echo "gprof is not installed"; exit 77; }
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "python3 is not installed"; exit 77; }
exec "$py" tests/diff_calls_check.py "$bin"
