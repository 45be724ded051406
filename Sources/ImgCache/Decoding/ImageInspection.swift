import Foundation

/// What an image's headers say, read without decoding any pixels.
public struct ImageInspection: Sendable, Equatable {
    /// The format, from the file's magic bytes.
    public var format: ImageFormat
    /// Pixel size as displayed (after EXIF orientation), or an animation's canvas.
    public var size: PixelSize
    /// The EXIF orientation stored in a JPEG (`.up` when none).
    public var orientation: ImageOrientation
    /// Frames in the file: every image of a GIF or animated WebP (counted without decoding them), 1 otherwise.
    public var frameCount: Int
    /// Loop count of an animation (GIF NETSCAPE2.0, WebP ANIM): 0 loops forever, nil when the file has none.
    public var loopCount: Int?
    /// The colour profile the headers carry (JPEG APP2, PNG iCCP, sRGB, gAMA and cHRM, WebP ICCP).
    /// Default `.none`.
    public var colorProfile: SourceColorProfile

    /// What `ImageDecoder.inspect(_:)` reports; each value not given is at the default its property
    /// states.
    public init(
        format: ImageFormat, size: PixelSize, orientation: ImageOrientation = .up, frameCount: Int = 1,
        loopCount: Int? = nil, colorProfile: SourceColorProfile = .none
    ) {
        self.format = format
        self.size = size
        self.orientation = orientation
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.colorProfile = colorProfile
    }
}

extension ImageDecoder {
    /// Reads the headers of `source`: format, size, orientation, colour profile, and for an
    /// animation the number of frames and the loop count. Pixels are not decoded.
    public static func inspect(_ source: ImageSource) throws -> ImageInspection {
        try inspect(source, complete: true)
    }

    /// `inspect`, where an animation's frames are counted (reading the whole file) and the colour
    /// profile read only when `complete`; otherwise the frame count is 1, the loop count nil and
    /// the profile `.none` (enough to plan a decode, which reads the profile itself).
    static func inspect(_ source: ImageSource, complete: Bool) throws -> ImageInspection {
        let decoder = try ImageDecoders.decoder(for: source.sniffFormat())
        return try source.withInput { try decoder.inspect($0, complete: complete) }
    }
}

extension ImageInspection {
    /// The headers' facts as JSON object fields with imgproxy's names where it has them
    /// (`format`, `width`, `height`) and `frames`, `orientation` (EXIF, 1-8) and `icc_profile`
    /// (its description, null when there is none or it is malformed, and then
    /// `icc_profile_malformed` says why).
    public var jsonFields: [String: Any] {
        var fields: [String: Any] = [
            "format": format.rawValue, "width": size.width, "height": size.height, "frames": frameCount,
            "orientation": orientation.rawValue,
        ]
        switch colorProfile {
        case .none: fields["icc_profile"] = NSNull()
        case .profile(let profile): fields["icc_profile"] = profile.description
        case .malformed(let reason):
            fields["icc_profile"] = NSNull()
            fields["icc_profile_malformed"] = reason
        }
        return fields
    }
}
