import Foundation
import XCTest

@testable import ImgCache

/// A test case with Debian's nginx (the origin, whose access log counts requests) serving
/// `imageCount` JPEGs as /p0.jpg, /p1.jpg..., and Debian's redis-server, both on 127.0.0.1 and
/// fresh for every test; folders recorded in `folders` are removed after it.
class RedisNginxTestCase: XCTestCase {
    var nginx: NginxServer!
    var redis: RedisServer!
    var folders: [URL] = []

    /// JPEGs nginx serves; each differs from the others.
    var imageCount: Int { 3 }

    override func setUp() async throws {
        nginx = try NginxServer()
        redis = try RedisServer()
        for index in 0..<imageCount {
            try TestImage.jpeg(seed: UInt8(index * 240 / imageCount)).write(to: nginx.root.appendingPathComponent("p\(index).jpg"))
        }
    }

    override func tearDown() async throws {
        nginx?.stop()
        redis?.stop()
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// A new disk cache folder named after `prefix`, removed after the test.
    func temporaryFolder(_ prefix: String) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        folders.append(folder)
        return folder
    }
}
