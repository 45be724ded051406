import Foundation
import ImgCache

/// Secrets passed as hex digits (keys, salts), as `openssl rand -hex 32` writes them.
enum HexArgument {
    /// The bytes of `text`'s hex digits (either case; white space around them ignored).
    /// - Throws: `invalidArgument` naming `name` when `text` holds anything but an even number of
    ///   hex digits, or fewer than `minimumBytes` bytes of them (default 1).
    static func bytes(_ text: String, name: String, minimumBytes: Int = 1) throws -> [UInt8] {
        let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        let values = digits.compactMap { digit -> UInt8? in
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard values.count == digits.count, values.count.isMultiple(of: 2) else {
            throw ImgCacheError.invalidArgument("\(name) must be hex digits, an even number of them")
        }
        guard values.count >= minimumBytes * 2 else {
            throw ImgCacheError.invalidArgument(
                "\(name) has \(values.count) hex digits; it needs at least \(minimumBytes * 2) (\(minimumBytes) bytes)")
        }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }
}
