import KiraImage
import KiraRender

/// `frame` at 8 bits per channel (16-bit channels rounded, as ``AnyRGBAImage/rgba8`` does):
/// what a contact sheet or a video shows.
package func eightBit<Channel: LaneChannel>(_ frame: RGBAImage<Channel>) -> RGBAImage<UInt8> {
    if let frame = frame as? RGBAImage<UInt8> { return frame }
    return AnyRGBAImage.rgba16(frame as! RGBAImage<UInt16>).rgba8
}
