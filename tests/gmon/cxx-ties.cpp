// gprof's order of ties in C++ (tests/test_gmon.c, cxx_ties): functions
// of equal time (mostly none) and calls, whose mangled and demangled
// names sort differently, beside C ones. Built and run by hand:
//   g++ -O0 -pg -o cxx-ties cxx-ties.cpp && ./cxx-ties && mv gmon.out cxx-ties.gmon
//   gprof -b cxx-ties cxx-ties.gmon >cxx-ties.gprof
namespace geo {
int norm(int v) { return v < 0 ? -v : v; }
int dot(int a, int b) { return a * b; }
}
template <typename T> T twice(T v) { return v + v; }
struct Acc {
	long s = 0;
	void add(long v) { s += v; }
};
static int zeta(int v) { return v ^ 3; }
int alpha(int v) { return v * 7; }
int beta(int v) { return v * 5; }
int Bravo(int v) { return v + 1; }
extern "C" int c_func(int v) { return v - 2; }
extern "C" int a_func(int v) { return v - 3; }
long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i % 7;
	return s;
}
int main(int argc, char **)
{
	Acc a;
	for (int i = 0; i < 4; i++) {
		a.add(geo::norm(-i));
		a.add(geo::dot(i, i));
	}
	a.add(twice<int>(argc));
	a.add(twice<long>(3));
	a.add(zeta(argc));
	a.add(alpha(argc));
	a.add(beta(argc));
	a.add(Bravo(argc));
	a.add(c_func(argc));
	a.add(a_func(argc));
	a.add(spin(100000000));
	return a.s == 42;
}
