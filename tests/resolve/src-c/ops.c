/* ops.c: functions reached through a function pointer table. */
#include "ops.h"

int op_add(int a, int b)
{
	return a + b;
}

int op_sub(int a, int b)
{
	return a - b;
}

int op_mul(int a, int b)
{
	return a * b;
}

int op_mod(int a, int b)
{
	if (b == 0)
		return 0;
	return a % b;
}

op_fn const op_table[4] = { op_add, op_sub, op_mul, op_mod };
