/*
 * A preload library that widens the window of an exit-time race with libcrypto, for the
 * regression test in ExitRaceTests: every thread-exit destructor that libcrypto registers (its
 * per-thread state) waits 2 ms before it runs, and the last exit handler (registered here, before
 * main, so run after every other, OPENSSL_cleanup included) waits 20 ms. A process that calls
 * exit() while threads that used libcrypto are still ending then frees the same per-thread state
 * twice, from OPENSSL_cleanup and from the ending thread, unless it ended its threads first and
 * told libcrypto not to clean up at exit.
 *
 * Build: cc -shared -fPIC -o exit_race.so exit_race.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*destructor_fn)(void *);

static void pause_ms(long milliseconds) {
    struct timespec delay = { milliseconds / 1000, (milliseconds % 1000) * 1000000L };
    while (nanosleep(&delay, &delay) != 0) {}
}

/* The destructors libcrypto registered, each called through a trampoline of its own. */
#define SLOTS 8
static destructor_fn originals[SLOTS];
static int used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

#define TRAMPOLINE(n) \
    static void delayed_##n(void *value) { pause_ms(2); originals[n](value); }
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3)
TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
static const destructor_fn trampolines[SLOTS] = {
    delayed_0, delayed_1, delayed_2, delayed_3, delayed_4, delayed_5, delayed_6, delayed_7,
};

static int is_libcrypto(destructor_fn function) {
    Dl_info info;
    return function != NULL && dladdr((void *)function, &info) != 0 && info.dli_fname != NULL
        && strstr(info.dli_fname, "libcrypto") != NULL;
}

int pthread_key_create(pthread_key_t *key, destructor_fn destructor) {
    static int (*real)(pthread_key_t *, destructor_fn);
    if (real == NULL) real = (int (*)(pthread_key_t *, destructor_fn))dlsym(RTLD_NEXT, "pthread_key_create");
    if (is_libcrypto(destructor)) {
        pthread_mutex_lock(&lock);
        if (used < SLOTS) {
            originals[used] = destructor;
            destructor = trampolines[used];
            used += 1;
        }
        pthread_mutex_unlock(&lock);
    }
    return real(key, destructor);
}

static void last_exit_handler(void) { pause_ms(20); }

__attribute__((constructor)) static void install(void) { atexit(last_exit_handler); }
