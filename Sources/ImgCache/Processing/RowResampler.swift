import Dispatch
import Foundation

/// Resamples one stream of rows to one or several outputs (`StreamingResampler` each), so that a
/// source decoded once feeds every target. For large inputs on a machine with more than one core it
/// runs on a queue of its own: the decoder copies its rows into chunks and goes on decoding while
/// the previous chunks are resampled (to several outputs at once on every core). Three chunks of
/// `rowsPerChunk` rows at most exist at a time, so working memory stays a few rows whatever the
/// image. Small inputs are resampled inline.
final class RowResampler: @unchecked Sendable {
    /// Inputs with fewer pixels (times outputs) are resampled inline: the hand-over would cost
    /// more than it saves.
    static let concurrentThreshold = 1_000_000
    static let rowsPerChunk = 16

    private var resamplers: [StreamingResampler]
    private let queue: DispatchQueue?
    private let freeChunks = DispatchSemaphore(value: 2)
    /// Three chunks of rows, one after another; the producer fills one while the queue reads another.
    private let chunks: UnsafeMutableRawPointer?
    private static let chunkCount = 3
    private var currentChunk = 0
    private var rowsInChunk = 0
    /// Bytes of a pushed row: 4 for each of `pushedColumns`.
    private var rowBytes: Int
    /// The input columns each pushed row holds: all of them, unless `narrowRows(to:)` said otherwise.
    private(set) var pushedColumns: Range<Int>
    /// Input rows the outputs need (rows after every region are never pushed).
    private let rowsNeeded: Int
    private(set) var inputRowIndex = 0

    /// Prepares one output per geometry (at least one) for an input of `inputSize`;
    /// `inputIsOpaque` promises that every pixel pushed has alpha 255.
    init(inputSize: PixelSize, geometries: [ResizeGeometry], inputIsOpaque: Bool = false) {
        precondition(!geometries.isEmpty, "a resampler needs an output")
        resamplers = geometries.map { StreamingResampler(inputSize: inputSize, geometry: $0, inputIsOpaque: inputIsOpaque) }
        rowBytes = inputSize.width * 4
        pushedColumns = 0..<inputSize.width
        rowsNeeded = resamplers.map(\.inputRowsNeeded).max()!
        let work = inputSize.area * geometries.count
        let concurrent = work >= Self.concurrentThreshold && ProcessInfo.processInfo.activeProcessorCount > 1
        queue = concurrent ? DispatchQueue(label: "imgcache.resampler") : nil
        chunks = concurrent
            ? UnsafeMutableRawPointer.allocate(byteCount: Self.chunkCount * Self.rowsPerChunk * rowBytes, alignment: 16)
            : nil
    }

    convenience init(inputSize: PixelSize, geometry: ResizeGeometry) {
        self.init(inputSize: inputSize, geometries: [geometry])
    }

    /// Runs once every queued chunk is done: each queued block holds on to the resampler.
    deinit {
        chunks?.deallocate()
    }

    private func chunk(_ index: Int) -> UnsafeMutableRawPointer {
        chunks! + index * Self.rowsPerChunk * rowBytes
    }

    /// The input columns the outputs read: rows may leave out the others (`narrowRows(to:)`).
    var columnsNeeded: Range<Int> {
        let ranges = resamplers.map(\.inputColumnsNeeded)
        return (ranges.map(\.lowerBound).min() ?? 0)..<(ranges.map(\.upperBound).max() ?? 0)
    }

    /// From now on (before the first row), pushed rows hold only `columns` of the input, which
    /// contain `columnsNeeded`.
    func narrowRows(to columns: Range<Int>) {
        precondition(inputRowIndex == 0 && columns.clamped(to: pushedColumns) == columns
            && columns.lowerBound <= columnsNeeded.lowerBound && columns.upperBound >= columnsNeeded.upperBound,
            "rows narrowed after the first push, or to columns the outputs need")
        pushedColumns = columns
        rowBytes = columns.count * 4
    }

    /// The first input row the outputs read: the rows above may be skipped (`skipRows(_:)`).
    var firstRowNeeded: Int {
        resamplers.map(\.firstInputRowNeeded).min() ?? 0
    }

    /// Before the first row is pushed: counts the next `count` rows, which lie above
    /// `firstRowNeeded`, as pushed without reading them.
    func skipRows(_ count: Int) {
        precondition(inputRowIndex == 0 && count <= firstRowNeeded, "rows skipped after a push, or rows the outputs read")
        inputRowIndex = count
        for index in resamplers.indices { resamplers[index].skip(rows: count) }
    }

    /// True once every input row the outputs need has been pushed.
    var isComplete: Bool { inputRowIndex >= rowsNeeded }

    /// Pushes the next input row of straight-alpha RGBA8: `pushedColumns` of it, 4 bytes each.
    func push(row: UnsafePointer<UInt8>) {
        guard !isComplete else { return }
        inputRowIndex += 1
        guard queue != nil else {
            push(rows: row, count: 1, spreadOverCores: false)
            return
        }
        (chunk(currentChunk) + rowsInChunk * rowBytes).copyMemory(from: row, byteCount: rowBytes)
        rowsInChunk += 1
        if rowsInChunk == Self.rowsPerChunk || isComplete { handOver() }
    }

    /// The resampled bitmaps, one per geometry in order, once every pushed row is resampled. Rows
    /// never pushed (a truncated image) are handled as `StreamingResampler.finish` does.
    func finish() -> [Bitmap] {
        guard let queue else { return finishAll() }
        if rowsInChunk > 0 { handOver() }
        return queue.sync { finishAll() }
    }

    private func finishAll() -> [Bitmap] {
        (0..<resamplers.count).map { resamplers[$0].finish() }
    }

    /// Pushes `count` consecutive rows to every output; with `spreadOverCores`, several outputs
    /// are fed at once on every core.
    private func push(rows: UnsafePointer<UInt8>, count: Int, spreadOverCores: Bool) {
        let rowBytes = self.rowBytes
        let firstColumn = pushedColumns.lowerBound
        resamplers.withUnsafeMutableBufferPointer { resamplers in
            // Each output is fed by one thread at a time; the rows are only read.
            nonisolated(unsafe) let outputs = resamplers
            nonisolated(unsafe) let rows = rows
            let feed: @Sendable (Int) -> Void = { index in
                for row in 0..<count { outputs[index].push(row: rows + row * rowBytes, firstColumn: firstColumn) }
            }
            if spreadOverCores && outputs.count > 1 {
                DispatchQueue.concurrentPerform(iterations: outputs.count, execute: feed)
            } else {
                for index in outputs.indices { feed(index) }
            }
        }
    }

    /// Gives the filled chunk to the queue and waits until a chunk is free to fill next.
    private func handOver() {
        let index = currentChunk, rows = rowsInChunk
        queue!.async {
            self.push(rows: self.chunk(index).assumingMemoryBound(to: UInt8.self), count: rows, spreadOverCores: true)
            self.freeChunks.signal()
        }
        freeChunks.wait()
        currentChunk = (currentChunk + 1) % Self.chunkCount
        rowsInChunk = 0
    }
}
