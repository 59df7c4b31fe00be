#include "kira_cpu.h"

int kira_cpu_runs_level(int level) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (level) {
    case 2: return __builtin_cpu_supports("x86-64-v2");
    case 3: return __builtin_cpu_supports("x86-64-v3");
    case 4: return __builtin_cpu_supports("x86-64-v4");
    default: return 0;
    }
#else
    return level == 2;
#endif
}
