/* libFuzzer harness: the whole analysis on an IgProf profile (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_igprof_one(data, size);
	return 0;
}
