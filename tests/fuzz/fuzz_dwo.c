/* libFuzzer harness: a .dwo or .dwp of a -gsplit-dwarf program loaded
 * with its skeleton, and the lookups (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_dwo_one(data, size);
	return 0;
}
