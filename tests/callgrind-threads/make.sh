#!/bin/sh
# Make the Callgrind profiles of the threads, processes and parts tests
# from threads.c, as committed here. Run from the top of the tree:
#   sh tests/callgrind-threads/make.sh
# (valgrind 3.19 made the committed ones). Every file is valgrind's as it
# wrote it, its name included; the pids in names and pid: lines are the
# run's, so the e2e expectations naming them are made again after this
# (UPDATE=1 sh tests/run-e2e ./cganalyze, then read the diff).
#
#   procs/     threads.c forks: two processes, each a main thread and two
#              workers, under --separate-threads=yes: one file per thread,
#              callgrind.out.PID-01 to -03, and an empty callgrind.out.PID
#              beside them (valgrind leaves it)
#   dumps/     threads.c dumps (one process, three phases, a
#              CALLGRIND_DUMP_STATS_AT after the first two) under
#              --separate-threads=yes --cache-sim=yes --branch-sim=yes (13
#              events): callgrind.out.PID.1-01 and .2-01 for the dumps
#              (only the main thread lives then), -01 to -03 at the end
#   combined.out  the same with --combine-dumps=yes and
#              --dump-every-bb=100000 too: every part in one file, dumped
#              by client request, by the basic-block count, at the end
#
# The program is built in /tmp/cganalyze-cgthreads (made anew), the path
# the profiles name its source by: --source-map=/tmp/cganalyze-cgthreads=
# tests/callgrind-threads finds it here.
set -e
top=$(pwd)
out=$top/tests/callgrind-threads
tmp=/tmp/cganalyze-cgthreads
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$out/threads.c" "$tmp"
cd "$tmp"
gcc -g -O1 -pthread -o threads threads.c
rm -rf "$out/procs" "$out/dumps" "$out/combined.out"
mkdir -p "$tmp/procs" "$tmp/dumps" "$out/procs" "$out/dumps"
cd "$tmp/procs"
valgrind -q --tool=callgrind --separate-threads=yes \
	--callgrind-out-file=callgrind.out.%p ../threads
cd "$tmp/dumps"
valgrind -q --tool=callgrind --separate-threads=yes --cache-sim=yes \
	--branch-sim=yes --callgrind-out-file=callgrind.out.%p ../threads dumps
cd "$tmp"
valgrind -q --tool=callgrind --separate-threads=yes --combine-dumps=yes \
	--dump-every-bb=100000 --callgrind-out-file=combined.out \
	./threads dumps
chmod 644 procs/* dumps/* combined.out
cp procs/* "$out/procs"
cp dumps/* "$out/dumps"
cp combined.out "$out"
ls -l "$out/procs" "$out/dumps" "$out/combined.out"
