#define _GNU_SOURCE
#include "kira_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int kira_open_unnamed(const char *directory) {
#ifdef O_TMPFILE
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
#else
    (void)directory;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int kira_name_unnamed(int fd, const char *path) {
#ifdef O_TMPFILE
    // linkat with AT_EMPTY_PATH needs a capability; the /proc link does not.
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
    (void)fd;
    (void)path;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

// One slot per temporary file that exists at a time: a command writes a handful at once
// (frames encoded in parallel are written one by one), so 64 is ample.
enum { SLOTS = 64 };
enum { FREE = 0, FILLING = 1, ARMED = 2 };
static char slot_paths[SLOTS][PATH_MAX];
static atomic_int slot_states[SLOTS];

int kira_cleanup_remember(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    for (int i = 0; i < SLOTS; i++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&slot_states[i], &expected, FILLING)) {
            memcpy(slot_paths[i], path, length + 1);
            atomic_store(&slot_states[i], ARMED);
            return i;
        }
    }
    return -1;
}

void kira_cleanup_forget(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&slot_states[slot], FREE);
}

static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[3];

static void on_termination(int signal_number) {
    int saved = errno;
    for (int i = 0; i < SLOTS; i++) {
        // Only ARMED slots hold a whole name; unlink is async-signal-safe.
        if (atomic_load(&slot_states[i]) == ARMED) unlink(slot_paths[i]);
    }
    errno = saved;
    // Back to what was there before (the default, or a handler this one was chained to), and the
    // signal again: delivered once this handler returns, it ends the process as it would have.
    for (int i = 0; i < 3; i++) {
        if (handled_signals[i] == signal_number) sigaction(signal_number, &previous[i], NULL);
    }
    raise(signal_number);
}

void kira_cleanup_install(void) {
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&done)) return;
    for (int i = 0; i < 3; i++) {
        struct sigaction current;
        if (sigaction(handled_signals[i], NULL, &current) != 0) continue;
        // Ignored by the parent's choice (nohup) stays ignored; a plain handler is chained.
        if (current.sa_handler == SIG_IGN || (current.sa_flags & SA_SIGINFO)) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_termination;
        sigemptyset(&action.sa_mask);
        sigaction(handled_signals[i], &action, &previous[i]);
    }
}
