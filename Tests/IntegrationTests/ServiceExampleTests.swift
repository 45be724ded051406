import Foundation
import TestSupport
import XCTest

/// The service example of docs/library.md (Samples/ServiceExample/main.swift), run against nginx: the
/// code on that page is the file, which the package builds.
final class ServiceExampleTests: XCTestCase {
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheLibraryPageShowsTheExampleAsItIs() throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.repository.appendingPathComponent("Samples/ServiceExample/main.swift"), encoding: .utf8)
        XCTAssertTrue(page.contains("```swift\n" + example + "```\n"), "docs/library.md's service example differs from the file")
    }

    func testTheExamplePreparesAWidgetImageAndASecondInstanceFindsItInTheSharedTier() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-service-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try TestImage.jpeg(width: 1600, height: 1000).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        let signed = nginx.url("/photo.jpg?X-Amz-Date=20261201T120000Z&X-Amz-Signature=aa").absoluteString
        let first = try ProductRunner.run("service-example", [signed, folder.appendingPathComponent("one").path, store.path])
        XCTAssertEqual(first.status, 0, first.errors)
        let lines = first.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "started")
        XCTAssertTrue(lines.contains { $0.hasPrefix("received ") }, first.output)
        XCTAssertTrue(lines.contains("outcome network"), first.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("prepared 1032x486 at ") }, first.output)
        XCTAssertTrue(lines.contains("again from memory"), first.output)
        XCTAssertTrue(lines.contains(#"imgcache_requests_total{outcome="network"} 1"#), first.output)
        XCTAssertTrue(lines.contains("imgcache_origin_requests_total 1"), first.output)
        let log = try nginx.accessLog(count: 1)
        XCTAssertEqual(log.count, 1)
        XCTAssertEqual(log.first?.headers["authorization"], "Bearer example-token")
        XCTAssertEqual(log.first?.headers["x-client"], "feed-service/1")

        // Another instance (its own cache folder), another signature: the variant is in the shared tier.
        let resigned = nginx.url("/photo.jpg?X-Amz-Date=20261201T130000Z&X-Amz-Signature=bb").absoluteString
        let second = try ProductRunner.run("service-example", [resigned, folder.appendingPathComponent("two").path, store.path])
        XCTAssertEqual(second.status, 0, second.errors)
        XCTAssertTrue(second.output.contains("outcome shared\n"), second.output)
        let downloads = try await nginx.settledAccessLog()
        XCTAssertEqual(downloads.count, 1, "no second download")
    }
}
