/// One image format's decoder, in the manner of Nuke's `ImageDecoding`: how to recognise its
/// files, read their headers, and decode them for one or several targets while resampling.
/// A format is a folder of its own that conforms one type to this protocol and is listed in
/// `ImageDecoders.all`; sniffing, `inspect`, the pipeline and the command line need no edit.
protocol ImageDecoding: SendableMetatype {
    /// The format this decoder reads.
    static var format: ImageFormat { get }

    /// True when `prefix` (the first `ImageFormat.signatureLength` bytes, fewer for a shorter
    /// input, at least one) starts a file of this format.
    static func recognizes(_ prefix: [UInt8]) -> Bool

    /// True when files can hold several frames: decodes keep up to the options' frame limit and
    /// budget, and multi-target passes budget for every frame kept.
    static var canAnimate: Bool { get }

    /// Bytes held per source pixel at most while decoding (a canvas, a copy to restore, an
    /// interlaced image held whole), for the pipeline's memory gate.
    static var workingBytesPerSourcePixel: Int { get }

    /// Reads the headers of `input` without decoding pixels. Only when `complete` are frames
    /// counted (which may read the whole file) and the colour profile read (which may inflate and
    /// parse one); otherwise the frame count is 1 and the profile `.none`: what sizes a decode.
    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection

    /// Decodes `input` for `targets` (which share their limits and flags), handing each kept frame
    /// for each target to `onFrame` as soon as it is resampled. Checks the limits from the headers
    /// before allocating. Returns what was learned of the source.
    static func decode(_ input: SourceInput, for targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo
}
