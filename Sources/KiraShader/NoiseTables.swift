/// The shader's value noise over a whole `width` × `height` layer, factored so that each pixel
/// costs three multiplies and two adds, with the original's exact float32 result.
///
/// The noise coordinate's x depends only on the column and its y only on the row, so in the
/// original expression
///
///     mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y
///
/// the hashes `a, b, c, d` depend on the column and the lattice row band only. Evaluated left to
/// right, as the original does, it is `(r0 + (ca * u.y) * omu) + dbu * u.y` with
/// `r0 = mix(a, b, u.x)`, `ca = c - a`, `dbu = (d - b) * u.x` per band and column and
/// `omu = 1 - u.x` per column: the same operations on the same values, so the same bits. The
/// lattice hash itself is evaluated once per lattice point (about 8 × 14 of them for a card),
/// never per pixel.
public struct NoiseTables: Sendable, FoilTables {
    public let width: Int
    public let height: Int
    /// `width` rounded up to a whole number of ``Lanes``; the tables are padded to it.
    public let paddedWidth: Int
    public let parameters: KiraParameters

    /// The lowest and highest lattice row `floor(st.y)` of any pixel row.
    @usableFromInline package let firstBand: Int
    package let lastBand: Int

    /// Per column: `1 - u.x`; then per band, per column: `r0`, `ca`, `dbu`. Each table is
    /// `paddedWidth` long. Kept at a fixed address so that rows can be read through pointers.
    @usableFromInline let storage: TableStorage
    @usableFromInline var omu: UnsafeMutablePointer<Float> { storage.base }
    @usableFromInline var bandTables: UnsafeMutablePointer<Float> { storage.base + paddedWidth }

    /// Per column: the lattice column `floor(st.x)` and the weight `u.x`.
    @usableFromInline var cells: [Float]
    @usableFromInline var ux: [Float]
    /// The lattice hash at every point the layer touches, row by row.
    @usableFromInline var hashes: [Float]

    /// Tables for a `width` × `height` layer.
    public init(width: Int, height: Int, parameters: KiraParameters = .seed) {
        precondition(width > 0 && height > 0, "the layer must not be empty")
        self.width = width
        self.height = height
        self.parameters = parameters
        let lanes = Lanes.scalarCount
        paddedWidth = (width + lanes - 1) / lanes * lanes

        let size = SIMD2(Float(width), Float(height))
        let firstRow = Self.rowTerms(0, size: size, parameters: parameters).band
        let lastRow = Self.rowTerms(height - 1, size: size, parameters: parameters).band
        firstBand = min(firstRow, lastRow)
        lastBand = max(firstRow, lastRow)

        cells = [Float](repeating: 0, count: paddedWidth)
        ux = [Float](repeating: 0, count: paddedWidth)
        let cellCount = Int(Self.columnTerms(width - 1, size: size, parameters: parameters).cell)
            - Int(Self.columnTerms(0, size: size, parameters: parameters).cell) + 2
        hashes = [Float](repeating: 0, count: cellCount * (lastBand - firstBand + 2))
        storage = TableStorage(count: (1 + (lastBand - firstBand + 1) * 3) * paddedWidth)
        recompute()
    }

    /// Whether these tables are those of a `width` × `height` layer with `parameters`' noise.
    public func serves(width: Int, height: Int, parameters: KiraParameters) -> Bool {
        self.width == width && self.height == height && self.parameters.noiseScale == parameters.noiseScale
            && self.parameters.verticalFlip == parameters.verticalFlip
    }

