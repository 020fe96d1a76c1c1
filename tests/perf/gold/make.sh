#!/bin/sh
# Builds prog with GNU gold, which puts its .eh_frame_hdr after its
# .eh_frame (as in Debian's libLLVM-14.so.1), as committed.
set -e
cd "$(dirname "$0")"
cc -O2 -g0 -fuse-ld=gold -o prog prog.c
