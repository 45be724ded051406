import Dispatch
import Foundation

/// A `StreamingResampler` that, for large inputs on a machine with more than one core, runs on a
/// queue of its own: the decoder copies its rows into chunks and goes on decoding while the
/// previous chunks are resampled. Three chunks of `rowsPerChunk` rows at most exist at a time, so
/// working memory stays a few rows whatever the image. Small inputs are resampled inline.
final class RowResampler: @unchecked Sendable {
    /// Inputs with fewer pixels are resampled inline: the hand-over would cost more than it saves.
    static let concurrentThreshold = 1_000_000
    static let rowsPerChunk = 16

    private var resampler: StreamingResampler
    private let queue: DispatchQueue?
    private let freeChunks = DispatchSemaphore(value: 2)
    /// Three chunks of rows, one after another; the producer fills one while the queue reads another.
    private let chunks: UnsafeMutableRawPointer?
    private static let chunkCount = 3
    private var currentChunk = 0
    private var rowsInChunk = 0
    private let rowBytes: Int
    /// Input rows the output needs (rows after the region are never pushed).
    private let rowsNeeded: Int
    private(set) var inputRowIndex = 0

    init(inputSize: PixelSize, geometry: ResizeGeometry) {
        resampler = StreamingResampler(inputSize: inputSize, geometry: geometry)
        rowBytes = inputSize.width * 4
        rowsNeeded = resampler.inputRowsNeeded
        let concurrent = inputSize.area >= Self.concurrentThreshold && ProcessInfo.processInfo.activeProcessorCount > 1
        queue = concurrent ? DispatchQueue(label: "imgcache.resampler") : nil
        chunks = concurrent
            ? UnsafeMutableRawPointer.allocate(byteCount: Self.chunkCount * Self.rowsPerChunk * rowBytes, alignment: 16)
            : nil
    }

    /// Runs once every queued chunk is done: each queued block holds on to the resampler.
    deinit {
        chunks?.deallocate()
    }

    private func chunk(_ index: Int) -> UnsafeMutableRawPointer {
        chunks! + index * Self.rowsPerChunk * rowBytes
    }

    /// True once every input row the output needs has been pushed.
    var isComplete: Bool { inputRowIndex >= rowsNeeded }

    /// Pushes the next input row (`inputSize.width x 4` bytes of straight-alpha RGBA8).
    func push(row: UnsafePointer<UInt8>) {
        guard !isComplete else { return }
        inputRowIndex += 1
        guard queue != nil else {
            resampler.push(row: row)
            return
        }
        (chunk(currentChunk) + rowsInChunk * rowBytes).copyMemory(from: row, byteCount: rowBytes)
        rowsInChunk += 1
        if rowsInChunk == Self.rowsPerChunk || isComplete { handOver() }
    }

    /// The resampled bitmap, once every pushed row is resampled. Rows never pushed (a truncated
    /// image) are handled as `StreamingResampler.finish` does.
    func finish() -> Bitmap {
        guard let queue else { return resampler.finish() }
        if rowsInChunk > 0 { handOver() }
        return queue.sync { resampler.finish() }
    }

    /// Gives the filled chunk to the queue and waits until a chunk is free to fill next.
    private func handOver() {
        let index = currentChunk, rows = rowsInChunk
        queue!.async {
            let base = self.chunk(index).assumingMemoryBound(to: UInt8.self)
            for row in 0..<rows { self.resampler.push(row: base + row * self.rowBytes) }
            self.freeChunks.signal()
        }
        freeChunks.wait()
        currentChunk = (currentChunk + 1) % Self.chunkCount
        rowsInChunk = 0
    }
}
