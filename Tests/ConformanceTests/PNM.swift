import Foundation
@testable import ImgCache

/// Reads binary PPM (P6) and PGM (P5) files with 8-bit samples, the form of libjpeg's reference
/// decodes, as an RGBA bitmap (gray repeated into R, G and B; alpha 255).
enum PNM {
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    static func read(_ url: URL) throws -> Bitmap {
        let bytes = [UInt8](try Data(contentsOf: url))
        var position = 0

        /// The next whitespace-separated header token, skipping `#` comments.
        func token() throws -> String {
            var text = ""
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "#") && text.isEmpty {
                    while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
                } else if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    if !text.isEmpty { break }
                } else {
                    text.append(Character(UnicodeScalar(byte)))
                }
                position += 1
            }
            guard !text.isEmpty else { throw FormatError(description: "\(url.lastPathComponent): header ends early") }
            return text
        }

        let magic = try token()
        guard magic == "P5" || magic == "P6" else {
            throw FormatError(description: "\(url.lastPathComponent): \(magic) is not binary PGM or PPM")
        }
        guard let width = Int(try token()), let height = Int(try token()), let maxValue = Int(try token()),
              width > 0, height > 0, maxValue == 255 else {
            throw FormatError(description: "\(url.lastPathComponent): bad size or not 8-bit samples")
        }
        position += 1  // the single whitespace byte after the maximum value
        let channels = magic == "P6" ? 3 : 1
        guard bytes.count - position >= width * height * channels else {
            throw FormatError(description: "\(url.lastPathComponent): pixel data ends early")
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in 0..<width * height {
            for channel in 0..<3 {
                pixels[index * 4 + channel] = bytes[position + index * channels + (channels == 3 ? channel : 0)]
            }
        }
        return try Bitmap(size: PixelSize(width: width, height: height), pixels: pixels)
    }
}
