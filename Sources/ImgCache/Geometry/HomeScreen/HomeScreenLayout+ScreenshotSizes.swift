extension HomeScreenLayout {
    /// Every portrait screenshot size an iPhone is known to make: the sizes of the measured tables
    /// (Display Zoom sizes among them) and the screen of every iPhone in `DeviceCatalog`, in pixels.
    public static let knownScreenshotSizes: Set<PixelSize> = Set(
        HomeScreenTables.all.flatMap { $0.entries.map(\.screenshot) }
            + DeviceCatalog.devices.filter { $0.kind == .iPhone }.map(\.screenPixels))
}
