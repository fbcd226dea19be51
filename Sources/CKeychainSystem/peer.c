#define _GNU_SOURCE
#include "CKeychainSystem.h"
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/socket.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#endif

// SO_PEERPIDFD came with Linux 6.5; Debian 12's headers predate it. The number is the kernel's
// ABI (include/uapi/asm-generic/socket.h) and the same on every architecture that uses the
// generic socket options.
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

int cks_peer_credentials(int socket, int32_t *pid, uint32_t *uid, uint32_t *gid) {
#if defined(__linux__)
    struct ucred credentials = {0};
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    if (length != sizeof credentials) { errno = EPROTO; return -1; }
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_accept_cloexec(int socket) {
#if defined(__linux__)
    return accept4(socket, NULL, NULL, SOCK_CLOEXEC);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_peer_pidfd(int socket) {
#if defined(__linux__)
    int pidfd = -1;
    socklen_t length = sizeof pidfd;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) return -1;
    if (length != sizeof pidfd || pidfd < 0) { errno = EPROTO; return -1; }
    return pidfd;
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_pidfd_open(int32_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    // The kernel makes every pidfd close-on-exec.
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
#else
    errno = ENOSYS; return -1;
#endif
}

int cks_pidfd_send_signal(int pidfd, int signal) {
#if defined(__linux__) && defined(SYS_pidfd_send_signal)
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
#else
    errno = ENOSYS; return -1;
#endif
}

long cks_filesystem_type(const char *path) {
#if defined(__linux__)
    struct statfs result;
    if (statfs(path, &result) != 0) return -1;
    return (long)result.f_type;
#else
    errno = ENOSYS; return -1;
#endif
}
