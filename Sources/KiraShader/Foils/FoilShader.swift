/// A foil: what the shine on a card face looks like, as a pure function of the pixel, the face's
/// normal and a few tables, in two forms that agree bit for bit: sixteen pixels at a time (the
/// fast path) and one pixel at a time (``reference(_:normal:parameters:)``, the readable one).
///
/// The renderer shades a face for one or many normals at once (a sweep) and splits the work
/// where the foil says:
/// - ``Tables``: per face, built once for its size and parameters and kept from frame to frame
///   (kira's factored value noise). A renderer measuring cold frames rebuilds them every frame.
/// - ``frame(normal:parameters:size:)``: per face and normal, once (kira's view-angle colour).
/// - ``pixel(_:row:)``: per pixel, what does not depend on the normal; a sweep does it once for
///   all its frames.
/// - ``shade(_:_:row:frame:)``: per pixel and normal, the colour.
///
/// A foil that cannot share work across a sweep (or use tables at all) leaves ``Pixel`` as the
/// ``FoilInput`` itself and does everything in `shade`; per-frame tables then go in ``Frame``.
/// Foils read the height field (the foil map's, else the mask's, luminance) with its
/// neighbours when they declare ``readsHeight``.
///
/// Every operation of the fast path must be the reference's, in the same order: Swift never fuses
/// a multiply and an add, and the lane built-ins (``Lanes``) round as the scalar ones do. A new
/// foil is one file conforming to this protocol and one line in ``FoilRegistry``.
public protocol FoilShader: SendableMetatype {
    /// The name users type (`--foil NAME`), lower case.
    static var name: String { get }
    /// One line for the help: the physical effect the foil imitates.
    static var summary: String { get }
    /// Whether ``FoilInput/height`` must be filled (it costs a pass over the height source).
    static var readsHeight: Bool { get }

    associatedtype Tables: FoilTables = NoFoilTables
    associatedtype Frame
    associatedtype Pixel = FoilInput

    /// What the foil needs to know about a normal, computed once per face and frame, for a face of
    /// `size` (width, height). `normal` is finite and non-zero, not necessarily of unit length.
    static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> Frame

    /// The normal-independent work for sixteen pixels.
    static func pixel(_ input: FoilInput, row: Tables.Row) -> Pixel

    /// The shaded colour of sixteen pixels for one normal (before the glare), not clamped.
    static func shade(_ pixel: Pixel, _ input: FoilInput, row: Tables.Row, frame: Frame) -> RGBLanes

    /// The shaded colour of one pixel: the readable definition the lanes are tested against.
    static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float>
}

extension FoilShader {
    public static var readsHeight: Bool { false }
}

extension FoilShader where Pixel == FoilInput {
    /// Nothing shared across a sweep: `shade` does all the work.
    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: Tables.Row) -> FoilInput { input }
}

/// Per-face tables of a foil: they depend on the face's size and the parameters, never on the
/// normal or the pixels' colours.
public protocol FoilTables {
    /// One row's view of the tables, valid while the tables are alive.
    associatedtype Row
    init(width: Int, height: Int, parameters: KiraParameters)
    /// Whether these tables serve a face of this size with these parameters.
    func serves(width: Int, height: Int, parameters: KiraParameters) -> Bool
    /// Evaluates the tables again in place, as if new (what a cold frame measures).
    mutating func recompute()
    /// The view of pixel row `y`.
    func rowTables(_ y: Int) -> Row
}

/// The tables of a foil that needs none.
public struct NoFoilTables: FoilTables {
    public struct Row {
        @inlinable public init() {}
    }

    public init(width: Int, height: Int, parameters: KiraParameters) {}
    public func serves(width: Int, height: Int, parameters: KiraParameters) -> Bool { true }
    public mutating func recompute() {}
    @inlinable public func rowTables(_ y: Int) -> Row { Row() }
}

/// Sixteen pixels of a face as a foil reads them.
public struct FoilInput {
    /// The first of the sixteen columns, and the row.
    public var x: Int
    public var y: Int
    /// The face's width and height in pixels.
    public var size: SIMD2<Float>
    /// The art's colour (premultiplied when the face is shaded for the screen) and alpha.
    public var layer: RGBLanes
    public var alpha: Lanes
    /// The holo mask at each pixel (its nearest texel), channels in 0...1.
    public var mono: RGBLanes
    /// ``KiraParameters/intensity``.
    public var intensity: Float
    /// Whether `layer` is premultiplied (and the result must be).
    public var premultiplied: Bool
    /// The height field around the pixels (only for foils that read it).
    public var height: HeightRows

