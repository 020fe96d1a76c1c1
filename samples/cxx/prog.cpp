// C++ sample for cganalyze.
// Build: g++ -O2 -g -o prog prog.cpp
// Templates, std::vector, std::map, std::sort with a lambda, and small
// functions that -O2 inlines (square(), Point::norm2()).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace sample {

struct Point {
    int x, y;
    int norm2() const { return x * x + y * y; }  // inlined at -O2
};

static inline int square(int v) { return v * v; }  // inlined at -O2

// A function template, instantiated for int and for Point.
template <typename T, typename Key>
__attribute__((noinline)) long accumulate_by(const std::vector<T> &items, Key key)
{
    long total = 0;
    for (const T &item : items)
        total += key(item);
    return total;
}

// A class template with a std::map inside.
template <typename K>
class Histogram {
public:
    void add(const K &k) { ++counts_[k]; }
    std::size_t buckets() const { return counts_.size(); }
    int most_common_count() const
    {
        int best = 0;
        for (const auto &kv : counts_)
            best = std::max(best, kv.second);
        return best;
    }

private:
    std::map<K, int> counts_;
};

__attribute__((noinline)) std::vector<Point> make_points(int n)
{
    std::vector<Point> pts;
    unsigned s = 2463534242u;  // xorshift, fixed seed
    for (int i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        pts.push_back(Point{int(s % 201) - 100, int((s >> 8) % 201) - 100});
    }
    return pts;
}

// The function holding the std::sort call site with a lambda comparator.
__attribute__((noinline)) void sort_points(std::vector<Point> &pts)
{
    std::sort(pts.begin(), pts.end(), [](const Point &a, const Point &b) {
        if (a.norm2() != b.norm2())
            return a.norm2() < b.norm2();
        return a.x < b.x;
    });
}

__attribute__((noinline)) int histogram_of(const std::vector<Point> &pts)
{
    Histogram<std::string> h;
    for (const Point &p : pts) {
        const char *q = p.x < 0 ? (p.y < 0 ? "SW" : "NW") : (p.y < 0 ? "SE" : "NE");
        h.add(q);
    }
    Histogram<int> hn;
    for (const Point &p : pts)
        hn.add(p.norm2() / 1000);
    return int(h.buckets()) * 1000 + hn.most_common_count();
}

}  // namespace sample

int main()
{
    using namespace sample;
    std::vector<Point> pts = make_points(300);
    sort_points(pts);
    std::vector<int> xs;
    for (const Point &p : pts)
        xs.push_back(p.x);
    long a = accumulate_by(pts, [](const Point &p) { return p.norm2(); });
    long b = accumulate_by(xs, [](int v) { return square(v); });
    int h = histogram_of(pts);
    std::printf("first=(%d,%d) last=(%d,%d) a=%ld b=%ld h=%d\n", pts.front().x, pts.front().y,
                pts.back().x, pts.back().y, a, b, h);
    return 0;
}
