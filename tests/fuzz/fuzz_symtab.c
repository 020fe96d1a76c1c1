/* libFuzzer harness: symtab_open() and the lookups on one ELF file
 * (make fuzz). */
#include "fuzz_pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_symtab_one(data, size);
	return 0;
}
