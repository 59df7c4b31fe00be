/// A user's value (a parameter's text, a path, a card id) as one line of an error shows it: whole
/// up to ``limit`` bytes, else its first bytes, an ellipsis and its length, so that a 1 MiB value
/// gives a line of a few hundred bytes rather than a line of a megabyte. Every message that repeats
/// what a user gave goes through here.
package enum QuotedValue {
    /// The most bytes of a value a message shows, escapes included.
    package static let limit = 200

    /// `text` in double quotes, control characters escaped as Swift writes them (`"8\0abc"`) so
    /// that a message shows a NUL or a line break instead of carrying it; elided past ``limit``:
    /// `"aaaa…" (1048576 bytes)`.
    /// `mark` is the quotation mark, `"` unless a message has always used `'`.
    package static func quoted(_ text: String, mark: String = "\"") -> String {
        let escapes = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        let (shown, elided) = prefix(of: text, escaping: escapes)
        return mark + shown + (elided ? "…" : "") + mark + (elided ? " (\(text.utf8.count) bytes)" : "")
    }

    /// `message` (argument-parser's, which quotes the user's values in `'` itself) with each
    /// span between two `'` that is over ``limit`` bytes elided as ``quoted(_:mark:)`` would.
    package static func elidingQuotedSpans(in message: String) -> String {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return message }
        var result = String(parts[0])
        var index = 1
        while index < parts.count {
            // parts[index] is quoted when a closing mark follows it.
            if index + 1 < parts.count, parts[index].utf8.count > limit {
                result += quoted(String(parts[index]), mark: "'") + parts[index + 1]
            } else if index + 1 < parts.count {
                result += "'" + parts[index] + "'" + parts[index + 1]
            } else {
                result += "'" + parts[index]
            }
            index += 2
        }
        return result
    }

    /// `text` as it is (a path at the start of a line, `path: reason`), control characters escaped
    /// when it has any; elided past ``limit``: `aaaa… (1048576 bytes)`.
    package static func shown(_ text: String) -> String {
        let escapes = text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        let (shown, elided) = prefix(of: text, escaping: escapes)
        return elided ? "\(shown)… (\(text.utf8.count) bytes)" : shown
    }

    /// The longest start of `text` whose shown form (escaped when `escaping`) fits ``limit``
    /// bytes, and whether anything was left out. Whole scalars only: a cut never splits a
    /// character's UTF-8 bytes.
    private static func prefix(of text: String, escaping: Bool) -> (String, Bool) {
        var shown = "", bytes = 0
        for scalar in text.unicodeScalars {
            let piece = escaping ? scalar.escaped(asASCII: false) : String(scalar)
            bytes += piece.utf8.count
            if bytes > limit { return (shown, true) }
            shown += piece
        }
        return (shown, false)
    }
}
