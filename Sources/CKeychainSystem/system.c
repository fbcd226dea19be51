#define _GNU_SOURCE
#include <sched.h>
#include "CKeychainSystem.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

#if defined(__linux__) && defined(SYS_add_key) && defined(SYS_keyctl)
#define CKS_HAVE_KEYRING 1
#endif

int32_t cks_add_key(const char *type, const char *description, const void *payload, size_t length, int32_t keyring) {
#ifdef CKS_HAVE_KEYRING
    return (int32_t)syscall(SYS_add_key, type, description, payload, length, keyring);
#else
    errno = ENOSYS; return -1;
#endif
}

int32_t cks_request_key(const char *type, const char *description, int32_t keyring) {
#ifdef CKS_HAVE_KEYRING
    return (int32_t)syscall(SYS_request_key, type, description, NULL, keyring);
#else
    errno = ENOSYS; return -1;
#endif
}

// keyctl(2) operation numbers (linux/keyctl.h).
enum { CKS_KEYCTL_GET_KEYRING_ID = 0, CKS_KEYCTL_SETPERM = 5, CKS_KEYCTL_LINK = 8, CKS_KEYCTL_UNLINK = 9, CKS_KEYCTL_SEARCH = 10, CKS_KEYCTL_READ = 11,
       CKS_KEYCTL_SET_TIMEOUT = 15, CKS_KEYCTL_INVALIDATE = 21 };

long cks_keyctl_search(int32_t keyring, const char *description) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_SEARCH, keyring, "user", description, 0);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_setperm(int32_t key, uint32_t permissions) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_SETPERM, key, permissions);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_read(int32_t key, void *buffer, size_t length) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_READ, key, buffer, length);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_set_timeout(int32_t key, unsigned int seconds) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_SET_TIMEOUT, key, seconds);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_invalidate(int32_t key) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_INVALIDATE, key);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_link(int32_t key, int32_t keyring) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_LINK, key, keyring);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_unlink(int32_t key, int32_t keyring) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_UNLINK, key, keyring);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_keyctl_get_keyring_id(int32_t keyring, int create) {
#ifdef CKS_HAVE_KEYRING
    return syscall(SYS_keyctl, CKS_KEYCTL_GET_KEYRING_ID, keyring, create);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_mlock(const void *address, size_t length) {
#if defined(__linux__)
    return mlock(address, length);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_munlock(const void *address, size_t length) {
#if defined(__linux__)
    return munlock(address, length);
#else
    errno = ENOSYS; return -1;
#endif
}

void cks_secure_zero(void *address, size_t length) {
    volatile unsigned char *p = (volatile unsigned char *)address;
    while (length--) { *p++ = 0; }
}

int cks_limit_core_dumps(void) {
#if defined(__linux__)
    struct rlimit none = { 0, 0 };
    return setrlimit(RLIMIT_CORE, &none);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_disable_core_dumps(void) {
#if defined(__linux__)
    // Both, because each covers a gap of the other: the limit alone does not stop a core pipe
    // handler (core_pattern "|..."), which ignores RLIMIT_CORE, and not-dumpable alone is undone
    // if the process ever executes a program.
    int result = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) result = -1;
    return result;
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_is_dumpable(void) {
#if defined(__linux__)
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_usable_processors(void) {
#if defined(__linux__)
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    return CPU_COUNT(&allowed);
#else
    errno = ENOSYS;
    return -1;
#endif
}

size_t cks_random_bytes(void *buffer, size_t length) {
    size_t filled = 0;
#if defined(__linux__) && defined(SYS_getrandom)
    while (filled < length) {
        long got = syscall(SYS_getrandom, (char *)buffer + filled, length - filled, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        filled += (size_t)got;
    }
#else
    (void)buffer;
    (void)length;
#endif
    return filled;
}
