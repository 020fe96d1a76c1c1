/*
 * symtab/bfd_diag.c: libbfd's format strings (%pA, %pB, numbered
 * arguments) printed without vfprintf, and its messages routed through
 * our diagnostics, once per file.
 */
#define PACKAGE "cganalyze"
#define PACKAGE_VERSION "0"
#include <bfd.h>

#include "helpers.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "symtab/symtab_int.h"

#define ELF "tests/elf/prog-x86_64"

static char *fmt(size_t size, const char *format, ...)
{
	char *buf = malloc(size);
	va_list ap;

	assert_non_null(buf);
	va_start(ap, format);
	bfd_format_message(buf, size, format, ap);
	va_end(ap);
	return buf;
}

static void expect(char *got, const char *want)
{
	if (strcmp(got, want))
		fail_msg("got '%s', expected '%s'", got, want);
	free(got);
}

static bfd *open_elf(void)
{
	bfd *abfd;

	bfd_init();
	abfd = bfd_openr(ELF, NULL);
	assert_non_null(abfd);
	assert_true(bfd_check_format(abfd, bfd_object));
	return abfd;
}

static void test_printf_conversions(void **state)
{
	(void)state;
	expect(fmt(256, "plain"), "plain");
	expect(fmt(256, "100%% sure"), "100% sure");
	expect(fmt(256, "%d %u %x %#lx", -3, 7u, 255u, 0xabcUL),
	       "-3 7 ff 0xabc");
	expect(fmt(256, "%" PRIu64 " >= %" PRId64, (uint64_t)1 << 40,
		   (int64_t)-5), "1099511627776 >= -5");
	expect(fmt(256, "[%5d|%-4s|%.2s|%08x]", 42, "ab", "xyz", 0x1234u),
	       "[   42|ab  |xy|00001234]");
	expect(fmt(256, "[%*d|%.*s]", 4, 7, 1, "qq"), "[   7|q]");
	expect(fmt(256, "%zu %c %hd", (size_t)9, 'k', 3), "9 k 3");
	expect(fmt(256, "%s", (char *)NULL), "(null)");
	expect(fmt(256, "%.1f", 2.25), "2.2");
	/* numbered arguments, as translations of bfd's messages have */
	expect(fmt(256, "%2$s before %1$d", 5, "six"), "six before 5");
}

/* What cannot be printed safely is shown as the format, with no
 * argument read. */
static void test_unprintable_formats(void **state)
{
	(void)state;
	expect(fmt(256, "wrote %n", (int *)NULL), "wrote %n");
	expect(fmt(256, "wide %ls", (void *)NULL), "wide %ls");
	expect(fmt(256, "gap %1$d %3$d", 1, 2, 3), "gap %1$d %3$d");
	expect(fmt(256, "mixed %1$d %*d", 1, 2, 3), "mixed %1$d %*d");
	expect(fmt(256, "ends in %", 1), "ends in %");
	expect(fmt(256, "%2$d %2$s", 1, "x"), "%2$d %2$s");
}

static void test_truncation(void **state)
{
	(void)state;
	expect(fmt(8, "%s", "a long string"), "a long ");
	expect(fmt(8, "abcdefghij"), "abcdefg");
	expect(fmt(6, "ab%dcd", 12345), "ab123");
	expect(fmt(1, "anything %d", 3), "");
}

static void test_bfd_extensions(void **state)
{
	bfd *abfd = open_elf();
	asection *text = bfd_get_section_by_name(abfd, ".text");

	(void)state;
	assert_non_null(text);
	expect(fmt(256, "%pB: invalid string offset %u >= %" PRIu64
		   " for section `%pA'", abfd, 99u, (uint64_t)39, text),
	       ELF ": invalid string offset 99 >= 39 for section `.text'");
	expect(fmt(256, "%pB(%pA): relocation %ld", abfd, text, 3L),
	       ELF "(.text): relocation 3");
	expect(fmt(256, "%2$pA in %1$pB", abfd, text), ".text in " ELF);
	expect(fmt(256, "[%-8pA]", text), "[.text   ]");
	expect(fmt(256, "%pB %pA", (bfd *)NULL, (asection *)NULL),
	       "(null) (null)");
	bfd_close(abfd);
}

