import Foundation
import ImgCache
import TestSupport
import XCTest

/// Bodies over `maxBodyBytesInMemory` go to a file in `spillFolder` as they arrive: the response
/// reads the same, the file goes with the response or the failure, and a pipeline moves it into
/// its cache instead of copying it.
final class DataLoaderSpillTests: FaultServerTestCase {
    private var folder: URL!

    override func setUp() async throws {
        try await super.setUp()
        folder = try ServerProcess.temporaryFolder("imgcache-spill")
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
        try await super.tearDown()
    }

    private func spilled(at limit: Int) -> DataLoader {
        loader {
            $0.maxBodyBytesInMemory = limit
            $0.spillFolder = self.folder
        }
    }

    private func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
    }

    func testABodyOverTheMemoryLimitIsWrittenToAFileThatGoesWithItsResponse() async throws {
        XCTAssertGreaterThan(server.image.count, 100)
        do {
            let (response, _) = try await load("/redirects/0", with: spilled(at: 100))
            XCTAssertEqual(response.data, server.image)
            let names = try files(in: folder)
            XCTAssertEqual(names.count, 1, "the body's file lives as long as its response")
            let file = folder.appendingPathComponent(try XCTUnwrap(names.first))
            XCTAssertEqual(try Data(contentsOf: file), server.image)
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            XCTAssertEqual(permissions, 0o600)
        }
        // Removed when the last reference to the response goes: a finished task may hold it a
        // moment longer than this scope.
        try await waitUntil("the body's file is removed with the response") { try files(in: folder).isEmpty }
        // Under the limit, nothing is written.
        let (small, _) = try await load("/redirects/0", with: spilled(at: server.image.count))
        XCTAssertEqual(small.data, server.image)
        XCTAssertEqual(try files(in: folder), [])
    }

    func testAFailedBodyLeavesNoFile() async throws {
        // Cut short: retried three times, each attempt's file removed.
        let (truncated, _) = await failure("/truncated", with: spilled(at: 100))
        guard case .network? = truncated else { return XCTFail("\(String(describing: truncated))") }
        XCTAssertEqual(try files(in: folder), [])
        // Over the byte limit (1 MiB here) while it arrives.
        let (endless, _) = await failure("/endless", with: spilled(at: 100))
        guard case .tooLarge(_, limit: 1 << 20)? = endless else { return XCTFail("\(String(describing: endless))") }
        XCTAssertEqual(try files(in: folder), [])
    }

    func testAPipelineMovesASpilledOriginalIntoItsCacheAndComparesItFileToFile() async throws {
        let root = try ServerProcess.temporaryFolder("imgcache-spill-cache")
        defer { try? FileManager.default.removeItem(at: root) }
        var disk = DiskCache.Configuration(root: root)
        disk.syncWrites = false
        var loading = Self.configuration
        loading.maxBodyBytesInMemory = 100
        let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(loading: loading, diskCache: disk))
        // no-cache: every fetch downloads again, and the bytes say whether they changed.
        let url = server.url("/nocache")
        let first = try await pipeline.data(for: url)
        XCTAssertEqual(first.data, server.image)
        XCTAssertTrue(first.changed)
        let second = try await pipeline.data(for: url)
        XCTAssertEqual(second.data, server.image)
        XCTAssertFalse(second.changed, "the same bytes, compared file to file")
        let stored = try XCTUnwrap(pipeline.diskCache.entry(for: url.absoluteString))
        XCTAssertEqual(try Data(contentsOf: stored.fileURL), server.image)
        XCTAssertEqual(try files(in: root.appendingPathComponent("tmp")), [], "moved, not left behind")
        let response = try await pipeline.image(for: ImageRequest(url: url, target: .pixels(PixelSize(width: 16, height: 16))))
        XCTAssertEqual(response.pixelSize, PixelSize(width: 16, height: 12))
        XCTAssertEqual(try files(in: root.appendingPathComponent("tmp")), [])
    }
}
