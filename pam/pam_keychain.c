/*
 * pam_keychain: unlocks a user's swift-keychain login keychain with the login password.
 *
 *   auth      keeps the password the stack already read (PAM_AUTHTOK) for the session step,
 *             in locked memory, wiped when the session step is done or PAM ends
 *   session   unlocks the login keychain with it (auto_create: creates one on first login)
 *   password  re-keys the login keychain from the old password to the new one
 *
 * The module never reads a keychain itself. It runs keychain-pam-helper, a program of this
 * package, as the user (groups, gid, uid, HOME and a clean environment), with the passwords on
 * its standard input (a socket), never in its arguments or environment, and waits for it at
 * most `timeout` seconds. It runs only a helper that only root can change and no one else can
 * read (mode 0711: the kernel starts it non-dumpable, so no process of the user can reach its
 * standard input). Whatever happens, every entry point returns PAM_IGNORE, so nothing
 * here can change the outcome of a login or a password change; failures go to syslog, without
 * the password. The design and the threat model are in docs/pam.md.
 *
 * With keeper=system (or keeper=/socket/path) the login keychain is the system keeper's
 * (keychaind --system): the module then runs the helper as root, not as the user, and the
 * helper hands the passwords to the keeper over its socket, naming the user; the keeper
 * accepts that only from root. No process of the user can reach a root process's input.
 *
 * Options: debug, auto_create, helper=/absolute/path, timeout=SECONDS (1-300), keeper=system|/path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#ifndef PAM_KEYCHAIN_HELPER
#define PAM_KEYCHAIN_HELPER "/usr/local/libexec/swift-keychain/keychain-pam-helper"
#endif
/* The system keeper's socket (KeychainKeeper.systemSocketPath in the Swift code). */
#define PAM_KEYCHAIN_SYSTEM_KEEPER "/run/swift-keychain/keeper"

/* Built with -fvisibility=hidden: only the entry points PAM looks up are exported. */
#define EXPORTED __attribute__((visibility("default")))

/* The name the password is kept under between the auth and session steps. */
#define AUTHTOK_DATA "pam_keychain_authtok"
/* The longest password passed on: the helper's own limit (16 KiB, its locked read buffer). */
#define MAX_PASSWORD 16384
#define DEFAULT_TIMEOUT 20
#define MAX_TIMEOUT 300
/* What the module keeps of the helper's one-line report. */
#define MAX_REPORT 512

/* The helper's exit statuses (keychain-pam-helper's HelperExit says the same). */
enum helper_exit {
    HELPER_DONE = 0,
    HELPER_FAILED = 1,
    HELPER_BAD_INPUT = 2,
    HELPER_NOTHING_TO_DO = 3,
    HELPER_WRONG_PASSWORD = 4,
    HELPER_NO_SHARED_UNLOCK = 5,
    /* Set by the module's own child before exec: the step that failed is in the report. */
    HELPER_NOT_STARTED = 126,
};

struct options {
    int debug;
    int auto_create;
    int all_sessions;
    const char *helper;
    int timeout;
    /* The system keeper's socket, or NULL: the login keychain is the user's own file. */
    const char *keeper;
};

static void parse_options(pam_handle_t *pamh, int argc, const char **argv, struct options *options)
{
    options->debug = 0;
    options->auto_create = 0;
    options->all_sessions = 0;
    options->helper = PAM_KEYCHAIN_HELPER;
    options->timeout = DEFAULT_TIMEOUT;
    options->keeper = NULL;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "debug") == 0) {
            options->debug = 1;
        } else if (strcmp(arg, "auto_create") == 0) {
            options->auto_create = 1;
        } else if (strcmp(arg, "all_sessions") == 0) {
            options->all_sessions = 1;
        } else if (strncmp(arg, "helper=", 7) == 0 && arg[7] == '/') {
            options->helper = arg + 7;
        } else if (strcmp(arg, "keeper=system") == 0) {
            options->keeper = PAM_KEYCHAIN_SYSTEM_KEEPER;
        } else if (strncmp(arg, "keeper=", 7) == 0 && arg[7] == '/') {
            options->keeper = arg + 7;
        } else if (strncmp(arg, "timeout=", 8) == 0) {
            char *end = NULL;
            long value = strtol(arg + 8, &end, 10);
            if (end != arg + 8 && *end == '\0' && value >= 1 && value <= MAX_TIMEOUT)
                options->timeout = (int)value;
            else
                pam_syslog(pamh, LOG_ERR, "ignoring %s: the timeout is 1 to %d seconds", arg, MAX_TIMEOUT);
        } else {
            pam_syslog(pamh, LOG_ERR, "ignoring unknown option %.64s", arg);
        }
    }
}

