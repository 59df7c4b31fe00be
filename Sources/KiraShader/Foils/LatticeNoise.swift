/// Value noise on a square lattice of `cell` pixels over a face and a margin around it, factored
/// into tables as ``NoiseTables`` factors the original's noise, so that sixteen pixels cost four loads,
/// three multiplies and two adds, with the bits of ``value(column:row:cell:seed:)``.
///
/// The lattice hash is an integer mixer (`FoilMath.hashCell`), not the original's `sin`
/// hash: the foils that use this noise are Kira's own, and the mixer has no period to show.
/// Pixel columns and rows may lie up to `margin` outside the face (for layers that move with
/// parallax).
@usableFromInline package struct LatticeNoise: Sendable {
    public let width: Int
    public let height: Int
    public let margin: Int
    public let cell: Float
    public let seed: UInt32
    /// Columns in the tables: the face and both margins, padded to whole lanes and a lane more
    /// (a run may start anywhere).
    @usableFromInline let columns: Int
    let firstBand: Int
    let bands: Int
    /// Per column: `1 - u.x`; then per band, per column: `r0`, `ca`, `dbu` (see ``NoiseTables``).
    @usableFromInline let storage: TableStorage
    /// Per row: the band and `u.y`.
    @usableFromInline let rowBand: [Int32]
    @usableFromInline let rowWeight: [Float]

    public init(width: Int, height: Int, margin: Int, cell: Float, seed: UInt32) {
        precondition(width > 0 && height > 0 && margin >= 0 && cell >= 1)
        self.width = width
        self.height = height
        self.margin = margin
        self.cell = cell
        self.seed = seed
        let lanes = Lanes.scalarCount
        columns = (width + 2 * margin + lanes - 1) / lanes * lanes + lanes
        firstBand = Int(Self.terms(-margin, cell: cell).index)
        bands = Int(Self.terms(height + margin - 1, cell: cell).index) - firstBand + 1
        storage = TableStorage(count: (1 + 3 * bands) * columns)
        var rowBand = [Int32](repeating: 0, count: height + 2 * margin)
        var rowWeight = [Float](repeating: 0, count: height + 2 * margin)
        for r in 0..<(height + 2 * margin) {
            let (index, u) = Self.terms(r - margin, cell: cell)
            rowBand[r] = Int32(Int(index) - firstBand)
            rowWeight[r] = u
        }
        self.rowBand = rowBand
        self.rowWeight = rowWeight
        recompute()
    }

    /// The lattice index `floor(st)` and smoothstep weight of pixel `p` along an axis.
    @inlinable
    static func terms(_ p: Int, cell: Float) -> (index: Float, u: Float) {
        let st = (Float(p) + 0.5) / cell
        let f = SeedShader.fract(st)
        return (SeedShader.floor(st), f * f * (3 - 2 * f))
    }

    /// The lattice value at point (`i`, `j`), in [0, 1).
    @inlinable
    static func lattice(_ i: Float, _ j: Float, seed: UInt32) -> Float {
        let h = FoilMath.hashCell(UInt32(bitPattern: Int32(i)), UInt32(bitPattern: Int32(j)), seed: seed)
        return FoilMath.unit(h, shift: 8, bits: 24)
    }

    /// The noise at pixel (`column`, `row`) (either may lie in the margin): the reference form,
    /// `mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y`, as the original writes it.
    public static func value(column: Int, row: Int, cell: Float, seed: UInt32) -> Float {
        let (i, ux) = terms(column, cell: cell), (j, uy) = terms(row, cell: cell)
        let a = lattice(i, j, seed: seed), b = lattice(i + 1, j, seed: seed)
        let c = lattice(i, j + 1, seed: seed), d = lattice(i + 1, j + 1, seed: seed)
        return SeedShader.mix(a, b, ux) + (c - a) * uy * (1 - ux) + (d - b) * ux * uy
    }

    /// Evaluates the tables again in place.
    public mutating func recompute() {
        let base = storage.base
        for k in 0..<columns {
            let (i, ux) = Self.terms(k - margin, cell: cell)
            base[k] = 1 - ux
            for band in 0..<bands {
                let j = Float(firstBand + band)
                let a = Self.lattice(i, j, seed: seed), b = Self.lattice(i + 1, j, seed: seed)
                let c = Self.lattice(i, j + 1, seed: seed), d = Self.lattice(i + 1, j + 1, seed: seed)
                let tables = base + (1 + 3 * band) * columns
                tables[k] = SeedShader.mix(a, b, ux)
                tables[columns + k] = c - a
                tables[2 * columns + k] = (d - b) * ux
            }
        }
    }

    /// The noise of the sixteen pixels from column `column` of row `row` (each within the margin).
    @inlinable @inline(__always)
    public func lanes(column: Int, row: Int) -> Lanes {
        let r = row + margin
        let band = Int(rowBand[r]), uy = rowWeight[r]
        let k = (column + margin) * MemoryLayout<Float>.stride
        let raw = UnsafeRawPointer(storage.base)
        let tables = raw + (1 + 3 * band) * columns * MemoryLayout<Float>.stride
        let r0 = tables.loadUnaligned(fromByteOffset: k, as: Lanes.self)
        let ca = tables.loadUnaligned(fromByteOffset: columns * MemoryLayout<Float>.stride + k, as: Lanes.self)
        let dbu = tables.loadUnaligned(fromByteOffset: 2 * columns * MemoryLayout<Float>.stride + k, as: Lanes.self)
        let omu = raw.loadUnaligned(fromByteOffset: k, as: Lanes.self)
        return (r0 + (ca * uy) * omu) + dbu * uy
    }
}
