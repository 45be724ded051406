#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The folders of a disk cache and the file work on them: `<root>/data/` holds finished files,
/// `<root>/tmp/` files being written. Nothing inside the root is followed if it is a symlink, and
/// nothing is removed but what the cache names: in data/, 32 lowercase hex digits and an optional
/// extension (`CacheKey`); in tmp/, `<pid>-<start ticks>-<number>.tmp` (`ProcessIdentity`). A
/// folder is never removed. See `claim()` for how the root is known to be a cache.
struct CacheFolder: Sendable {
    /// What a name in data/ refers to.
    enum FileState: Equatable {
        case missing
        case regular(size: Int)
        /// A symlink, folder or other non-regular item, never read and removed on repair.
        case other
    }

    let root: URL
    let dataPath: String
    let temporaryPath: String
    let indexPath: String

    /// A temporary file older than this is removed on open even if its writer looks alive.
    static let temporaryMaxAge: TimeInterval = 3600

    init(root: URL) {
        self.root = root.standardizedFileURL
        dataPath = self.root.appendingPathComponent("data").path
        temporaryPath = self.root.appendingPathComponent("tmp").path
        indexPath = self.root.appendingPathComponent("index.sqlite").path
    }

    /// Refuses the index files when they are symlinks or other non-files; before the index is opened.
    func checkIndexFiles() throws {
        for path in [indexPath, indexPath + "-wal", indexPath + "-shm"] {
            if let mode = Self.lstatMode(path), mode & S_IFMT != S_IFREG {
                throw ImgCacheError.io(path: path, detail: "refusing a symlink or non-file as the cache index")
            }
        }
    }

