import Foundation
import XCTest

/// The third-party conformance corpus, read in place: `$IMGCACHE_CORPUS`, else `../shared/corpus`
/// beside the checkout. Tests that need it skip with a message when it is absent.
enum Corpus {
    static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["IMGCACHE_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return checkout.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    /// The folder `relative` inside the corpus, or an `XCTSkip` saying it is missing.
    static func folder(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw XCTSkip("conformance corpus not found at \(url.path); set IMGCACHE_CORPUS to run these tests")
        }
        return url
    }

    /// The file `relative` inside the corpus, or an `XCTSkip` saying this snapshot lacks it.
    static func file(_ relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(relative) is not in the conformance corpus at \(root.path)")
        }
        return url
    }

    /// Files directly in `folder` whose names end with `suffix`, sorted by name.
    static func files(in folder: URL, suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(suffix) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The SHA-256 of `bytes` in hexadecimal, from coreutils' sha256sum.
    static func sha256(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written on another thread, so that a full pipe never blocks the read below.
        let writer = Thread { input.fileHandleForWriting.write(Data(bytes)); try? input.fileHandleForWriting.close() }
        writer.start()
        let digest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(digest.prefix(64))
    }

    /// Prints one summary line, so a CI log shows how much of each suite ran.
    static func report(_ suite: String, _ counts: KeyValuePairs<String, Int>) {
        let text = counts.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("[conformance] \(suite): \(text)")
    }
}

/// CRC-32 (IEEE 802.3, as zlib and PNG compute it).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
