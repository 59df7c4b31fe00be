import Kira

/// How this `kira` was built, for `--version` and benchmark reports.
enum BuildInfo {
    /// The version's one home: `kira --version` prints it, and scripts/package reads this line
    /// (keep its form) to name the package. "-dev" until a release drops it, in the commit whose
    /// CHANGELOG.md names that version (CONTRIBUTING.md, Releases).
    static let version = "0.1.0-dev"

    static var configuration: String {
        #if DEBUG
        "debug build (slow: use swift build -c release)"
        #else
        "release build"
        #endif
    }

    static var cpu: String {
        #if KIRA_NATIVE_CPU
        "tuned to the build machine's CPU (trait NativeCPU: -target-cpu native)"
        #else
        "pixel code for \(KernelLevel.current)\(KernelLevel.forced == nil ? ", chosen by CPU" : ", forced by KIRA_CPU")"
        #endif
    }

    static var summary: String { "\(configuration), \(cpu)" }
}
