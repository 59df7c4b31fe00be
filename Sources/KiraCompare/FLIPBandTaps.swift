/// ``FLIPKernels`` laid out for ``FLIPBand``: seven tap rows of `2R + 1` each, centred and padded
/// with zeros to the widest radius `R`, in the order Y's CSF, Cx's CSF, Cz's two CSF terms, then the
/// feature detectors' Gaussian, first and second derivative.
struct FLIPBandTaps: Sendable {
    let radius: Int
    /// The taps of the horizontal passes.
    let horizontal: [Float]
    /// The taps of the vertical passes: the CSF terms times their weights, so that a channel's
    /// terms sum to its filter.
    let vertical: [Float]

    init(_ kernels: FLIPKernels) {
        precondition(kernels.achromatic.count == 1 && kernels.redGreen.count == 1 && kernels.blueYellow.count == 2,
                     "the paper's CSFs: one Gaussian for Y and Cx, two for Cz")
        let terms = [kernels.achromatic[0], kernels.redGreen[0], kernels.blueYellow[0], kernels.blueYellow[1]]
        let features = [kernels.gaussian, kernels.edge, kernels.point]
        let radius = (terms.map(\.taps) + features).map { $0.count / 2 }.max()!
        func centred(_ taps: [Float], _ scale: Float = 1) -> [Float] {
            let pad = [Float](repeating: 0, count: radius - taps.count / 2)
            return pad + taps.map { $0 * scale } + pad
        }
        self.radius = radius
        horizontal = (terms.map { centred($0.taps) } + features.map { centred($0) }).flatMap { $0 }
        vertical = (terms.map { centred($0.taps, $0.weight) } + features.map { centred($0) }).flatMap { $0 }
    }
}