/* ---- the kept password: its own locked, non-dumped mapping, wiped before it is unmapped ---- */

struct secret {
    size_t mapped;
    size_t length;
    char bytes[];
};

static struct secret *secret_copy(const char *text, size_t length)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t mapped = (sizeof(struct secret) + length + 1 + page - 1) / page * page;
    struct secret *secret = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (secret == MAP_FAILED)
        return NULL;
    /* Best effort: without the limit for it, the password is still wiped, only swappable. */
    (void)mlock(secret, mapped);
    /* Not MADV_WIPEONFORK: a program that forks between auth and session opens the session in
     * the child, which needs its copy (and wipes it, as the parent wipes its own at pam_end). */
    (void)madvise(secret, mapped, MADV_DONTDUMP);
    secret->mapped = mapped;
    secret->length = length;
    memcpy(secret->bytes, text, length);
    secret->bytes[length] = '\0';
    return secret;
}

static void secret_free(struct secret *secret)
{
    if (secret == NULL || secret->mapped == 0)
        return;
    size_t mapped = secret->mapped;
    explicit_bzero(secret, mapped);
    (void)munlock(secret, mapped);
    (void)munmap(secret, mapped);
}

static void cleanup_secret(pam_handle_t *pamh, void *data, int error_status)
{
    (void)pamh;
    (void)error_status;
    secret_free(data);
}

/* Wipes the kept password now (pam_set_data runs the cleanup of the value it replaces). */
static void forget_password(pam_handle_t *pamh)
{
    const void *data = NULL;
    if (pam_get_data(pamh, AUTHTOK_DATA, &data) == PAM_SUCCESS && data != NULL)
        (void)pam_set_data(pamh, AUTHTOK_DATA, NULL, NULL);
}

/* A password the helper can take: not empty, not longer than its limit. `absent` says why
 * there may be none. */
static int usable_password(pam_handle_t *pamh, const char *what, const char *password, const char *absent, size_t *length)
{
    if (password == NULL) {
        pam_syslog(pamh, LOG_INFO, "no %s in the PAM stack (%s); the keychain is left alone", what, absent);
        return 0;
    }
    size_t count = strnlen(password, MAX_PASSWORD + 1);
    if (count == 0) {
        pam_syslog(pamh, LOG_INFO, "the %s is empty; the keychain is left alone", what);
        return 0;
    }
    if (count > MAX_PASSWORD) {
        pam_syslog(pamh, LOG_NOTICE, "the %s is longer than %d bytes; the keychain is left alone", what, MAX_PASSWORD);
        return 0;
    }
    *length = count;
    return 1;
}

/* ---- the helper ---- */

/* The user the helper runs as, looked up before fork (NSS is not safe in a forked child). */
struct account {
    uid_t uid;
    gid_t gid;
    gid_t *groups;
    int group_count;
    char *environment[8];
};

static void account_free(struct account *account)
{
    free(account->groups);
    for (size_t i = 0; i < sizeof account->environment / sizeof account->environment[0]; i++)
        free(account->environment[i]);
    memset(account, 0, sizeof *account);
}

static char *joined(const char *name, const char *value)
{
    char *text = NULL;
    return asprintf(&text, "%s=%s", name, value) < 0 ? NULL : text;
}

