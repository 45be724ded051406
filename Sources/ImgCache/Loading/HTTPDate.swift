import Foundation

/// HTTP-dates (RFC 9110 section 5.6.7), read in all three formats a server may send. Parsed by
/// hand: no `DateFormatter`, so no locale or time zone can change the result.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let shortDays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    private static let longDays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Reads `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 1123), `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850)
    /// or `Sun Nov  6 08:49:37 1994` (asctime). Names are matched without regard to case and "UTC" is
    /// accepted for "GMT"; the weekday must be a weekday name but is not checked against the date.
    /// An RFC 850 two-digit year more than 50 years after `now` is taken as the century before.
    /// Returns nil for anything else, including impossible dates such as 31 February.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let fields = text.lowercased().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if fields.count == 6, fields[0].hasSuffix(","), shortDays.contains(String(fields[0].dropLast())) {
            // RFC 1123: wkday, DD Mon YYYY HH:MM:SS GMT
            guard fields[3].count == 4, let year = Int(fields[3]) else { return nil }
            return date(year: year, month: fields[2], day: fields[1], time: fields[4], zone: fields[5])
        }
        if fields.count == 4, fields[0].hasSuffix(","), longDays.contains(String(fields[0].dropLast())) {
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[2].count == 2, let shortYear = Int(parts[2]) else { return nil }
            return date(year: fullYear(shortYear, now: now), month: parts[1], day: parts[0], time: fields[2], zone: fields[3])
        }
        if fields.count == 5, shortDays.contains(fields[0]) {
            // asctime: wkday Mon D HH:MM:SS YYYY (the day padded with a space, or with a zero)
            guard fields[4].count == 4, let year = Int(fields[4]) else { return nil }
            return date(year: year, month: fields[1], day: fields[2], time: fields[3], zone: "gmt")
        }
        return nil
    }

    private static func date(year: Int, month: String, day: String, time: String, zone: String) -> Date? {
        guard zone == "gmt" || zone == "utc",
              let monthIndex = months.firstIndex(of: month),
              (1...2).contains(day.count), let day = Int(day), year >= 1,
              day >= 1, day <= daysIn(month: monthIndex + 1, year: year)
        else { return nil }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = self.days(year: year, month: monthIndex + 1, day: day)
        // A leap second (:60) is read as the last second of its minute.
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func fullYear(_ shortYear: Int, now: Date) -> Int {
        let currentYear = civil(fromDays: Int((now.timeIntervalSince1970 / 86_400).rounded(.down))).year
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `days(year:month:day:)` (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
