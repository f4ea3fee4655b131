/* SPDX-License-Identifier: MIT */
/* args.c - arguments and return values for uftrace's -a (built with -g so
 * that uftrace takes the argument specs from DWARF): ints, negative ints,
 * char, short, long, long long, unsigned in hex, float, double, bool,
 * strings (with escapes, NULL, longer than uftrace's limit), enums (one
 * value, an OR of values, an unknown value), a struct by value, pointers
 * from malloc, eight arguments (two on the stack), void functions, and
 * libc calls with built-in specs (malloc, calloc, strlen, strcmp, puts,
 * printf, free).
 * Traced by tests/uftrace/record.sh (scenarios args, argspec). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	int x;
	int y;
};

enum color { RED, GREEN = 2, BLUE = 4 };

static int leaf(int x)
{
	return x + 1;
}

static int add(int a, int b)
{
	return a + b;
}

static short neg(short s)
{
	return (short)-s;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static long scale(long v, double f)
{
	return (long)(v * f);
}

static long long wide(long long a, unsigned long long b)
{
	return a - (long long)(b >> 4);
}

static double average(float a, double b)
{
	return (a + b) / 2;
}

static float half(float x)
{
	return x / 2;
}

static bool is_even(int n)
{
	return n % 2 == 0;
}

static const char *greet(const char *name, char c)
{
	return name && name[0] == c ? "match" : "nomatch";
}

static int dist(struct point p)
{
	return p.x * p.x + p.y * p.y;
}

static enum color paint(enum color c)
{
	return c == RED ? BLUE : RED;
}

static unsigned long big(unsigned long x)
{
	return x * 3;
}

static long many(int a, int b, int c, int d, int e, int f, int g, int h)
{
	return (long)a + b + c + d + e + f + g + h;
}

static void *keep(void *p, size_t n)
{
	memset(p, 0, n);
	return p;
}

static void nothing(void)
{
	leaf(0);
}

int main(void)
{
	struct point p = { 3, -4 };
	char *buf, *zero;

	leaf(41);
	add(1, -2);
	add(-2147483647 - 1, 2147483647);
	neg(-300);
	upper('q');
	upper('\n');
	scale(10, 2.5);
	scale(-7, -0.125);
	wide(-5000000000LL, 0xfedcba9876543210ULL);
	average(1.5f, 2.5);
	half(-3.75f);
	is_even(7);
	greet("uftrace", 'u');
	greet(NULL, 'z');
	greet("tab\tnew\nline \"quoted\" back\\slash", 't');
	greet("a-very-long-string-that-goes-on-and-on-to-exceed-the-limit-of-ninety-eight-characters-for-sure-yes-it-does", 'a');
	dist(p);
	paint(GREEN);
	paint(BLUE | GREEN);
	paint((enum color)8);
	big(0x123456789aUL);
	big(5);
	many(1, -2, 3, -4, 5, -6, 7, -8);
	nothing();

	buf = malloc(32);
	keep(buf, 32);
	strcpy(buf, "hello");
	zero = calloc(4, 8);
	printf("%s %zu %d\n", buf, strlen(buf), strcmp(buf, "help"));
	puts(buf);
	free(zero);
	free(buf);
	return 0;
}
