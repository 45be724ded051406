import Foundation
import CCrypto

/// MD5 through libcrypto's EVP API, used to name cache files and to tell bytes apart (entity
/// tags), never for security.
public enum MD5 {
    /// The digest of `text`'s UTF-8 bytes as 32 lowercase hexadecimal digits.
    public static func hexDigest(of text: String) -> String {
        var text = text
        return text.withUTF8 { digest(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of `data` as 32 lowercase hexadecimal digits.
    public static func hexDigest(of data: Data) -> String {
        data.withUnsafeBytes { digest($0) }
    }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> String {
        LibCrypto.initialize()
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_md5(), nil)
        // EVP_Digest with MD5 only fails when the process is out of memory.
        precondition(status == 1 && length == 16, "EVP_Digest(MD5) failed")
        return hex(digest.prefix(16))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[index * 2] = digits[Int(byte >> 4)]
                buffer[index * 2 + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }
}