static int look_up_account(pam_handle_t *pamh, struct account *account)
{
    memset(account, 0, sizeof *account);
    const char *user = NULL;
    if (pam_get_item(pamh, PAM_USER, (const void **)&user) != PAM_SUCCESS || user == NULL || *user == '\0') {
        pam_syslog(pamh, LOG_ERR, "no user name; the keychain is left alone");
        return 0;
    }
    struct passwd entry, *found = NULL;
    char buffer[16384];
    if (getpwnam_r(user, &entry, buffer, sizeof buffer, &found) != 0 || found == NULL) {
        pam_syslog(pamh, LOG_ERR, "user %.64s is unknown; the keychain is left alone", user);
        return 0;
    }
    struct stat home;
    if (found->pw_dir == NULL || found->pw_dir[0] != '/' || stat(found->pw_dir, &home) != 0 ||
        !S_ISDIR(home.st_mode) || home.st_uid != found->pw_uid) {
        pam_syslog(pamh, LOG_NOTICE, "user %.64s has no home folder of their own; the keychain is left alone", user);
        return 0;
    }
    if (geteuid() != 0 && geteuid() != found->pw_uid) {
        pam_syslog(pamh, LOG_NOTICE, "running as uid %u, which cannot act for user %.64s; the keychain is left alone",
                   (unsigned)geteuid(), user);
        return 0;
    }
    account->uid = found->pw_uid;
    account->gid = found->pw_gid;
    int count = 32;
    for (int attempt = 0; attempt < 4; attempt++) {
        gid_t *groups = realloc(account->groups, (size_t)count * sizeof(gid_t));
        if (groups == NULL)
            break;
        account->groups = groups;
        int wanted = count;
        if (getgrouplist(user, found->pw_gid, groups, &wanted) >= 0) {
            account->group_count = wanted;
            break;
        }
        count = wanted > count && wanted < 65536 ? wanted : count * 2;
    }
    if (account->groups == NULL) {
        pam_syslog(pamh, LOG_ERR, "out of memory; the keychain is left alone");
        return 0;
    }
    if (account->group_count == 0) {
        /* Only the primary group, rather than none: never more than the user has. */
        account->groups[0] = found->pw_gid;
        account->group_count = 1;
    }
    const char *shell = found->pw_shell != NULL && found->pw_shell[0] == '/' ? found->pw_shell : "/bin/sh";
    account->environment[0] = joined("HOME", found->pw_dir);
    account->environment[1] = joined("USER", found->pw_name);
    account->environment[2] = joined("LOGNAME", found->pw_name);
    account->environment[3] = joined("SHELL", shell);
    account->environment[4] = joined("PATH", "/usr/local/bin:/usr/bin:/bin");
    /* Swift's crash reporter would print the helper's state on standard error: the module logs that. */
    account->environment[5] = joined("SWIFT_BACKTRACE", "enable=no");
    account->environment[6] = NULL;
    for (int i = 0; i < 6; i++) {
        if (account->environment[i] == NULL) {
            account_free(account);
            pam_syslog(pamh, LOG_ERR, "out of memory; the keychain is left alone");
            return 0;
        }
    }
    return 1;
}

/* Whether only root (or the module's own user) can change what is at this path. */
static int owned_safely(const struct stat *status)
{
    if (status->st_uid != 0 && status->st_uid != geteuid())
        return 0;
    /* A shared folder with the sticky bit (/tmp) lets nobody else replace what root put there. */
    return (status->st_mode & (S_IWGRP | S_IWOTH)) == 0 || (S_ISDIR(status->st_mode) && (status->st_mode & S_ISVTX));
}

/* The helper is handed the password, so it must be a regular file that only root (or, for a
 * module run by a user, that user) can change, in folders nobody else can change either, and
 * that no one else can read. Returns its resolved path (no links left to swap), to run exactly
 * that, or NULL. */
