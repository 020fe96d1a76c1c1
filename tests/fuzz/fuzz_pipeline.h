/*
 * The pipelines the fuzz harnesses and test_fuzz_regress run an input
 * through: everything main() would do with it, output thrown away.
 * Errors are expected; only crashes, leaks, UB and hangs are bugs.
 */
#ifndef CGA_FUZZ_PIPELINE_H
#define CGA_FUZZ_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * /dev/null, opened once and kept for the process, with the messages
 * (diag.h) sent there too: the harnesses' output and their expected
 * errors thrown away. Aborts when it cannot be opened.
 */
FILE *fuzz_devnull(void);

/* Run data as a profile. The first byte chooses fold_recursion and
 * lenient; the whole input is the profile. */
void fuzz_callgrind_one(const uint8_t *data, size_t size);

/* Run data as a profile with IgProf's options: leak records kept and
 * listed, positions kept (as -b does), the first byte choosing
 * --counter=MEM_LIVE. */
void fuzz_igprof_one(const uint8_t *data, size_t size);
/*
 * Run data as a gmon.out of tests/gmon/prog-nopie (run from the top of
 * the repository): read with the binary's address size and byte order
 * and, to reach the other paths, with 4-byte big-endian ones; resolve,
 * analyse, print, and write the sum to /dev/null.
 */
void fuzz_gmon_one(const uint8_t *data, size_t size);

/*
 * Run data as a perf.data (run from the top of the repository): read,
 * then with --comm=spinner; resolved against tests/perf/'s binaries and
 * kallsyms; analysed and printed.
 */
void fuzz_perf_one(const uint8_t *data, size_t size);

/*
 * Run data as a gperftools CPU or heap profile (run from the top of the
 * repository): read, resolved against tests/gperf/'s binaries,
 * analysed and printed.
 */
void fuzz_gperf_one(const uint8_t *data, size_t size);

/*
 * Run data as a pprof profile.proto: read with positions and stacks
 * (an unsymbolized one resolved without binaries), analysed, printed,
 * and written again with --output=pprof (to /dev/null).
 */
void fuzz_pprof_one(const uint8_t *data, size_t size);

/* Run data as an ELF binary through symtab_open() and the lookups. */
void fuzz_symtab_one(const uint8_t *data, size_t size);

/*
 * Run data[1..] as a split-DWARF file of a skeleton program of
 * tests/split-dwarf/ (run from the top of the repository), written
 * where the reader looks for it: data[0]'s bits 0-1 choose v5, v4 (a
 * .dwo, bit 2 choosing the unit: area or main), v5p or v4p (the .dwp).
 * The program's symbols are loaded, inlined frames included, and looked
 * up at its functions, its line table's rows and the input's tail.
 */
void fuzz_dwo_one(const uint8_t *data, size_t size);

#endif
