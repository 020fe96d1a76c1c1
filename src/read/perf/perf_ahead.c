/*
 * A perf.data read ahead on a second thread (see perf_ahead.h).
 *
 * The file's [start, end) is read in pieces of PIECE bytes, piece k
 * into buffer k % PIECES, by other threads, while the main thread takes
 * the records out of the pieces read before. The main thread holds the
 * piece of the offset it last asked to keep (perf_ahead_bytes_kept();
 * else of the offset asked for) and those after it up to the one asked
 * for and the next (a record may cross into it: the two parts are
 * joined in a buffer of its own); the threads read at most PIECES - 1
 * pieces past the first one held. Two threads read, each taking the
 * next piece not yet taken: one with O_DIRECT (the device's DMA, no
 * copy by the processor), the pieces DIRECT_AHEAD or more past the one
 * last asked for, so that the device's time (0.45 ms a piece) is spent
 * before the piece is needed; the other through the page cache (the
 * kernel's copy, 0.25 ms of CPU), the pieces nearer than that, when
 * the direct reads have fallen behind the main thread (read_direct(),
 * reader()).
 *
 * A piece's slot (k % PIECES) says where the piece is; its buffer comes
 * from a pool when a thread takes it, and goes back when the main
 * thread lets the piece go, the last one back the first taken again.
 * The threads read the pieces up to LIGHT from the first one held, or,
 * when more is kept, up to AHEAD past the one last asked for: with
 * little kept (the usual: a round or two of perf record's) about LIGHT
 * buffers are ever used, and up to PIECES when much is kept. Each
 * buffer's first use faults in memory new to the process, which on a
 * virtual machine whose host has taken it back costs 2.5 ms a MiB.
 */
#include "perf_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/xalloc.h"

#define PIECE ((size_t)1 << 20)
/* O_DIRECT's alignment of offsets, lengths and buffers (a logical
 * block is 512 or 4096 bytes) */
#define BLOCK ((size_t)4096)
/* A piece is taken by the direct reads when the main thread has this
 * many pieces read or being read ahead of the one it last asked for
 * (else the copying thread takes it): 1.2 ms of the main thread's
 * work, against a direct read's 0.45 ms. One thread doing both, direct
 * only from 6 ahead, read 34% of the 1 GB recording's pieces direct
 * once the main thread took a piece in 0.39 ms: a direct read fell
 * behind it. */
#define DIRECT_AHEAD 3
/* and never again once such reads take longer than this a piece on
 * average, from the 8th on, or one took DIRECT_STALL_NS (a slow disk,
 * a network file system, a range the kernel had to write back first):
 * the main thread would run out of pieces. Here (a virtual disk the
 * host has cached) a piece took 0.6-0.9 ms, the main thread's use of
 * one about 0.5 ms, a copy through the page cache 0.2 ms of CPU. The
 * time a read is counted is the device's: less the thread's wait for
 * a processor once the read was done (perf_ahead_device_ns()). */
#define DIRECT_MEAN_NS 1500000
#define DIRECT_STALL_NS 50000000
/* Up to 15 MiB kept behind a record (a reader in one pass keeps the
 * samples of a round or two of perf record's, a few hundred KB), and
 * room for the thread to get well ahead while it has a processor: with
 * 6, on two processors shared with the second unwinder and the symbol
 * tables' thread, the main thread waited for pieces 110-175 ms a run
 * of the 1 GB recording (27-52 ms with 16, and no direct reads).
 * With the two reading threads of now, 8 did better than 16 on that
 * recording (0.93-0.98 of its wall time, 5 runs of 11-25 interleaved
 * rounds; 16 MiB of buffers touched first were 37 ms of the copying
 * thread's CPU in one run): LIGHT, while as many as 16 may be held. */
#define PIECES PERF_AHEAD_PIECES
#define AHEAD PERF_AHEAD_READ_AHEAD
#define LIGHT PERF_AHEAD_LIGHT
/* A record's size is a u16: one crosses at most into the next piece. */
#define RECORD_MAX PERF_AHEAD_RECORD_MAX
_Static_assert(RECORD_MAX <= PIECE, "a record spans at most two pieces");

struct piece {
	size_t index;		/* SIZE_MAX: none yet */
	size_t len;
	bool failed;		/* a read error, or the file ended early */
};

