// The gperftools CPU-profile test program (C++): a class template, a
// method through a virtual call, std::sort with a lambda, in a namespace,
// so the listings show demangled C++ names. Built -O1 -g with frame
// pointers, as a PIE.
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace shapes {

struct shape {
	virtual ~shape() {}
	virtual double area(int steps) const = 0;
};

template <typename T> struct square : shape {
	T side;
	explicit square(T s) : side(s) {}
	double area(int steps) const override
	{
		double a = 0;
		for (int i = 0; i < steps; i++)
			a += (double)side * side / (i + 1);
		return a;
	}
};

} // namespace shapes

volatile double sink;

static void sort_many(std::vector<unsigned> &v, unsigned seed)
{
	for (auto &x : v)
		x = seed = seed * 1103515245u + 12345u;
	std::sort(v.begin(), v.end(),
		  [](unsigned a, unsigned b) { return (a ^ 0x5555) < (b ^ 0x5555); });
}

int main(int argc, char **argv)
{
	int steps = argc > 1 ? std::atoi(argv[1]) : 30000000;
	shapes::square<int> si(3);
	shapes::square<double> sd(2.5);
	const shapes::shape *all[] = { &si, &sd };
	std::vector<unsigned> v(400000);

	for (int r = 0; r < 4; r++) {
		for (const shapes::shape *s : all)
			sink = s->area(steps);
		sort_many(v, (unsigned)r);
	}
	return 0;
}
