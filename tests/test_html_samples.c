/*
 * The report's samples (print/html_samples.c) on tests/perf/procs.data
 * (two processes of two threads) and two.data (two events): the
 * document's records, decoded as the page decodes them, add up to each
 * thread's totals (--threads's), to each node's self in the flame
 * graph's tree of each event, and to the events' totals; every
 * sample's time is in its record's bucket, so the page's ranges are
 * --time's. A recording without times has records and no timeline.
 */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"
#include "print/flame_data.h"
#include "print/html_samples.h"
#include "print/report_keep.h"
#include "profile/perf_data.h"
#include "resolve/resolve.h"

#define DIR "tests/perf/"

struct doc {
	char *text;
	size_t n, groups, buckets;
	uint64_t width, first;
	uint64_t *bucket, *track, *node, *event, *samples, *period;
};

static uint64_t num(const char *text, const char *key)
{
	const char *at = strstr(text, key);

	assert_non_null(at);
	return strtoull(at + strlen(key), NULL, 10);
}

/* base64's value of c, -1 for '=' and the end */
static int b64(char c)
{
	static const char set[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *at = c ? strchr(set, c) : NULL;

	return at ? (int)(at - set) : -1;
}

/* The n LEB128 numbers of the column key */
static uint64_t *column(const char *text, const char *key, size_t n)
{
	char pat[64];
	const char *s;
	uint64_t *out = calloc(n + 1, sizeof(*out)), v = 0;
	unsigned shift = 0, bits = 0;
	uint32_t acc = 0;
	size_t k = 0;

	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	s = strstr(text, pat);
	assert_non_null(s);
	for (s += strlen(pat); *s != '"'; s++) {
		int d = b64(*s);

		if (d < 0)
			continue;
		acc = acc << 6 | (uint32_t)d;
		bits += 6;
		if (bits < 8)
			continue;
		bits -= 8;
		unsigned char byte = (unsigned char)(acc >> bits);

		v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
		if (!(byte & 0x80)) {
			assert_true(k < n);
			out[k++] = v;
			v = 0;
			shift = 0;
		}
	}
	return out;
}

/* The document read back into one row per record */
static void decode(struct doc *d)
{
	uint64_t *gb, *gt, *gs, *zz, *many, *per, *fixed;
	size_t ne = num(d->text, "\"events\": ");
	size_t i = 0, m = 0, k = 0;
	int64_t nd = 0;
	uint64_t b = 0;

	d->n = num(d->text, ", \"n\": ");	/* not the tracks' "n" */
	d->groups = num(d->text, "\"groups\": ");
	d->buckets = num(d->text, "\"buckets\": ");
	d->width = num(d->text, "\"width\": ");
	d->first = num(d->text, "\"first_s\": ") * 1000000000ull +
		   num(d->text, "\"first_ns\": ");
	gb = column(d->text, "group_bucket", d->groups);
	gt = column(d->text, "group_track", d->groups);
	gs = column(d->text, "group_size", d->groups);
	zz = column(d->text, "node", d->n);
	many = column(d->text, "samples", d->n);
	per = column(d->text, "period", d->n);
	d->event = ne > 1 ? column(d->text, "event", d->n)
			  : calloc(d->n + 1, sizeof(uint64_t));
	fixed = calloc(ne + 1, sizeof(*fixed));
	{
		const char *s = strstr(d->text, "\"fixed\": [") + 10;

		for (size_t e = 0; e < ne; e++) {
			char *end;

			fixed[e] = strtoull(s, &end, 10);
			s = end + 1;
		}
	}
	d->bucket = calloc(d->n + 1, sizeof(uint64_t));
	d->track = calloc(d->n + 1, sizeof(uint64_t));
	d->node = calloc(d->n + 1, sizeof(uint64_t));
	d->samples = calloc(d->n + 1, sizeof(uint64_t));
	d->period = calloc(d->n + 1, sizeof(uint64_t));
	for (size_t g = 0; g < d->groups; g++) {
		b += gb[g];
		for (size_t end = i + gs[g]; i < end; i++) {
			uint64_t z = zz[i] >> 1;

			assert_true(i < d->n);
			d->bucket[i] = b;
			d->track[i] = gt[g];
			nd += z & 1 ? -(int64_t)((z + 1) / 2) : (int64_t)(z / 2);
			d->node[i] = (uint64_t)nd;
			d->samples[i] = zz[i] & 1 ? many[m++] : 1;
			d->period[i] = fixed[d->event[i]]
				? d->samples[i] * fixed[d->event[i]] : per[k++];
		}
	}
	assert_int_equal(i, d->n);
	free(gb), free(gt), free(gs), free(zz), free(many), free(per);
	free(fixed);
}

static void check(const char *name, bool timed)
{
	struct read_opts o = { .perf_log_samples = true, .want_stacks = true };
	struct resolve_opts ro = { .want_stacks = true };
	struct print_opts po = { 0 };
	struct profile p;
	struct cg cg;
	struct doc d = { 0 };
	struct report_keep k;
	char path[256], *diag;
	size_t len;
	FILE *out;

	profile_init(&p);
	snprintf(path, sizeof(path), DIR "%s.data", name);
	assert_int_equal(read_path(&p, path, &o, &diag), 0);
	free(diag);
	diag_capture_begin();
	assert_int_equal(resolve_perf(&p, NULL, 0, &ro, NULL), 0);
	free(diag_capture_end());
	profile_finish(&p);
	cg_build(&cg, &p, 0);
	report_keep_init(&k, &cg, &po);
	assert_true(report_keeps_all(&k));	/* node ids: the whole tree's */
	out = open_memstream(&d.text, &len);
	html_samples(out, &cg, &po, &k);
	report_keep_release(&k);
	fclose(out);
	decode(&d);
	assert_int_equal(!strstr(d.text, "\"why_time\": null"), !timed);
	assert_true(d.n > 0);

	/* the threads' totals, --threads's */
	for (size_t t = 0; t < p.nthreads; t++)
		for (size_t e = 0; e < p.nevents; e++) {
			uint64_t s = 0, c = 0;

			for (size_t i = 0; i < d.n; i++)
				if (d.track[i] == t && d.event[i] == e) {
					s += d.samples[i];
					c += d.period[i];
				}
			assert_int_equal(s, p.threads[t].samples[e]);
			assert_int_equal(c, p.threads[t].cost[e]);
		}
	/* each event's tree: a node's self is its records' periods */
	for (uint32_t e = 0; e < p.nevents; e++) {
		struct flame fl;
		double sum = 0;

		flame_build(&fl, &cg, e, 0, 0);
		double *self = calloc(fl.nnodes + 1, sizeof(double));

		for (size_t i = 0; i < d.n; i++)
			if (d.event[i] == e) {
				assert_true(d.node[i] < fl.nnodes);
				self[d.node[i]] += (double)d.period[i];
			}
		for (size_t n = 0; n < fl.nnodes; n++) {
			assert_true(self[n] == fl.nodes[n].self);
			sum += self[n];
		}
		assert_true(sum == (double)p.totals[e]);
		free(self);
		flame_release(&fl);
	}
	/* records in bucket order, and every sample in its bucket */
	for (size_t i = 1; i < d.n; i++)
		assert_true(d.bucket[i - 1] <= d.bucket[i]);
	if (timed) {
		const struct perf_data *pd = p.perf;

		assert_int_equal(d.buckets, HTML_TIME_BUCKETS);
		for (size_t i = 0; i < pd->nlog; i++) {
			uint64_t b = (pd->log[i].time - d.first) / d.width;
			bool found = false;

			assert_true(b < d.buckets);
			for (size_t r = 0; r < d.n && !found; r++)
				found = d.bucket[r] == b &&
					d.track[r] == pd->log[i].thread;
			assert_true(found);
		}
	}
	free(d.text), free(d.bucket), free(d.track), free(d.node);
	free(d.event), free(d.samples), free(d.period);
	cg_release(&cg);
	profile_release(&p);
}

static void test_procs(void **state)
{
	(void)state;
	check("procs", true);
}

static void test_two_events(void **state)
{
	(void)state;
	check("two", true);
}

static void test_no_times(void **state)
{
	(void)state;
	check("notime", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_two_events),
		cmocka_unit_test(test_no_times),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
