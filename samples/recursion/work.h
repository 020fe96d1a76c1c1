/* work.h - helpers for the recursion sample of cganalyze.
 * mix() is forced inline, so callgrind attributes its cost to work()
 * with an fi=/fe= switch to this header. */
#ifndef SAMPLES_WORK_H
#define SAMPLES_WORK_H

static inline __attribute__((always_inline)) unsigned mix(unsigned x)
{
    x ^= x >> 7;
    x *= 2654435761u;
    x ^= x >> 13;
    x *= 40503u;
    return x ^ (x >> 11);
}

#endif
