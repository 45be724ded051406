import CAVIF
import Foundation

/// One frame as libavif takes it: a bitmap's pixels converted to 8-bit YCbCr (BT.601, full range),
/// in sRGB (said by the stream's colour description) or the given ICC profile (the description's
/// primaries and curve then unspecified), with an alpha plane when asked. Owns the `avifImage`.
final class AVIFPicture {
    let image: UnsafeMutablePointer<avifImage>

    /// - Throws: `encodingFailed` when libavif cannot hold or convert the pixels.
    init(_ bitmap: Bitmap, format: avifPixelFormat, keepsAlpha: Bool, iccProfile: [UInt8]?) throws {
        guard let image = avifImageCreate(UInt32(bitmap.width), UInt32(bitmap.height), 8, format) else {
            throw ImgCacheError.encodingFailed(format: .avif, detail: "libavif cannot hold a \(bitmap.size) image (out of memory)")
        }
        self.image = image
        image.pointee.yuvRange = AVIF_RANGE_FULL
        image.pointee.matrixCoefficients = avifMatrixCoefficients(AVIF_MATRIX_COEFFICIENTS_BT601)
        if let iccProfile {
            // The profile says the primaries and the curve; the AV1 stream leaves them unspecified.
            iccProfile.withUnsafeBufferPointer { avifImageSetProfileICC(image, $0.baseAddress, $0.count) }
            image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_UNSPECIFIED)
            image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED)
        } else {
            image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
            image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.ignoreAlpha = keepsAlpha ? AVIF_FALSE : AVIF_TRUE
        rgb.rowBytes = UInt32(bitmap.width * 4)
        let result = bitmap.pixels.withUnsafeBufferPointer { pixels in
            rgb.pixels = UnsafeMutablePointer(mutating: pixels.baseAddress)
            return avifImageRGBToYUV(image, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            throw ImgCacheError.encodingFailed(
                format: .avif, detail: "libavif cannot convert the pixels to YCbCr: \(String(cString: avifResultToString(result)))")
        }
    }

    deinit { avifImageDestroy(image) }
}