/* The first message about a file is a warning naming it; the others are
 * one line at the end. */
static void test_routing(void **state)
{
	bfd *abfd = open_elf();
	asection *text = bfd_get_section_by_name(abfd, ".text");
	char *out;

	(void)state;
	diag_capture_begin();
	bfd_diag_begin(ELF);
	_bfd_error_handler("%pB: invalid string offset %u", abfd, 7u);
	_bfd_error_handler("%pB(%pA): relocation 2 has invalid symbol index 9",
			   abfd, text);
	_bfd_error_handler("warning: %pB has a section extending past end of file",
			   abfd);
	bfd_diag_end();
	out = diag_capture_end();
	assert_string_equal(out,
		"cganalyze: warning: " ELF ": libbfd: invalid string offset 7\n"
		"cganalyze: warning: " ELF ": libbfd: 2 more problems like the one above\n");
	free(out);

	/* each form bfd names the file in, said our way */
	static const struct {
		const char *fmt, *want;
	} forms[] = {
		{ "%pB(%pA): relocation 2", "section '.text': relocation 2" },
		{ "warning: %pB has a section extending past end of file",
		  "the file has a section extending past end of file" },
		{ "warning: %pB: corrupt note", "corrupt note" },
		{ "%pB: warning: odd", "odd" },
		{ "no file named", "no file named" },
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		char want[256];

		diag_capture_begin();
		bfd_diag_begin(ELF);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		_bfd_error_handler(forms[i].fmt, abfd, text);
#pragma GCC diagnostic pop
		bfd_diag_end();
		out = diag_capture_end();
		snprintf(want, sizeof(want),
			 "cganalyze: warning: " ELF ": libbfd: %s\n", forms[i].want);
		assert_string_equal(out, want);
		free(out);
	}
	bfd_close(abfd);
}

/* bfd_check_format() prints some messages to stderr itself; those are
 * caught and routed too. */
static void test_capture(void **state)
{
	char *out;

	(void)state;
	diag_capture_begin();
	bfd_diag_begin(ELF);
	bfd_diag_capture_begin();
	fprintf(stderr, "BFD: warning: " ELF " has a program header with invalid alignment\n"
		"second message\n");
	bfd_diag_capture_end();
	bfd_diag_end();
	out = diag_capture_end();
	assert_string_equal(out,
		"cganalyze: warning: " ELF ": libbfd: the file has a program header with invalid alignment\n"
		"cganalyze: warning: " ELF ": libbfd: 1 more problem like the one above\n");
	free(out);
}

/*
 * Our own messages while stderr is the scratch file: with the sink on
 * stderr (as in cganalyze), a message from bfd's handler during
 * bfd_check_format() would land in the scratch file and be read back as
 * one of bfd's. It is held and said first; bfd's own lines are counted.
 */
static void test_capture_own_messages(void **state)
{
	char path[] = "/tmp/cga-test-stderr-XXXXXX";
	int fd = mkstemp(path), saved;
	bfd *abfd = open_elf();
	char *out;
	size_t len;

	(void)state;
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	diag_set_sink(NULL);	/* stderr */
	bfd_diag_begin(ELF);
	bfd_diag_capture_begin();
	_bfd_error_handler("%pB: said during the check", abfd);
	_bfd_error_handler("%pB: and again", abfd);
	fprintf(stderr, "BFD: " ELF ": printed by bfd itself\n");
	bfd_diag_capture_end();
	bfd_diag_end();
	fflush(stderr);
	assert_int_equal(dup2(saved, STDERR_FILENO), STDERR_FILENO);
	close(saved);
	close(fd);
	out = slurp(path, &len);
	unlink(path);
	assert_non_null(out);
	assert_string_equal(out,
		"cganalyze: warning: " ELF ": libbfd: said during the check\n"
		"cganalyze: warning: " ELF ": libbfd: 2 more problems like the one above\n");
	free(out);
	bfd_close(abfd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_printf_conversions),
		cmocka_unit_test(test_unprintable_formats),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_bfd_extensions),
		cmocka_unit_test(test_routing),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_capture_own_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
