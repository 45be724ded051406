/// Where an iOS 10 Today widget is opened, which bounds its expanded height: the Today view (swipe
/// right on the home or lock screen) or Notification Center (swipe down), named as the CLI takes
/// them (`--entry notification-center`).
public enum TodayEntry: String, Sendable, CaseIterable {
    /// The Today view, a swipe right on the home or lock screen.
    case todayView = "today-view"
    /// Notification Center, a swipe down from the top of the screen.
    case notificationCenter = "notification-center"
}
