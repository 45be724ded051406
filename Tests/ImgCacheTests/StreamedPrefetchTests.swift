import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import ImgCache

final class StreamedPrefetchTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-stream-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func url(_ index: Int) -> URL { URL(string: "https://example.test/\(index).png")! }

    /// A loader serving a 16x16 PNG at every `url(_:)` of `indices`.
    private func loader(serving indices: Range<Int>, except missing: Int) throws -> CountingLoader {
        let loader = CountingLoader()
        let png = try PNGEncoder.encode(TestImages.scene(width: 16, height: 16, seed: 3))
        for index in indices where index != missing { loader.serve(url(index), .init(data: png)) }
        return loader
    }

    func testAStreamNeverRunsMoreThanTheWindowAheadOfItsReader() async throws {
        let count = 300, window = 3
        let pipeline = try loader(serving: 0..<count, except: 17).pipeline(root: root)
        let groups = CountedGroups((0..<count).map { [ImageRequest(url: url($0), target: .pixels(PixelSize(width: 8, height: 8)))] })
        var read = 0, failed: [Int] = [], mostAhead = 0
        for try await item in pipeline.prefetch(stream: groups, window: window) {
            read += 1
            // Every group is one request: a group's place is free once its result is read, and the
            // prefetch takes one more group before it waits for a free place.
            mostAhead = max(mostAhead, groups.pulled - read)
            XCTAssertLessThanOrEqual(groups.pulled, read + window + 1)
            XCTAssertEqual(item.request.url, url(item.index))
            switch item.result {
            case .success(let prepared): XCTAssertEqual(prepared.summary.pixelSize, PixelSize(width: 8, height: 8))
            case .failure(let error):
                XCTAssertEqual(error as? ImgCacheError, .httpStatus(code: 404, url: url(17).absoluteString))
                failed.append(item.index)
            }
        }
        XCTAssertEqual(read, count)
        XCTAssertEqual(failed, [17])
        XCTAssertGreaterThan(mostAhead, 0, "the window let several groups run at once")
    }

    func testAReaderThatStopsEndsTheWorkSoShutdownReturns() async throws {
        let count = 50, window = 2
        let pipeline = try loader(serving: 0..<count, except: -1).pipeline(root: root)
        let groups = CountedGroups((0..<count).map { [ImageRequest(url: url($0), target: .pixels(PixelSize(width: 8, height: 8)))] })
        var read = 0
        for try await _ in pipeline.prefetch(stream: groups, window: window) {
            read += 1
            if read == 2 { break }
        }
        // Shutdown waits for the prefetch's call to end: it ends once nothing can free a place.
        await pipeline.shutdown()
        XCTAssertLessThanOrEqual(groups.pulled, read + window + 1)
    }

    func testResultsComeOutBeforeTheStreamEnds() async throws {
        let pipeline = try loader(serving: 0..<3, except: -1).pipeline(root: root)
        let (groups, input) = AsyncStream<[ImageRequest]>.makeStream()
        var results = pipeline.prefetch(stream: groups).makeAsyncIterator()
        for index in 0..<3 {
            // The next group is given only once the one before it has come out.
            input.yield([ImageRequest(url: url(index), target: .pixels(PixelSize(width: 8, height: 8))), ImageRequest(url: url(index), target: .pixels(PixelSize(width: 4, height: 4)))])
            let first = try await results.next(), second = try await results.next()
            XCTAssertEqual(Set([first?.index, second?.index]), [2 * index, 2 * index + 1])
            XCTAssertNotNil(try first?.result.get())
            XCTAssertNotNil(try second?.result.get())
        }
        input.finish()
        let end = try await results.next()
        XCTAssertNil(end)
    }

    func testAStreamThatThrowsEndsWithItsErrorAfterTheGroupsStarted() async throws {
        let pipeline = try loader(serving: 0..<2, except: -1).pipeline(root: root)
        let (groups, input) = AsyncThrowingStream<[ImageRequest], any Error>.makeStream()
        input.yield([ImageRequest(url: url(0), target: .pixels(PixelSize(width: 8, height: 8)))])
        input.yield([ImageRequest(url: url(1), target: .pixels(PixelSize(width: 8, height: 8)))])
        input.finish(throwing: ImgCacheError.io(path: "list", detail: "gone"))
        var indices: [Int] = []
        do {
            for try await item in pipeline.prefetch(stream: groups) {
                _ = try item.result.get()
                indices.append(item.index)
            }
            XCTFail("expected the stream's error")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .io(path: "list", detail: "gone"))
        }
        XCTAssertEqual(indices.sorted(), [0, 1])
    }
}

/// Groups handed out one at a time, counting how many have been taken.
private final class CountedGroups: AsyncSequence, Sendable {
    typealias Element = [ImageRequest]

    private let groups: [[ImageRequest]]
    private let taken = Mutex(0)

    init(_ groups: [[ImageRequest]]) { self.groups = groups }

    /// The groups taken so far.
    var pulled: Int { taken.withLock { $0 } }

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: CountedGroups

        func next() async -> [ImageRequest]? {
            source.taken.withLock { taken in
                guard taken < source.groups.count else { return nil }
                defer { taken += 1 }
                return source.groups[taken]
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}
