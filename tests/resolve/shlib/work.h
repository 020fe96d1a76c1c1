#ifndef WORK_H
#define WORK_H

unsigned work_hash(const char *s);
long work_sum_squares(const int *a, int n);
int work_gcd(int a, int b);
int work_apply_all(int (*f)(int), const int *a, int n);

#endif
