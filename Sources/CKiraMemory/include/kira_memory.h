#ifndef KIRA_MEMORY_H
#define KIRA_MEMORY_H

/// Makes the C library's malloc map every allocation of at least `bytes` on its own and unmap it
/// when freed, instead of keeping freed large buffers in per-thread heaps (glibc raises its
/// threshold dynamically otherwise). No effect where the C library has no such setting.
void kira_fixed_mmap_threshold(int bytes);

#endif