    @inlinable @inline(__always)
    public init(x: Int, y: Int, size: SIMD2<Float>, layer: RGBLanes, alpha: Lanes, mono: RGBLanes, intensity: Float,
                premultiplied: Bool, height: HeightRows) {
        self.x = x
        self.y = y
        self.size = size
        self.layer = layer
        self.alpha = alpha
        self.mono = mono
        self.intensity = intensity
        self.premultiplied = premultiplied
        self.height = height
    }

    /// What a colour of full value is in this layer's form: the alpha when premultiplied, else 1.
    /// Light a foil adds of its own (not the art's) is scaled by it, so that it stays on the card.
    @inlinable public var coverage: Lanes { premultiplied ? alpha : Lanes(repeating: 1) }

    /// The pixel centres' x coordinates, `x + 0.5` to `x + 15.5` (exact).
    @inlinable public var centresX: Lanes { Lanes(repeating: Float(x)) + Lanes.centreOffsets }
    /// The pixel centres' y coordinate.
    @inlinable public var centreY: Float { Float(y) + 0.5 }
}

extension Lanes {
    /// `i + 0.5` in lane `i`.
    @usableFromInline package static let centreOffsets = Lanes(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5,
                                            14.5, 15.5)
}

/// Three rows of the height field (the rows above, at and below the pixels), each readable one
/// column beyond either end of the face (the edge value repeated), as ``FoilSample/height(_:_:)``
/// clamps to the face.
public struct HeightRows {
    @usableFromInline let above: UnsafePointer<Float>?
    @usableFromInline let center: UnsafePointer<Float>?
    @usableFromInline let below: UnsafePointer<Float>?

    /// Rows whose column 0 is at the given pointers.
    @inlinable
    public init(above: UnsafePointer<Float>?, center: UnsafePointer<Float>?, below: UnsafePointer<Float>?) {
        self.above = above
        self.center = center
        self.below = below
    }

    /// No height field (for foils that do not read it).
    @inlinable public static var none: HeightRows { HeightRows(above: nil, center: nil, below: nil) }

    /// The heights of the sixteen pixels from column `x + dx` of row `y + dy`, `dx`, `dy` in -1...1.
    @inlinable @inline(__always)
    public func lanes(x: Int, dx: Int, dy: Int) -> Lanes {
        let row = dy < 0 ? above! : (dy > 0 ? below! : center!)
        return UnsafeRawPointer(row + (x + dx)).loadUnaligned(as: Lanes.self)
    }
}

/// One pixel of a face as a foil's reference reads it.
public struct FoilSample {
    public var x: Int
    public var y: Int
    /// The face's width and height in pixels.
    public var size: SIMD2<Float>
    /// The art's colour (premultiplied when the face is shaded for the screen) and alpha.
    public var layer: SIMD3<Float>
    public var alpha: Float
    /// The holo mask at this pixel (its nearest texel).
    public var mono: SIMD3<Float>
    public var intensity: Float
    /// Whether `layer` is premultiplied (and the result must be).
    public var premultiplied: Bool
    /// The height field at `(x + dx, y + dy)`, clamped to the face.
    public var heightAt: (_ dx: Int, _ dy: Int) -> Float

    public init(x: Int, y: Int, size: SIMD2<Float>, layer: SIMD3<Float>, alpha: Float, mono: SIMD3<Float>,
                intensity: Float, premultiplied: Bool, heightAt: @escaping (Int, Int) -> Float) {
        self.x = x
        self.y = y
        self.size = size
        self.layer = layer
        self.alpha = alpha
        self.mono = mono
        self.intensity = intensity
        self.premultiplied = premultiplied
        self.heightAt = heightAt
    }

    /// ``FoilInput/coverage`` of this pixel.
    public var coverage: Float { premultiplied ? alpha : 1 }

    /// The pixel's centre.
    public var position: SIMD2<Float> { SIMD2(Float(x) + 0.5, Float(y) + 0.5) }

    /// The height field at `(x + dx, y + dy)`.
    public func height(_ dx: Int, _ dy: Int) -> Float { heightAt(dx, dy) }
}

/// The luminance the height field takes from the foil map or the mask (Rec. 709 weights), summed
/// left to right: both paths compute it so.
public enum HeightField {
    @inlinable
    public static func luminance(_ rgb: SIMD3<Float>) -> Float {
        (rgb.x * 0.2126 + rgb.y * 0.7152) + rgb.z * 0.0722
    }

    @inlinable @inline(__always)
    public static func luminance(_ rgb: RGBLanes) -> Lanes {
        (rgb.r * 0.2126 + rgb.g * 0.7152) + rgb.b * 0.0722
    }
}