static char *trusted_helper(pam_handle_t *pamh, const char *path)
{
    char *resolved = realpath(path, NULL);
    if (resolved == NULL) {
        pam_syslog(pamh, LOG_ERR, "helper %.256s: %s; the keychain is left alone", path, strerror(errno));
        return NULL;
    }
    struct stat status;
    if (stat(resolved, &status) != 0 || !S_ISREG(status.st_mode) || (status.st_mode & S_IXUSR) == 0 ||
        (status.st_mode & (S_IWGRP | S_IWOTH)) != 0 || !owned_safely(&status)) {
        pam_syslog(pamh, LOG_ERR, "helper %.256s is not an executable file owned by root and writable only by it; "
                   "the keychain is left alone", resolved);
        free(resolved);
        return NULL;
    }
    /* The kernel leaves a process dumpable after execve when the user could read its executable,
     * and the helper can make itself non-dumpable only once its own code runs. In between, any
     * process of the user may ptrace it or copy its descriptors (pidfd_getfd), and so read the
     * password waiting on its standard input. An executable the user cannot read (mode 0711)
     * makes the kernel start it non-dumpable. A group bit counts too: the user may be in the
     * file's group, or an ACL may give them read access (its mask shows in the group bits). */
    if ((status.st_mode & (S_IRGRP | S_IROTH)) != 0) {
        pam_syslog(pamh, LOG_ERR, "helper %.256s can be read by users other than its owner, so a process of the user "
                   "could take the password from it as it starts (install it with mode 0711); the keychain is left alone",
                   resolved);
        free(resolved);
        return NULL;
    }
    char *folder = strdup(resolved);
    if (folder == NULL) {
        free(resolved);
        return NULL;
    }
    for (char *slash = strrchr(folder, '/'); slash != NULL; slash = strrchr(folder, '/')) {
        if (slash == folder)
            slash[1] = '\0';
        else
            *slash = '\0';
        if (stat(folder, &status) != 0 || !owned_safely(&status)) {
            pam_syslog(pamh, LOG_ERR, "helper %.256s is in %.256s, which someone other than root can change; "
                       "the keychain is left alone", resolved, folder);
            free(folder);
            free(resolved);
            return NULL;
        }
        if (slash == folder)
            break;
    }
    free(folder);
    return resolved;
}

/* In the forked child only async-signal-safe calls: report a failed step and leave. */
static void child_fail(const char *step)
{
    static const char prefix[] = "pam_keychain: could not start the helper: ";
    (void)!write(STDERR_FILENO, prefix, sizeof prefix - 1);
    (void)!write(STDERR_FILENO, step, strlen(step));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(HELPER_NOT_STARTED);
}

/* The session keyring the helper inherits is where the unlock lands for the rest of the login.
 * One that belongs to another user (a daemon's own keyring, when no pam_keyinit ran before this
 * module) is shared with that daemon's other sessions, other users' among them: refused. */
static void child_check_session_keyring(uid_t uid)
{
    long id = syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* KEY_SPEC_SESSION_KEYRING */, 0);
    if (id < 0)
        return; /* no kernel keyring at all: the helper reports it */
    char description[256];
    long count = syscall(SYS_keyctl, 6 /* KEYCTL_DESCRIBE */, id, description, sizeof description - 1);
    if (count < 0)
        child_fail("the session keyring cannot be inspected");
    description[count < (long)sizeof description ? count : (long)sizeof description - 1] = '\0';
    /* "type;uid;gid;perm;name": the owner is the digits after the first ';' (parsed by hand,
     * as nothing here may take a lock). */
    const char *field = description;
    while (*field != '\0' && *field != ';')
        field++;
    unsigned long owner = 0;
    int digits = 0;
    if (*field == ';') {
        for (field++; *field >= '0' && *field <= '9' && digits < 10; field++, digits++)
            owner = owner * 10 + (unsigned long)(*field - '0');
    }
    if (digits == 0 || *field != ';' || owner != (unsigned long)uid)
        child_fail("the session keyring belongs to another user; put `session optional pam_keyinit.so force revoke` "
                   "before pam_keychain.so so that the login has its own");
}

