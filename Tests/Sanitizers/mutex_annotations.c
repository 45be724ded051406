// Preloaded by Tests/Sanitizers/run.sh into the processes of its ThreadSanitizer step: tells
// ThreadSanitizer about Synchronization.Mutex's contended paths.
//
// On Linux, Mutex's uncontended lock and unlock are atomics inlined into the caller, which the
// TSan build instruments. Its contended paths (_MutexHandle._lockSlow, _tryLockSlow, _unlockSlow)
// are in the toolchain's libswiftSynchronization.so, which is not instrumented, and wait in the
// kernel (FUTEX_LOCK_PI in Swift 6.3), which TSan cannot see: without this, every access made
// under a Mutex that another thread had to wait for is reported as a race. Each wrapper below
// calls the library's own function and records the acquire after it (or the release before it)
// on the lock word, the address the inlined atomics synchronise on.
//
// The symbols are the library's (Swift calling convention: the handle's address is `self`). The
// TSan entry points are weak, so a process without TSan (python3, nginx, redis-server started by
// the tests) loads this library and is unchanged.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SWIFT_CALL __attribute__((swiftcall))
#define SWIFT_SELF __attribute__((swift_context)) // `self` (LLVM swiftself, r13)

extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

typedef SWIFT_CALL void (*LockSlow)(uint32_t owner, SWIFT_SELF void *handle);
typedef SWIFT_CALL bool (*TryLockSlow)(SWIFT_SELF void *handle);
typedef SWIFT_CALL void (*UnlockSlow)(SWIFT_SELF void *handle);

// The library's function named `name`, found once (a missing one ends the process: the toolchain
// changed and this file must follow).
static void *original(void *volatile *slot, const char *name) {
    void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (function == NULL) {
        function = dlsym(RTLD_NEXT, name);
        if (function == NULL) {
            fprintf(stderr, "mutex_annotations: %s not found in libswiftSynchronization\n", name);
            abort();
        }
        __atomic_store_n(slot, function, __ATOMIC_RELEASE);
    }
    return function;
}

static void *volatile lockSlow, *volatile tryLockSlow, *volatile unlockSlow;

SWIFT_CALL void mutexLockSlow(uint32_t owner, SWIFT_SELF void *handle) __asm__(LOCK_SLOW);
SWIFT_CALL void mutexLockSlow(uint32_t owner, SWIFT_SELF void *handle) {
    ((LockSlow)original(&lockSlow, LOCK_SLOW))(owner, handle);
    if (__tsan_acquire) __tsan_acquire(handle);
}

SWIFT_CALL bool mutexTryLockSlow(SWIFT_SELF void *handle) __asm__(TRY_LOCK_SLOW);
SWIFT_CALL bool mutexTryLockSlow(SWIFT_SELF void *handle) {
    bool locked = ((TryLockSlow)original(&tryLockSlow, TRY_LOCK_SLOW))(handle);
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

SWIFT_CALL void mutexUnlockSlow(SWIFT_SELF void *handle) __asm__(UNLOCK_SLOW);
SWIFT_CALL void mutexUnlockSlow(SWIFT_SELF void *handle) {
    if (__tsan_release) __tsan_release(handle);
    ((UnlockSlow)original(&unlockSlow, UNLOCK_SLOW))(handle);
}
