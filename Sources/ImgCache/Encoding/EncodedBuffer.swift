#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Takes ownership of a buffer a C encoder allocated with malloc.
enum EncodedBuffer {
    /// The bytes as `Data` (the C buffer is freed), or an error carrying the encoder's message.
    static func take(
        _ buffer: UnsafeMutablePointer<UInt8>?, count: Int, status: Int32, message: [CChar], format: ImageFormat
    ) throws -> Data {
        guard status == 0, let buffer else {
            free(buffer)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImgCacheError.encodingFailed(format: format, detail: text)
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }
}
