import KiraFiles

/// A request made of named values — ``RenderRequest``, ``ShadeRequest``, ``AnimationRequest`` —
/// each listing its ``parameters`` and checking them together in ``validate()``. Setting a value
/// by name, building a request from values and spelling it back are the same for all three.
public protocol ParameterizedRequest: Sendable {
    /// The request with every default.
    init()
    /// Every value the request takes, by name, in the order help lists them.
    static var parameters: [RequestParameter<Self>] { get }
    /// The checks between values (each value is checked when it is set).
    func validate() throws(RequestError)
}

extension ParameterizedRequest {
    /// A request from named values (``parameters``' names), each parsed and checked, then checked
    /// together (``validate()``).
    @inlinable
    public init(values: some Sequence<(String, String)>) throws(RequestError) {
        self.init()
        for (name, value) in values { try set(name, to: value) }
        try validate()
    }

    /// The entry named `name`, if any.
    // Inlinable, so that a front end searches its concrete table: generic, the search copied every
    // entry it passed, 2.7% of a cached frame's CPU time in the server against 0.4% (perf, 2-core Zen 4).
    @inlinable
    public static func parameter(named name: String) -> RequestParameter<Self>? {
        let parameters = Self.parameters
        return parameters.firstIndex { $0.name == name }.map { parameters[$0] }
    }

    /// Parses `value` as the parameter `name` and sets it; an unknown name lists the known ones.
    @inlinable
    public mutating func set(_ name: String, to value: String) throws(RequestError) {
        guard let parameter = Self.parameter(named: name) else { throw Self.unknownParameter(name) }
        try parameter.set(value, in: &self)
    }

    /// Sets the number parameter `name` to `value`, checked as its text would be: for a front end
    /// whose values are numbers already.
    @inlinable
    public mutating func set(_ name: String, toNumber value: Double) throws(RequestError) {
        guard let parameter = Self.parameter(named: name) else { throw Self.unknownParameter(name) }
        try parameter.set(number: value, in: &self)
    }

    /// The error for a name no parameter has: it lists the names there are.
    @usableFromInline
    static func unknownParameter(_ name: String) -> RequestError {
        RequestError(parameter: nil, reason: "unknown parameter \(QuotedValue.quoted(name)); the parameters are "
                     + ParameterValue.listing(Self.parameters.map(\.name)))
    }

    /// The values that differ from the defaults, canonically spelled, in ``parameters``' order:
    /// equal requests have equal values.
    @inlinable
    public var values: [(name: String, value: String)] {
        Self.parameters.compactMap { parameter in parameter.value(in: self).map { (parameter.name, $0) } }
    }
}
