#define _GNU_SOURCE
#include "CKeychainSystem.h"
#include <errno.h>
#include <grp.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

// The system keeper starts as root and becomes its own user here, keeping one capability:
// CAP_SYS_PTRACE, which lets it read /proc/PID/exe, /proc/PID/root and the rest of what names
// a caller of another user (the kernel's ptrace "read" check), and nothing else of root's.
int cks_become_service_user(uint32_t uid, uint32_t gid) {
#if defined(__linux__) && defined(SYS_capset)
    if (uid == 0) { errno = EINVAL; return -1; }
    // Without KEEPCAPS, setresuid away from 0 empties the permitted set.
    if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) return -1;
    if (setgroups(0, NULL) != 0) return -1;
    if (setresgid(gid, gid, gid) != 0) return -1;
    if (setresuid(uid, uid, uid) != 0) return -1;
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    data[CAP_TO_INDEX(CAP_SYS_PTRACE)].effective = CAP_TO_MASK(CAP_SYS_PTRACE);
    data[CAP_TO_INDEX(CAP_SYS_PTRACE)].permitted = CAP_TO_MASK(CAP_SYS_PTRACE);
    if (syscall(SYS_capset, &header, data) != 0) return -1;
    if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) != 0) return -1;
    // No way back: a saved id of 0 or a capability gained by exec.
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (setuid(0) == 0) { errno = EPERM; return -1; }
    // Changing ids leaves a process not dumpable already; said again so nothing depends on it.
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return -1;
    return 0;
#else
    (void)uid; (void)gid;
    errno = ENOSYS; return -1;
#endif
}

int cks_join_new_session_keyring(void) {
#if defined(__linux__) && defined(SYS_keyctl)
    // KEYCTL_JOIN_SESSION_KEYRING (1) with no name: a new anonymous session keyring.
    return syscall(SYS_keyctl, 1, NULL) < 0 ? -1 : 0;
#else
    errno = ENOSYS; return -1;
#endif
}
