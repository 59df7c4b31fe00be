/// A file that could not be read, decoded, encoded or written, with the reason.
///
/// The description is one line, `path: reason`, fit for a command-line error message; a path of
/// more than 200 bytes is elided there, followed by its length.
public struct ImageFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file concerned (or a name for in-memory data).
    public var path: String
    /// Why it failed: libpng's message, the system's, or Kira's own.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(QuotedValue.shown(path)): \(reason)" }
}
