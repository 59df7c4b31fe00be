#ifndef KIRA_FILES_H
#define KIRA_FILES_H

// Anonymous files for atomic output (Linux O_TMPFILE). A file that has no name until it is
// complete cannot be left half-written by a crash or a kill: it vanishes with the process.

/// Opens an unnamed file in `directory` for writing (mode 0666 less the umask). Returns a file
/// descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR, EINVAL where the system or the file
/// system has no unnamed files: the caller falls back to a named temporary file).
int kira_open_unnamed(const char *directory);

/// Gives the unnamed file `fd` the name `path` (which must not exist). Returns 0, or -1 with errno.
int kira_name_unnamed(int fd, const char *path);

// Temporary files removed when the process is told to stop. A signal handler may only call
// async-signal-safe functions, so the names live in fixed C storage that the handler reads
// without locks; Swift registers a name while the file exists under it.

/// Remembers `path` (a temporary file) for removal on SIGINT, SIGTERM or SIGHUP. Returns a slot
/// for `kira_cleanup_forget`, or -1 when the path is too long or every slot is taken (the file is
/// then not removed by a signal).
int kira_cleanup_remember(const char *path);

/// Forgets the name in `slot` (after the file was renamed or removed). -1 is ignored.
void kira_cleanup_forget(int slot);

/// Bracket the creation of a remembered temporary file (remember its name first, then create
/// it): a signal handled on another thread meanwhile waits for the creation to finish, so that
/// the file is removed. After a signal, begin waits for the process to end instead.
void kira_cleanup_begin_create(void);
void kira_cleanup_end_create(void);

/// Installs the handler for SIGINT, SIGTERM and SIGHUP (once): it removes the remembered files,
/// restores the disposition it found (the default, or a handler it then chains to) and raises
/// the signal again, so the process ends "killed by signal" as it would have. Signals a parent
/// set to be ignored stay ignored.
void kira_cleanup_install(void);

#endif
