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
    @inlinable
    public init(width: Int, height: Int, count: Int) {
        precondition(width >= 0 && height >= 0 && count >= 0, "sizes must not be negative")
        self.width = width
        self.height = height
        self.count = count
        channels = Channel.zeroed(count: width * height * 4 * count)
    }

    /// Channels per frame.
    public var frameChannels: Int { width * height * 4 }

    /// A copy of frame `index`.
    public func frame(_ index: Int) -> RGBAImage<Channel> {
        precondition(index >= 0 && index < count, "frame index out of range")
        let start = index * frameChannels
        return RGBAImage(width: width, height: height, channels: Array(channels[start..<(start + frameChannels)]))
    }
}
