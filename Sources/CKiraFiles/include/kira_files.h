#ifndef KIRA_FILES_H
#define KIRA_FILES_H

#include <sys/types.h>

// Anonymous files for atomic output (Linux O_TMPFILE). A file that has no name until it is
// complete cannot be left half-written by a crash or a kill: it vanishes with the process.

/// Opens an unnamed file in `directory` for writing (mode 0666 less the umask). Returns a file
/// descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR, EINVAL where the system or the file
/// system has no unnamed files: the caller falls back to a named temporary file).
int kira_open_unnamed(const char *directory);

/// Gives the unnamed file `fd` the name `path` (which must not exist). Returns 0, or -1 with errno.
int kira_name_unnamed(int fd, const char *path);

// The cleanup registry: what must not outlive Kira when it is told to stop — temporary files,
// and child processes (ffmpeg) that write them. A signal handler may only call
// async-signal-safe functions, so entries live in fixed C storage that the handler reads
// without locks; Swift registers a name while the file exists under it, a child while it runs.

/// Remembers `path` (a temporary file) for removal. Returns a slot for `kira_cleanup_forget`, or
/// -1 when the path is too long or every slot is taken (the file is then not removed by a signal).
int kira_cleanup_remember(const char *path);

/// Remembers the child process `child`, to be killed (SIGKILL) before the files are removed.
/// Returns a slot, or -1 when every slot is taken.
int kira_cleanup_remember_child(pid_t child);

/// The child in `slot` has been waited for: its process ID may belong to another process now, so
/// it is no longer killed. Call it right after `waitpid`. -1 is ignored.
void kira_cleanup_child_exited(int slot);

/// Forgets the entry in `slot` (a file renamed or removed, a child gone). -1 is ignored.
void kira_cleanup_forget(int slot);

/// Forgets every entry. For a process just forked from one that uses the registry: it starts
/// with nothing to clean up, where it would otherwise kill its parent's children and remove its
/// parent's files when it cleans up.
void kira_cleanup_forget_all(void);

/// Bracket the creation of a remembered temporary file (remember its name first, then create
/// it): a signal handled on another thread meanwhile waits for the creation to finish, so that
/// the file is removed. After a signal, begin waits for the process to end instead.
void kira_cleanup_begin_create(void);
void kira_cleanup_end_create(void);

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (once): it kills the remembered children,
/// removes the remembered files, restores the disposition it found (the default, or a handler it
/// then chains to) and raises the signal again, so the process ends "killed by signal" as it
/// would have. Signals a parent set to be ignored stay ignored. Programs that shut down their own
/// way (a server under a service lifecycle) do not install it and call `kira_cleanup_now`.
void kira_cleanup_install(void);

/// Kills the remembered children and removes the remembered files now, without a signal.
void kira_cleanup_now(void);

/// `pipe2(fds, O_CLOEXEC)` (a GNU extension Swift does not see): a pipe whose ends no child
/// process inherits unless it is given them explicitly. Returns 0, or -1 with errno.
int kira_pipe(int fds[2]);

#endif
