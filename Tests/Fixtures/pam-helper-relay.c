/*
 * pam-helper-relay: the file the PAM tests name as a stand-in helper. pam_keychain.so runs only a
 * helper that no one but root can read (mode 0711, docs/pam.md), and a script cannot be one: its
 * interpreter reads it as the user. So each stand-in is a copy of this program, mode 0711, and it
 * runs, in the same process and with the same arguments, the file beside it named as it is with
 * ".target" added (a script, or a readable copy of keychain-pam-helper).
 * Test code only: built by the test with the system's cc, never installed.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    (void)argc;
    static const char suffix[] = ".target";
    char target[PATH_MAX];
    /* Reading one's own /proc/self/exe link needs no permission on the file itself. */
    ssize_t length = readlink("/proc/self/exe", target, sizeof target - sizeof suffix);
    if (length <= 0) {
        perror("pam-helper-relay: /proc/self/exe");
        return 126;
    }
    memcpy(target + length, suffix, sizeof suffix);
    execv(target, argv);
    perror("pam-helper-relay: exec");
    return 126;
}
