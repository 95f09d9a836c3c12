import MarsTime
import Testing

@Suite struct InstantTests {
    @Test("ISO 8601 instants with a zone parse", arguments: [
        ("2038-11-02T14:17:00Z", "2038-11-02T14:17:00Z"),
        ("2038-11-02T14:17Z", "2038-11-02T14:17:00Z"),
        ("2038-11-02 14:17:00Z", "2038-11-02T14:17:00Z"),
        ("2038-11-02T16:17:00+02:00", "2038-11-02T14:17:00Z"),
        ("2038-11-02T09:17:00-0500", "2038-11-02T14:17:00Z"),
        ("2038-11-02T14:17:00.250Z", "2038-11-02T14:17:00.250Z"),
        ("2038-11-02T14:17:00.1234567Z", "2038-11-02T14:17:00.123Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("2036-02-29T00:00:00Z", "2036-02-29T00:00:00Z"),
    ])
    func parses(_ input: String, _ expected: String) throws {
        let instant = try #require(Instant(iso8601: input))
        #expect(instant.iso8601 == expected)
    }

    @Test("invalid or zoneless instants are rejected", arguments: [
        "", "2038-11-02", "2038-11-02T14:17:00", "2035-02-30T00:00:00Z", "2035-13-01T00:00:00Z",
        "2038-11-02T24:00:00Z", "2038-11-02T14:60:00Z", "2038-11-02T14:17:00+25:00", "2038-11-02T14:17:00Zjunk",
        "38-11-02T14:17:00Z", "2038-11-02T14:17:00.Z", "tomorrow",
    ])
    func rejects(_ input: String) {
        #expect(Instant(iso8601: input) == nil)
    }

    @Test("LMST clock times parse and format")
    func clockTimes() throws {
        #expect(try #require(MarsClockTime(parsing: "14:02")).description == "14:02:00")
        #expect(try #require(MarsClockTime(parsing: "00:00:59")).hourMinute == "00:00")
        #expect(MarsClockTime(parsing: "24:00") == nil)
        #expect(MarsClockTime(parsing: "9:30") == nil)
        #expect(MarsClockTime(parsing: "12:30pm") == nil)
        #expect(MarsClockTime(secondsOfSol: 86_399.7).description == "23:59:59")
    }

    @Test("a clock time with one-digit parts is padded to what it likely means, when that is a time", arguments: [
        ("9:30", "09:30"), ("09:3", "09:03"), ("7:5:9", "07:05:09"), ("23:59:9", "23:59:09"),
    ] as [(String, String?)] + [("09:30", nil), ("9:70", nil), ("24:1", nil), ("9:30pm", nil), ("9", nil), (":30", nil),
                                ("1:2:3:4", nil), ("٩:30", nil)])
    func paddedClockTimes(_ text: String, _ padded: String?) {
        #expect(MarsClockTime.padded(text) == padded)
    }

    @Test("a time on the 12-hour clock is written on the 24-hour one", arguments: [
        ("7:30 pm", "19:30"), ("7:30PM", "19:30"), ("7pm", "19:00"), ("12:05 a.m.", "00:05"), ("12:00 pm", "12:00"),
        ("11:59:09 p.m.", "23:59:09"), ("1 am", "01:00"),
    ] as [(String, String?)] + [("13:00 pm", nil), ("0:30 am", nil), ("7:30", nil), ("7:70 pm", nil), ("pm", nil), ("seven pm", nil)])
    func twelveHourClock(_ text: String, _ clock: String?) {
        #expect(MarsClockTime.twentyFourHour(text) == clock)
    }

    @Test("every second of a sol formats as HH:MM:SS and HH:MM, rounded to the nearest second")
    func clockTimeEverySecond() {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        for second in 0..<86_400 {
            let (hour, minute) = (second / 3600, second / 60 % 60)
            let expected = "\(two(hour)):\(two(minute)):\(two(second % 60))"
            // Just under the second rounds up to it; just over rounds down to it.
            for time in [Double(second), Double(second) + 0.4, Double(second) - 0.4].map(MarsClockTime.init(secondsOfSol:))
            where time.secondsOfSol < 86_399.5 {
                guard time.description == expected, time.hourMinute == "\(two(hour)):\(two(minute))" else {
                    Issue.record("\(time.secondsOfSol) s formats as \(time.description), \(time.hourMinute); expected \(expected)")
                    return
                }
            }
        }
    }
}
