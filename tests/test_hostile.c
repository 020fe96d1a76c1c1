/*
 * Input too big or too odd to commit: made at test time. A 100 MB line
 * and a line over the line reader's 256 MiB limit come through a pipe
 * from a child process (nothing big on disk); a file nobody may read
 * is made unreadable for root too, by reading it as another user.
 */
#include "helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/hashmap.h"
#include "base/names.h"
#include "read/line_reader.h"
#include "symtab/symtab.h"

/* What the child writes: head, then `fill` bytes of `c`, then tail. */
struct stream {
	const char *head;
	size_t fill;
	char c;
	const char *tail;
};

static void write_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(0);	/* the reader stopped: fine */
		p += w;
		n -= (size_t)w;
	}
}

/*
 * A pipe fed by a child process with s; *path names its read end
 * ("/dev/fd/N", which the readers open like any file). Returns the read
 * end's fd; finish_stream() closes it and reaps the child.
 */
static int start_stream(const struct stream *s, pid_t *pid, char *path,
			size_t size)
{
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (*pid == 0) {
		static char chunk[1 << 20];
		size_t left = s->fill;

		close(fds[0]);
		memset(chunk, s->c, sizeof(chunk));
		write_all(fds[1], s->head, strlen(s->head));
		while (left) {
			size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

			write_all(fds[1], chunk, n);
			left -= n;
		}
		write_all(fds[1], s->tail, strlen(s->tail));
		_exit(0);
	}
	close(fds[1]);
	snprintf(path, size, "/dev/fd/%d", fds[0]);
	return fds[0];
}

static void finish_stream(int fd, pid_t pid)
{
	close(fd);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/* A line one byte over the default limit is an error naming its line,
 * after the buffer grew to the limit and no further. */
static void test_line_over_default_limit(void **state)
{
	const struct stream s = {
		"ok\n", LINE_READER_MAX_LINE + 1, 'x', "\nend\n",
	};
	struct line_reader lr;
	char path[64], want[128];
	char *line, *msg;
	size_t len;
	pid_t pid;
	int fd, r;

	(void)state;
	fd = start_stream(&s, &pid, path, sizeof(path));
	diag_capture_begin();
	assert_int_equal(line_reader_open(&lr, path), 0);
	assert_int_equal(line_reader_next(&lr, &line, &len), 1);
	assert_string_equal(line, "ok");
	r = line_reader_next(&lr, &line, &len);
	assert_true(lr.cap <= LINE_READER_MAX_LINE + 1);
	line_reader_close(&lr);
	msg = diag_capture_end();
	finish_stream(fd, pid);
	assert_int_equal(r, -1);
	snprintf(want, sizeof(want), "cganalyze: %s:2: line longer than 256 MiB\n",
		 path);
	assert_string_equal(msg, want);
	free(msg);
}

/* A 100 MB line is read: a function named by 100,000,000 bytes. */
static void test_hundred_mb_line(void **state)
{
	const size_t n = 100 * 1000 * 1000;
	const struct stream s = {
		"events: Ir\nfn=", n, 'f', "\n1 5\nfn=main\n2 3\n",
	};
	struct profile p;
	char path[64];
	char *msg;
	uint32_t f;
	pid_t pid;
	int fd;

	(void)state;
	fd = start_stream(&s, &pid, path, sizeof(path));
	profile_init(&p);
	assert_int_equal(read_path(&p, path, NULL, &msg), 0);
	finish_stream(fd, pid);
	assert_string_equal(msg, "");
	assert_int_equal(p.nfuncs, 2);
	f = find_func(&p, "main");
	assert_int_not_equal(f, NO_ID);
	f = 1 - f;
	assert_int_equal(strlen(profile_str(&p, p.funcs[f].name)), n);
	assert_int_equal(profile_self(&p, f)[0], 5);
	free(msg);
	profile_release(&p);
}

/*
 * Reading as another user (nobody) makes a mode-000 file unreadable
 * even when the tests run as root, where chmod alone stops nothing.
 * The child reports by exit status: 0 when each message was as
 * expected, 1 when not, 77 when it could not become nobody.
 */
static int read_as_nobody(const char *profile, const char *binary)
{
	char want[512];
	struct profile p;
	struct symtab st;
	struct symtab_opts so = { .debug_dir = "/nonexistent" };
	struct arena arena;
	struct names names;
	char *msg;
	int ok;

	if (geteuid() == 0 &&
	    (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0))
		return 77;
	if (access(profile, R_OK) == 0)
		return 77;	/* a user that can read anything */
	profile_init(&p);
	ok = read_path(&p, profile, NULL, &msg) == -1;
	snprintf(want, sizeof(want),
		 "cganalyze: cannot open '%s': Permission denied\n", profile);
	ok = ok && !strcmp(msg, want);
	if (!ok)
		fprintf(stderr, "profile: %s", msg);
	free(msg);
	profile_release(&p);

	arena_init(&arena);
	names_init(&names, &arena);
	diag_capture_begin();
	ok = symtab_open(&st, binary, &so, &names) == -1 && ok;
	msg = diag_capture_end();
	snprintf(want, sizeof(want),
		 "cganalyze: cannot open '%s': Permission denied\n", binary);
	if (strcmp(msg, want)) {
		fprintf(stderr, "binary: %s", msg);
		ok = 0;
	}
	free(msg);
	names_release(&names);
	arena_release(&arena);
	return ok ? 0 : 1;
}

static void test_unreadable_paths(void **state)
{
	char dir[] = "/tmp/cga-test-XXXXXX";
	char profile[64], binary[64];
	pid_t pid;
	int status, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);	/* only the files are shut */
	snprintf(profile, sizeof(profile), "%s/profile", dir);
	snprintf(binary, sizeof(binary), "%s/prog", dir);
	fd = open(profile, O_WRONLY | O_CREAT | O_EXCL, 0);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "events: Ir\n1 1\n", 15), 15);
	close(fd);
	fd = open(binary, O_WRONLY | O_CREAT | O_EXCL, 0);
	assert_true(fd >= 0);
	close(fd);

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(read_as_nobody(profile, binary));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	unlink(profile);
	unlink(binary);
	rmdir(dir);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77) {
		print_message("cannot read as another user here: skipped\n");
		skip();
	}
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The inverse of hash_u64() without its secret: what a file could use
 * to choose ids if the hash were fixed. */
