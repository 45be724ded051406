import Foundation

/// A response body as it arrives: in memory up to `memoryLimit` bytes, then in a file of its own
/// in `folder`, so that a download in flight holds at most that much memory however large its
/// body is. Used under its transfer's lock; what it wrote is removed unless `finish` hands it on.
final class ResponseBodyBuffer {
    private let memoryLimit: Int
    private let folder: URL
    private var memory = Data()
    private var file: (handle: FileHandle, path: String)?
    /// Bytes received so far.
    private(set) var count = 0

    init(memoryLimit: Int, folder: URL) {
        self.memoryLimit = memoryLimit
        self.folder = folder
    }

    deinit {
        discard()
    }

    /// Adds `chunk`; throws `io` when the file cannot be made or written (a full disk, say).
    func append(_ chunk: Data) throws {
        count += chunk.count
        if file == nil && count <= memoryLimit { return memory.append(chunk) }
        do {
            try (file?.handle ?? startFile()).write(contentsOf: chunk)
        } catch let error as ImgCacheError {
            throw error
        } catch {
            throw ImgCacheError.io(path: file?.path ?? folder.path, detail: "cannot write the body: \(error.localizedDescription)")
        }
    }

    /// Moves what is in memory to a new file and returns its handle. The file is made new (never
    /// an existing file or a symbolic link someone placed there) and readable by this user only.
    private func startFile() throws -> FileHandle {
        let path = folder.appendingPathComponent(ProcessIdentity.temporaryFileName()).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImgCacheError.io(path: path, detail: "cannot create a file for the body: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        file = (handle, path)
        try handle.write(contentsOf: memory)
        memory = Data()
        return handle
    }

    /// The whole body: the bytes in memory, or mapped from the file, which comes with them (and is
    /// removed when the `SpilledBody` goes, unless handed over).
    func finish() throws -> (data: Data, spilled: SpilledBody?) {
        guard let file else { return (memory, nil) }
        self.file = nil
        try? file.handle.close()
        let spilled = SpilledBody(path: file.path, byteCount: count)
        return (try spilled.mappedData(), spilled)
    }

    /// Drops what arrived: the transfer failed.
    func discard() {
        memory = Data()
        guard let file else { return }
        self.file = nil
        try? file.handle.close()
        try? FileManager.default.removeItem(atPath: file.path)
    }
}
