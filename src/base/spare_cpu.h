/*
 * Whether a second thread would have a processor to itself now.
 */
#ifndef CGA_SPARE_CPU_H
#define CGA_SPARE_CPU_H

#include <stdbool.h>

/*
 * True when fewer tasks are running than there are processors this
 * process may use, counting itself: a second thread then runs beside
 * the first. Reading ahead on a second thread takes 0.8 of one thread's
 * time when a core is free, and 1.15 to 1.27 when another program keeps
 * it busy (doc/PERFORMANCE.md). True when it cannot tell.
 */
bool spare_cpu(void);

/*
 * The same, this process's other threads that are running not counted:
 * a thread of its own started on an earlier answer (reading ahead) is
 * not another program's, and would otherwise keep every later second
 * thread of the run off a machine with a processor free for it.
 */
bool spare_cpu_beside_own(void);

/* The tests' answer for spare_cpu(): 1 or 0, or -1 to ask the system
 * again (the default). */
void spare_cpu_assume(int answer);

/* Whether the answers are the tests' CGANALYZE_SPARE_CPU=N (the first
 * N no, the rest yes): then a caller that asks again now and then asks
 * at every chance, for a small test file to see a late start. */
bool spare_cpu_scripted(void);

/* The same from /proc/loadavg's text and the processors usable: for
 * the tests. */
bool spare_cpu_from(const char *loadavg, int cpus);

/* The same, own of the running tasks being the caller's other threads
 * (counted once, the caller itself being one of the running). */
bool spare_cpu_from_own(const char *loadavg, int cpus, int own);

/* Whether a /proc/.../stat line says its task is running (state R). */
bool spare_cpu_stat_running(const char *stat);

#endif
