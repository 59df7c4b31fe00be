extension ArgumentValues {
    /// `x` with `digits` decimals, rounded half away from zero (no Foundation needed):
    /// `decimal(2.5, digits: 2)` is `2.50`.
    public static func decimal(_ x: Double, digits: Int) -> String {
        guard x.isFinite else { return "\(x)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (abs(x) * scale).rounded()
        let whole = Int(rounded / scale), fraction = Int(rounded.truncatingRemainder(dividingBy: scale))
        var text = "\(x < 0 && rounded > 0 ? "-" : "")\(whole)"
        if digits > 0 {
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return text
    }
}
