import CKiraLanes

/// Small functions the foils share, each as a scalar and a lane twin that round alike.
@usableFromInline package enum FoilMath {
    // MARK: Integer hashing (the lane twins are `kira_hash_*` in kira_lanes.h)

    /// A 32-bit integer mixer (xorshift-multiply, two rounds).
    @inlinable
    public static func hash(_ value: UInt32) -> UInt32 {
        var x = value
        x ^= x >> 16
        x = x &* 0x7FEB_352D
        x ^= x >> 15
        x = x &* 0x846C_A68B
        x ^= x >> 16
        return x
    }

    /// The hash of lattice cell (`column`, `row`) for pattern `seed`.
    @inlinable
    package static func hashCell(_ column: UInt32, _ row: UInt32, seed: UInt32) -> UInt32 {
        hash((column &* 0x9E37_79B1) ^ (row &* 0x85EB_CA77 &+ seed))
    }

    @inlinable @inline(__always)
    package static func hashCell(_ column: SIMD16<UInt32>, _ row: UInt32, seed: UInt32) -> SIMD16<UInt32> {
        kira_hash_cell(column, row, seed)
    }

    @inlinable @inline(__always)
    public static func hash(_ value: SIMD16<UInt32>) -> SIMD16<UInt32> { kira_hash_u32(value) }

    /// `bits` bits of `h` from bit `shift`, as a float in [0, 1).
    @inlinable
    public static func unit(_ h: UInt32, shift: UInt32, bits: UInt32) -> Float {
        Float((h >> shift) & ((1 << bits) - 1)) * (1 / Float(UInt32(1) << bits))
    }

    @inlinable @inline(__always)
    public static func unit(_ h: SIMD16<UInt32>, shift: UInt32, bits: UInt32) -> Lanes {
        kira_hash_unit(h, shift, bits)
    }

    /// 1 when the low byte of `h` is below `threshold` (a share `threshold / 256` of cells), else 0.
    @inlinable
    public static func below(_ h: UInt32, _ threshold: UInt32) -> Float { h & 255 < threshold ? 1 : 0 }

    @inlinable @inline(__always)
    public static func below(_ h: SIMD16<UInt32>, _ threshold: UInt32) -> Lanes { kira_hash_below(h, threshold) }

    /// A non-negative whole float as an integer (exact below 2^22).
    @inlinable @inline(__always)
    public static func whole(_ x: Lanes) -> SIMD16<UInt32> { kira_round_to_u32(x) }

    // MARK: Shapes and colours

    /// A grid of `cell`-pixel square cells, each with a hash and a soft dot (radius `radius` cells)
    /// at a hashed spot kept a radius from its edges: at the point (`x`, `y`), the cell's hash and
    /// the dot's `bump`. Glitter flakes and stars are such dots. `x` and `y` are not negative.
    @inlinable
    public static func dot(x: Float, y: Float, cell c: Float, radius: Float, seed: UInt32) -> (hash: UInt32, spot: Float) {
        let cellX = SeedShader.floor(x / c), cellY = SeedShader.floor(y / c)
        let fx = x - cellX * c, fy = y - cellY * c
        let h = hashCell(UInt32(cellX), UInt32(cellY), seed: seed)
        let r = radius * c, span = c - 2 * r
        let dx = fx - (r + span * unit(h, shift: 8, bits: 12))
        let dy = fy - (r + span * unit(h, shift: 20, bits: 12))
        return (h, bump((dx * dx + dy * dy) * (1 / (r * r))))
    }

    @inlinable @inline(__always)
    public static func dot(x: Lanes, y: Float, cell c: Float, radius: Float, seed: UInt32) -> (hash: SIMD16<UInt32>, spot: Lanes) {
        let cellX = Lanes.floor(x / c), cellY = SeedShader.floor(y / c)
        let fx = x - cellX * c, fy = y - cellY * c
        let h = hashCell(whole(cellX), UInt32(cellY), seed: seed)
        let r = radius * c, span = c - 2 * r
        let dx = fx - (r + span * unit(h, shift: 8, bits: 12))
        let dy = fy - (r + span * unit(h, shift: 20, bits: 12))
        return (h, bump((dx * dx + dy * dy) * (1 / (r * r))))
    }

    /// A soft bump of squared distance `t` (in units of the radius squared): `max(1 - t, 0)²`,
    /// 1 at the centre, 0 from the radius on, with no kink at either end.
    @inlinable
    package static func bump(_ t: Float) -> Float {
        let f = Swift.max(1 - t, 0)
        return f * f
    }

    @inlinable @inline(__always)
    package static func bump(_ t: Lanes) -> Lanes {
        let f = Lanes.max(1 - t, .zero)
        return f * f
    }

    /// The fully saturated colour of hue `h` (a cycle per unit): red, yellow, green, cyan, blue,
    /// magenta, red.
    @inlinable
    package static func spectrum(_ h: Float) -> SIMD3<Float> {
        func channel(_ k: Float) -> Float {
            SeedShader.clamp(abs(SeedShader.fract(h + k) * 6 - 3) - 1, 0, 1)
        }
        return SIMD3(channel(1), channel(2.0 / 3.0), channel(1.0 / 3.0))
    }

    @inlinable @inline(__always)
    package static func spectrum(_ h: Lanes) -> RGBLanes {
        @inline(__always) func channel(_ k: Float) -> Lanes {
            Lanes.clamp(Lanes.abs(Lanes.fract(h + k) * 6 - 3) - 1, .zero, Lanes(repeating: 1))
        }
        return RGBLanes(channel(1), channel(2.0 / 3.0), channel(1.0 / 3.0))
    }

    /// The wrapped difference `a - b` on a circle of circumference 1, in [-0.5, 0.5).
    @inlinable
    package static func wrapped(_ a: Float, _ b: Float) -> Float { SeedShader.fract(a - b + 0.5) - 0.5 }

    @inlinable @inline(__always)
    package static func wrapped(_ a: Lanes, _ b: Float) -> Lanes { Lanes.fract(a - b + 0.5) - 0.5 }

    /// `normal` of unit length (the normal is checked finite and non-zero before any foil runs).
    @inlinable
    package static func unitNormal(_ normal: SIMD3<Float>) -> SIMD3<Float> { SeedShader.normalize(normal) }
}
