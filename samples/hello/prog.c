/* The simplest sample: a loop summing, and one helper function.
 * Build: gcc -g -O0 -o prog prog.c */
#include <stdio.h>

int square(int x)
{
    return x * x;
}

int main(void)
{
    long sum = 0;
    for (int i = 1; i <= 1000; i++)
        sum += square(i);
    printf("sum=%ld\n", sum);
    return 0;
}
