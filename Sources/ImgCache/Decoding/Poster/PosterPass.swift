/// A decode where some targets keep a poster (`DecodingOptions.picksPoster`): their frames go to a
/// `PosterPicker` each, the other targets' straight to the handler, and the chosen frames are
/// handed over once the decoder is done. When every target keeps a poster and every picker has
/// settled, the decoder is stopped (by a private error thrown from its frame handler, which no
/// decoder catches), so the frames after are never decoded.
enum PosterPass {
    /// Thrown from the frame handler to stop the decoder once every poster is chosen.
    private struct Settled: Error {
        /// The info handed over with the last frame decoded.
        let info: ImageInfo
    }

    static func decode(
        _ input: SourceInput, decoder: any ImageDecoding.Type, targets: [DecodingOptions], onFrame: TargetFrameHandler
    ) throws -> ImageInfo {
        let pickers = targets.map { $0.picksPoster ? PosterPicker() : nil }
        let stopsEarly = pickers.allSatisfy { $0 != nil }
        var info: ImageInfo
        do {
            info = try decoder.decode(input, for: targets) { target, frame, frameInfo in
                guard let picker = pickers[target] else { return try onFrame(target, frame, frameInfo) }
                picker.consider(frame, info: frameInfo)
                if stopsEarly && pickers.allSatisfy({ $0?.isSettled == true }) { throw Settled(info: frameInfo) }
            }
        } catch let settled as Settled {
            info = settled.info
        }
        for (target, picker) in pickers.enumerated() {
            guard let (frame, frameInfo) = picker?.chosen else { continue }
            try onFrame(target, frame, frameInfo)
            if targets.count == 1 { info.poster = frameInfo.poster }
        }
        return info
    }
}
