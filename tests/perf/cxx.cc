// The --call-graph dwarf test program: C++ at -O2, without frame
// pointers, so its stacks can only be unwound from the CFI; templates,
// small functions inlined into their callers, std::sort (its helpers
// inlined too) and a call through a function pointer that stays a call.
#include <algorithm>
#include <cstdlib>
#include <vector>

volatile unsigned long sink;

template <typename T> static inline T mix(T x, T i)
{
	return x * 31 + i;
}

template <typename T> __attribute__((noinline)) T churn(T n)
{
	T x = 1;

	for (T i = 0; i < n; i++)
		x = mix(x, i);
	return x;
}

__attribute__((noinline)) static void sort_some(std::vector<unsigned> &v,
						unsigned seed)
{
	for (auto &e : v)
		e = seed = seed * 1103515245u + 12345u;
	std::sort(v.begin(), v.end());
}

__attribute__((noinline)) static unsigned long
apply(unsigned long (*fn)(unsigned long), unsigned long n)
{
	return fn(n) + 1;
}

static unsigned long step(unsigned long n)
{
	return churn<unsigned long>(n);
}

int main(int argc, char **argv)
{
	unsigned long scale = argc > 1 ? strtoul(argv[1], nullptr, 10)
				       : 20000000;
	std::vector<unsigned> v(200000);

	for (int r = 0; r < 6; r++) {
		sink = churn<unsigned>(static_cast<unsigned>(scale));
		sort_some(v, static_cast<unsigned>(r));
		sink = apply(step, scale);
	}
	return 0;
}
