/* A process that names itself with a terminal's escape sequence and a
 * tab (prctl(PR_SET_NAME)), then spins: perf records that comm, and
 * --threads must write it escaped (tests/perf/make-escname.sh). */
#include <sys/prctl.h>

volatile unsigned long sink;

int main(void)
{
	prctl(PR_SET_NAME, "ev\033[31mil\tx", 0, 0, 0);
	for (unsigned long i = 0; i < 60000000UL; i++)
		sink += i;
	return 0;
}