struct perf_ahead {
	int fd;
	size_t start, end;
	pthread_t thread, direct_thread;
	pthread_mutex_t lock;
	/* each waits on its own: the main thread for a piece, each reading
	 * thread (by direct) for a piece to take, and is woken only when
	 * that may have come (wake_readers(), wake_main()) */
	pthread_cond_t main_cv, reader_cv[2];
	bool reader_idle[2];	/* under lock: waiting on reader_cv */
	size_t main_waits;	/* under lock: the piece the main thread
				 * waits for; SIZE_MAX: none */
	unsigned char *bufs[PIECES];	/* the pool's, in mem, at start's
					 * offset in a block */
	bool used[PIECES];		/* bufs[i] written before (under
					 * lock) */
	/* under lock: the pool's buffers free (indexes into bufs, the
	 * last the first taken); each taken piece's, by slot (its
	 * index k % PIECES), which the main thread reads without the lock
	 * for the pieces it saw read; the pieces below freed have given
	 * theirs back */
	uint8_t free[PIECES];
	size_t nfree;
	uint8_t buf_of[PIECES];
	size_t freed;
	void *mem;			/* the pieces' mapping */
	int direct_fd;		/* the file opened again with O_DIRECT, the
				 * thread's; -1: none, or no longer */
	size_t asked;		/* the last piece asked for (under lock) */
	size_t direct_ahead;	/* DIRECT_AHEAD, or 0 (tests) */
	/* the direct thread's: its reads with O_DIRECT, and their time
	 * as the guard counts it (perf_ahead_direct_slow()) */
	size_t direct_reads;
	uint64_t direct_ns;
	int sched_fd;		/* the direct thread's schedstat; -1: none */
	bool sched_looked;
	struct piece pieces[PIECES];	/* under lock */
	size_t held;		/* the first piece the main thread holds */
	/* the main thread's own: pieces [held, seen) were read, and stay
	 * (the threads read over only pieces before held), so they are
	 * taken without the lock, whose line would go back and forth
	 * between the processors twice a record */
	size_t seen;
	bool started, direct_started;	/* the threads were made */
	/* under lock: the next piece not taken by either thread; the
	 * direct reads still on; a read failed or the file ended early;
	 * the threads not yet ended */
	size_t next;
	bool direct_on, failed;
	int running;
	bool stop, done;	/* asked to stop; both threads have ended */
	unsigned char *joined;	/* a record across two pieces */
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * How long the calling thread has waited for a processor while
 * runnable, in ns (the second field of /proc/thread-self/schedstat),
 * or 0 where the kernel does not say (then a read's time is its wall
 * time, as before).
 */
static uint64_t run_delay_ns(struct perf_ahead *a)
{
	char text[96];
	char *end;
	ssize_t got;

	if (!a->sched_looked) {
		a->sched_fd = open("/proc/thread-self/schedstat",
				   O_RDONLY | O_CLOEXEC);
		a->sched_looked = true;
	}
	if (a->sched_fd < 0)
		return 0;
	got = pread(a->sched_fd, text, sizeof(text) - 1, 0);
	if (got <= 0)
		return 0;
	text[got] = '\0';
	strtoull(text, &end, 10);
	return strtoull(end, NULL, 10);
}

/*
 * On a machine whose processors are all busy, the thread woken at the
 * read's end waits for one, for milliseconds at times. Counted as the
 * device's, those waits stopped the direct reads at the 8th piece in
 * most runs at a load of 3 on two processors, where the device takes
 * 0.4-0.5 ms a piece.
 */
uint64_t perf_ahead_device_ns(uint64_t t0, uint64_t t1, uint64_t delay0,
			      uint64_t delay1)
{
	uint64_t wall = t1 - t0, waited = delay1 - delay0;

	return delay1 < delay0 || waited > wall ? wall : wall - waited;
}

/*
 * The guard: whether the direct reads are too slow to go on with, once
 * the read of took ns is counted in *counted (the reads' total, as
 * counted) as the reads-th. Each read counts at most twice
 * DIRECT_MEAN_NS: on this machine one read in a few hundred takes 3-9
 * ms among reads of 0.45, and one such read among the first 8 stopped
 * the direct reads for the run (its reading thread's CPU then grew by
 * 150 ms of copying). A device slow on read after read still passes
 * the mean; one that stalls passes DIRECT_STALL_NS at once.
 */
bool perf_ahead_direct_slow(size_t reads, uint64_t *counted, uint64_t took)
{
	uint64_t most = 2 * (uint64_t)DIRECT_MEAN_NS;

	*counted += took < most ? took : most;
	return took > DIRECT_STALL_NS ||
	       (reads >= 8 && *counted > reads * (uint64_t)DIRECT_MEAN_NS);
}

/*
 * The start of piece k's bytes with O_DIRECT: the device's DMA puts
 * them in buf, where pread() through the page cache has the processor
 * copy them (a sixth of the reading's CPU on a --call-graph dwarf
 * recording). How many came (what is missing is read the usual way).
 */
static size_t read_direct(struct perf_ahead *a, size_t off, size_t want,
			  unsigned char *buf, bool first_use)
{
	size_t lead = off % BLOCK, len = 0;
	size_t span = (lead + want + BLOCK - 1) / BLOCK * BLOCK;
	uint64_t delay0, t0, took;
	ssize_t got;

	/* a buffer's first read faults its pages in (zeroed: 5 ms a huge
	 * page where the host took the memory back), which is not the
	 * device's time: done before the read is timed, or the first
	 * reads stopped the direct reads at the 8th (1 run in 4) */
	if (first_use)
		for (size_t i = 0; i < span; i += BLOCK)
			((volatile unsigned char *)(buf - lead))[i] = 0;
	delay0 = run_delay_ns(a);
	t0 = now_ns();
	got = pread(a->direct_fd, buf - lead, span, (off_t)(off - lead));

	took = now_ns();
	took = perf_ahead_device_ns(t0, took, delay0, run_delay_ns(a));
	a->direct_reads++;
	if (got > 0 && (size_t)got > lead)
		len = (size_t)got - lead < want ? (size_t)got - lead : want;
	if (len < want || perf_ahead_direct_slow(a->direct_reads,
						 &a->direct_ns, took)) {
		close(a->direct_fd);
		a->direct_fd = -1;
	}
	return len;
}

/* Piece k's bytes into buf: how many, and whether all came. */
static size_t read_piece(struct perf_ahead *a, size_t k, unsigned char *buf,
			 bool first_use, bool direct, bool *failed)
{
	size_t off = a->start + k * PIECE, len = 0;
	size_t want = a->end - off < PIECE ? a->end - off : PIECE;

	*failed = false;
	if (direct)
		len = read_direct(a, off, want, buf, first_use);
	while (len < want) {
		ssize_t got = pread(a->fd, buf + len, want - len,
				    (off_t)(off + len));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			*failed = true;
			break;
		}
		len += (size_t)got;
	}
	return len;
}