static void run_child(const char *helper, char *const arguments[], const struct account *account, int served, int input, int report)
{
    if (dup2(input, STDIN_FILENO) < 0 || dup2(report, STDERR_FILENO) < 0)
        _exit(HELPER_NOT_STARTED);
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
        child_fail("/dev/null");
    long closed = -1;
#ifdef SYS_close_range
    closed = syscall(SYS_close_range, 3U, ~0U, 0);
#endif
    if (closed != 0) {
        for (int fd = 3; fd < 65536; fd++)
            (void)close(fd);
    }
    sigset_t none;
    sigemptyset(&none);
    (void)sigprocmask(SIG_SETMASK, &none, NULL);
    for (int sig = 1; sig < NSIG; sig++)
        (void)signal(sig, SIG_DFL);
    /* Its own session: no controlling terminal to prompt on, and a group to kill on timeout. */
    if (setsid() < 0)
        child_fail("setsid");
    if (served && geteuid() == 0) {
        /* For the system keeper: root, which the keeper requires of whoever names another user,
         * with no supplementary groups; the helper only talks to the keeper's socket. */
        if (setgroups(0, NULL) != 0 || setresgid(0, 0, 0) != 0)
            child_fail("setgroups");
        if (chdir("/") != 0)
            child_fail("chdir");
        umask(077);
        execve(helper, arguments, account->environment);
        child_fail("exec");
    }
    if (geteuid() == 0) {
        if (setgroups((size_t)account->group_count, account->groups) != 0)
            child_fail("setgroups");
        if (setresgid(account->gid, account->gid, account->gid) != 0)
            child_fail("setresgid");
        if (setresuid(account->uid, account->uid, account->uid) != 0)
            child_fail("setresuid");
    } else {
        /* Run by a program of the user's own that is setgid (a screen locker's shadow group, say):
         * that effective and saved group stays here, rather than reaching a helper that reads
         * files the user controls. The real group is the user's. */
        gid_t gid = getgid();
        if (setresgid(gid, gid, gid) != 0)
            child_fail("setresgid");
    }
    /* Every id, saved ones too: a saved uid or gid other than the user's is a way back. */
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;
    if (getresuid(&ruid, &euid, &suid) != 0 || ruid != account->uid || euid != account->uid || suid != account->uid ||
        getresgid(&rgid, &egid, &sgid) != 0 || egid != rgid || sgid != rgid || (account->uid != 0 && setuid(0) == 0))
        child_fail("dropping privileges");
    child_check_session_keyring(account->uid);
    const char *home = account->environment[0] + 5;
    if (chdir(home) != 0)
        child_fail("the home folder");
    umask(077);
    execve(helper, arguments, account->environment);
    child_fail("exec");
}

static long long now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Bytes to send, in pieces, so the passwords are never copied into one more buffer. */
struct piece {
    const char *bytes;
    size_t length;
};

/* Runs the helper and returns its exit status (-1 when it was killed or never ran); its report
 * (first line, printable ASCII only) is left in `report`. */
