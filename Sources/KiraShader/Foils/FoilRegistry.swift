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

    /// Calls `body` with the type of `foil`: the foil at its place in `visitAll(_:)`, found by
    /// counting, so that no name is compared on the render path (WebAssembly's standard library
    /// has no String comparison).
    @inlinable @inline(__always)
    public static func with<Body: FoilTypeConsumer>(_ foil: Foil, _ body: Body) -> Body.Result {
        var dispatch = Dispatch(index: foil.index, body: body)
        visitAll(&dispatch)
        // A `Foil` is made only from a registered foil.
        return dispatch.result!
    }

    /// The place in ``visitAll(_:)`` of the foil whose name has the UTF-8 bytes of `name`, or nil.
    @usableFromInline
    static func index(of name: String) -> Int? {
        var search = Search(name: name)
        visitAll(&search)
        return search.found
    }

    @usableFromInline
    struct Dispatch<Body: FoilTypeConsumer>: FoilVisitor {
        @usableFromInline let index: Int
        @usableFromInline let body: Body
        @usableFromInline var visited = 0
        @usableFromInline var result: Body.Result?

        @inlinable init(index: Int, body: Body) {
            self.index = index
            self.body = body
        }

        @inlinable @inline(__always)
        mutating func visit<F: FoilShader>(_ foil: F.Type) {
            if visited == index { result = body(foil) }
            visited += 1
        }
    }

    /// Names compared byte for byte: a foil's name is ASCII, so bytes decide as `==` does, and
    /// need none of the Unicode tables `==` links.
    @usableFromInline
    struct Search: FoilVisitor {
        let name: String
        var visited = 0
        var found: Int?

        @usableFromInline init(name: String) { self.name = name }

        @usableFromInline
        mutating func visit<F: FoilShader>(_: F.Type) {
            if found == nil, F.name.utf8.elementsEqual(name.utf8) { found = visited }
            visited += 1
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

/// A foil, as the parameters carry it: one of ``FoilRegistry/names``, by its place in the registry.
public struct Foil: Sendable, Hashable, CustomStringConvertible {
    /// Its place in ``FoilRegistry/names``.
    public let index: Int

    /// The foil of that type.
    public init<F: FoilShader>(_: F.Type) { index = FoilRegistry.index(of: F.name)! }

    /// The foil called `name`, or nil when there is none (``FoilRegistry/names`` lists them).
    public init?(named name: String) {
        guard let index = FoilRegistry.index(of: name) else { return nil }
        self.index = index
    }

    /// The foil at `index` in ``FoilRegistry/names``, or nil when there is none.
    public init?(index: Int) {
        guard FoilRegistry.names.indices.contains(index) else { return nil }
        self.index = index
    }

    /// Every foil, in the registry's order.
    public static var all: [Foil] { FoilRegistry.names.indices.map { Foil(index: $0)! } }

    /// Its name, as the command line and the parameters spell it.
    public var name: String { FoilRegistry.names[index] }

    public var description: String { name }
}