/*
 * Whether the thread (direct: the one reading with O_DIRECT) takes
 * piece k now (under lock): the direct reads take the pieces at least
 * direct_ahead past the one last asked for, the copying thread the
 * nearer ones, and every piece once the direct reads are off.
 */
static bool takes(const struct perf_ahead *a, size_t k, bool direct)
{
	bool far = k >= a->asked + a->direct_ahead;

	if (!a->direct_on)
		return !direct;
	return direct ? far : !far;
}

/* Whether piece k may be read now (under lock): a slot free of the
 * pieces held, a buffer free, and within LIGHT of the first held or AHEAD
 * of the one last asked for. */
static bool has_room(const struct perf_ahead *a, size_t k)
{
	return k < a->held + PIECES && a->nfree &&
	       (k < a->held + LIGHT || k <= a->asked + AHEAD);
}

/* Whether the thread (direct: the one with O_DIRECT) has a piece to
 * take, or is to end (under lock). */
static bool reader_has_work(const struct perf_ahead *a, bool direct)
{
	size_t k = a->next;

	if (a->stop || a->failed || a->start + k * PIECE >= a->end ||
	    (direct && !a->direct_on))
		return true;
	return has_room(a, k) && takes(a, k, direct);
}

/*
 * How many pieces must be free before a reading thread that waits for
 * room is woken (unless the pieces it would read are near what the
 * main thread asks for): woken at each piece the main thread let go,
 * a thread read one piece a wake, 470 wakes a run of the 1 GB
 * recording, each a futex call on the main thread, an interrupt on
 * the other processor and, when that one was busy, the main thread's
 * processor taken for the piece's read.
 */
#define WAKE_ROOM 4

/* Whether the thread (direct) waiting has work worth a wake (under
 * lock): room for WAKE_ROOM pieces, or a piece the main thread will
 * want soon, or the end. */
