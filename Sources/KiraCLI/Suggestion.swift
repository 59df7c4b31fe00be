/// "Did you mean …?" for a mistyped command or option: the closest name, offered only when it is
/// close enough to be what was meant.
enum Suggestion {
    /// The name in `candidates` closest to `typed`, if it is close: at most one edit for names of
    /// up to four characters, two up to eight, three beyond, or `typed` the start of the name
    /// (`--tilt` for `--tilt-x`). `--crf` is two edits from `--art`: no suggestion.
    static func closest(to typed: String, among candidates: [String]) -> String? {
        let word = typed.drop { $0 == "-" }
        guard !word.isEmpty else { return nil }
        let allowed = word.count <= 4 ? 1 : word.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        for name in candidates {
            let candidate = name.drop { $0 == "-" }
            let distance = candidate.hasPrefix(word) && word.count >= 3 ? 0 : editDistance(Array(word), Array(candidate))
            if distance <= allowed, distance < best?.distance ?? .max { best = (name, distance) }
        }
        return best?.name
    }

    /// The one-letter options (`-o`) a command's help lists.
    static func shortOptions(inHelp help: String) -> [String] {
        var names: Set<String> = []
        for line in help.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let first = words.first, first.count >= 2, first.first == "-", first.dropFirst().first != "-" else { continue }
            let name = String(first.prefix(2))
            if name.last!.isLetter { names.insert(name) }
        }
        return names.sorted()
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one character each.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1]
            for (j, y) in b.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }

    /// argument-parser's message for an unknown option with its suggestion kept only when it is
    /// close (``closest(to:among:)``); other messages as they are. argument-parser suggests
    /// nothing for a one-letter option: `-O` gets `-o` when that is in `shortOptions`.
    static func pruned(_ message: String, shortOptions: [String] = []) -> String {
        let marker = "Did you mean '"
        if message.hasPrefix("Unknown option '"), !message.contains(marker) {
            let typed = String(message.dropFirst("Unknown option '".count).prefix { $0 != "'" })
            if typed.count == 2, typed.first == "-",
               let meant = shortOptions.first(where: { $0 != typed && $0.lowercased() == typed.lowercased() }) {
                return "Unknown option '\(typed)'. Did you mean '\(meant)'?"
            }
        }
        guard message.hasPrefix("Unknown option '"), let range = message.firstRange(of: ". " + marker) else { return message }
        let typed = String(message.dropFirst("Unknown option '".count).prefix { $0 != "'" })
        let offered = String(message[range.upperBound...].prefix { $0 != "'" })
        if closest(to: typed, among: [offered]) != nil { return message }
        return String(message[..<range.lowerBound])
    }
}
