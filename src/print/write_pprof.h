/*
 * --output=pprof: the analysed profile as pprof's profile.proto,
 * gzip'd, for go tool pprof and the continuous-profiling services
 * (Pyroscope, Parca, Grafana, Cloud Profiler) that store and merge it.
 *
 * What is written:
 *  - every event as a sample type, its unit where the profile knows one
 *    ("ns" as "nanoseconds"), else "count"; the ranked event (--sort)
 *    as the default sample type, so pprof ranks by it too; a time
 *    event's tick length (gmon.out, IgProf's PERF_TICKS) as the period
 *    (period_type: the event in nanoseconds);
 *  - a mapping per object, a function per profile function (name,
 *    file, start line), and one location per function, in its object's
 *    mapping. A location carries no address and its line is 0: the
 *    stacks record functions, not the instruction or line each frame
 *    was at;
 *  - samples: where the profile holds whole stacks (IgProf, perf.data,
 *    pprof), one sample per stack with its values of every event:
 *    exact, so pprof's flat and cumulative columns are our self and
 *    inclusive costs. Otherwise (Callgrind, gmon.out) the paths the
 *    flame graph estimates from the call arcs (flame_data.h), one set
 *    of samples per event, each holding that event's value alone in whole
 *    units, a function's samples adding up to its self cost; a comment
 *    in the profile says they are estimated. A cycle taken as a whole
 *    is a function "<cycle N as a whole>". With --focus and the other
 *    transforms, the profile's stacks as they left them (estimated
 *    ones too, arc_stacks.h), and a comment naming the transforms.
 */
#ifndef CGA_WRITE_PPROF_H
#define CGA_WRITE_PPROF_H

#include <stdio.h>

#include "cg/cg.h"
#include "print.h"

/*
 * Write cg's profile to out, gzip'd. `where` names out for messages.
 * Returns 0, or -1 after an error (a terminal as out, zlib failing).
 */
int write_pprof(FILE *out, const char *where, const struct cg *cg,
		const struct print_opts *o);

#endif
