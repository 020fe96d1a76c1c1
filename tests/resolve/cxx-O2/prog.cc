// prog.cc: a small deterministic C++ program for symbol-resolution tests:
// templates, lambdas, std::sort, std::map, a class with methods, a
// namespace, an operator, a virtual call, and code gcc inlines at -O2.
// Plain arrays and int keys keep the demangled names (and the peer
// tools' answers) short.
#include <algorithm>
#include <cstdio>
#include <map>

namespace work {

template <typename T>
T clamp_add(T a, T b, T hi)
{
	T s = a + b;
	return s > hi ? hi : s;
}

template <typename T, int N>
struct ring {
	T buf[N];
	int head = 0, count = 0;

	void push(T v)
	{
		buf[(head + count) % N] = v;
		if (count < N)
			count++;
		else
			head = (head + 1) % N;
	}
	T sum() const
	{
		T s = T();
		for (int i = 0; i < count; i++)
			s += buf[(head + i) % N];
		return s;
	}
};

class shape {
public:
	explicit shape(int id) : id_(id) {}
	virtual ~shape() = default;
	virtual long area() const = 0;
	int id() const { return id_; }

private:
	int id_;
};

class rect : public shape {
public:
	rect(int id, int w, int h) : shape(id), w_(w), h_(h) {}
	long area() const override { return (long)w_ * h_; }

private:
	int w_, h_;
};

class square : public shape {
public:
	square(int id, int s) : shape(id), s_(s) {}
	long area() const override { return (long)s_ * s_; }

private:
	int s_;
};

class counter {
public:
	void add(int word, int n = 1) { counts_[word] += n; }
	int get(int word) const;
	std::size_t distinct() const { return counts_.size(); }
	bool operator<(const counter &o) const { return distinct() < o.distinct(); }

private:
	std::map<int, int> counts_;
};

int counter::get(int word) const
{
	auto it = counts_.find(word);
	return it == counts_.end() ? 0 : it->second;
}

__attribute__((noinline)) long total_area(shape *const *v, int n)
{
	long t = 0;
	for (int i = 0; i < n; i++)
		t += v[i]->area();
	return t;
}

} // namespace work

int main()
{
	static int v[16];
	for (int i = 0; i < 16; i++)
		v[i] = (i * 7919) % 1009;

	int pivot = 500;
	auto by_distance = [pivot](int a, int b) {
		int da = a > pivot ? a - pivot : pivot - a;
		int db = b > pivot ? b - pivot : pivot - b;
		return da < db || (da == db && a < b);
	};
	std::sort(v, v + 16, by_distance);

	work::ring<long, 8> r;
	for (int x : v)
		r.push(work::clamp_add<long>(x, 3, 1000));

	static const int words[] = { 11, 22, 33, 44, 22, 11 };
	work::counter c, d;
	for (int i = 0; i < 30; i++)
		c.add(words[i % 6], i % 3 + 1);
	d.add(99);

	work::shape *shapes[6];
	for (int i = 0; i < 6; i++) {
		if (i % 2)
			shapes[i] = new work::rect(i, i + 1, i + 2);
		else
			shapes[i] = new work::square(i, i + 3);
	}
	long area = work::total_area(shapes, 6);
	int big = (int)std::count_if(shapes, shapes + 6,
				     [](const work::shape *s) {
					     return s->area() > 20;
				     });
	for (work::shape *s : shapes)
		delete s;

	std::printf("%d %d %ld %ld %d %zu %d %d\n", v[0], v[15], r.sum(),
		    area, big, c.distinct(), c.get(22), (int)(d < c));
	return 0;
}
