/// Where an animation goes: numbered frames, an animated PNG, a contact sheet, videos. With none
/// named, numbered frames go to the preset's default folder (``AnimationJob/defaultDirectory(for:)``).
public struct AnimationOutputs: Sendable, Equatable {
    /// The folder of numbered frames (``FrameDirectory``).
    public var directory: String?
    public var apng: String?
    public var sheet: String?
    /// Columns of the contact sheet.
    public var sheetColumns = 6
    /// Videos, the format by each path's extension (``/KiraVideo/VideoFormat``).
    public var videos: [String] = []
    /// The videos' constant rate factor; nil is each format's default.
    public var videoQuality: Int?
    /// The videos' width (ffmpeg scales them); nil is the canvas's.
    public var videoWidth: Int?
    /// The ffmpeg program; nil is `$KIRA_FFMPEG`, else ffmpeg on `PATH`.
    public var ffmpeg: String?

    public init(directory: String? = nil, apng: String? = nil, sheet: String? = nil, sheetColumns: Int = 6, videos: [String] = [],
                videoQuality: Int? = nil, videoWidth: Int? = nil, ffmpeg: String? = nil) {
        self.directory = directory
        self.apng = apng
        self.sheet = sheet
        self.sheetColumns = sheetColumns
        self.videos = videos
        self.videoQuality = videoQuality
        self.videoWidth = videoWidth
        self.ffmpeg = ffmpeg
    }

    /// Whether no output is named: the frames then go to the default folder.
    public var isEmpty: Bool { directory == nil && apng == nil && sheet == nil && videos.isEmpty }

    /// Whether frames are written one file each: a folder named, or the default.
    public var numbersFrames: Bool { directory != nil || isEmpty }
}