static uint64_t unxorshift(uint64_t y, unsigned s)
{
	uint64_t x = y;

	for (unsigned i = 0; i < 64 / s + 1; i++)
		x = y ^ (x >> s);
	return x;
}

static uint64_t inverse_mod_2_64(uint64_t a)
{
	uint64_t x = a;	/* Newton's iteration: 3, 6, 12, 24, 48, 96 bits */

	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

static uint64_t unhash(uint64_t h)
{
	uint64_t x = unxorshift(h, 31);

	x *= inverse_mod_2_64(0x94d049bb133111ebULL);
	x = unxorshift(x, 27);
	x *= inverse_mod_2_64(0xbf58476d1ce4e5b9ULL);
	return unxorshift(x, 30);
}

/*
 * Ids chosen so that the bare mixer sends them all to one slot (their
 * hashes differ only above bit 32) spread over the slots once the run's
 * secret is mixed in: no file can fill one probe chain on purpose.
 */
static void test_hash_flooding(void **state)
{
	enum { N = 1000, BITS = 16 };
	static bool seen[1 << BITS];
	uint64_t secret = hash_secret;
	unsigned distinct = 0;

	(void)state;
	/* the inverse is right: with no secret, all N collide */
	hash_secret = 0;
	for (uint64_t k = 1; k <= N; k++)
		assert_int_equal(hash_u64(unhash(k << 32)) & ((1 << BITS) - 1), 0);
	hash_secret = secret;
	for (uint64_t k = 1; k <= N; k++) {
		uint64_t slot = hash_u64(unhash(k << 32)) & ((1 << BITS) - 1);

		distinct += !seen[slot];
		seen[slot] = true;
	}
	/* random slots: about 992 distinct of 1000 */
	if (distinct < 900)
		fail_msg("only %u distinct slots of %d", distinct, N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_over_default_limit),
		cmocka_unit_test(test_hundred_mb_line),
		cmocka_unit_test(test_unreadable_paths),
		cmocka_unit_test(test_hash_flooding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
