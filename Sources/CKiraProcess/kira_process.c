#define _GNU_SOURCE
#include "kira_process.h"

#include <fcntl.h>

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { slot_count = 16, path_capacity = 4096 };

// A slot is written only while `armed` is 0, and read by the handler only while it is 1.
static struct {
    atomic_int armed;
    atomic_int child;
    char path[path_capacity];
} slots[slot_count];

static const int guarded_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction previous[3];
static int installed[3];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_signal(int signal) {
    for (int i = 0; i < slot_count; i++) {
        if (atomic_load(&slots[i].armed) != 1) continue;
        pid_t child = (pid_t)atomic_load(&slots[i].child);
        if (child > 0) kill(child, SIGKILL);
        if (slots[i].path[0] != '\0') unlink(slots[i].path);
    }
    for (int i = 0; i < 3; i++) {
        if (guarded_signals[i] == signal) sigaction(signal, &previous[i], NULL);
    }
    raise(signal);
}

static void install_handlers(void) {
    for (int i = 0; i < 3; i++) {
        if (installed[i]) continue;
        struct sigaction current;
        if (sigaction(guarded_signals[i], NULL, &current) != 0) continue;
        // Ignored (nohup) stays ignored. A plain handler already there (FileIO's removal of
        // temporary files) is chained: this one restores it and raises the signal again.
        if (current.sa_handler == SIG_IGN || (current.sa_flags & SA_SIGINFO)) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        sigemptyset(&action.sa_mask);
        // Run once: the handler restores the default before raising the signal again.
        if (sigaction(guarded_signals[i], &action, &previous[i]) == 0) installed[i] = 1;
    }
}

int kira_guard_child(pid_t child, const char *path) {
    pthread_mutex_lock(&lock);
    install_handlers();
    int found = -1;
    for (int i = 0; i < slot_count; i++) {
        if (atomic_load(&slots[i].armed) == 0) {
            atomic_store(&slots[i].child, (int)child);
            slots[i].path[0] = '\0';
            if (path != NULL && strlen(path) < path_capacity) strcpy(slots[i].path, path);
            atomic_store(&slots[i].armed, 1);
            found = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    return found;
}

void kira_guard_child_exited(int slot) {
    if (slot < 0 || slot >= slot_count) return;
    atomic_store(&slots[slot].child, 0);
}

void kira_unguard_child(int slot) {
    if (slot < 0 || slot >= slot_count) return;
    pthread_mutex_lock(&lock);
    atomic_store(&slots[slot].armed, 0);
    pthread_mutex_unlock(&lock);
}

int kira_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
