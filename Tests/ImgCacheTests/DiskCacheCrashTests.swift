import Foundation
import XCTest
@testable import ImgCache

final class DiskCacheCrashTests: XCTestCase {
    /// 30 rounds of two writers (storing, replacing, refreshing, removing and sweeping with synced
    /// writes) killed with SIGKILL at random moments: 60 kills. After each round the raw folder holds
    /// no partial file in data/, and opening the cache leaves it consistent.
    func testWritersKilledAtRandomMomentsNeverLeavePartialFilesOrRowsWithoutFiles() throws {
        let root = try makeRoot()
        var random = SystemRandomNumberGenerator()
        var kills = 0
        var temporaryLeftovers = 0
        var rowsWithoutFiles = 0
        var filesWithoutRows = 0
        for round in 0..<30 {
            let writers = try (0..<2).map { writer in
                try WorkerProcess(["crash", "--root", root.path, "--seed", "\(round * 2 + writer)"])
            }
            for writer in writers { XCTAssertTrue(writer.waitForLine("ready", timeout: 120), "round \(round)") }
            for writer in writers {
                usleep(UInt32.random(in: 1_000...30_000, using: &random))
                writer.kill()
                kills += 1
            }

            // As the kills left it, before anything repairs it.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tmp").path)
            temporaryLeftovers += leftovers.count
            let files = try WorkerProcess(["check-files", "--root", root.path]).finish(timeout: 120)
            XCTAssertEqual(files.status, 0, "round \(round): \(files.errors)")
            let (missing, orphans) = try rawInconsistencies(root)
            rowsWithoutFiles += missing
            filesWithoutRows += orphans

            let cache = try DiskCache(configuration: .init(root: root, sizeLimit: 1 << 20, syncWrites: false))
            let report = try cache.verify()
            XCTAssertTrue(report.isConsistent, "round \(round): \(report)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("tmp").path), [])
            cache.close()
        }
        XCTAssertEqual(kills, 60)
        print("crash test: \(kills) kills left \(temporaryLeftovers) temporary files, \(filesWithoutRows) files without rows"
            + " and \(rowsWithoutFiles) rows without files, all cleaned up on open")

        let check = try WorkerProcess(["check", "--root", root.path]).finish(timeout: 120)
        XCTAssertEqual(check.status, 0, check.errors)
        XCTAssertGreaterThan(check.output.split(separator: "\n").count, 0, "entries survived the kills")
    }

    /// A writer killed while its temporary file is in tmp/ (a 128 MiB store, made before the
    /// writer says "ready", killed as soon as the file shows) leaves that file and no row; the next
    /// open removes it and finds no entry. On a loaded machine the file can reach data/ between
    /// the look and the kill: that attempt must then leave the whole entry or none, and another
    /// attempt is made (at most 10, in fresh folders). The 120 s bounds only end a broken run.
    func testAWriterKilledMidWriteLeavesOnlyATemporaryFileThatTheNextOpenRemoves() throws {
        var finishedFirst = 0
        for attempt in 1...10 {
            let root = try makeRoot()
            _ = try DiskCache(configuration: DiskCache.Configuration(root: root)) // the folders
            let temporary = root.appendingPathComponent("tmp")
            let data = root.appendingPathComponent("data")
            let writer = try WorkerProcess(["big-write", "--root", root.path])
            XCTAssertTrue(writer.waitForLine("ready", timeout: 120))
            let deadline = Date().addingTimeInterval(120)
            while try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty,
                  try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty, Date() < deadline {
                usleep(1_000)
            }
            XCTAssertLessThan(Date(), deadline, "attempt \(attempt): the writer wrote nothing within 120 s")
            writer.kill()
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            let cache = try DiskCache(configuration: DiskCache.Configuration(root: root))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [], "attempt \(attempt)")
            guard leftovers.count == 1 else {
                // The file was moved into data/ before the kill: stored whole, or (killed before its
                // row was committed) nothing, once the open has removed the file without a row.
                XCTAssertEqual(leftovers, [], "attempt \(attempt)")
                let stored = try cache.entry(for: "big")
                XCTAssertTrue([nil, 128 << 20].contains(stored?.byteCount), "attempt \(attempt): \(String(describing: stored))")
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.path).count, stored == nil ? 0 : 1)
                finishedFirst += 1
                cache.close()
                try FileManager.default.removeItem(at: root)
                continue
            }
            XCTAssertNil(try cache.entry(for: "big"), "attempt \(attempt)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.path), [], "attempt \(attempt)")
            return
        }
        XCTFail("no kill landed mid-write in 10 attempts (\(finishedFirst) stores finished first)")
    }

    /// Rows without files and files without rows, read from the index without opening the cache
    /// (which would repair them).
    private func rawInconsistencies(_ root: URL) throws -> (rowsWithoutFiles: Int, filesWithoutRows: Int) {
        let folder = CacheFolder(root: root)
        let index = try CacheIndex(folder: folder, claim: .tagged, lockTimeout: 10)
        defer { index.connection.close() }
        let rows = Set(try index.connection.read("test") { try index.allFiles() }.map(\.file))
        let files = Set(try folder.listData().keys)
        return (rows.subtracting(files).count, files.subtracting(rows).count)
    }
}
