#define _GNU_SOURCE
#include "system_calls.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
int marsgen_exchange_paths(const char *first, const char *second) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int marsgen_is_mount_root(const char *path) {
#if defined(SYS_statx) && defined(STATX_ATTR_MOUNT_ROOT)
    struct statx info;
    // A bind mount of a folder on the same file system has the same device number as its
    // parent: only statx's attribute tells it apart (Linux 5.8 and later).
    if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_TYPE, &info) != 0) return -1;
    if (!(info.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) {
        errno = ENOSYS;
        return -1;
    }
    return (info.stx_attributes & STATX_ATTR_MOUNT_ROOT) ? 1 : 0;
#else
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

long marsgen_read_directory(int descriptor, void *buffer, unsigned long size) {
    // The raw call: readdir would add an fstat and two fcntl calls per folder (fdopendir),
    // a third of the system calls of listing a site with a folder per sol.
    return syscall(SYS_getdents64, descriptor, buffer, size);
}
#else
int marsgen_is_mount_root(const char *path) {
    (void)path;
    errno = ENOSYS;
    return -1;
}

#if defined(__APPLE__)
int marsgen_exchange_paths(const char *first, const char *second) {
    return renamex_np(first, second, RENAME_SWAP);
}
#else
int marsgen_exchange_paths(const char *first, const char *second) {
    errno = ENOSYS;
    return -1;
}
#endif

long marsgen_read_directory(int descriptor, void *buffer, unsigned long size) {
    (void)descriptor;
    (void)buffer;
    (void)size;
    errno = ENOSYS;
    return -1;
}
#endif
