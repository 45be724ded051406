import Foundation

/// The bytes a worker stores: a header line naming the key, the version and the total length, then
/// pseudo-random bytes derived from them, so any reader can tell a complete, matching file from a
/// partial or mixed one.
struct Payload {
    let key: String
    let version: String
    let length: Int

    /// The full bytes of this payload.
    var bytes: Data {
        var data = Data(header.utf8)
        var generator = SplitMix(seed: fnv1a(key + "#" + version))
        while data.count < length {
            withUnsafeBytes(of: generator.next().littleEndian) { data.append(contentsOf: $0.prefix(length - data.count)) }
        }
        return data
    }

    private var header: String { "imgcache-test \(key) \(version) \(length)\n" }

    /// A payload of about `size` bytes (never shorter than its header).
    init(key: String, version: String, size: Int) {
        self.key = key
        self.version = version
        let headerLength = "imgcache-test \(key) \(version) \(size)\n".utf8.count
        length = max(size, headerLength)
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
