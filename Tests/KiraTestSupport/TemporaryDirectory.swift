#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A fresh directory under /tmp, removed with its contents when released.
public final class TemporaryDirectory {
    public let path: String

    public init() throws {
        var template = Array("/tmp/kira-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure()
        }
        path = String(cString: made)
    }

    /// The names in the directory, sorted.
    public func contents() -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    deinit {
        // With what tests made inside it, folders too.
        try? FileManager.default.removeItem(atPath: path)
    }

    public struct Failure: Error {}
}
