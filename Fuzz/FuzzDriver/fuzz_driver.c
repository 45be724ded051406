/* Nothing to compile: the harnesses link libFuzzer's LLVMFuzzerRunDriver (-sanitize=fuzzer). */
#include "fuzz_driver.h"
