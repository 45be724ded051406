/// The display transforms of a HEIF/AVIF item, `irot` then `imir` (the MIAF order, after `clap`),
/// as the EXIF orientation that turns the stored pixels the same way.
enum HEIFTransform {
    /// The orientation for an anticlockwise rotation of `quarterTurns` x 90 degrees followed, when
    /// `mirrorMode` is given, by a mirror: 0 exchanges top and bottom, 1 left and right.
    static func orientation(quarterTurns: Int, mirrorMode: Int?) -> ImageOrientation {
        let rotated: [ImageOrientation] = [.up, .left, .down, .right]
        let topBottom: [ImageOrientation] = [.downMirrored, .leftMirrored, .upMirrored, .rightMirrored]
        let leftRight: [ImageOrientation] = [.upMirrored, .rightMirrored, .downMirrored, .leftMirrored]
        let turns = ((quarterTurns % 4) + 4) % 4
        switch mirrorMode {
        case 0: return topBottom[turns]
        case 1: return leftRight[turns]
        default: return rotated[turns]
        }
    }
}

extension HEIFTransform {
    /// The pixels a `clap` box keeps of a `coded` image: a rectangle of `width` x `height` centred
    /// `horizontalOffset`, `verticalOffset` from the image's centre (fractions, as stored), its
    /// left and top rounded down as libheif rounds them, and with no evenness asked of them (MIAF
    /// wants even ones on subsampled chroma; decoders show the odd ones all the same). Nil when a
    /// denominator is zero or the rectangle is empty or not inside the image.
    static func cleanAperture(
        width: (Int, Int), height: (Int, Int), horizontalOffset: (Int, Int), verticalOffset: (Int, Int), coded: PixelSize
    ) -> PixelRect? {
        guard [width.1, height.1, horizontalOffset.1, verticalOffset.1].allSatisfy({ $0 > 0 }) else { return nil }
        let cleanWidth = Double(width.0) / Double(width.1), cleanHeight = Double(height.0) / Double(height.1)
        let centreX = Double(horizontalOffset.0) / Double(horizontalOffset.1) + Double(coded.width - 1) / 2
        let centreY = Double(verticalOffset.0) / Double(verticalOffset.1) + Double(coded.height - 1) / 2
        let left = (centreX - (cleanWidth - 1) / 2).rounded(.down), top = (centreY - (cleanHeight - 1) / 2).rounded(.down)
        let right = (centreX + (cleanWidth - 1) / 2).rounded(.down), bottom = (centreY + (cleanHeight - 1) / 2).rounded(.down)
        guard left.isFinite, top.isFinite, right.isFinite, bottom.isFinite, left >= 0, top >= 0, left <= right, top <= bottom,
              right < Double(coded.width), bottom < Double(coded.height)
        else { return nil }
        return PixelRect(x: Int(left), y: Int(top), width: Int(right - left) + 1, height: Int(bottom - top) + 1)
    }
}
