import ArgumentParser

/// A 3-vector typed as `X,Y,Z`, e.g. `--normal -0.3,0.2,0.9`.
struct Vector3Argument: ExpressibleByArgument {
    var value: SIMD3<Float>

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let numbers = parts.compactMap { Float($0.trimmingCharacters(in: " ")) }
        guard numbers.count == 3 else { return nil }
        value = SIMD3(numbers[0], numbers[1], numbers[2])
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return s
    }
}

/// Input checks shared by the commands; each failure is a one-line `ValidationError`.
enum Check {
    /// `value` is finite and within `range`.
    static func number(_ value: Float, _ name: String, in range: ClosedRange<Float>) throws {
        guard value.isFinite else { throw ValidationError("\(name) must be a finite number, not \(value)") }
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), not \(format(value))")
        }
    }

    static func integer(_ value: Int, _ name: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
    }

    static func format(_ value: Float) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
