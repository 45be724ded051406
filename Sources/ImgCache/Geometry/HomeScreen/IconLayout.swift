/// The icon layout of an iOS 18 home screen, which moves the widget grid: small icons with their
/// labels (the default, and the only layout before iOS 18), or large icons without labels.
public enum IconLayout: String, Sendable, CaseIterable {
    /// Small icons with labels (`text` in the measured tables).
    case small
    /// iOS 18's large icons without labels (`notext` in the measured tables).
    case large
}
