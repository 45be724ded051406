#ifndef IMGCACHE_FUZZ_DRIVER_H
#define IMGCACHE_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point for programs that have a main of their own (compiler-rt's FuzzerDriver). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
