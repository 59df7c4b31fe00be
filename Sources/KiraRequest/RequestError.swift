import KiraRender

/// A request value that cannot be used, and why: one line a front end can show as it is, or with
/// the parameter spelled its own way (`--tilt-x` on the command line, `tilt_x` in a manifest or a
/// URL).
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter at fault (`tilt_x`), or nil for a request that is wrong as a whole.
    public var parameter: String?
    /// What is wrong and what is valid, written to follow the parameter's name: "must be between
    /// -90 and 90, not 91".
    public var reason: String

    public init(parameter: String?, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    /// The reason after the parameter's name as `spell` writes it (`--tilt-x must be …`). Other
    /// parameters the reason mentions are written `{name}` in it, and spelled the same way.
    public func described(naming spell: (String) -> String) -> String {
        let text = RequestError.spelling(reason, with: spell)
        return parameter.map { "\(spell($0)) \(text)" } ?? text
    }

    /// `text` with every `{name}` in it replaced by `spell(name)`.
    public static func spelling(_ text: String, with spell: (String) -> String) -> String {
        var result = "", rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = rest[rest.index(after: open)..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0 == "_" || $0.isNumber }) {
                result += spell(String(name))
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A face or scene the renderer's own checks refused (``/KiraRender/FrameScene/validate()``),
    /// as a request's error: for values a program set directly, past the parameters' checks.
    package init(_ error: RenderError) {
        self.init(parameter: nil, reason: error.description)
    }

    /// The reason after the parameter's own name (`tilt_x must be …`), as manifests and URLs name it.
    public var description: String { described { $0 } }
}
