// SPDX-License-Identifier: MIT
// cxx.cc - C++ names for replay's --demangle: namespaces, classes with
// constructors, destructors, virtual and const methods, operators
// (<<, (), [], -, ==, conversion), templates with and without return
// types, a lambda, an anonymous namespace, std::string, std::vector,
// std::map and std::function.
// Traced by tests/uftrace/record.sh (scenario cxx, when a C++ compiler
// is installed).
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {
int hidden(int x)
{
	return x + 1;
}
} // namespace

namespace geo {
struct point {
	int x, y;
	point(int a, int b) : x(a), y(b) {}
	~point() {}
	point operator-(const point &o) const { return point(x - o.x, y - o.y); }
	bool operator==(const point &o) const { return x == o.x && y == o.y; }
	int operator[](int i) const { return i ? y : x; }
	int operator()(int k) const { return k * x; }
	operator long() const { return (long)x * y; }
};

struct shape {
	virtual ~shape() {}
	virtual int area() const = 0;
};

struct square : shape {
	int side;
	explicit square(int s) : side(s) {}
	int area() const override { return side * side; }
};

template <typename T>
T twice(T v)
{
	return v + v;
}

template <typename T, int N>
struct box {
	T items[N];
	T first() const { return items[0]; }
};
} // namespace geo

struct stream {
	int count = 0;
	stream &operator<<(int v)
	{
		count += v;
		return *this;
	}
};

int main()
{
	geo::point a(3, 4), b(1, 1);
	geo::point c = a - b;
	int sum = c[0] + c(2) + (a == b) + (int)(long)c;
	geo::square sq(3);
	const geo::shape &sh = sq;
	sum += sh.area();
	sum += geo::twice(2) + (int)geo::twice(1.5);
	geo::box<short, 2> bx = { { 7, 8 } };
	sum += bx.first();
	stream s;
	s << 1 << 2;
	auto add = [&sum](int v) { sum += v; };
	add(hidden(s.count));
	std::function<int(int)> f = [](int v) { return v * 3; };
	sum += f(2);
	std::string text("name");
	std::vector<int> v;
	v.push_back((int)text.size());
	std::map<std::string, int> m;
	m["k"] = sum;
	/* record.sh wants a zero exit status */
	return (int)v.size() + (m.size() == 1 ? 0 : 1) - 1;
}
