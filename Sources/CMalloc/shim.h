// glibc's allocator tuning (mallopt), which Swift's Glibc module does not export.
#include <malloc.h>