static int run_helper(pam_handle_t *pamh, const struct options *options, const char *helper, const struct account *account,
                      char *const arguments[], struct piece *pieces, size_t piece_count, char report[MAX_REPORT])
{
    report[0] = '\0';
    int input[2], output[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, input) != 0)
        return -1;
    if (pipe2(output, O_CLOEXEC) != 0) {
        close(input[0]);
        close(input[1]);
        return -1;
    }
    /* The application may reap children itself (SIGCHLD handler, or SIG_IGN, which reaps them
     * automatically); for this call the helper is ours to wait for. */
    struct sigaction default_child, saved_child;
    memset(&default_child, 0, sizeof default_child);
    default_child.sa_handler = SIG_DFL;
    sigemptyset(&default_child.sa_mask);
    sigaction(SIGCHLD, &default_child, &saved_child);

    pid_t pid = fork();
    if (pid == 0)
        run_child(helper, arguments, account, options->keeper != NULL, input[1], output[1]);
    close(input[1]);
    close(output[1]);
    if (pid < 0) {
        close(input[0]);
        close(output[0]);
        sigaction(SIGCHLD, &saved_child, NULL);
        pam_syslog(pamh, LOG_ERR, "fork: %s", strerror(errno));
        return -1;
    }
    (void)fcntl(input[0], F_SETFL, O_NONBLOCK);
    (void)fcntl(output[0], F_SETFL, O_NONBLOCK);

    long long deadline = now_ms() + (long long)options->timeout * 1000;
    size_t piece = 0, offset = 0, kept = 0;
    int sending = 1, reading = 1, timed_out = 0;
    while (sending || reading) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd watched[2] = {
            { .fd = sending ? input[0] : -1, .events = POLLOUT },
            { .fd = reading ? output[0] : -1, .events = POLLIN },
        };
        if (poll(watched, 2, (int)(left < 1000 ? left : 1000)) < 0 && errno != EINTR)
            break;
        if (sending && (watched[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
            while (piece < piece_count) {
                ssize_t sent = send(input[0], pieces[piece].bytes + offset, pieces[piece].length - offset, MSG_NOSIGNAL);
                if (sent < 0) {
                    if (errno == EINTR)
                        continue;
                    if (errno == EAGAIN)
                        break;
                    piece = piece_count; /* the helper went away: it reports why */
                    break;
                }
                offset += (size_t)sent;
                if (offset == pieces[piece].length) {
                    piece++;
                    offset = 0;
                }
            }
            if (piece == piece_count) {
                close(input[0]);
                sending = 0;
            }
        }
        if (reading && (watched[1].revents & (POLLIN | POLLERR | POLLHUP))) {
            char chunk[256];
            ssize_t got = read(output[0], chunk, sizeof chunk);
            if (got > 0) {
                for (ssize_t i = 0; i < got && kept < MAX_REPORT - 1; i++)
                    report[kept++] = chunk[i];
                report[kept] = '\0';
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                reading = 0;
            }
        }
    }
    if (sending)
        close(input[0]);
    close(output[0]);

    int status = 0, exited = 0;
    while (!timed_out) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            exited = 1;
            break;
        }
        if (done < 0 && errno != EINTR)
            break;
        if (now_ms() >= deadline) {
            timed_out = 1;
            break;
        }
        struct timespec pause = { 0, 10 * 1000 * 1000 };
        nanosleep(&pause, NULL);
    }
    if (!exited) {
        /* Signal it only while it is still ours to reap: once another thread of the application
         * has reaped it (waitpid(-1)), its pid and group id may already name someone else's. */
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            exited = 1;
        } else if (!(done < 0 && errno == ECHILD)) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
    }
    sigaction(SIGCHLD, &saved_child, NULL);

    /* Keep the first line, printable ASCII only: it goes to syslog as it is. */
    for (size_t i = 0; report[i] != '\0'; i++) {
        if (report[i] == '\n') {
            report[i] = '\0';
            break;
        }
        if ((unsigned char)report[i] < 0x20 || (unsigned char)report[i] > 0x7e)
            report[i] = '?';
    }
    if (timed_out) {
        pam_syslog(pamh, LOG_ERR, "the helper did not finish within %d seconds and was stopped; the keychain is left as it was",
                   options->timeout);
        return -1;
    }
    if (!exited || !WIFEXITED(status)) {
        pam_syslog(pamh, LOG_ERR, "the helper ended abnormally (signal %d)", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        return -1;
    }
    return WEXITSTATUS(status);
}

/* Runs the helper for `operation` and logs what it reported. */
static void keychain_operation(pam_handle_t *pamh, const struct options *options, const char *operation,
                               struct piece *pieces, size_t piece_count)
{
    char *helper = trusted_helper(pamh, options->helper);
    if (helper == NULL)
        return;
    struct account account;
    if (!look_up_account(pamh, &account)) {
        free(helper);
        return;
    }
    /* unlock takes its flags; change-password none; with the keeper, its socket and the user. */
    char uid_text[16];
    snprintf(uid_text, sizeof uid_text, "%u", (unsigned)account.uid);
    char *arguments[9] = { (char *)"keychain-pam-helper", (char *)operation, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    size_t next = 2;
    if (strcmp(operation, "unlock") == 0) {
        if (options->auto_create)
            arguments[next++] = (char *)"--create";
        /* The keeper's unlock lasts as long as the keeper: there are no sessions to choose. */
        if (options->all_sessions && options->keeper == NULL)
            arguments[next++] = (char *)"--all-sessions";
    }
    if (options->keeper != NULL) {
        arguments[next++] = (char *)"--keeper";
        arguments[next++] = (char *)options->keeper;
        arguments[next++] = (char *)"--user";
        arguments[next++] = uid_text;
    }
    char report[MAX_REPORT];
    int status = run_helper(pamh, options, helper, &account, arguments, pieces, piece_count, report);
    account_free(&account);
    free(helper);
    if (status < 0) {
        if (report[0] != '\0')
            pam_syslog(pamh, LOG_ERR, "%s", report);
        return;
    }
    int priority;
    switch (status) {
    case HELPER_DONE:
        priority = LOG_INFO;
        break;
    case HELPER_NOTHING_TO_DO:
        priority = options->debug ? LOG_INFO : LOG_DEBUG;
        break;
    case HELPER_WRONG_PASSWORD:
        priority = LOG_WARNING;
        break;
    default:
        priority = LOG_ERR;
    }
    pam_syslog(pamh, priority, "%s (helper exit %d)", report[0] != '\0' ? report : "no report", status);
}

/* ---- the PAM entry points; each returns PAM_IGNORE ---- */

EXPORTED int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)flags;
    struct options options;
    parse_options(pamh, argc, argv, &options);
    const void *item = NULL;
    size_t length = 0;
    if (pam_get_item(pamh, PAM_AUTHTOK, &item) != PAM_SUCCESS)
        item = NULL;
    if (!usable_password(pamh, "password", item, "pam_keychain must follow the module that reads it", &length))
        return PAM_IGNORE;
    struct secret *secret = secret_copy(item, length);
    if (secret == NULL) {
        pam_syslog(pamh, LOG_ERR, "no memory to keep the password; the keychain will stay locked");
        return PAM_IGNORE;
    }
    if (pam_set_data(pamh, AUTHTOK_DATA, secret, cleanup_secret) != PAM_SUCCESS) {
        secret_free(secret);
        pam_syslog(pamh, LOG_ERR, "could not keep the password; the keychain will stay locked");
        return PAM_IGNORE;
    }
    if (options.debug)
        pam_syslog(pamh, LOG_DEBUG, "password kept for the session step");
    return PAM_IGNORE;
}

