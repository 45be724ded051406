/// Reassembles the ICC profile a JPEG carries in APP2 segments: each starts `ICC_PROFILE\0`, then
/// its sequence number (1-based) and the chunk count, then its part of the profile.
enum JPEGICCChunks {
    /// The signature that opens an ICC chunk's APP2 segment.
    static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// The profile of `segments` (the APP2 payloads in file order), nil when none is an ICC chunk;
    /// `Malformed` unless the sequence numbers are 1...count, each once, with one count throughout.
    static func profile(fromAPP2 segments: [UnsafeRawBufferPointer]) throws(ColorProfile.Malformed) -> [UInt8]? {
        let headerLength = signature.count + 2
        let chunks = segments.filter { $0.starts(with: signature) }
        guard let first = chunks.first else { return nil }
        guard chunks.allSatisfy({ $0.count >= headerLength }) else {
            throw ColorProfile.Malformed(reason: "an ICC_PROFILE segment is too short")
        }
        let count = Int(first[signature.count + 1])
        guard count > 0, chunks.allSatisfy({ Int($0[signature.count + 1]) == count }) else {
            throw ColorProfile.Malformed(reason: "the ICC_PROFILE segments disagree on their count")
        }
        var parts = [UnsafeRawBufferPointer?](repeating: nil, count: count)
        for chunk in chunks {
            let sequence = Int(chunk[signature.count])
            guard (1...count).contains(sequence) else {
                throw ColorProfile.Malformed(reason: "ICC_PROFILE segment \(sequence) is not in 1...\(count)")
            }
            guard parts[sequence - 1] == nil else {
                throw ColorProfile.Malformed(reason: "ICC_PROFILE segment \(sequence) appears twice")
            }
            parts[sequence - 1] = UnsafeRawBufferPointer(rebasing: chunk[headerLength...])
        }
        if let missing = parts.firstIndex(where: { $0 == nil }) {
            throw ColorProfile.Malformed(reason: "ICC_PROFILE segment \(missing + 1) of \(count) is missing")
        }
        // At most 255 segments of under 64 KiB (16 MiB); `ColorProfile` refuses over its maxByteCount.
        return parts.reduce(into: [UInt8]()) { $0.append(contentsOf: $1!) }
    }
}
