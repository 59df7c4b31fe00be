/// Every foil Kira knows, in the order the help and the gallery list them.
///
/// Adding a foil: a new file with a type conforming to ``FoilShader``, and one line in
/// `visitAll(_:)`. Nothing else in the renderers or the front ends changes.
public enum FoilRegistry {
    /// Calls `visitor` with each foil type in turn (each call specialised for its foil).
    @inlinable @inline(__always)
    package static func visitAll<V: FoilVisitor>(_ visitor: inout V) {
        visitor.visit(KiraFoil.self)
        visitor.visit(RainbowFoil.self)
        visitor.visit(SparkleFoil.self)
        visitor.visit(CosmosFoil.self)
        visitor.visit(GoldFoil.self)
        visitor.visit(EtchedFoil.self)
        visitor.visit(ReverseFoil.self)
    }

    /// The foils' names, in order.
    public static let names: [String] = {
        var names = Names()
        visitAll(&names)
        return names.list
    }()

    /// Each foil's one-line summary, by name.
    package static let summaries: [(name: String, summary: String)] = {
        var names = Names()
        visitAll(&names)
        return names.summaries
    }()

    private struct Names: FoilVisitor {
        var list: [String] = []
        var summaries: [(name: String, summary: String)] = []
        mutating func visit<F: FoilShader>(_: F.Type) {
            list.append(F.name)
            summaries.append((F.name, F.summary))
        }
    }

    /// Calls `body` with the type of `foil`.
    @inlinable @inline(__always)
    public static func with<Body: FoilTypeConsumer>(_ foil: Foil, _ body: Body) -> Body.Result {
        var dispatch = Dispatch(name: foil.name, body: body)
        visitAll(&dispatch)
        // A `Foil` is made only from a registered name.
        return dispatch.result!
    }

    @usableFromInline
    struct Dispatch<Body: FoilTypeConsumer>: FoilVisitor {
        @usableFromInline let name: String
        @usableFromInline let body: Body
        @usableFromInline var result: Body.Result?

        @inlinable init(name: String, body: Body) {
            self.name = name
            self.body = body
        }

        @inlinable @inline(__always)
        mutating func visit<F: FoilShader>(_ foil: F.Type) {
            if result == nil, F.name == name { result = body(foil) }
        }
    }
}

/// Code to run for each foil type (``FoilRegistry/visitAll(_:)``).
@usableFromInline package protocol FoilVisitor {
    mutating func visit<F: FoilShader>(_ foil: F.Type)
}

/// Code to run at a foil type chosen at run time (``FoilRegistry/with(_:_:)``).
public protocol FoilTypeConsumer {
    associatedtype Result
    func callAsFunction<F: FoilShader>(_ foil: F.Type) -> Result
}

/// A foil by name, as the parameters carry it: one of ``FoilRegistry/names``.
public struct Foil: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    /// The foil of that type.
    public init<F: FoilShader>(_: F.Type) { name = F.name }

    /// The foil called `name`, or nil when there is none (``FoilRegistry/names`` lists them).
    public init?(named name: String) {
        guard FoilRegistry.names.contains(name) else { return nil }
        self.name = name
    }

    /// Every foil, in the registry's order.
    public static var all: [Foil] { FoilRegistry.names.map { Foil(unchecked: $0) } }

    private init(unchecked name: String) { self.name = name }

    public var description: String { name }
}
