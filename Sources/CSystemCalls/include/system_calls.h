#ifndef MARSGEN_SYSTEM_CALLS_H
#define MARSGEN_SYSTEM_CALLS_H

// System calls that Swift's Glibc and Darwin modules do not export.

/// Atomically exchanges two paths (both must exist): after it returns 0, each name points
/// at what the other did, and no observer ever sees either name missing.
/// Returns -1 and sets errno where the system or file system cannot do it.
int marsgen_exchange_paths(const char *first, const char *second);

/// Reads the next entries of the open folder `descriptor` into `buffer`, as Linux's
/// `getdents64` lays them out (`d_ino` 8 bytes, `d_off` 8, `d_reclen` 2, `d_type` 1, then
/// the name and its NUL). Returns the bytes read, 0 once every entry was read, or -1 with
/// errno set; ENOSYS where the system has no such call (then use `readdir`).
long marsgen_read_directory(int descriptor, void *buffer, unsigned long size);

/// Whether `path` is the root of a mount (a Docker volume, a bind mount): 1 if it is, 0 if
/// it is not, -1 (errno set) where the system cannot tell; ENOSYS where it has no such call.
int marsgen_is_mount_root(const char *path);

#endif
