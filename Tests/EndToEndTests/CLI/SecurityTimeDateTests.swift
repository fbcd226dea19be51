import Foundation
import KeychainctlCommandLine
import Testing

/// The keychain time format (`cdat`, `mdat` in `security`'s listing) is computed by plain
/// arithmetic so that the front prints it without Foundation; it must agree with Foundation's
/// Gregorian calendar in UTC, which is what keychainctl printed before.
@Suite struct SecurityTimeDateTests {
    static func calendarBytes(_ seconds: Double) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSinceReferenceDate: seconds))
        let text = String(format: "%04d%02d%02d%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                          parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return Array(text.utf8) + [0]
    }

    @Test("timeDateBytes agrees with Foundation's calendar: leap days, year and century ends, before 2001 and 1970, fractions")
    func agreesWithCalendar() {
        var samples: [Double] = [0, -1, 0.5, 59.999, 86_399.75, -978_307_200, -978_307_201.5, 4_107_542_399, 2_147_483_647]
        // 2000-02-29, 2100-03-01, 2024-12-31T23:59:59 and the seconds around them.
        for base in [-26_438_400.0, 3_160_857_600, 757_382_399] {
            samples += [base - 1, base, base + 0.999, base + 1]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            samples.append(Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator))
        }
        for seconds in samples {
            #expect(SecurityFormat.timeDateBytes(referenceSeconds: seconds) == Self.calendarBytes(seconds), "\(seconds)")
        }
    }
}
