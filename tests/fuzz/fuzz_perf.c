/* libFuzzer harness: a perf.data read, resolved against tests/perf/'s
 * binaries and kallsyms, analysed and printed (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_perf_one(data, size);
	return 0;
}
