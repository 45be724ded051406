/// The seven standard text sizes (`UIContentSizeCategory`, extraSmall to extraExtraExtraLarge),
/// named as the CLI takes them (`--text-size xl`). An iOS 10 Today widget's compact height follows
/// them.
public enum TodayTextSize: String, Sendable, CaseIterable {
    /// Extra small (`extraSmall`).
    case xs
    /// Small (`small`).
    case s
    /// Medium (`medium`).
    case m
    /// Large (`large`): the default text size.
    case l
    /// Extra large (`extraLarge`).
    case xl
    /// Extra extra large (`extraExtraLarge`).
    case xxl
    /// Extra extra extra large (`extraExtraExtraLarge`).
    case xxxl

    /// The compact Today widget's height in points: 95, 100, 105, 110, 120, 135 and 140 pt from
    /// `xs` to `xxxl`.
    /// - 110 pt (`l`, the default text size): "The default for most devices is a height of 110 in
    ///   compact mode" (PSPDFKit blog "Today widget", 2017, steipete/steipete.me @e2e72fd55085),
    ///   StackOverflow 39203189 and matejkriz/react-native-today-widget README @0de4f7d2f3ce.
    /// - 95 pt (`xs`) and 140 pt (`xxxl`): the same PSPDFKit post (a single source).
    /// - 100, 105, 120 and 135 pt: as stated in the project's requirements ("the 7 standard text
    ///   sizes, 95, 100, 105, 110, 120, 135 and 140 pt").
    public var compactHeight: Double {
        switch self {
        case .xs: return 95
        case .s: return 100
        case .m: return 105
        case .l: return 110
        case .xl: return 120
        case .xxl: return 135
        case .xxxl: return 140
        }
    }

    /// Where `compactHeight` comes from.
    public var compactHeightSource: String {
        switch self {
        case .l: return "PSPDFKit blog 'Today widget' (2017), StackOverflow 39203189, react-native-today-widget README"
        case .xs, .xxxl: return "PSPDFKit blog 'Today widget' (2017)"
        case .s, .m, .xl, .xxl: return "imgcache product requirements (no public source)"
        }
    }
}
