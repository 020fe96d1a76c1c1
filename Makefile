# cganalyze
#   make                                  build ./cganalyze
#   make check                            unit, end-to-end and sanitizer tests
#   make SANITIZE=address,undefined check the suite under ASan and UBSan only
#   make DEVELOPER=1                      warnings are errors
#   make bench                            benchmark figures (for people)
#   make fuzz FUZZ_SECONDS=60             libFuzzer on each harness (clang)
#   make install PREFIX=/usr/local DESTDIR=   bin/cganalyze, share/man/man1/cganalyze.1
#   make uninstall PREFIX=/usr/local DESTDIR=

CC ?= cc
PKG_CONFIG ?= pkg-config
O ?= build
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INSTALL ?= install

CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wwrite-strings -Wvla \
	-Wimplicit-fallthrough
ifdef DEVELOPER
WARNINGS += -Werror
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
endif

ZLIB_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags zlib 2>/dev/null)
ZLIB_LIBS ?= $(shell $(PKG_CONFIG) --libs zlib 2>/dev/null || echo -lz)
BZ2_LIBS ?= -lbz2
CMOCKA_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS ?= $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
LIBELF_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags libelf 2>/dev/null)
LIBELF_LIBS ?= $(shell $(PKG_CONFIG) --libs libelf 2>/dev/null || echo -lelf)
LIBDWARF_CFLAGS ?= -I/usr/include/libdwarf
LIBDWARF_LIBS ?= -ldwarf
# elfutils' libdw, for its unwinder (libdwfl: perf.data's --call-graph
# dwarf stacks). It is not linked: src/read/perf/libdw_load.c loads it by its
# soname when the first stack is unwound (linked, it cost every run
# about 1 ms), and looks its functions up in it alone: libdw and
# libdwarf export 34 functions of the same names (dwarf_child,
# dwarf_errmsg, ...), and the symbol table's calls (symtab/) are
# libdwarf's.
LIBDW_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags libdw 2>/dev/null)
LIBDW_SONAME ?= $(shell objdump -p "$$($(CC) -print-file-name=libdw.so)" 2>/dev/null | \
	sed -n 's/^ *SONAME *//p')
# libzstd: perf record -z's compressed records (src/read/perf/perf_inflate.c)
ZSTD_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags libzstd 2>/dev/null)
ZSTD_LIBS ?= $(shell $(PKG_CONFIG) --libs libzstd 2>/dev/null || echo -lzstd)
# libbfd and libopcodes are not linked: symtab/binutils_load.c loads
# each by its soname (binutils versions it: libbfd-2.40-system.so) when
# -b or --disasm first needs it. Linked, libbfd costs every run 1.4 ms
# and libopcodes 130 page faults. The unit tests that call libbfd
# themselves link it (BFD_LIBS).
BFD_LIBS ?= -lbfd
BFD_SONAME ?= $(shell objdump -p "$$($(CC) -print-file-name=libbfd.so)" 2>/dev/null | \
	sed -n 's/^ *SONAME *//p')
OPCODES_SONAME ?= $(shell objdump -p "$$($(CC) -print-file-name=libopcodes.so)" 2>/dev/null | \
	sed -n 's/^ *SONAME *//p')

# -pthread everywhere: the Callgrind reader reads large input with a
# second thread (src/read/callgrind/). Headers are included by their
# stage's path: "base/diag.h", "cg/cg.h", "symtab/symtab.h".
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -pthread $(WARNINGS) $(CFLAGS) -Isrc -I. \
	$(ZLIB_CFLAGS) $(LIBELF_CFLAGS) $(LIBDWARF_CFLAGS) $(LIBDW_CFLAGS) \
	$(ZSTD_CFLAGS)
LIBS = $(LIBDWARF_LIBS) $(LIBELF_LIBS) $(ZLIB_LIBS) $(BZ2_LIBS) $(ZSTD_LIBS) -lm -ldl -pthread

