extension MemoryCache where Value == DecodedImage {
    /// Keeps `image` at the cost of its frames' bytes (`DecodedImage.byteCount`).
    @discardableResult
    public func set(_ image: DecodedImage, for key: Key) -> Bool {
        set(image, for: key, cost: image.byteCount)
    }
}
