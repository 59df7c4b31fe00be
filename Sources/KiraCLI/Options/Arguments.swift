import ArgumentParser
import KiraArguments

/// A 3-vector typed as `X,Y,Z`, e.g. `--normal -0.3,0.2,0.9`.
struct Vector3Argument: ExpressibleByArgument {
    var value: SIMD3<Float>

    init?(argument: String) {
        guard let value = ArgumentValues.vector3(argument) else { return nil }
        self.value = value
    }
}

/// A size typed as `WxH`, e.g. `630x880`.
struct SizeArgument: ExpressibleByArgument {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        guard let size = ArgumentValues.size(argument) else { return nil }
        (width, height) = size
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// Input checks shared by the commands; each failure is a one-line `ValidationError`.
enum Check {
    /// `value` is finite and within `range`.
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, _ name: String, in range: ClosedRange<F>) throws {
        guard value.isFinite else {
            throw ValidationError("\(name) must be a number between \(format(range.lowerBound)) and \(format(range.upperBound)), not \(value)")
        }
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(format(range.lowerBound)) and \(format(range.upperBound)), not \(format(value))")
        }
    }

    static func integer(_ value: Int, _ name: String, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
    }

    static func format<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : value.description
    }
}