    /// Evaluates the tables again, from the lattice hash up, in place (no allocation).
    ///
    /// The tables depend on the layer's size only, never on the tilt; a renderer that measures
    /// a cold frame calls this to redo all of the shader's work.
    public mutating func recompute() {
        let omu = self.omu, bandTables = self.bandTables
        let size = SIMD2(Float(width), Float(height))
        for x in 0..<width {
            let (cell, u) = Self.columnTerms(x, size: size, parameters: parameters)
            cells[x] = cell
            ux[x] = u
            omu[x] = 1 - u
        }
        let firstCell = Int(cells[0])
        let hashColumns = Int(cells[width - 1]) - firstCell + 2
        for j in 0..<(lastBand - firstBand + 2) {
            for i in 0..<hashColumns {
                let point = SIMD2(Float(firstCell + i), Float(firstBand + j))
                hashes[j * hashColumns + i] = SeedShader.generateRandomFloat(point)
            }
        }
        for band in 0..<(lastBand - firstBand + 1) {
            let base = band * 3 * paddedWidth
            for x in 0..<width {
                let i = Int(cells[x]) - firstCell
                let a = hashes[band * hashColumns + i]
                let b = hashes[band * hashColumns + i + 1]
                let c = hashes[(band + 1) * hashColumns + i]
                let d = hashes[(band + 1) * hashColumns + i + 1]
                bandTables[base + x] = SeedShader.mix(a, b, ux[x])
                bandTables[base + paddedWidth + x] = c - a
                bandTables[base + 2 * paddedWidth + x] = (d - b) * ux[x]
            }
        }
    }

    @inlinable
    static func columnTerms(_ x: Int, size: SIMD2<Float>, parameters: KiraParameters) -> (cell: Float, ux: Float) {
        let st = SeedShader.noiseCoordinate(SIMD2(Float(x) + 0.5, 0.5), size: size, parameters: parameters)
        let f = SeedShader.fract(st.x)
        return (SeedShader.floor(st.x), f * f * (3 - 2 * f))
    }

    /// The lattice band `floor(st.y)` and smoothstep weight `u.y` of pixel row `y`.
    @inlinable
    public func row(_ y: Int) -> (band: Int, uy: Float) {
        Self.rowTerms(y, size: SIMD2(Float(width), Float(height)), parameters: parameters)
    }

    @inlinable
    static func rowTerms(_ y: Int, size: SIMD2<Float>, parameters: KiraParameters) -> (band: Int, uy: Float) {
        let st = SeedShader.noiseCoordinate(SIMD2(0.5, Float(y) + 0.5), size: size, parameters: parameters)
        let f = SeedShader.fract(st.y)
        return (Int(SeedShader.floor(st.y)), f * f * (3 - 2 * f))
    }

    /// The tables of pixel row `y`, valid while this value (or a copy) is alive.
    @inlinable
    public func rowTables(_ y: Int) -> RowTables {
        let (band, uy) = row(y)
        let base = UnsafePointer(bandTables + (band - firstBand) * 3 * paddedWidth)
        return RowTables(r0: base, ca: base + paddedWidth, dbu: base + 2 * paddedWidth,
                         omu: UnsafePointer(omu), uy: uy)
    }

    /// One row's view of the tables.
    public struct RowTables {
        @usableFromInline package let r0: UnsafePointer<Float>
        @usableFromInline package let ca: UnsafePointer<Float>
        @usableFromInline package let dbu: UnsafePointer<Float>
        @usableFromInline package let omu: UnsafePointer<Float>
        @usableFromInline package let uy: Float

        @inlinable
        package init(r0: UnsafePointer<Float>, ca: UnsafePointer<Float>, dbu: UnsafePointer<Float>,
                    omu: UnsafePointer<Float>, uy: Float) {
            self.r0 = r0
            self.ca = ca
            self.dbu = dbu
            self.omu = omu
            self.uy = uy
        }

        /// The value noise for the sixteen pixels from column `x` (a multiple of 16).
        @inlinable @inline(__always)
        public func valueNoise(at x: Int) -> Lanes {
            let raw = UnsafeRawPointer(r0)
            let stride = MemoryLayout<Float>.stride
            let r0 = raw.loadUnaligned(fromByteOffset: x * stride, as: Lanes.self)
            let ca = UnsafeRawPointer(self.ca).loadUnaligned(fromByteOffset: x * stride, as: Lanes.self)
            let dbu = UnsafeRawPointer(self.dbu).loadUnaligned(fromByteOffset: x * stride, as: Lanes.self)
            let omu = UnsafeRawPointer(self.omu).loadUnaligned(fromByteOffset: x * stride, as: Lanes.self)
            return (r0 + (ca * uy) * omu) + dbu * uy
        }
    }
}

/// Zero-filled float memory with a fixed address, freed with its owner.
@usableFromInline package final class TableStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Float>
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: 0, count: count)
    }

    deinit { base.deallocate() }
}
