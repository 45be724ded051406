import Foundation

extension ImagePipeline {
    /// What a decode of `source` for `targets` costs at the memory gate: its estimate from the
    /// header (read on the pipeline's threads), or 1 when the header does not read, as the decode
    /// will then fail at once.
    func decodeCost(_ source: ImageSource, _ targets: [DecodingOptions]) async throws -> Int {
        let header = try await blocking.run { try? ImageDecoder.inspect(source, complete: false) }
        guard let header else { return 1 }
        return Self.estimatedDecodeMemory(header, targets: targets, passBudget: configuration.renderPassBudgetBytes)
    }

    /// Bytes a decode of a source with `header` for `targets` may hold at once, estimated from the
    /// header alone, for the pipeline's memory gate (`Configuration.decodingMemoryBytes`):
    /// - the source's pixels at the format's `workingBytesPerSourcePixel` (4; 8 for a GIF, its
    ///   canvas and a copy to restore): what an interlaced PNG, a progressive JPEG or a GIF holds at
    ///   the source's resolution;
    /// - three times each target's output frames (the frames, the encoder's copy and its output),
    ///   of which a multi-target decode holds `passBudget` at once beside the largest.
    /// A target that will fail (over the output limit, a region that does not fit) counts nothing.
    static func estimatedDecodeMemory(_ header: ImageInspection, targets: [DecodingOptions], passBudget: Int) -> Int {
        let stored = header.orientation.swapsAxes ? header.size.transposed : header.size
        let decoder = try? ImageDecoders.decoder(for: header.format)
        let working = Double(stored.area) * Double(decoder?.workingBytesPerSourcePixel ?? 4)
        let outputs = targets.map { options -> Double in
            guard let output = try? options.geometry(forStoredSize: stored, orientation: header.orientation).outputSize
            else { return 0 }
            let frame = Double(output.area) * 4
            guard decoder?.canAnimate == true else { return frame }
            return max(frame, min(Double(options.frameBudgetBytes), frame * Double(options.maxFrames)))
        }
        let held = min(outputs.reduce(0, +), (outputs.max() ?? 0) + Double(passBudget))
        return Int(min(working + 3 * held, Double(Int.max / 2)))
    }
}
