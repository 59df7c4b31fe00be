#define _GNU_SOURCE
#include "kira_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
