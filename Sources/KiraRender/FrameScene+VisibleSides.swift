import KiraGeometry

extension FrameScene {
    /// The faces this scene draws with some opacity: a caller can tell whether the back shows
    /// (and so whether a back texture matters) before rendering.
    public var visibleSides: Set<CardSide> {
        Set(layers().filter { $0.opacity > 0 }.map { $0.side })
    }
}
