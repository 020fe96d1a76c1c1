/*
 * byte_cursor.h's LEB128 reader as a function of its own, for the
 * inline fast paths' rare case: inline at each of a reader's operands
 * it would only grow the reader's loop.
 */
#include "byte_cursor.h"

bool cur_leb_call(struct cur *c, unsigned how, uint64_t *v)
{
	return cur_leb(c, how, v);
}
