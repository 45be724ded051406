import Foundation

extension DataLoader {
    /// Reads a `file://` URL under the byte limit: a file over it is refused from its size, and
    /// one that grows past it while being read is cut off.
    func readFile(_ url: URL) throws -> DataResponse {
        guard url.host == nil || url.host == "" || url.host == "localhost" else {
            throw ImgCacheError.invalidURL(url.absoluteString)
        }
        let path = url.path
        let limit = configuration.maxBytes
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw ImgCacheError.io(path: path, detail: "cannot open: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        do {
            let size = try handle.seekToEnd()
            if size > UInt64(limit) { throw ImgCacheError.tooLarge(bytes: Int(clamping: size), limit: limit) }
            try handle.seek(toOffset: 0)
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit { throw ImgCacheError.tooLarge(bytes: data.count, limit: limit) }
            return DataResponse(
                url: url, statusCode: 200, data: data,
                freshness: HTTPFreshness(expires: Date().addingTimeInterval(configuration.defaultTTL)))
        } catch let error as ImgCacheError {
            throw error
        } catch {
            throw ImgCacheError.io(path: path, detail: error.localizedDescription)
        }
    }
}
