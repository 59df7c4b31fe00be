import ArgumentParser
import CKiraMemory
import Kira
import KiraFiles
import KiraPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kira`: renders holographic trading-card frames on the CPU.
@main
struct KiraCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kira",
        abstract: "Render holographic (kira) trading-card frames on the CPU.",
        discussion: """
            'kira help COMMAND' lists a command's options. The values a frame takes (--tilt-x, --size, --foil, …) \
            are the same on the command line, in a kira batch manifest and in a kira serve URL: docs/parameters.md \
            lists each with its range and default.
            """,
        version: "kira \(BuildInfo.version) (\(BuildInfo.summary); libpng \(PNGCodec.libpngVersion))",
        subcommands: [ShadeCommand.self, RenderCommand.self, AnimateCommand.self, BatchCommand.self, FoilsCommand.self, CompareCommand.self,
                      BenchCommand.self, TexturesCommand.self, CardCommand.self, ServeCommand.self, SignCommand.self]
    )

    /// Parses and runs a command. Any failure — a bad flag, a bad number, an unreadable file — is
    /// reported as one line on stderr with exit status 2; help and version go to stdout with 0.
    static func main() {
        unblockTerminationSignals()
        returnLargeBuffersToTheSystem()
        // A KIRA_CPU this CPU cannot honour is refused before anything runs, rather than ignored.
        if case .failure(let problem) = KernelLevel.requested {
            writeToStandardError("kira: \(problem)\n")
            Self.exit(withError: ExitCode(2))
        }
        // Arguments as the bytes given: a file name need not be UTF-8 (see PathBytes).
        let arguments = (1..<Int(CommandLine.argc)).map { PathBytes.string(cString: CommandLine.unsafeArgv[$0]!) }
        if let unknown = unknownCommand(arguments) { fail(unknown, command: nil) }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }
            // argument-parser quotes the user's value whole ('…'): a long one is elided.
            fail(QuotedValue.elidingQuotedSpans(in: Suggestion.pruned(message(for: error))), command: subcommandName(arguments))
        }
        // Parsing writes no file, so the handlers can wait until the command is known.
        if !(command is HandlesTerminationSignals) { TerminationCleanup.installSignalHandlers() }
        do {
            try command.run()
        } catch {
            // Help, version and explicit exit codes are ArgumentParser's to print; everything
            // else is one line.
            if error is ExitCode || exitCode(for: error) == .success { Self.exit(withError: error) }
            // A failed ffmpeg's own last words follow the line, indented.
            let text = (error as? RequestError)?.commandLine ?? String(describing: error)
            fail(text, command: type(of: command).configuration.commandName,
                 details: (error as? VideoError)?.details.suffix(10).map { $0 } ?? [])
        }
    }

    /// A parent may start Kira with signals blocked (a thread of a thread pool, say); a render
    /// that cannot be interrupted is a hazard in a pipeline, so SIGINT, SIGTERM and SIGHUP are
    /// unblocked (their dispositions, ignored or not, are left as inherited).
    private static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// The commands, as typed.
    private static var commandNames: [String] { configuration.subcommands.compactMap { $0.configuration.commandName } }

    /// The message for a first argument (or `help`'s argument) that names no command, with the
    /// command meant when one is close; nil when the arguments name a command or start with an
    /// option (argument-parser's to check).
    private static func unknownCommand(_ arguments: [String]) -> String? {
        guard var name = arguments.first, !name.hasPrefix("-") else { return nil }
        if name == "help" {
            // `kira help` alone is the overview; `kira help NAME` must name a command.
            guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return nil }
            name = arguments[1]
        }
        if commandNames.contains(name) || (name == "help" && arguments.first == "help") { return nil }
        if let meant = Suggestion.closest(to: name, among: commandNames) {
            return "unknown command \(QuotedValue.quoted(name, mark: "'")); did you mean '\(meant)'?"
        }
        return "unknown command \(QuotedValue.quoted(name, mark: "'")); the commands are \(commandNames.joined(separator: ", "))"
    }

    private static func subcommandName(_ arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        return configuration.subcommands.compactMap { $0.configuration.commandName }.first { $0 == first }
    }

    private static func fail(_ message: String, command: String?, details: [String] = []) -> Never {
        let firstLine = oneLine(message)
        let prefix = command.map { "kira \($0)" } ?? "kira"
        let hint = command.map { " (see 'kira \($0) --help')" } ?? " (see 'kira --help')"
        let isUsage = !firstLine.contains(": ") || firstLine.hasPrefix("Unknown") || firstLine.hasPrefix("Missing")
        writeToStandardError("\(prefix): \(lowercasingFirst(firstLine))\(isUsage ? hint : "")\n")
        for line in details { writeToStandardError("    \(line)\n") }
        Self.exit(withError: ExitCode(2))
    }

    /// The message's first line; argument-parser lists the valid values of a long enumeration on
    /// the lines after "Please provide one of the following:", so those join it.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard let first = lines.first else { return "failed" }
        guard first.hasSuffix("one of the following:") else { return first }
        let values = lines.dropFirst().map { $0.trimmingPrefix(while: { $0 == " " || $0 == "-" }) }
        return first + " " + values.joined(separator: ", ")
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, !(text.dropFirst().first?.isUppercase ?? false) else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// A command that handles SIGINT and SIGTERM itself (the server shuts down gracefully through
/// swift-service-lifecycle) and writes no temporary file, so Kira's handlers that remove
/// temporary files and re-raise the signal are not installed for it.
protocol HandlesTerminationSignals {}

/// Writes `text` to file descriptor 2, unbuffered; file names in it as their bytes.
func writeToStandardError(_ text: String) {
    let bytes = PathBytes.bytes(text)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n <= 0 { break }
        offset += n
    }
}

/// Makes glibc's malloc map every buffer of 1 MiB or more on its own and unmap it when freed.
///
/// By default glibc raises that threshold (up to 32 MiB) each time such a buffer is freed, after
/// which canvases and compression buffers (9–30 MB, freed on worker threads) stay in per-thread
/// heaps: `kira animate` of a 2340×3170 animation peaked at 429 MB that way, 383 MB with the
/// fixed threshold, at the same speed (docs/performance.md).
private func returnLargeBuffersToTheSystem() {
    kira_fixed_mmap_threshold(1 << 20)
}

/// Writes a report to standard output, unbuffered, and fails when it cannot be written (a full
/// disk, a closed pipe's EPIPE when SIGPIPE is ignored): a lost report is an error, exit 2.
func writeToStandardOutput(_ text: String) throws {
    if let failure = FileIO.writeAll(PathBytes.bytes(text), to: 1) {
        throw InputError("cannot write to standard output: \(failure)")
    }
}
