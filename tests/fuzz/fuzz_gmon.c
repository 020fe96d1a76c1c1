/* libFuzzer harness: a gmon.out read, resolved against
 * tests/gmon/prog-nopie, analysed and printed (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_gmon_one(data, size);
	return 0;
}
