import KiraFiles

/// Why a manifest cannot be used at all: the whole batch stops before anything is rendered
/// (`kira batch` exits with status 2).
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest file.
    public var path: String
    /// What is wrong, naming the row or column where there is one.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(QuotedValue.shown(path)): \(reason)" }
}
