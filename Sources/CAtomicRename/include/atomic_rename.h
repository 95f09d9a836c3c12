#ifndef MARSGEN_ATOMIC_RENAME_H
#define MARSGEN_ATOMIC_RENAME_H

/// Atomically exchanges two paths (both must exist): after it returns 0, each name points
/// at what the other did, and no observer ever sees either name missing.
/// Returns -1 and sets errno where the system or file system cannot do it.
int marsgen_exchange_paths(const char *first, const char *second);

#endif
