import Foundation
import ImgCache
import XCTest

extension DataLoader {
    /// The error that loading `url` throws; a test failure (and nil) when it loads instead.
    func error(loading url: URL, file: StaticString = #filePath, line: UInt = #line) async -> ImgCacheError? {
        do {
            let response = try await load(DataRequest(url: url))
            XCTFail("loaded \(url): \(response.statusCode)", file: file, line: line)
            return nil
        } catch {
            return error as? ImgCacheError
        }
    }
}