# Every .c of the stage folders (src/*/, cg/, symtab/) but main.c goes
# into the library the tests link with.
STAGES = base profile read read/callgrind read/perf read/gperf read/pprof resolve select print cli
LIB_SRCS = $(filter-out src/cli/main.c,$(sort $(foreach s,$(STAGES),$(wildcard src/$(s)/*.c)))) \
	$(sort $(wildcard cg/*.c symtab/*.c))
# The HTML report's CSS, JavaScript and page (src/print/html/) are
# compiled in as C strings, made by a sh and awk script.
# The script is one file per view (src/print/html/js/), joined in this
# order inside one function: the files share its scope, and each one's
# top-level code may use what the files before it define.
REPORT_JS = core dom cut names indexes match vtable header top function entry \
	flame frames exact fold transform samples timeline treetable calltree bottomup \
	xmenu \
	sandwich \
	source disasm route
REPORT_JS_SRCS = $(REPORT_JS:%=src/print/html/js/%.js)
# The diff report's (--diff --output=html): the report's helpers and
# views it reuses, then its own (diff*.js)
DIFF_JS = core dom names indexes match vtable top flame frames exact fold transform \
	treetable calltree bottomup diffmodel difftop diffflame difftree \
	difffn diffroute
DIFF_JS_SRCS = $(DIFF_JS:%=src/print/html/js/%.js)
HTML_ASSETS = src/print/html/report.html src/print/html/report.css \
	$(O)/gen/report.js src/print/html/diff.html $(O)/gen/diff.js
LIB_OBJS = $(LIB_SRCS:%.c=$(O)/%.o) $(O)/gen/html_assets.o

TESTS = $(sort $(basename $(notdir $(wildcard tests/test_*.c))))
TEST_BINS = $(TESTS:%=$(O)/tests/%)

.PHONY: all check unit-tests e2e memcheck sanitize-check cganalyze-san clean bench \
	install uninstall
all: cganalyze

cganalyze: $(O)/src/cli/main.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(O)/libcganalyze.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(O)/gen/report.js: $(REPORT_JS_SRCS) Makefile
	@mkdir -p $(dir $@)
	{ printf "'use strict';\n(function () {\n"; \
	  for f in $(REPORT_JS_SRCS); do cat "$$f"; echo; done; \
	  printf '})();\n'; } >$@.tmp && mv $@.tmp $@

$(O)/gen/diff.js: $(DIFF_JS_SRCS) Makefile
	@mkdir -p $(dir $@)
	{ printf "'use strict';\n(function () {\n"; \
	  for f in $(DIFF_JS_SRCS); do cat "$$f"; echo; done; \
	  printf '})();\n'; } >$@.tmp && mv $@.tmp $@

$(O)/gen/html_assets.c: src/print/html/embed.sh $(HTML_ASSETS)
	@mkdir -p $(dir $@)
	sh src/print/html/embed.sh $(HTML_ASSETS) >$@.tmp && mv $@.tmp $@

$(O)/gen/html_assets.o: $(O)/gen/html_assets.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Itests -MMD -MP -c -o $@ $<

$(O)/tests/%: $(O)/tests/%.o $(O)/tests/helpers.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

# it opens files with libbfd itself, to feed bfd_diag.c's handler
$(O)/tests/test_bfd_diag: LIBS += $(BFD_LIBS)

# the fuzz harnesses' pipeline, replayed on tests/fuzz/regress/
$(O)/tests/test_fuzz_regress: $(O)/tests/test_fuzz_regress.o \
		$(O)/tests/fuzz/fuzz_pipeline.o $(O)/tests/fuzz/fuzz_dwo_pipeline.o \
		$(O)/tests/helpers.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

# Each test binary runs from the top directory; a binary that ran no
# test fails (tests/run-unit checks cmocka's count).
unit-tests: $(TEST_BINS)
	@sh tests/run-unit $(TEST_BINS)

# run-e2e three times: then with the Callgrind reader's splitting
# thread forced on, which by itself only reads files over 4 MiB, and the
# listings' second thread on with chunks of one entry; then with the
# reader reading ahead in stretches however small the file, and the
# heap on small pages
e2e: cganalyze
	@sh tests/run-e2e ./cganalyze
	@CGANALYZE_READER_THREAD=1 CGANALYZE_PRINT_CHUNK=1 sh tests/run-e2e ./cganalyze
	@CGANALYZE_READER_THREAD=ahead CGANALYZE_HUGE_PAGES=0 sh tests/run-e2e ./cganalyze
	@sh tests/run-thirdparty ./cganalyze
	@sh tests/run-sh ./cganalyze

# The plain suite, the end-to-end tests once under valgrind memcheck (no
# error, no leak), then the whole suite again under ASan and UBSan in a
# separate build directory.
check: unit-tests e2e memcheck
ifndef SANITIZE
	$(MAKE) --no-print-directory O=build-san SANITIZE=address,undefined \
		CGANALYZE_SAN=1 sanitize-check
endif

sanitize-check: unit-tests
	$(MAKE) --no-print-directory O=$(O) SANITIZE=$(SANITIZE) cganalyze-san
	@sh tests/run-e2e ./$(O)/cganalyze
	@CGANALYZE_READER_THREAD=1 CGANALYZE_PRINT_CHUNK=1 sh tests/run-e2e ./$(O)/cganalyze
	@CGANALYZE_READER_THREAD=ahead sh tests/run-e2e ./$(O)/cganalyze
	@sh tests/run-thirdparty ./$(O)/cganalyze

cganalyze-san: $(O)/src/cli/main.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $(O)/cganalyze $^ $(LIBS)

memcheck: cganalyze
	@if command -v valgrind >/dev/null 2>&1; then \
		sh tests/run-e2e "valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all --suppressions=tests/valgrind.supp ./cganalyze"; \
	else echo "memcheck: skipped (valgrind is not installed)"; fi

bench: cganalyze
	sh bench/run

# DESTDIR stages the files for a package; tests/sh/install.sh installs
# into a temporary one and runs what it installed.
install: cganalyze
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 cganalyze $(DESTDIR)$(BINDIR)/cganalyze
	$(INSTALL) -m 644 doc/cganalyze.1 $(DESTDIR)$(MANDIR)/man1/cganalyze.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cganalyze $(DESTDIR)$(MANDIR)/man1/cganalyze.1

clean:
	rm -rf build build-san build-fuzz cganalyze

# libFuzzer (tests/fuzz/): the library built again with clang into
# build-fuzz/, each harness run for FUZZ_SECONDS on a copy of its seed
# corpus (new entries and crashes stay in build-fuzz/; the committed
# corpora and tests/fuzz/regress/ are only read). Needs FUZZ_PACKAGES.
FUZZ_PACKAGES = clang-14 libclang-rt-14-dev
FUZZ_CC ?= clang
FUZZ_O = build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(filter-out $(CFLAGS),$(ALL_CFLAGS)) -O1 -g $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link
FUZZ_LDFLAGS = -fsanitize=fuzzer,address,undefined

# (here, below FUZZ_O: a rule's targets are expanded where it stands)
$(O)/symtab/binutils_load.o $(FUZZ_O)/symtab/binutils_load.o: \
	ALL_CFLAGS += $(if $(OPCODES_SONAME),-DOPCODES_SONAME='"$(OPCODES_SONAME)"') \
		$(if $(BFD_SONAME),-DBFD_SONAME='"$(BFD_SONAME)"')
$(O)/src/read/perf/libdw_load.o $(FUZZ_O)/src/read/perf/libdw_load.o: \
	ALL_CFLAGS += $(if $(LIBDW_SONAME),-DLIBDW_SONAME='"$(LIBDW_SONAME)"')
# A blow-up is a finding: no input of 64 KiB may take more than 2 GiB
# (ASan's own included), nor ask for 256 MiB at once. A harness with a
# tests/fuzz/NAME.dict gets it (perf.data's record types and features).
FUZZ_FLAGS = -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	-malloc_limit_mb=256 \
	-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1
FUZZ_HARNESSES = callgrind igprof symtab gmon perf gperf pprof plt dwo
FUZZ_BINS = $(FUZZ_HARNESSES:%=$(FUZZ_O)/fuzz_%)
FUZZ_LIB_OBJS = $(LIB_SRCS:%.c=$(FUZZ_O)/%.o) $(FUZZ_O)/gen/html_assets.o \
	$(FUZZ_O)/tests/fuzz/fuzz_pipeline.o $(FUZZ_O)/tests/fuzz/fuzz_dwo_pipeline.o

.PHONY: fuzz fuzz-build
fuzz: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
		rm -rf $(FUZZ_O)/corpus-$$h $(FUZZ_O)/artifacts-$$h && \
		mkdir -p $(FUZZ_O)/corpus-$$h $(FUZZ_O)/artifacts-$$h && \
		cp tests/fuzz/corpus-$$h/* $(FUZZ_O)/corpus-$$h/ && \
		echo "fuzz_$$h: $(FUZZ_SECONDS)s" && \
		./$(FUZZ_O)/fuzz_$$h $(FUZZ_FLAGS) \
			$$(test -f tests/fuzz/$$h.dict && echo -dict=tests/fuzz/$$h.dict) \
			-artifact_prefix=$(FUZZ_O)/artifacts-$$h/ \
			$(FUZZ_O)/corpus-$$h tests/fuzz/regress || exit 1; \
	done

fuzz-build: $(FUZZ_BINS)
.PRECIOUS: $(FUZZ_O)/%.o

$(FUZZ_O)/fuzz_%: $(FUZZ_O)/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LIBS)

# the HTML report's page, made for the program's build
$(FUZZ_O)/gen/html_assets.o: $(O)/gen/html_assets.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itests -MMD -MP -c -o $@ $<

-include $(shell find $(FUZZ_O) -name '*.d' 2>/dev/null)

-include $(shell find $(O) build-san -name '*.d' 2>/dev/null)
