#ifndef CKEYCHAINSYSTEM_H
#define CKEYCHAINSYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include <termios.h>

// Thin, non-variadic wrappers over Linux system calls that Swift cannot call through the
// variadic syscall(2). Each returns -1 and sets errno on failure, like the call it wraps.
// On systems without the kernel keyring they fail with ENOSYS.

/// Special keyring ids (KEY_SPEC_*).
#define CKS_KEY_SPEC_SESSION_KEYRING (-3)
#define CKS_KEY_SPEC_USER_KEYRING (-4)
#define CKS_KEY_SPEC_USER_SESSION_KEYRING (-5)

int32_t cks_add_key(const char *type, const char *description, const void *payload, size_t length, int32_t keyring);
int32_t cks_request_key(const char *type, const char *description, int32_t keyring);
/// Searches `keyring` (recursively) for a "user" key called `description`; returns its serial.
long cks_keyctl_search(int32_t keyring, const char *description);
/// Sets a key's permission mask (KEYCTL_SETPERM).
long cks_keyctl_setperm(int32_t key, uint32_t permissions);
long cks_keyctl_read(int32_t key, void *buffer, size_t length);
long cks_keyctl_set_timeout(int32_t key, unsigned int seconds);
long cks_keyctl_invalidate(int32_t key);
/// Links `key` into `keyring` (KEYCTL_LINK).
long cks_keyctl_link(int32_t key, int32_t keyring);
long cks_keyctl_unlink(int32_t key, int32_t keyring);
long cks_keyctl_get_keyring_id(int32_t keyring, int create);

/// Keeps a memory range out of swap (best effort; returns -1 on failure).
int cks_mlock(const void *address, size_t length);
int cks_munlock(const void *address, size_t length);
/// Overwrites memory in a way the optimiser may not remove.
void cks_secure_zero(void *address, size_t length);
/// Stops this process from writing core dumps: PR_SET_DUMPABLE 0 (which also keeps other
/// processes of the user from attaching a debugger or reading its memory through /proc) and a
/// core size limit of 0. Returns 0 when both took effect, -1 (errno set) otherwise.
int cks_disable_core_dumps(void);
/// Only the core size limit of 0, leaving the process dumpable: for a client of keychaind's
/// keeper, which must be able to read the client's /proc entries to tell who it is.
int cks_limit_core_dumps(void);
/// Whether the kernel still considers this process dumpable (PR_GET_DUMPABLE): 1, 0, or -1.
int cks_is_dumpable(void);

/// Fills `buffer` with `length` bytes from the kernel's random generator (getrandom(2)), in as few
/// calls as it takes; returns how many bytes were filled (less than `length` only on failure).
size_t cks_random_bytes(void *buffer, size_t length);

/// How many processors this process may run on (its affinity mask), or -1 (errno set) where
/// the mask cannot be read.
int cks_usable_processors(void);

/// Guards a terminal whose settings a password prompt has changed (echo off). From here until
/// cks_terminal_guard_end, SIGINT, SIGTERM, SIGHUP or SIGQUIT first puts `settings` back on `fd`,
/// then takes the course it would have taken without the guard (the disposition in place before
/// is reinstated and the signal raised again), so a process killed at the prompt never leaves the
/// terminal without echo. A signal the process ignores stays ignored. The handler is installed
/// without SA_RESTART, so a read from the terminal returns EINTR if the process survives.
/// One guard at a time: callers serialise their prompts. Returns 0.
int cks_terminal_guard_begin(int fd, const struct termios *settings);
/// Puts back the dispositions cks_terminal_guard_begin replaced.
void cks_terminal_guard_end(void);
/// 1 if a guarded signal arrived since cks_terminal_guard_begin, else 0.
int cks_terminal_guard_interrupted(void);

/// The credentials the kernel recorded for the peer of a connected Unix socket when it connected
/// (SO_PEERCRED): its process id, effective user id and effective group id. Returns 0, or -1
/// with errno set.
int cks_peer_credentials(int socket, int32_t *pid, uint32_t *uid, uint32_t *gid);
/// accept4(2) with SOCK_CLOEXEC: a connection that no child started later inherits, with no
/// window between accept and fcntl in which another thread could fork. Glibc declares accept4
/// only under _GNU_SOURCE, which Swift's import does not set.
int cks_accept_cloexec(int socket);
/// A pidfd for the process that connected the Unix socket (SO_PEERPIDFD, Linux 6.5 and later),
/// close-on-exec, or -1 with errno set (ENOPROTOOPT on older kernels). On current kernels it
/// succeeds even when that process has already exited and been reaped: the pidfd then names no
/// process, which the caller must check.
int cks_peer_pidfd(int socket);
/// pidfd_open(2) on `pid`: a close-on-exec pidfd, or -1 with errno set.
int cks_pidfd_open(int32_t pid);
/// pidfd_send_signal(2) of `signal` (0 only checks that the process can be signalled) to the
/// process `pidfd` names: 0, or -1 with errno set (ESRCH once it has been reaped).
int cks_pidfd_send_signal(int pidfd, int signal);
/// The file system type (statfs(2)'s f_type, e.g. FUSE_SUPER_MAGIC 0x65735546) of the file
/// system holding `path`, or -1 with errno set.
long cks_filesystem_type(const char *path);

/// Becomes `uid`/`gid` (not 0) for good, from root: no supplementary groups, every id changed,
/// and of root's capabilities only CAP_SYS_PTRACE kept (effective and permitted), with
/// no_new_privs set and the process not dumpable. For the system keeper, which must read the
/// /proc entries of callers of every user. Returns 0, or -1 with errno set.
int cks_become_service_user(uint32_t uid, uint32_t gid);
/// Joins a new anonymous session keyring (KEYCTL_JOIN_SESSION_KEYRING): keys this process adds
/// to its session keyring from then on are in none of its parent's. Returns 0, or -1.
int cks_join_new_session_keyring(void);

#endif
