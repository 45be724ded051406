import Dispatch
import Foundation
import ImgCache

/// Encodes GIF frames on a queue of their own while the decoder goes on with the next frames, so
/// quantizing and compressing use the second core. At most two frames wait at a time, which keeps
/// memory bounded; a failure is reported by the next `add` or by `finish`.
final class BackgroundGIFEncoder: @unchecked Sendable {
    private let encoder: GIFEncoder
    private let queue = DispatchQueue(label: "imgcache.gif-encoder")
    private let slots = DispatchSemaphore(value: 2)
    // Written on `queue` only; read after the queue has drained.
    private var failure: (any Error)?

    init(size: PixelSize, loopCount: Int?) throws {
        encoder = try GIFEncoder(size: size, loopCount: loopCount)
    }

    /// Queues `frame` for encoding; waits while two frames are already waiting.
    func add(_ frame: ImageFrame) throws {
        if let failure = queue.sync(execute: { failure }) { throw failure }
        slots.wait()
        queue.async {
            defer { self.slots.signal() }
            guard self.failure == nil else { return }
            do { try self.encoder.add(frame) } catch { self.failure = error }
        }
    }

    /// Waits for the queued frames and returns the GIF.
    func finish() throws -> Data {
        try queue.sync {
            if let failure { throw failure }
            return try encoder.finish()
        }
    }
}
