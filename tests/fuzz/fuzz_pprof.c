/* libFuzzer harness: a pprof profile.proto read, analysed, printed and
 * written again (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_pprof_one(data, size);
	return 0;
}