EXPORTED int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)pamh;
    (void)flags;
    (void)argc;
    (void)argv;
    return PAM_IGNORE;
}

EXPORTED int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)flags;
    struct options options;
    parse_options(pamh, argc, argv, &options);
    const void *data = NULL;
    if (pam_get_data(pamh, AUTHTOK_DATA, &data) != PAM_SUCCESS || data == NULL) {
        /* A key or token login, or an application that authenticated in another process. */
        if (options.debug)
            pam_syslog(pamh, LOG_DEBUG, "no password from the auth step; the keychain is left alone");
        return PAM_IGNORE;
    }
    const struct secret *secret = data;
    if (secret->length == 0 || secret->length > MAX_PASSWORD) {
        forget_password(pamh);
        return PAM_IGNORE;
    }
    struct piece pieces[] = { { secret->bytes, secret->length }, { "", 1 } };
    keychain_operation(pamh, &options, "unlock", pieces, 2);
    forget_password(pamh);
    return PAM_IGNORE;
}

EXPORTED int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    (void)flags;
    (void)argc;
    (void)argv;
    forget_password(pamh);
    return PAM_IGNORE;
}

EXPORTED int pam_sm_chauthtok(pam_handle_t *pamh, int flags, int argc, const char **argv)
{
    /* The first pass (PAM_PRELIM_CHECK) only checks that a change is possible: nothing to do. */
    if (!(flags & PAM_UPDATE_AUTHTOK))
        return PAM_IGNORE;
    struct options options;
    parse_options(pamh, argc, argv, &options);
    const void *old_item = NULL, *new_item = NULL;
    size_t old_length = 0, new_length = 0;
    if (pam_get_item(pamh, PAM_OLDAUTHTOK, &old_item) != PAM_SUCCESS)
        old_item = NULL;
    if (pam_get_item(pamh, PAM_AUTHTOK, &new_item) != PAM_SUCCESS)
        new_item = NULL;
    /* Without the old password (root setting someone's password) the keychain cannot be re-keyed. */
    if (!usable_password(pamh, "old password", old_item,
                         "root setting a user's password gives none: `keychainctl set-keychain-password` re-keys by hand",
                         &old_length) ||
        !usable_password(pamh, "new password", new_item, "pam_keychain must follow the module that reads it", &new_length))
        return PAM_IGNORE;
    struct piece pieces[] = { { old_item, old_length }, { "", 1 }, { new_item, new_length }, { "", 1 } };
    keychain_operation(pamh, &options, "change-password", pieces, 4);
    return PAM_IGNORE;
}
