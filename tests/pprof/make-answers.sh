#!/bin/sh
# Remake the pprof test files and go tool pprof's answers (needs Go;
# tests/sh/pprof.sh, which checks them, does not). Run from the top of
# the repository with a built ./cganalyze.
#
#   sh tests/pprof/make-answers.sh inputs   new cpu.pb.gz and heap.pb.gz from
#                                           tests/pprof/go (runtime/pprof)
#   sh tests/pprof/make-answers.sh          go's -top of every file
#
# Answers are `go tool pprof -top -nodecount=0 -nodefraction=0
# -edgefraction=0` per sample type (-sample_index), in whole units
# (-unit=ns for nanoseconds, -unit=B for bytes) so that they compare
# exactly; -nodefraction=0 keeps the small functions pprof drops by
# default.
set -e
dir=tests/pprof
export GOFLAGS=-mod=mod GOTOOLCHAIN=local
: "${GOCACHE:=$(mktemp -d)}"
export GOCACHE
if [ "$1" = inputs ]; then
	tmp=$(mktemp -d)
	(cd "$dir/go" && go build -o "$tmp/prog" .)
	"$tmp/prog" "$dir/cpu.pb.gz" "$dir/heap.pb.gz"
	rm -rf "$tmp"
fi

# answer FILE.pb.gz NAME EVENT UNIT
answer() {
	unit=
	case $4 in
	nanoseconds) unit=-unit=ns ;;
	bytes) unit=-unit=B ;;
	esac
	go tool pprof -top -nodecount=0 -nodefraction=0 -edgefraction=0 \
		-sample_index="$3" $unit "$1" 2>/dev/null |
		sed -n '/^ *flat  flat%/,$p' >"$dir/answers/$2.$3.top"
}

answer "$dir/cpu.pb.gz" cpu samples count
answer "$dir/cpu.pb.gz" cpu cpu nanoseconds
for t in alloc_objects inuse_objects; do
	answer "$dir/heap.pb.gz" heap $t count
done
for t in alloc_space inuse_space; do
	answer "$dir/heap.pb.gz" heap $t bytes
done
# unsymbolized: go finds the binary by the mapping's file name
PPROF_BINARY_PATH=tests/gmon answer "$dir/nosym.pb.gz" nosym samples count
PPROF_BINARY_PATH=tests/gmon answer "$dir/nosym.pb.gz" nosym cpu nanoseconds

# our --output=pprof of each kind of input, and go's reading of it
while read -r name event unit args; do
	# shellcheck disable=SC2086
	./cganalyze --output=pprof -o "$dir/out/$name.pb.gz" $args
	answer "$dir/out/$name.pb.gz" "out-$name" "$event" "$unit"
done <"$dir/writer-cases"
