import ArgumentParser
import Kira

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure the user can fix: a message, exit status 2.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum InputFiles {
    /// Refuses to write over one of the inputs.
    static func checkOutput(_ output: String, isNotOneOf inputs: [String]) throws {
        guard let target = canonical(output) else { return }  // does not exist yet
        for input in inputs where canonical(input) == target {
            throw InputError("\(output): the output would overwrite the input \(input)")
        }
    }

    private static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
