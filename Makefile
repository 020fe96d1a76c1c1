# cganalyze
#   make                                  build ./cganalyze
#   make check                            unit, end-to-end and sanitizer tests
#   make SANITIZE=address,undefined check the suite under ASan and UBSan only
#   make DEVELOPER=1                      warnings are errors
#   make bench                            benchmark figures (for people)

CC ?= cc
PKG_CONFIG ?= pkg-config
O ?= build

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
BFD_LIBS ?= -lbfd

ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARNINGS) $(CFLAGS) -Isrc -Icg -Isymtab \
	$(ZLIB_CFLAGS) $(LIBELF_CFLAGS) $(LIBDWARF_CFLAGS)
LIBS = $(LIBDWARF_LIBS) $(LIBELF_LIBS) $(BFD_LIBS) $(ZLIB_LIBS) $(BZ2_LIBS) -lm

LIB_SRCS = src/xalloc.c src/arena.c src/diag.c src/hashmap.c src/names.c \
	src/input.c src/profile.c src/profile_pos.c src/profile_rekey.c \
	src/read.c src/read_callgrind.c src/resolve.c \
	src/options.c src/analyze.c src/print_names.c src/print_flat.c \
	src/print_graph.c src/print_json.c src/blurbs.c \
	cg/build.c cg/cycles.c cg/propagate.c cg/rank.c \
	symtab/symtab.c symtab/elf.c symtab/plt.c symtab/demangle.c \
	symtab/debugfile.c symtab/dwarf.c symtab/dwarf_check.c symtab/lines.c \
	symtab/frames.c symtab/format.c
LIB_OBJS = $(LIB_SRCS:%.c=$(O)/%.o)

TESTS = $(sort $(basename $(notdir $(wildcard tests/test_*.c))))
TEST_BINS = $(TESTS:%=$(O)/tests/%)

.PHONY: all check unit-tests e2e memcheck sanitize-check cganalyze-san clean bench
all: cganalyze

cganalyze: $(O)/src/main.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(O)/libcganalyze.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -Itests -MMD -MP -c -o $@ $<

$(O)/tests/%: $(O)/tests/%.o $(O)/tests/helpers.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LIBS)

# Each test binary runs from the top directory; a binary that ran no
# test fails (tests/run-unit checks cmocka's count).
unit-tests: $(TEST_BINS)
	@sh tests/run-unit $(TEST_BINS)

e2e: cganalyze
	@sh tests/run-e2e ./cganalyze
	@sh tests/run-thirdparty ./cganalyze

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
	@sh tests/run-thirdparty ./$(O)/cganalyze

cganalyze-san: $(O)/src/main.o $(O)/libcganalyze.a
	$(CC) $(LDFLAGS) -o $(O)/cganalyze $^ $(LIBS)

memcheck: cganalyze
	@if command -v valgrind >/dev/null 2>&1; then \
		sh tests/run-e2e "valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all ./cganalyze"; \
	else echo "memcheck: skipped (valgrind is not installed)"; fi

bench: cganalyze
	sh bench/run

clean:
	rm -rf build build-san cganalyze

-include $(shell find $(O) build-san -name '*.d' 2>/dev/null)
