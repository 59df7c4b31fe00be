#ifndef KIRA_PROCESS_H
#define KIRA_PROCESS_H

#include <sys/types.h>

// A child process (ffmpeg) writing a temporary file must not outlive Kira, nor leave its file
// behind, when Kira is stopped by SIGINT, SIGTERM or SIGHUP. Swift cannot run code safely in a
// signal handler, so the handler lives here: it kills the guarded children with SIGKILL, removes
// their temporary files, restores the signal's previous disposition and raises it again, so that
// Kira still dies of the signal (exit status 128 + n in a shell).

/// Guards `child` and `path` (copied; may be NULL) until `kira_unguard_child(slot)`. Installs
/// the handlers on first use, for the signals whose disposition is the default (an ignored
/// SIGHUP under nohup stays ignored). Returns a slot number, or -1 when all slots are taken.
int kira_guard_child(pid_t child, const char *path);

/// The guarded child has been waited for: a signal now only removes the file (its process ID may
/// already belong to another process). Call it right after `waitpid`.
void kira_guard_child_exited(int slot);

/// Stops guarding the slot returned by `kira_guard_child`.
void kira_unguard_child(int slot);

/// `pipe2(fds, O_CLOEXEC)` (a GNU extension Swift does not see): a pipe whose ends no child
/// process inherits unless it is given them explicitly. Returns 0, or -1 with errno.
int kira_pipe(int fds[2]);

#endif
