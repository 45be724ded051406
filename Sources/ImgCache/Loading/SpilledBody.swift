import Foundation
import Synchronization

/// A response body written to a file as it arrived (see `ResponseBodyBuffer`). The file is removed
/// when the last reference goes, unless it was handed over first (moved into a cache).
final class SpilledBody: Sendable, Hashable {
    /// The file, in the loader's spill folder.
    let path: String
    let byteCount: Int
    private let isHandedOver = Atomic<Bool>(false)

    init(path: String, byteCount: Int) {
        self.path = path
        self.byteCount = byteCount
    }

    deinit {
        if !isHandedOver.load(ordering: .relaxed) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The bytes, mapped from the file: pages are read (and count as memory) only when touched,
    /// and the mapping stays valid when the file is moved or removed.
    func mappedData() throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw ImgCacheError.io(path: path, detail: "cannot map the downloaded body: \(error.localizedDescription)")
        }
    }

    /// The file now belongs to someone else (it was moved): it is no longer removed from here.
    func handOver() {
        isHandedOver.store(true, ordering: .relaxed)
    }

    /// Removes the file now rather than when the last reference goes (a task's result can keep a
    /// response alive a while); `Data` already mapped from it stays readable.
    func removeFile() {
        guard !isHandedOver.exchange(true, ordering: .relaxed) else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    static func == (lhs: SpilledBody, rhs: SpilledBody) -> Bool { lhs.path == rhs.path }
    func hash(into hasher: inout Hasher) { hasher.combine(path) }
}
