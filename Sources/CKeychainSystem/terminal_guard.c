#include "CKeychainSystem.h"
#include <errno.h>
#include <signal.h>
#include <string.h>

// The signal side of a password prompt, in C because a signal handler may only call
// async-signal-safe functions: tcsetattr, sigaction and raise are, the Swift runtime is not.

static const int guarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { guarded_count = sizeof guarded_signals / sizeof guarded_signals[0] };

static struct sigaction replaced[guarded_count];
static volatile sig_atomic_t installed[guarded_count];
static struct termios restore_settings;
static volatile sig_atomic_t guarded_fd = -1;
static volatile sig_atomic_t interrupted = 0;

static void restore_then_resend(int signal_number) {
    int saved_errno = errno;
    if (guarded_fd >= 0) (void)tcsetattr(guarded_fd, TCSAFLUSH, &restore_settings);
    interrupted = 1;
    for (int index = 0; index < guarded_count; index++) {
        // This handler only runs where begin installed it, after it saved what it replaced.
        if (guarded_signals[index] == signal_number) {
            (void)sigaction(signal_number, &replaced[index], NULL);
            installed[index] = 0;
        }
    }
    // Blocked until this handler returns, then delivered under the disposition just put back:
    // the default one ends the process as if the guard had never been there.
    (void)raise(signal_number);
    errno = saved_errno;
}

int cks_terminal_guard_begin(int fd, const struct termios *settings) {
    restore_settings = *settings;
    interrupted = 0;
    guarded_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_then_resend;
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < guarded_count; index++) sigaddset(&action.sa_mask, guarded_signals[index]);
    action.sa_flags = 0; // no SA_RESTART: the prompt's read must see EINTR
    for (int index = 0; index < guarded_count; index++) {
        struct sigaction current;
        installed[index] = 0;
        if (sigaction(guarded_signals[index], NULL, &current) != 0 || current.sa_handler == SIG_IGN) continue;
        replaced[index] = current;
        if (sigaction(guarded_signals[index], &action, NULL) == 0) installed[index] = 1;
    }
    return 0;
}

void cks_terminal_guard_end(void) {
    for (int index = 0; index < guarded_count; index++) {
        if (installed[index]) {
            // In this order: a signal arriving in between finds the old disposition, or this
            // guard's handler, which puts it back itself.
            (void)sigaction(guarded_signals[index], &replaced[index], NULL);
            installed[index] = 0;
        }
    }
    guarded_fd = -1;
}

int cks_terminal_guard_interrupted(void) {
    return interrupted ? 1 : 0;
}