static bool worth_waking(const struct perf_ahead *a, bool direct)
{
	size_t k = a->next;

	if (!reader_has_work(a, direct))
		return false;
	if (a->stop || a->failed || a->start + k * PIECE >= a->end ||
	    (direct && !a->direct_on))
		return true;
	return (k + WAKE_ROOM <= a->held + PIECES &&
		(k + WAKE_ROOM <= a->held + LIGHT ||
		 k + WAKE_ROOM <= a->asked + AHEAD + 1)) ||
	       k <= a->asked + a->direct_ahead;
}

/*
 * The reading threads that wait and are worth waking, as a mask of
 * (1 << direct), to be woken by wake() (under lock): the main thread
 * wakes them after it lets the lock go, so that one woken does not
 * find the lock held and sleep on it again, to be woken a second time
 * by the unlock (89 such wakes a run, each of which took the main
 * thread's processor). One condition variable for all, broadcast at
 * each change, woke both threads at each piece the main thread asked
 * for and each read: on the 1 GB recording 4,800-5,200 wakes a run,
 * 4,300 of them the copying thread's (which reads about 300 pieces),
 * and some 15,000 futex calls; a wake makes the other processor take
 * an interrupt.
 */
static unsigned readers_to_wake(struct perf_ahead *a)
{
	unsigned mask = 0;

	for (int d = 0; d < 2; d++)
		if (a->reader_idle[d] && worth_waking(a, d)) {
			/* not asked again before it has looked */
			a->reader_idle[d] = false;
			mask |= 1u << d;
		}
	return mask;
}

/* The threads of mask woken, with the lock held or not: each was
 * waiting when it was chosen (readers_to_wake()), and looks at its
 * work under the lock before it waits again. */
static void wake(struct perf_ahead *a, unsigned mask)
{
	for (int d = 0; d < 2; d++)
		if (mask >> d & 1)
			pthread_cond_signal(&a->reader_cv[d]);
}

static void wake_readers(struct perf_ahead *a)
{
	wake(a, readers_to_wake(a));
}

/* The main thread woken if it waits for piece k (or for anything: the
 * reads ended), under lock. */
static void wake_main(struct perf_ahead *a, size_t k)
{
	if (a->main_waits != SIZE_MAX && (a->main_waits == k || a->done))
		pthread_cond_signal(&a->main_cv);
}

/* The buffers of the pieces below the one held first back to the pool
 * (under lock), each once read (every piece below the one held was
 * asked for and read: a piece not, were there one, keeps its buffer
 * until it is). */
static void give_back(struct perf_ahead *a)
{
	while (a->freed < a->held && a->freed < a->next &&
	       a->pieces[a->freed % PIECES].index == a->freed) {
		a->free[a->nfree++] = a->buf_of[a->freed % PIECES];
		a->freed++;
	}
}

static void reader_loop(struct perf_ahead *a, bool direct)
{
	unsigned wakes;
	uint8_t ix;
	bool first_use;

	pthread_mutex_lock(&a->lock);
	for (;;) {
		size_t k = a->next;
		struct piece p = { k, 0, false };

		if (a->stop || a->failed || a->start + k * PIECE >= a->end ||
		    (direct && !a->direct_on))
			break;
		if (!has_room(a, k) || !takes(a, k, direct)) {
			a->reader_idle[direct] = true;
			pthread_cond_wait(&a->reader_cv[direct], &a->lock);
			a->reader_idle[direct] = false;
			continue;
		}
		a->next++;
		ix = a->free[--a->nfree];
		a->buf_of[k % PIECES] = ix;
		first_use = !a->used[ix];
		a->used[ix] = true;
		/* the next may be the other thread's */
		wakes = readers_to_wake(a);
		pthread_mutex_unlock(&a->lock);
		wake(a, wakes);
		p.len = read_piece(a, k, a->bufs[ix], first_use, direct,
				   &p.failed);
		pthread_mutex_lock(&a->lock);
		if (direct && a->direct_fd < 0)
			a->direct_on = false;	/* the guard stopped them */
		a->pieces[k % PIECES] = p;
		if (a->freed < a->held) {
			/* a piece below the one held read only now (which
			 * the main thread never asks for): the buffers
			 * from it back */
			give_back(a);
			wake_readers(a);
		}
		if (p.failed) {
			a->failed = true;
			wake_readers(a);
		}
		wake_main(a, p.failed ? a->main_waits : k);
	}
	if (direct) {
		/* the copying thread takes every piece now */
		a->direct_on = false;
		wake_readers(a);
	}
	if (--a->running == 0) {
		a->done = true;
		wake_main(a, SIZE_MAX);
	}
	pthread_mutex_unlock(&a->lock);
}

