/// A mission's sol clock: sols counted from landing, local mean solar time at one longitude.
///
/// Sols start at local mean midnight at ``eastLongitude``; the landing sol has number
/// ``firstSol`` (0 for Curiosity and Perseverance, 1 for Pathfinder and Spirit).
public struct MissionClock: Hashable, Sendable, Encodable {
    /// The landing instant (UTC).
    public var landing: Instant
    /// East-positive longitude, in degrees, whose local mean time the clock keeps.
    public var eastLongitude: Double
    /// The number given to the landing sol.
    public var firstSol: Int

    /// Creates a mission clock.
    public init(landing: Instant, eastLongitude: Double, firstSol: Int) {
        self.landing = landing
        self.eastLongitude = eastLongitude
        self.firstSol = firstSol
    }

    /// The local Mars Sol Date: MSD shifted so that whole numbers fall at local midnight.
    private func localSolDate(at instant: Instant) -> Double {
        Mars24.marsSolDate(at: instant) + eastLongitude / 360
    }

    private var landingSolIndex: Double { localSolDate(at: landing).rounded(.down) }

    /// Returns the mission sol that contains `instant`.
    ///
    /// - Parameter instant: A UTC instant.
    /// - Returns: The sol number, counted from ``firstSol``; lower than it before landing.
    public func sol(containing instant: Instant) -> Int {
        Int(localSolDate(at: instant).rounded(.down) - landingSolIndex) + firstSol
    }

    /// Returns the local mean solar time of `instant` at the mission's longitude.
    public func localMeanSolarTime(at instant: Instant) -> MarsClockTime {
        let local = localSolDate(at: instant)
        return MarsClockTime(hours: 24 * (local - local.rounded(.down)))
    }

    /// Returns the UTC instant at local mean solar time `lmst` on mission sol `sol`.
    ///
    /// - Parameters:
    ///   - sol: A mission sol number.
    ///   - lmst: A local mean solar time on that sol.
    /// - Returns: The instant, rounded to the millisecond.
    public func instant(sol: Int, lmst: MarsClockTime) -> Instant {
        let local = landingSolIndex + Double(sol - firstSol) + lmst.secondsOfSol / 86_400
        return Mars24.instant(marsSolDate: local - eastLongitude / 360)
    }

    /// The sols whose every instant has an Earth date in ISO 8601's years, 0001 to 9999:
    /// the sols marsgen can date. Past them, ``instant(sol:lmst:)`` would overflow.
    public var datedSols: ClosedRange<Int> {
        guard let first = Instant(year: 1, month: 1, day: 1), let last = Instant(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)
        else { return firstSol...firstSol }
        return (sol(containing: first) + 1)...(sol(containing: last) - 1)
    }

    /// The instant local midnight begins `sol`.
    public func start(ofSol sol: Int) -> Instant {
        instant(sol: sol, lmst: MarsClockTime(secondsOfSol: 0))
    }
}
