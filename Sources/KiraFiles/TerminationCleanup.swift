import CKiraFiles

/// What must not outlive a Kira process that is told to stop: the temporary files of writes
/// under way (every output is written beside its name first) and the child processes that write them (ffmpeg). Both
/// register here, in one registry that a signal handler can read.
///
/// A program that owns its signal handling, as the `kira` tool does, calls
/// ``installSignalHandlers()`` once at start. A long-running program that shuts down its own
/// way (a server under a service lifecycle) does not, and calls ``cleanUpNow()`` from its
/// shutdown instead, after its work was cancelled.
public enum TerminationCleanup {
    /// Makes SIGINT, SIGTERM and SIGHUP kill the registered child processes and remove the
    /// registered temporary files before the process ends (with the signal, as it would have).
    /// Signals the parent process set to be ignored stay ignored; a handler already installed
    /// runs after this one. Installs once; later calls do nothing.
    public static func installSignalHandlers() {
        kira_cleanup_install()
    }

    /// Kills the registered child processes and removes the registered temporary files now.
    public static func cleanUpNow() {
        kira_cleanup_now()
    }
}
