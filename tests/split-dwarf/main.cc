#include <cstdio>
#include "shapes.h"

static inline unsigned long grow(std::vector<shape> &v, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		v.push_back(shape{ i % 7 + 1, i % 5 + 2 });
	return v.size();
}

int main(int argc, char **argv)
{
	std::vector<shape> v;
	unsigned long t = 0;

	(void)argv;
	grow(v, 2000UL * (unsigned long)argc);
	for (int r = 0; r < 50; r++)
		t += total_area(v);
	std::printf("%lu\n", t);
	return 0;
}
