/// One decoded frame: its pixels at the output size and how long it is shown.
public struct ImageFrame: Sendable, Equatable {
    /// The frame's pixels, at the output size.
    public var bitmap: Bitmap
    /// Delay before the next frame in hundredths of a second, as stored in the file (0 for stills).
    public var delayCentiseconds: Int

    /// A frame of `bitmap` shown for `delayCentiseconds` hundredths of a second (default 0: a
    /// still).
    public init(bitmap: Bitmap, delayCentiseconds: Int = 0) {
        self.bitmap = bitmap
        self.delayCentiseconds = delayCentiseconds
    }

    /// The delay a browser uses: stored delays of 0 or 1 hundredth (10 ms) are shown for 100 ms,
    /// as Chrome, Firefox and Safari do, since such files expect "as fast as a 1990s machine could".
    public var displayDelaySeconds: Double {
        delayCentiseconds <= 1 ? 0.1 : Double(delayCentiseconds) / 100
    }
}

/// What a decode found out about the source, known once the first frame is read.
public struct ImageInfo: Sendable, Equatable {
    /// The source's format.
    public var format: ImageFormat
    /// Size of the source as displayed (after EXIF orientation), or of an animation's canvas.
    public var sourceSize: PixelSize
    /// Orientation applied to the stored pixels (`.up` when none or not applied).
    public var orientation: ImageOrientation
    /// Loop count of an animation (GIF NETSCAPE2.0, WebP ANIM): 0 loops forever, nil when the file has none (play once).
    public var loopCount: Int?
    /// True when the data ended before the image did and the decode went on with what it had.
    public var isTruncated: Bool
    /// The source's colour profile (its bytes too, for `ColorPolicy.keep` to embed). Default `.none`.
    public var colorProfile: SourceColorProfile
    /// Which frame a poster decode (`DecodingOptions.picksPoster`) kept and how many it decoded;
    /// nil for other decodes. Default nil.
    public var poster: PosterChoice?

    /// What a decoder reports; each value not given is at the default its property states (`poster`
    /// is nil).
    public init(
        format: ImageFormat, sourceSize: PixelSize, orientation: ImageOrientation = .up,
        loopCount: Int? = nil, isTruncated: Bool = false, colorProfile: SourceColorProfile = .none
    ) {
        self.format = format
        self.sourceSize = sourceSize
        self.orientation = orientation
        self.loopCount = loopCount
        self.isTruncated = isTruncated
        self.colorProfile = colorProfile
    }
}

/// A decoded image: what was learned of the source and the frames kept, all of one size.
public struct DecodedImage: Sendable, Equatable {
    /// What the decode learned of the source.
    public var info: ImageInfo
    /// The frames kept, in the file's order; at least one in an image a decoder returns.
    public var frames: [ImageFrame]

    /// An image of `frames` (at least one, all of one size: `size` reads the first) with `info`.
    public init(info: ImageInfo, frames: [ImageFrame]) {
        self.info = info
        self.frames = frames
    }

    /// Pixel size of the frames.
    public var size: PixelSize { frames[0].bitmap.size }
    /// True when there is more than one frame.
    public var isAnimated: Bool { frames.count > 1 }
    /// Bytes the frames take in memory.
    public var byteCount: Int { frames.reduce(0) { $0 + $1.bitmap.byteCount } }
}
