#ifndef KIRA_CPU_H
#define KIRA_CPU_H

/// Whether this CPU (and the operating system, for the wide registers' state) runs code built
/// for x86-64 level `level` (2, 3 or 4). On other architectures, level 2 stands for the
/// architecture's baseline: 1 for 2, 0 otherwise.
int kira_cpu_runs_level(int level);

#endif
