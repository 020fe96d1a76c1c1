/* libFuzzer harness: a gperftools CPU or heap profile read, resolved
 * against tests/gperf/'s binaries, analysed and printed (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_gperf_one(data, size);
	return 0;
}
