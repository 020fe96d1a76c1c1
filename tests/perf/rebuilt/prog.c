/* tests/perf/rebuilt: a program rebuilt after its recording (make.sh) */
#include <stdio.h>
#include <stdlib.h>
static unsigned long __attribute__((noinline)) leaf(unsigned long x){
#ifdef REBUILT
if(x==77777777)printf("a%lu b%lu c%lu\n",x,x*3,x*7);
#endif
unsigned long s=0;for(unsigned i=0;i<2000;i++)s+=(x*i)^(s>>3);return s;}
static inline unsigned long mid(unsigned long x){return leaf(x)+leaf(x+1);}
unsigned long __attribute__((noinline)) work(int n){unsigned long s=0;for(int i=0;i<n;i++)s+=mid(i);return s;}
static int cmp(const void*a,const void*b){return *(const int*)a-*(const int*)b;}
void __attribute__((noinline)) sorter(int n){int*v=malloc(n*sizeof*v);for(int i=0;i<n;i++)v[i]=rand();qsort(v,n,sizeof*v,cmp);free(v);}
int main(int argc,char**argv){int n=argc>1?atoi(argv[1]):100000;printf("%lu\n",work(n));sorter(n*5);return 0;}
