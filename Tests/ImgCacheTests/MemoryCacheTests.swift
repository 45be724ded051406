import Foundation
import XCTest
import ImgCache

final class MemoryCacheTests: XCTestCase {
    func testDefaultsAre64MiBAndAQuarterPerEntry() {
        let cache = MemoryCache<String, Int>()
        XCTAssertEqual(cache.costLimit, 64 * 1024 * 1024)
        XCTAssertEqual(cache.maxEntryShare, 0.25)
    }

    func testEvictsTheLeastRecentlyUsedToStayWithinTheCostLimit() {
        let cache = MemoryCache<String, Int>(costLimit: 100, maxEntryShare: 1)
        cache.set(1, for: "a", cost: 40)
        cache.set(2, for: "b", cost: 40)
        XCTAssertEqual(cache.value(for: "a"), 1)
        cache.set(3, for: "c", cost: 40)
        XCTAssertNil(cache.value(for: "b"))
        XCTAssertEqual(cache.value(for: "a"), 1)
        XCTAssertEqual(cache.value(for: "c"), 3)
        XCTAssertEqual(cache.totalCost, 80)
        XCTAssertEqual(cache.count, 2)
    }

    func testAValueOverItsShareOfTheLimitIsNotKeptAndDropsTheOldOne() {
        let cache = MemoryCache<String, Int>(costLimit: 100, maxEntryShare: 0.25)
        XCTAssertTrue(cache.set(1, for: "a", cost: 25))
        XCTAssertFalse(cache.set(2, for: "a", cost: 26))
        XCTAssertNil(cache.value(for: "a"))
        XCTAssertEqual(cache.totalCost, 0)
    }

    func testReplacingAndRemovingKeepTheTotalCostExact() {
        let cache = MemoryCache<Int, String>(costLimit: 1000, maxEntryShare: 1)
        cache.set("x", for: 1, cost: 100)
        cache.set("y", for: 1, cost: 30)
        cache.set("z", for: 2, cost: 50)
        XCTAssertEqual(cache.totalCost, 80)
        cache.removeValue(for: 1)
        XCTAssertEqual(cache.totalCost, 50)
        XCTAssertEqual(cache.value(for: 2), "z")
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
    }

    func testADecodedImageCostsTheBytesOfItsFrames() throws {
        let frame = ImageFrame(bitmap: try Bitmap(size: PixelSize(width: 10, height: 5), pixels: [UInt8](repeating: 0, count: 200)))
        let image = DecodedImage(info: ImageInfo(format: .gif, sourceSize: PixelSize(width: 10, height: 5)), frames: [frame, frame, frame])
        let cache = MemoryCache<String, DecodedImage>(costLimit: 10_000)
        XCTAssertTrue(cache.set(image, for: "anim"))
        XCTAssertEqual(cache.totalCost, 600)
        XCTAssertEqual(cache.value(for: "anim"), image)
    }

    func testConcurrentUseStaysWithinTheLimitAndConsistent() {
        let cache = MemoryCache<Int, Int>(costLimit: 10_000, maxEntryShare: 0.1)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<20_000 {
                let key = (step * 31 + worker * 7) % 500
                if step % 3 == 0 {
                    cache.set(key, for: key, cost: key % 1200)
                } else if let value = cache.value(for: key) {
                    XCTAssertEqual(value, key)
                }
                if step % 97 == 0 { cache.removeValue(for: key) }
            }
        }
        XCTAssertLessThanOrEqual(cache.totalCost, 10_000)
        var expected = 0
        for key in 0..<500 where cache.value(for: key) != nil { expected += key % 1200 }
        XCTAssertEqual(cache.totalCost, expected)
    }
}