    /// Creates data/ and tmp/ as needed with mode 0700 in a root known to be a cache (see
    /// `claim()`), and refuses them when they are symlinks or files.
    func makeDataFolders() throws {
        for path in [dataPath, temporaryPath] {
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Self.ioError(path, "cannot create folder") }
            try Self.requireFolder(path)
        }
    }

    /// Throws `io` unless `path` is a folder itself, not a symlink to one nor a file.
    private static func requireFolder(_ path: String) throws {
        guard lstatMode(path).map({ $0 & S_IFMT == S_IFDIR }) == true else {
            throw ImgCacheError.io(path: path, detail: "refusing a symlink or file where the cache expects a folder")
        }
    }

    func dataFilePath(_ name: String) -> String { dataPath + "/" + name }

    /// Writes `data` to a new file in tmp/ named after this process, flushed to disk when `sync`;
    /// returns its path.
    func writeTemporary(_ data: Data, sync: Bool) throws -> String {
        let path = temporaryPath + "/" + ProcessIdentity.temporaryFileName()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.ioError(path, "cannot create") }
        var failure: ImgCacheError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { failure = Self.ioError(path, "cannot write"); return }
                offset += written
            }
        }
        if failure == nil && sync && fsync(descriptor) != 0 { failure = Self.ioError(path, "cannot flush") }
        if close(descriptor) != 0 && failure == nil { failure = Self.ioError(path, "cannot close") }
        if let failure {
            unlink(path)
            throw failure
        }
        return path
    }

    /// Flushes the temporary file at `path` to disk (it was written by someone else, as a download).
    func syncTemporary(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.ioError(path, "cannot open") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Self.ioError(path, "cannot flush") }
    }

    /// Renames a finished temporary file to data/`name`, replacing what was there.
    func moveIntoPlace(_ temporary: String, name: String) throws {
        guard rename(temporary, dataFilePath(name)) == 0 else {
            let error = Self.ioError(dataFilePath(name), "cannot move into place")
            unlink(temporary)
            throw error
        }
    }

    /// Flushes data/'s directory entries (the renames) to disk.
    func syncData() throws {
        let descriptor = open(dataPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.ioError(dataPath, "cannot open") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Self.ioError(dataPath, "cannot flush") }
    }

    /// Removes data/`name` when it is a name the cache gives (a symlink itself, never what it
    /// points to; never a folder), and data/ is still a folder, not a symlink to another; a
    /// missing name is not an error.
    func removeDataFile(_ name: String) {
        guard Self.isDataFileName(name), (try? Self.requireFolder(dataPath)) != nil else { return }
        unlink(dataFilePath(name))
    }

    /// True for a name the cache gives a file in data/: 32 lowercase hex digits, then nothing or
    /// "." and an extension (see `CacheKey.fileName(for:fileExtension:)`).
    static func isDataFileName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 32 || (bytes.count > 33 && bytes[32] == UInt8(ascii: ".")) else { return false }
        let hex = Array("0123456789abcdef".utf8)
        return bytes.prefix(32).allSatisfy(hex.contains) && !bytes.contains(UInt8(ascii: "/"))
    }

    /// True for a name the cache gives a file in tmp/: `<pid>-<start ticks>-<number>.tmp`.
    static func isTemporaryFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".tmp") else { return false }
        let fields = name.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        return fields.count == 3 && fields.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    func state(ofDataFile name: String) -> FileState {
        var info = stat()
        guard lstat(dataFilePath(name), &info) == 0 else { return .missing }
        return info.st_mode & S_IFMT == S_IFREG ? .regular(size: Int(info.st_size)) : .other
    }

    /// The bytes of data/`name`, or nil when it is missing, not a regular file or not `expectedSize`
    /// bytes long. A file is replaced only by rename, so the bytes read are one complete version.
    func readDataFile(_ name: String, expectedSize: Int) throws -> Data? {
        let path = dataFilePath(name)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw Self.ioError(path, "cannot open")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.ioError(path, "cannot stat") }
        guard info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == expectedSize else { return nil }
        var data = Data(count: expectedSize)
        var failure: ImgCacheError?
        let total = data.withUnsafeMutableBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count < 0 { failure = Self.ioError(path, "cannot read") }
                if count <= 0 { break }
                offset += count
            }
            return offset
        }
        if let failure { throw failure }
        return total == expectedSize ? data : nil
    }

    /// Every item in data/ with a name the cache gives (`isDataFileName`), but folders, and what
    /// it is: anything else there is not the cache's, and is neither reported nor removed.
    /// Throws `io` when data/ has become a symlink or file since the cache opened.
    func listData() throws -> [String: FileState] {
        try Self.requireFolder(dataPath)
        guard let items = Self.list(dataPath) else { throw Self.ioError(dataPath, "cannot list") }
        var states: [String: FileState] = [:]
        for (name, info) in items where Self.isDataFileName(name) && info.st_mode & S_IFMT != S_IFDIR {
            states[name] = info.st_mode & S_IFMT == S_IFREG ? .regular(size: Int(info.st_size)) : .other
        }
        return states
    }

    /// Paths of the cache's temporary files (`isTemporaryFileName`, not folders) in tmp/ that no
    /// live writer owns: their writer process has ended, or they are older than `temporaryMaxAge`.
    func staleTemporaries(now: Date = Date()) -> [String] {
        (Self.list(temporaryPath) ?? []).compactMap { name, info in
            guard Self.isTemporaryFileName(name), info.st_mode & S_IFMT != S_IFDIR else { return nil }
            let path = temporaryPath + "/" + name
            let age = now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec)
            if age > Self.temporaryMaxAge { return path }
            let fields = name.split(separator: "-")
            guard let pid = Int32(fields[0]), let startTicks = Int(fields[1]) else { return nil }
            return ProcessIdentity(pid: pid, startTicks: startTicks).isAlive ? nil : path
        }
    }

    /// Removes a temporary file of the cache's in tmp/ (never a folder).
    func removeTemporary(_ path: String) {
        unlink(path)
    }

    static func makeFolders(_ path: String) throws {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw ioError(current, "cannot create folder") }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ImgCacheError.io(path: path, detail: "not a folder")
        }
    }

    /// Every name in the folder at `path` but `.` and `..`, with what `lstat` says of it (a name
    /// removed meanwhile is left out); nil when the folder cannot be listed (`errno` tells why).
    /// Read with readdir, which an open pays for in every process: FileManager takes some 0.2 ms
    /// more to list an empty tmp/.
    static func list(_ path: String) -> [(name: String, info: stat)]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var items: [(name: String, info: stat)] = []
        while let item = readdir(directory) {
            let name = withUnsafePointer(to: &item.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) != 0 { continue }
            items.append((name, info))
        }
        return items
    }

    static func lstatMode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    static func ioError(_ path: String, _ action: String) -> ImgCacheError {
        .io(path: path, detail: "\(action): \(String(cString: strerror(errno)))")
    }
}