static void *reader(void *arg)
{
	reader_loop(arg, false);
	return NULL;
}

static void *direct_reader(void *arg)
{
	reader_loop(arg, true);
	return NULL;
}

/*
 * fd's file opened again with O_DIRECT (through /proc: the same file,
 * whatever its name is now), or -1: not on this file system (tmpfs
 * before Linux 6.6), no /proc, or CGANALYZE_READ_DIRECT=0 (=all: every
 * piece it can, for the tests).
 */
static int open_direct(struct perf_ahead *a, int fd)
{
	const char *env = getenv("CGANALYZE_READ_DIRECT");
	char path[40];
	struct stat was, is;
	int d;

	a->direct_ahead = env && !strcmp(env, "all") ? 0 : DIRECT_AHEAD;
	if (env && !strcmp(env, "0"))
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	d = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (d < 0)
		return -1;
	if (fstat(fd, &was) || fstat(d, &is) || was.st_dev != is.st_dev ||
	    was.st_ino != is.st_ino) {
		close(d);
		return -1;
	}
	return d;
}

/*
 * The pieces' buffers: one mapping of their own, not the heap
 * (xcalloc_table(): apart, on huge pages where the system gives them,
 * so that a direct read pins 2 MiB pages rather than 256 small ones).
 * In the heap, malloc() wrote each buffer's header as it was made, on
 * the main thread, which then faulted in all 16 MiB at the read's
 * start: 40 ms of zeroing before the first record, on a virtual
 * machine whose host had taken the memory back (a first touch costs
 * 2.5 ms a MiB there). Mapped apart, each buffer's pages are faulted
 * in by the reading threads' first read into it, beside the main
 * thread's work.
 */
#define SLOT (PIECE + 3 * BLOCK)
#define MEM_LEN (PIECES * SLOT)

static void map_pieces(struct perf_ahead *a)
{
	a->mem = xcalloc_table(MEM_LEN);
	/* the first taken first: bufs[0] on the pool's top */
	for (size_t i = 0; i < PIECES; i++) {
		a->bufs[i] = (unsigned char *)a->mem + i * SLOT +
			     a->start % BLOCK;
		a->free[i] = (uint8_t)(PIECES - 1 - i);
	}
	a->nfree = PIECES;
}

struct perf_ahead *perf_ahead_start(int fd, size_t start, size_t end)
{
	struct perf_ahead *a = xcalloc(1, sizeof(*a));

	a->fd = fd;
	a->start = start;
	a->end = end;
	map_pieces(a);
	for (size_t i = 0; i < PIECES; i++)
		a->pieces[i].index = SIZE_MAX;
	a->joined = xmalloc(RECORD_MAX);
	a->direct_fd = open_direct(a, fd);
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->main_cv, NULL);
	pthread_cond_init(&a->reader_cv[0], NULL);
	pthread_cond_init(&a->reader_cv[1], NULL);
	a->main_waits = SIZE_MAX;
	a->direct_on = a->direct_fd >= 0;
	a->running = 1 + a->direct_on;
	if (pthread_create(&a->thread, NULL, reader, a) != 0) {
		a->running = 0;
		perf_ahead_stop(a);
		return NULL;
	}
	a->started = true;
	if (a->direct_on) {
		if (pthread_create(&a->direct_thread, NULL, direct_reader,
				   a) == 0) {
			a->direct_started = true;
		} else {
			/* the copying thread reads every piece */
			pthread_mutex_lock(&a->lock);
			a->direct_on = false;
			a->running--;
			wake_readers(a);
			pthread_mutex_unlock(&a->lock);
		}
	}
	return a;
}

/* Piece k once read (under lock): NULL when it never will be. */
static const struct piece *wait_piece(struct perf_ahead *a, size_t k)
{
	const struct piece *p = &a->pieces[k % PIECES];

	while (p->index != k) {
		if (a->done)
			return NULL;
		a->main_waits = k;
		pthread_cond_wait(&a->main_cv, &a->lock);
		a->main_waits = SIZE_MAX;
	}
	return p->failed ? NULL : p;
}

