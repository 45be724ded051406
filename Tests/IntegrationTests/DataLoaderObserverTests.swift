import Foundation
import ImgCache
import Synchronization
import XCTest

/// What `DataRequest.observer` is told, against the requests Debian's nginx logs and the fault
/// server counts. nginx must be installed: these tests fail, not skip, without it.
final class DataLoaderObserverTests: XCTestCase {
    var nginx: NginxServer!

    override func setUp() async throws {
        nginx = try NginxServer()
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
    }

    /// The events of one load, as the loader's threads report them.
    private final class Recorder: Sendable {
        private let recorded = Mutex<[DataLoadEvent]>([])
        var events: [DataLoadEvent] { recorded.withLock { $0 } }
        var observer: @Sendable (DataLoadEvent) -> Void { { event in self.recorded.withLock { $0.append(event) } } }

        var attempts: [Int] {
            events.compactMap { if case .attemptStarted(let number) = $0 { number } else { nil } }
        }
        var progress: [(received: Int64, expected: Int64?)] {
            events.compactMap { if case .progress(let received, let expected) = $0 { (received, expected) } else { nil } }
        }
    }

    func testEveryAttemptOfARetriedLoadIsOneLineInTheAccessLog() async throws {
        var configuration = DataLoader.Configuration()
        configuration.retryPolicy = RetryPolicy(maxAttempts: 4)
        let waits = Mutex<[Duration]>([])
        // Back-offs are recorded, not waited for.
        let loader = DataLoader(configuration: configuration, sleep: { delay in waits.withLock { $0.append(delay) } })
        let recorder = Recorder()
        let url = nginx.url("/unavailable.jpg")
        do {
            _ = try await loader.load(DataRequest(url: url, observer: recorder.observer))
            XCTFail("a 503 loaded")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .httpStatus(code: 503, url: url.absoluteString))
        }
        XCTAssertEqual(recorder.events, (1...4).map { .attemptStarted(number: $0) }, "an error status has no progress")
        let log = try nginx.accessLog(count: 4)
        XCTAssertEqual(log.map(\.status), [503, 503, 503, 503])
        XCTAssertEqual(recorder.attempts.count, log.count)
        XCTAssertEqual(waits.withLock { $0.count }, 3)
    }

    func testProgressReachesTheBodySizeWithTheExpectedSizeFromContentLength() async throws {
        // Larger than the loader keeps in memory (1 MiB): the rest of the body goes to a file.
        let body = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try body.write(to: nginx.root.appendingPathComponent("large.jpg"))
        let recorder = Recorder()
        let response = try await DataLoader().load(DataRequest(url: nginx.url("/large.jpg"), observer: recorder.observer))
        XCTAssertEqual(response.data, body)
        XCTAssertEqual(recorder.events.first, .attemptStarted(number: 1))
        XCTAssertEqual(recorder.attempts, [1])
        let progress = recorder.progress
        XCTAssertGreaterThan(progress.count, 1, "2,000,000 bytes come in several pieces")
        XCTAssertEqual(progress.last?.received, 2_000_000)
        XCTAssertEqual(progress.map(\.received), progress.map(\.received).sorted(), "never backwards")
        XCTAssertEqual(Set(progress.map(\.received)).count, progress.count, "each event brings bytes")
        XCTAssertEqual(Set(progress.map(\.expected)), [2_000_000])
        XCTAssertEqual(recorder.events.count, 1 + progress.count)
        XCTAssertEqual(try nginx.accessLog(count: 1).map(\.bodyBytes), [2_000_000])
    }

    func testARedirectIsReportedAsARequestOfItsOwn() async throws {
        let other = try NginxServer()
        defer { other.stop() }
        let image = try TestImage.jpeg()
        try image.write(to: other.root.appendingPathComponent("photo.jpg"))
        let recorder = Recorder()
        _ = try await DataLoader().load(DataRequest(
            url: nginx.url("/redirect/127.0.0.1:\(other.port)/photo.jpg"), observer: recorder.observer))
        XCTAssertEqual(Array(recorder.events.prefix(2)), [.attemptStarted(number: 1), .redirected(to: other.url("/photo.jpg"))])
        XCTAssertEqual(recorder.progress.last?.received, Int64(image.count))
        XCTAssertEqual(recorder.progress.last?.expected, Int64(image.count))
        let lines = try nginx.accessLog(count: 1).count + other.accessLog(count: 1).count
        XCTAssertEqual(lines, 2, "one attempt and one redirect: two requests")
    }

    func testAFlakyServerSeesOneRequestPerAttemptAndOnlyTheLastBringsProgress() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let loader = DataLoader(sleep: { _ in })
        let recorder = Recorder()
        let response = try await loader.load(DataRequest(url: server.url("/flaky"), observer: recorder.observer))
        XCTAssertEqual(response.attempts, 3)
        XCTAssertEqual(recorder.attempts, [1, 2, 3])
        let count = try await server.count("/flaky")
        XCTAssertEqual(count, 3)
        let size = Int64(server.image.count)
        XCTAssertEqual(recorder.events.prefix(3), [.attemptStarted(number: 1), .attemptStarted(number: 2), .attemptStarted(number: 3)],
                       "the 500s bring no progress")
        XCTAssertEqual(recorder.progress.last?.received, size)
        XCTAssertEqual(Set(recorder.progress.map(\.expected)), [size])
    }

    func testAnEncodedBodyHasNoExpectedSizeAndCountsDecodedBytes() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let recorder = Recorder()
        let response = try await DataLoader().load(DataRequest(url: server.url("/gzip"), observer: recorder.observer))
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(recorder.progress.last?.received, Int64(server.image.count))
        XCTAssertEqual(Set(recorder.progress.map(\.expected)), [nil])
    }

    func testANotModifiedAnswerBringsNoProgress() async throws {
        try TestImage.jpeg().write(to: nginx.root.appendingPathComponent("photo.jpg"))
        let loader = DataLoader()
        let first = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        let recorder = Recorder()
        let second = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), validators: first.validators, observer: recorder.observer))
        XCTAssertTrue(second.isNotModified)
        XCTAssertEqual(recorder.events, [.attemptStarted(number: 1)])
    }

    func testAFileReportsOneProgressEventWithItsSize() async throws {
        let file = nginx.root.appendingPathComponent("local.jpg")
        let image = try TestImage.jpeg()
        try image.write(to: file)
        var configuration = DataLoader.Configuration()
        configuration.allowsFileURLs = true
        let recorder = Recorder()
        _ = try await DataLoader(configuration: configuration).load(DataRequest(url: file, observer: recorder.observer))
        XCTAssertEqual(recorder.events, [.progress(receivedBytes: Int64(image.count), expectedBytes: Int64(image.count))])
    }
}
