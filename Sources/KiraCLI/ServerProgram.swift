import Kira
import KiraFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kira-serve`: the command line with the HTTP server built in, which `kira serve` runs from the
/// folder `kira` is in. Kept apart so that building `kira` never builds SwiftNIO and Hummingbird.
enum ServerProgram {
    static let name = "kira-serve"

    /// The one command that builds the server, in Kira's package folder.
    static var buildCommand: String {
        #if DEBUG
        "swift build --product \(name)"
        #else
        "swift build -c release --product \(name)"
        #endif
    }

    /// Replaces this process with `kira-serve` beside it, given the same arguments (so its
    /// signals, exit status and output are the server's own); throws, naming the command that
    /// builds it, when it is not there.
    static func replaceThisProcess() throws -> Never {
        let folder = executableFolder() ?? "."
        let path = folder + "/" + name
        let runnable = PathBytes.withCString(path) { access($0, X_OK) == 0 }
        guard runnable else {
            throw InputError("the server is not built: build it with '\(buildCommand)' (it goes beside kira, in \(folder))")
        }
        let count = Int(CommandLine.argc)
        let arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: count + 1)
        PathBytes.withCString(path) { arguments[0] = strdup($0) }
        for index in 1..<count { arguments[index] = CommandLine.unsafeArgv[index] }
        arguments[count] = nil
        execv(arguments[0]!, arguments)
        throw InputError("cannot run \(path): \(String(cString: strerror(errno)))")
    }

    /// The folder of the running executable, links resolved.
    static func executableFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        #if canImport(Darwin)
        var size = UInt32(buffer.count)
        guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
        defer { free(resolved) }
        let path = PathBytes.string(cString: resolved)
        #else
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = PathBytes.string(cString: buffer)
        #endif
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