/* The buffer of piece k, which the main thread saw read. */
static const unsigned char *piece_buf(const struct perf_ahead *a, size_t k)
{
	return a->bufs[a->buf_of[k % PIECES]];
}

const unsigned char *perf_ahead_bytes(struct perf_ahead *a, size_t at,
				      size_t n)
{
	return perf_ahead_bytes_kept(a, at, n, at);
}

const unsigned char *perf_ahead_bytes_kept(struct perf_ahead *a, size_t at,
					   size_t n, size_t keep)
{
	size_t k, last, in, kept;
	const struct piece *p, *q = NULL;
	unsigned wakes = 0;

	if (keep < a->start || keep > at || n > RECORD_MAX ||
	    at + n > a->end || !n)
		return NULL;
	k = (at - a->start) / PIECE;
	last = (at + n - 1 - a->start) / PIECE;
	kept = (keep - a->start) / PIECE;
	in = at - (a->start + k * PIECE);
	if (kept == a->held && last < a->seen) {
		p = &a->pieces[k % PIECES];
		q = &a->pieces[last % PIECES];
		goto got;
	}
	pthread_mutex_lock(&a->lock);
	if (kept < a->held || last >= kept + PIECES) {
		pthread_mutex_unlock(&a->lock);
		return NULL;		/* not asked in rising order, or
					 * more kept than the pieces hold */
	}
	if (kept > a->held || last > a->asked) {
		/* room for more pieces; and which thread takes the next
		 * may change */
		if (kept > a->held) {
			a->held = kept;
			give_back(a);
		}
		if (last > a->asked)
			a->asked = last;
		wakes = readers_to_wake(a);
	}
	if (wakes && (a->pieces[k % PIECES].index != k ||
		      a->pieces[last % PIECES].index != last)) {
		/* to wait for a piece: they are woken first */
		wake(a, wakes);
		wakes = 0;
	}
	p = wait_piece(a, k);
	if (p && last != k)
		q = wait_piece(a, last);
	/* the pieces are read in order: up to last, all were */
	if (p && (last == k || q) && last + 1 > a->seen)
		a->seen = last + 1;
	pthread_mutex_unlock(&a->lock);
	wake(a, wakes);
	if (!p || (last != k && !q))
		return NULL;
got:
	if (last == k)
		return in + n <= p->len ? piece_buf(a, k) + in : NULL;
	if (p->len != PIECE || n - (PIECE - in) > q->len)
		return NULL;
	memcpy(a->joined, piece_buf(a, k) + in, PIECE - in);
	memcpy(a->joined + (PIECE - in), piece_buf(a, last),
	       n - (PIECE - in));
	return a->joined;
}

void perf_ahead_span(const struct perf_ahead *a, size_t at,
		     struct perf_ahead_span *span)
{
	size_t k = (at - a->start) / PIECE;

	/* piece k was read (the answer's), and this thread set held and
	 * saw the piece's length under the lock since */
	span->lo = a->start + k * PIECE;
	span->hi = span->lo + a->pieces[k % PIECES].len;
	span->keep_lo = a->start + a->held * PIECE;
	span->keep_hi = span->keep_lo + PIECE;
	span->base = piece_buf(a, k);
}

bool perf_ahead_joined(const struct perf_ahead *a, const unsigned char *p)
{
	return p == a->joined;
}

size_t perf_ahead_buffers_used(struct perf_ahead *a)
{
	size_t n = 0;

	pthread_mutex_lock(&a->lock);
	for (size_t i = 0; i < PIECES; i++)
		n += a->used[i];
	pthread_mutex_unlock(&a->lock);
	return n;
}

size_t perf_ahead_direct_reads(const struct perf_ahead *a)
{
	return a->direct_reads;
}

void perf_ahead_stop(struct perf_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	wake_readers(a);
	pthread_mutex_unlock(&a->lock);
	if (a->started)
		pthread_join(a->thread, NULL);
	if (a->direct_started)
		pthread_join(a->direct_thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->main_cv);
	pthread_cond_destroy(&a->reader_cv[0]);
	pthread_cond_destroy(&a->reader_cv[1]);
	/* what resolving the recording makes next (the charging's
	 * tables) takes this memory again, warm */
	xfree_table_keep(a->mem, MEM_LEN);
	free(a->joined);
	if (a->direct_fd >= 0)
		close(a->direct_fd);
	if (a->sched_looked && a->sched_fd >= 0)
		close(a->sched_fd);
	free(a);
}
