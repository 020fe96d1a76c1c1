/* libFuzzer harness: the whole analysis on one profile (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_callgrind_one(data, size);
	return 0;
}
