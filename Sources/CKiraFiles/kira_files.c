#define _GNU_SOURCE
#include "kira_files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
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

// One slot per temporary file or child process that exists at a time: a command writes a
// handful of files at once (frames encoded in parallel are written one by one) and runs one
// ffmpeg per video, so 80 is ample. A slot holds a path or a child, never both.
enum { SLOTS = 80 };
enum { FREE = 0, FILLING = 1, ARMED = 2 };
static char slot_paths[SLOTS][PATH_MAX];
static atomic_int slot_children[SLOTS];
static atomic_int slot_states[SLOTS];

// A slot is filled while FILLING (the handler skips it) and read by the handler once ARMED.
static int claim_slot(void) {
    for (int i = 0; i < SLOTS; i++) {
        int expected = FREE;
        if (atomic_compare_exchange_strong(&slot_states[i], &expected, FILLING)) return i;
    }
    return -1;
}

int kira_cleanup_remember(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_MAX) return -1;
    int i = claim_slot();
    if (i < 0) return -1;
    memcpy(slot_paths[i], path, length + 1);
    atomic_store(&slot_children[i], 0);
    atomic_store(&slot_states[i], ARMED);
    return i;
}

int kira_cleanup_remember_child(pid_t child) {
    int i = claim_slot();
    if (i < 0) return -1;
    slot_paths[i][0] = '\0';
    atomic_store(&slot_children[i], (int)child);
    atomic_store(&slot_states[i], ARMED);
    return i;
}

void kira_cleanup_child_exited(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&slot_children[slot], 0);
}

void kira_cleanup_forget(int slot) {
    if (slot >= 0 && slot < SLOTS) atomic_store(&slot_states[slot], FREE);
}

void kira_cleanup_forget_all(void) {
    for (int i = 0; i < SLOTS; i++) atomic_store(&slot_states[i], FREE);
}

// Children first, so that none goes on writing a file being removed; kill and unlink are
// async-signal-safe, and only ARMED slots hold a whole entry.
static void clean_up(void) {
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slot_states[i]) != ARMED) continue;
        pid_t child = (pid_t)atomic_load(&slot_children[i]);
        if (child > 0) kill(child, SIGKILL);
    }
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slot_states[i]) == ARMED && slot_paths[i][0] != '\0') unlink(slot_paths[i]);
    }
}

void kira_cleanup_now(void) {
    clean_up();
}

// A temporary file is remembered before it is created (a signal between the two would otherwise
// leave it), and its creation is bracketed by kira_cleanup_begin_create / end_create, because the
// handler may run on another thread while one creates a file: it then waits for creations under
// way to finish (their files exist and are remembered by then), and creations not yet begun wait
// for the process to end.
static atomic_int creating = 0;
static atomic_int terminating = 0;
static _Thread_local int creating_here = 0;

void kira_cleanup_begin_create(void) {
    atomic_fetch_add(&creating, 1);
    creating_here = 1;
    if (!atomic_load(&terminating)) return;
    // The handler is removing the files: create nothing more. The process ends as soon as the
    // handler returns; should a chained handler keep it alive, go on after two seconds.
    atomic_fetch_sub(&creating, 1);
    creating_here = 0;
    for (int i = 0; i < 200 && atomic_load(&terminating); i++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    atomic_fetch_add(&creating, 1);
    creating_here = 1;
}

void kira_cleanup_end_create(void) {
    creating_here = 0;
    atomic_fetch_sub(&creating, 1);
}

static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[3];

static void on_termination(int signal_number) {
    int saved = errno;
    atomic_store(&terminating, 1);
    // Other threads' creations under way finish first (bounded: a file system that hangs must
    // not hang the handler). This thread's own, if it was interrupted in one, cannot.
    int own = creating_here;
    for (long spins = 0; atomic_load(&creating) > own && spins < 50L * 1000 * 1000; spins++) {
    }
    clean_up();
    errno = saved;
    // Back to what was there before (the default, or a handler this one was chained to), and the
    // signal again: delivered once this handler returns, it ends the process as it would have.
    for (int i = 0; i < 3; i++) {
        if (handled_signals[i] == signal_number) sigaction(signal_number, &previous[i], NULL);
    }
    // `terminating` stays set: were it cleared here, other threads could create files between
    // this return and the signal ending the process.
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

int kira_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
