import KiraImage

/// Several frames of one size in one buffer, frame after frame: what a sweep renders into.
///
/// Keeping the frames contiguous lets the renderer write all of them in one pass over the card
/// without one allocation per frame.
public struct FrameStack<Channel: ImageChannel>: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The number of frames.
    public let count: Int
    /// `count` images' channels, one after the other.
    public var channels: [Channel]

    /// `count` transparent black frames of `width` × `height`.
    ///
    /// Throws, before anything is allocated, when a side is negative or over
    /// ``/KiraImage/ImageLimits/standard``, or when `count` is negative or the frames together
    /// have more pixels than the limits allow one image: a stack is a batch of shadings, and
    /// 2 × 2 pixels by 2³² frames would otherwise be a 64 GiB allocation that aborts.
    @inlinable
    public init(width: Int, height: Int, count: Int) throws(ImageError) {
        try ImageLimits.standard.check(width: width, height: height)
        let pixels = width * height  // within the limits: no overflow
        guard count >= 0, pixels == 0 || count <= ImageLimits.standard.maxPixels / pixels else {
            throw .frameCount(count, width: width, height: height)
        }
        self.width = width
        self.height = height
        self.count = count
        channels = Channel.zeroed(count: pixels * count * 4)
    }

    /// No frames.
    @inlinable
    public init() {
        width = 0
        height = 0
        count = 0
        channels = []
    }

    /// `count` frames of the size of `art` (which is within the limits), for a renderer.
    package init<A: ImageChannel>(art: RGBAImage<A>, count: Int) throws(RenderError) {
        do {
            try self.init(width: art.width, height: art.height, count: count)
        } catch {
            throw .invalidImage("stack of shaded faces", error)
        }
    }

    /// Channels per frame.
    public var frameChannels: Int { width * height * 4 }

    /// A copy of frame `index`.
    public func frame(_ index: Int) -> RGBAImage<Channel> {
        precondition(index >= 0 && index < count, "frame index out of range")
        let start = index * frameChannels
        return RGBAImage(checkedWidth: width, height: height, channels: Array(channels[start..<(start + frameChannels)]))
    }
}
