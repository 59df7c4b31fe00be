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

#endif
