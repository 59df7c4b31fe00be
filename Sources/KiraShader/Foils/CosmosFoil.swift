/// Cosmos foil: a galaxy printed on a layer beneath the art, seen through the mask. Because it
/// lies deeper than the surface, tilting the card shifts it against the art (parallax): the
/// nebula clouds by a little, the stars, deeper still, by more.
///
/// The nebula is two octaves of lattice value noise mapped through a violet–blue–magenta ramp; the
/// stars are a sparse hashed field of soft points. Each layer is shifted by whole pixels in
/// proportion to the normal's x and y. Changed by the normal (the shifts), the mask and the
/// intensity.
@usableFromInline package enum CosmosFoil: FoilShader {
    public static let name = "cosmos"
    public static let summary = "galaxy: nebula clouds and stars on a deeper layer that shifts against the art (parallax)"

    /// Shift per unit of the normal's x or y, as a share of the face's width: nebula and stars.
    @usableFromInline package static let nebulaDepth: Float = 0.12
    @usableFromInline package static let starDepth: Float = 0.25
    /// Nebula lattice cells across the face's width: the broad octave and the fine one, and the
    /// fine one's share.
    @usableFromInline package static let broadCells: Float = 2.5
    @usableFromInline package static let fineCells: Float = 7
    @usableFromInline package static let fineShare: Float = 0.35
    /// The ramp: deep violet, blue, magenta; and how the noise maps onto it.
    public static let deep = SIMD3<Float>(0.10, 0.02, 0.28)
    public static let blue = SIMD3<Float>(0.05, 0.30, 0.75)
    public static let magenta = SIMD3<Float>(0.85, 0.20, 0.60)
    public static let contrast: Float = 1.8
    @usableFromInline package static let floorLevel: Float = 0.4
    /// Stars: cells across the width, the share of cells with a star (of 256), a star's radius in
    /// cells.
    @usableFromInline package static let starCells: Float = 70
    @usableFromInline package static let starShare: UInt32 = 60
    @usableFromInline package static let starRadius: Float = 0.22
    @usableFromInline static let broadSeed: UInt32 = 0xC05_0001
    @usableFromInline static let fineSeed: UInt32 = 0xC05_0002
    @usableFromInline static let starSeed: UInt32 = 0xC05_0003

    /// The two layers' shifts in whole pixels.
    public struct Frame {
        @usableFromInline package var nebula: SIMD2<Int>
        @usableFromInline package var stars: SIMD2<Int>

        @inlinable
        public init(nebula: SIMD2<Int>, stars: SIMD2<Int>) {
            self.nebula = nebula
            self.stars = stars
        }
    }

    /// The nebula's two octaves over the face and the farthest any shift reaches.
    public struct Tables: FoilTables {
        public let width: Int
        public let height: Int
        @usableFromInline package var broad: LatticeNoise
        @usableFromInline package var fine: LatticeNoise

        public init(width: Int, height: Int, parameters: KiraParameters) {
            self.width = width
            self.height = height
            // A pixel more than the largest shift: a unit normal's x may round a hair above 1.
            let margin = CosmosFoil.shift(1, depth: CosmosFoil.nebulaDepth, width: width) + 1
            broad = LatticeNoise(width: width, height: height, margin: margin, cell: CosmosFoil.broadCell(width),
                                 seed: CosmosFoil.broadSeed)
            fine = LatticeNoise(width: width, height: height, margin: margin, cell: CosmosFoil.fineCell(width),
                                seed: CosmosFoil.fineSeed)
        }

        public func serves(width: Int, height: Int, parameters: KiraParameters) -> Bool {
            self.width == width && self.height == height
        }

        public mutating func recompute() {
            broad.recompute()
            fine.recompute()
        }

        @inlinable public func rowTables(_ y: Int) -> Tables { self }
    }

    // At least a pixel each, so that a face a few pixels wide has a lattice too.
    @inlinable static func broadCell(_ width: Int) -> Float { Swift.max(1, Float(width) / broadCells) }
    @inlinable static func fineCell(_ width: Int) -> Float { Swift.max(1, Float(width) / fineCells) }
    @inlinable static func starCell(_ width: Float) -> Float { Swift.max(3, SeedShader.floor(width / starCells)) }

    /// The shift in whole pixels of a layer at `depth` for a normal component `n`, on a face of
    /// `width`; at most `depth * width` (for n = ±1).
    @inlinable
    static func shift(_ n: Float, depth: Float, width: Int) -> Int {
        Int((n * depth * Float(width)).rounded(.toNearestOrEven))
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> Frame {
        let n = FoilMath.unitNormal(normal), width = Int(size.x)
        return Frame(nebula: SIMD2(shift(n.x, depth: nebulaDepth, width: width), shift(n.y, depth: nebulaDepth, width: width)),
                     stars: SIMD2(shift(n.x, depth: starDepth, width: width), shift(n.y, depth: starDepth, width: width)))
    }

    /// How far the stars' coordinates are moved so that they stay positive under any shift.
    @inlinable static func starMargin(_ width: Float) -> Float { Float(shift(1, depth: starDepth, width: Int(width)) + 1) }

    /// The mask scaled by the intensity.
    public typealias Pixel = RGBLanes

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: Tables) -> RGBLanes {
        let m = input.mono, i = input.intensity
        return RGBLanes(m.r * i, m.g * i, m.b * i)
    }

    @inlinable @inline(__always)
    public static func shade(_ weight: RGBLanes, _ input: FoilInput, row tables: Tables, frame: Frame) -> RGBLanes {
        // The nebula, shifted.
        let column = input.x + frame.nebula.x, row = input.y + frame.nebula.y
        let noise = tables.broad.lanes(column: column, row: row) * (1 - fineShare)
            + tables.fine.lanes(column: column, row: row) * fineShare
        let t = Lanes.clamp((noise - floorLevel) * contrast, .zero, Lanes(repeating: 1))
        let s1 = Lanes.clamp(t * 2, .zero, Lanes(repeating: 1)), s2 = Lanes.clamp(t * 2 - 1, .zero, Lanes(repeating: 1))
        @inline(__always) func ramp(_ d: Float, _ b: Float, _ m: Float) -> Lanes {
            let c1 = d + (b - d) * s1
            return (c1 + (m - c1) * s2) * t
        }
        let nebula = RGBLanes(ramp(deep.x, blue.x, magenta.x), ramp(deep.y, blue.y, magenta.y), ramp(deep.z, blue.z, magenta.z))

        // The stars, shifted further.
        let margin = starMargin(input.size.x), cell = starCell(input.size.x)
        let (h, spot) = FoilMath.dot(x: input.centresX + (Float(frame.stars.x) + margin),
                                     y: input.centreY + (Float(frame.stars.y) + margin), cell: cell, radius: starRadius,
                                     seed: starSeed)
        let star = spot * FoilMath.below(h, starShare) * (0.5 + FoilMath.unit(h, shift: 4, bits: 4) * 0.5)

        let l = input.layer
        return RGBLanes(l.r + (nebula.r + star) * weight.r, l.g + (nebula.g + star) * weight.g,
                        l.b + (nebula.b + star) * weight.b)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        let weight = sample.mono * sample.intensity
        let shifts = frame(normal: normal, parameters: parameters, size: sample.size)
        let width = Int(sample.size.x)

        let column = sample.x + shifts.nebula.x, row = sample.y + shifts.nebula.y
        let noise = LatticeNoise.value(column: column, row: row, cell: broadCell(width), seed: broadSeed) * (1 - fineShare)
            + LatticeNoise.value(column: column, row: row, cell: fineCell(width), seed: fineSeed) * fineShare
        let t = SeedShader.clamp((noise - floorLevel) * contrast, 0, 1)
        let s1 = SeedShader.clamp(t * 2, 0, 1), s2 = SeedShader.clamp(t * 2 - 1, 0, 1)
        let c1 = deep + (blue - deep) * s1
        let nebula = (c1 + (magenta - c1) * s2) * t

        let margin = starMargin(sample.size.x), cell = starCell(sample.size.x)
        let p = sample.position
        let (h, spot) = FoilMath.dot(x: p.x + (Float(shifts.stars.x) + margin), y: p.y + (Float(shifts.stars.y) + margin),
                                     cell: cell, radius: starRadius, seed: starSeed)
        let star = spot * FoilMath.below(h, starShare) * (0.5 + FoilMath.unit(h, shift: 4, bits: 4) * 0.5)

        return sample.layer + (nebula + star) * weight
    }
}
