/// How an output's path is taken: the rules every output Kira writes is opened by.
public enum OutputRule: Sendable, Equatable {
    /// A path the user named (`-o`, `--apng`, `--sheet`, `--video`, numbered frames): a symbolic
    /// link is written through (a link to nothing is refused), a character device or a FIFO is
    /// written in place, a regular file is replaced whole.
    case userNamed
    /// A catalogue's output (`kira batch`): as ``userNamed``, but a FIFO or a device is refused,
    /// so that a row fails instead of waiting for a reader (its record describes a file).
    case catalogue
    /// A file Kira names itself (`kira batch`'s records): whatever is at the path but a
    /// directory (a symbolic link, a FIFO, a device) is replaced, never written through or into,
    /// so that a link planted under that name cannot make Kira overwrite another file.
    case kiraNamed
}
