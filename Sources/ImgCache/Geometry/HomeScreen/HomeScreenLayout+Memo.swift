import Synchronization

extension HomeScreenLayout {
    /// The arguments of one `resolve` call.
    private struct MemoKey: Hashable {
        let screenshot: PixelSize
        let icons: IconLayout
        let iOS: Int
        let device: String?
    }

    /// Layouts resolved so far.
    private static let memo = Mutex<[MemoKey: HomeScreenLayout]>([:])

    /// Most argument sets `memoised` keeps: 256. When full, the memo starts over.
    public static let memoCapacity = 256

    /// `resolve(screenshot:icons:iOS:device:)`, worked out once for each set of arguments and then
    /// kept (up to `memoCapacity` sets), so that slicing many screenshots of one phone resolves its
    /// layout once. Errors are thrown each time, never kept. Defaults as for `resolve`: small
    /// icons, `defaultIOS(screenshot:)`, no device.
    public static func memoised(
        screenshot: PixelSize, icons: IconLayout = .small, iOS: Int? = nil, device: DeviceModel? = nil
    ) throws -> HomeScreenLayout {
        let iOS = iOS ?? defaultIOS(screenshot: screenshot)
        let key = MemoKey(screenshot: screenshot, icons: icons, iOS: iOS, device: device?.name)
        if let layout = memo.withLock({ $0[key] }) { return layout }
        let layout = try resolve(screenshot: screenshot, icons: icons, iOS: iOS, device: device)
        memo.withLock { memo in
            if memo.count >= memoCapacity { memo.removeAll() }
            memo[key] = layout
        }
        return layout
    }
}
