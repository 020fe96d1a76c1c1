#include "shapes.h"

unsigned long total_area(const std::vector<shape> &v)
{
	acc<unsigned long> a;

	for (const shape &s : v)
		a.add(s.area());
	return a.sum;
}
