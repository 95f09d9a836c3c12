import MarsTime
import MarsgenTesting
import Testing

/// The published Mars24 worked examples (shared/MARS-TIME.md).
struct WorkedExample: Sendable, CustomTestStringConvertible {
    let utc: String
    let julianDateTT: Double
    let msd: Double
    let mtc: String
    let ls: Double
    let eastLongitude: Double
    let lmst: String

    var testDescription: String { utc }

    static let all = [
        WorkedExample(utc: "2000-01-06T00:00:00Z", julianDateTT: 2_451_549.500743, msd: 44_795.99976, mtc: "23:59:39",
                      ls: 277.18758, eastLongitude: 0, lmst: "23:59:39"),
        WorkedExample(utc: "2004-01-03T13:46:31Z", julianDateTT: 2_453_008.07471, msd: 46_215.54856, mtc: "13:09:55",
                      ls: 327.32416, eastLongitude: -184.702, lmst: "00:51:07"),
    ]
}

@Suite struct Mars24Tests {
    @Test("worked examples match Mars24", arguments: WorkedExample.all)
    func workedExample(_ example: WorkedExample) throws {
        let instant = try #require(Instant(iso8601: example.utc))
        #expect(abs(Mars24.julianDateTT(at: instant) - example.julianDateTT) < 1e-5)
        #expect(abs(Mars24.marsSolDate(at: instant) - example.msd) < 1e-5)
        #expect(Mars24.coordinatedMarsTime(at: instant).description == example.mtc)
        #expect(abs(Mars24.solarLongitude(at: instant) - example.ls) < 1e-5)
        #expect(Mars24.localMeanSolarTime(at: instant, eastLongitude: example.eastLongitude).description == example.lmst)
    }

    @Test("TT − UTC follows the leap-second table")
    func leapSeconds() throws {
        func offset(_ text: String) throws -> Double {
            Mars24.terrestrialTimeOffset(at: try #require(Instant(iso8601: text)))
        }
        #expect(try offset("1965-01-01T00:00:00Z") == 42.184)
        #expect(try offset("2000-01-06T00:00:00Z") == 64.184)
        #expect(try offset("2012-06-30T23:59:59Z") == 66.184)
        #expect(try offset("2012-07-01T00:00:00Z") == 67.184)
        #expect(try offset("2017-01-01T00:00:00Z") == 69.184)
        #expect(try offset("2040-01-01T00:00:00Z") == 69.184)
    }

    @Test("MSD back to UTC is the inverse of UTC to MSD")
    func inverseMarsSolDate() throws {
        let instant = try #require(Instant(iso8601: "2038-11-02T14:17:00Z"))
        let back = Mars24.instant(marsSolDate: Mars24.marsSolDate(at: instant))
        #expect(abs(back.unixMillis - instant.unixMillis) <= 1)
    }
}

@Suite struct MissionClockTests {
    // Curiosity: landed 2012-08-06T05:17:57Z at 137.4417°E, landing sol 0.
    let curiosity = MissionClock(landing: Instant(unixMillis: 1_344_230_277_000), eastLongitude: 137.4417, firstSol: 0)

    @Test("the landing instant falls on the first sol")
    func landingSol() {
        #expect(curiosity.sol(containing: curiosity.landing) == 0)
        let pathfinderLike = MissionClock(landing: curiosity.landing, eastLongitude: curiosity.eastLongitude, firstSol: 1)
        #expect(pathfinderLike.sol(containing: curiosity.landing) == 1)
    }

    @Test("the dated sols begin and end inside the years 0001–9999")
    func datedSols() {
        let sols = curiosity.datedSols
        #expect(curiosity.start(ofSol: sols.lowerBound).iso8601.hasPrefix("0001-"))
        #expect(curiosity.start(ofSol: sols.upperBound + 1).iso8601.hasPrefix("9999-"))
        #expect(curiosity.sol(containing: curiosity.start(ofSol: sols.upperBound)) == sols.upperBound)
    }

    @Test("a sol begins at local mean midnight and lasts one sol")
    func solBoundaries() {
        let start = curiosity.start(ofSol: 100)
        #expect(curiosity.sol(containing: start) == 100)
        #expect(curiosity.sol(containing: start.adding(seconds: -1)) == 99)
        #expect(curiosity.localMeanSolarTime(at: start).description == "00:00:00")
        let next = curiosity.start(ofSol: 101)
        let solSeconds = Double(next.unixMillis - start.unixMillis) / 1000
        #expect(abs(solSeconds - 88_775.244) < 1)
    }

    @Test("sol + LMST → UTC → sol + LMST agrees to the second", arguments: [0, 1, 17, 452, 1000, 4000])
    func roundTrip(sol: Int) throws {
        var generator = SeededRandom(seed: UInt64(sol) + 7)
        for _ in 0..<50 {
            let seconds = Int(generator.next() % 86_400)
            let lmst = MarsClockTime(secondsOfSol: Double(seconds))
            let instant = curiosity.instant(sol: sol, lmst: lmst)
            #expect(curiosity.sol(containing: instant) == sol)
            let back = curiosity.localMeanSolarTime(at: instant)
            #expect(abs(back.secondsOfSol - lmst.secondsOfSol) < 1, "sol \(sol) \(lmst) came back as \(back)")
            #expect(back.description == lmst.description)
        }
    }

    @Test("UTC → sol + LMST → UTC agrees to the second")
    func reverseRoundTrip() {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<200 {
            let instant = Instant(unixMillis: curiosity.landing.unixMillis + Int64(generator.next() % 300_000_000_000))
            let sol = curiosity.sol(containing: instant)
            let lmst = curiosity.localMeanSolarTime(at: instant)
            let back = curiosity.instant(sol: sol, lmst: lmst)
            #expect(abs(back.unixMillis - instant.unixMillis) < 1000)
        }
    }
}

