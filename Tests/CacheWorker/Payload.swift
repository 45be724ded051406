import Foundation

/// The bytes a worker stores: a header line naming the key, the version and the total length, then
/// pseudo-random bytes derived from them, so any reader can tell a complete, matching file from a
/// partial or mixed one.
struct Payload {
    let key: String
    let version: String
    let length: Int

    /// The full bytes of this payload: the header, then the generator's words in little-endian
    /// order, the last one cut at `length`. Written into one buffer of that length, a word at a
    /// time, so that even 128 MiB takes well under a second in a debug build.
    var bytes: Data {
        var data = Data(count: length)
        var generator = SplitMix(seed: fnv1a(key + "#" + version))
        let header = Array(header.utf8.prefix(length))
        data.withUnsafeMutableBytes { buffer in
            buffer.copyBytes(from: header)
            var offset = header.count
            while offset + 8 <= length {
                buffer.storeBytes(of: generator.next().littleEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            if offset < length {
                withUnsafeBytes(of: generator.next().littleEndian) { word in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyBytes(from: word.prefix(length - offset))
                }
            }
        }
        return data
    }

    private var header: String { Self.header(key: key, version: version, length: length) }

    private static func header(key: String, version: String, length: Int) -> String {
        "imgcache-test \(key) \(version) \(length)\n"
    }

    /// A payload of about `size` bytes (never shorter than its header).
    init(key: String, version: String, size: Int) {
        self.key = key
        self.version = version
        // The header names the length, so a longer length can need a longer header.
        var length = size
        while Self.header(key: key, version: version, length: length).utf8.count > length {
            length = Self.header(key: key, version: version, length: length).utf8.count
        }
        self.length = length
    }

    /// The payload `data` claims to be, when it is exactly that payload's bytes; nil otherwise.
    init?(validating data: Data) {
        guard let newline = data.firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: data[data.startIndex..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 4, fields[0] == "imgcache-test", let length = Int(fields[3]) else { return nil }
        key = String(fields[1])
        version = String(fields[2])
        self.length = length
        guard data.count == length, bytes == data else { return nil }
    }

    private func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// A small, seedable generator (SplitMix64), so that runs can be repeated from their seed.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
