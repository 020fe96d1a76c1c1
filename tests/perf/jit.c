/*
 * A JIT in miniature: two functions of machine code copied into
 * anonymous executable memory, named in /tmp/perf-PID.map as a JIT
 * writes it (node --perf-basic-prof, the JVM's perf-map-agent, Python
 * 3.12's -X perf), and called. perf report names their samples from
 * the map; tests/perf/make-jit.sh records it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* x86-64: mov ecx, N; loop: dec ecx; jnz loop; ret */
static unsigned char code[] = { 0xb9, 0x00, 0x00, 0x00, 0x04, 0xff, 0xc9,
				0x75, 0xfc, 0xc3 };

__attribute__((noinline)) void call_jit(void (*f)(void))
{
	f();
}

int main(void)
{
	unsigned char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *f;

	if (m == MAP_FAILED)
		return 1;
	memcpy(m, code, sizeof(code));
	memcpy(m + 64, code, sizeof(code));
	m[64 + 4] = 0x02;	/* the second loops half as long */
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "%lx 20 jitted_hot\n", (unsigned long)(uintptr_t)m);
	fprintf(f, "0x%lx 0x20 LazyCompile:*cold /app/x.js:3\n",
		(unsigned long)(uintptr_t)(m + 64));
	fclose(f);
	for (int i = 0; i < 2; i++) {
		call_jit((void (*)(void))m);
		call_jit((void (*)(void))(m + 64));
	}
	return 0;
}
