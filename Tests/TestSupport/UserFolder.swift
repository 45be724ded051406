import Foundation

/// Someone's folder that is not an imgcache cache, handed to the cache by mistake: files in data/
/// and tmp/ (some named as the cache names its own, two hours old, as leftovers look), a symlink,
/// a folder and a file at the top. `snapshot` lists it, every file with its bytes, so that a test
/// shows it came out unchanged.
public enum UserFolder {
    /// Names as the cache gives them, which it must still leave alone in a folder not its own.
    public static let cacheLikeDataName = "0123456789abcdef0123456789abcdef.png"
    public static let cacheLikeTemporaryName = "999999999-1-1.tmp"

    /// Writes the user's files into `folder` (made as needed).
    public static func populate(_ folder: URL) throws {
        let manager = FileManager.default
        for sub in ["data", "tmp", "data/archive"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let files = [
            "notes.txt": "the folder's own notes\n",
            "data/report.csv": "month,total\njan,12\nfeb,15\n",
            "data/" + cacheLikeDataName: "not a picture, a user's file with a hex name",
            "data/archive/2024.csv": "month,total\ndec,9\n",
            "tmp/draft.txt": "half a letter",
            "tmp/" + cacheLikeTemporaryName: "a user's file named like a dead writer's",
        ]
        let twoHoursAgo = Date(timeIntervalSinceNow: -7200)
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try Data(text.utf8).write(to: url)
            try manager.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: url.path)
        }
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("data/fedcba9876543210fedcba9876543210.csv").path,
            withDestinationPath: "report.csv")
    }

    /// Every item under `folder` by relative path, symlinks not followed: a file's bytes (base64),
    /// "folder", or a symlink's target.
    public static func snapshot(_ folder: URL) throws -> [String: String] {
        let manager = FileManager.default
        var items: [String: String] = [:]
        for relative in try manager.subpathsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(relative).path
            let type = try manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?: items[relative] = "folder"
            case .typeSymbolicLink?: items[relative] = "symlink to " + (try manager.destinationOfSymbolicLink(atPath: path))
            default: items[relative] = "file " + (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString()
            }
        }
        return items
    }
}
