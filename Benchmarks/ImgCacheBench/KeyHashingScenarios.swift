import ImgCache

// Cache-key hashing: the MD5 file names every disk-cache lookup computes. One run is 1,000 keys, so
// the table's milliseconds read as microseconds per key. The keys are distinct and made once.
extension Scenario {
    static let hashing: [Scenario] = [
        Scenario(name: "key-md5-original-x1000", input: "") { _ in
            for key in originalKeys { _ = CacheKey.hashedName(for: key) }
        },
        Scenario(name: "key-filename-original-x1000", input: "") { _ in
            for key in originalKeys { _ = CacheKey.fileName(forOriginal: key) }
        },
        Scenario(name: "key-filename-variant-x1000", input: "") { _ in
            for key in variantKeys { _ = CacheKey.fileName(forVariant: key, format: .png) }
        },
    ]

    /// 1,000 image URLs of a typical length (about 70 bytes), with a query on every other one.
    private static let originalKeys: [String] = (0..<1000).map { index in
        "https://images.example.com/feed/2026/11/\(index % 37)/photo-\(index).jpg" + (index % 2 == 0 ? "?w=1200&q=80" : "")
    }

    /// The same URLs as variant keys, in the form the pipeline makes them (about 160 bytes).
    private static let variantKeys: [String] = originalKeys.map {
        $0 + "#imgcache-variant:v1;size=1032x486;mode=crop;upscale=0;frames=50;budget=15728640;format=auto"
    }
}
