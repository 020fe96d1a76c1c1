#ifndef OPS_H
#define OPS_H

typedef int (*op_fn)(int, int);

int op_add(int a, int b);
int op_sub(int a, int b);
int op_mul(int a, int b);
int op_mod(int a, int b);

extern op_fn const op_table[4];

#endif
