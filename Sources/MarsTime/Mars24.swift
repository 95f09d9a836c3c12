import Foundation

/// The Mars24 algorithm (Allison & McEwen 2000, NASA GISS): Mars time from a UTC instant.
///
/// Each step is labelled as in `shared/MARS-TIME.md`. All angles are in degrees.
public enum Mars24 {
    /// The Julian date of the Unix epoch.
    static let unixEpochJulianDate = 2_440_587.5
    /// J2000 epoch (2000-01-01T12:00 TT) as a Julian date.
    static let j2000 = 2_451_545.0

    /// TAI − UTC in seconds from each leap-second date (UTC midnight) on, from the IERS table.
    ///
    /// Later instants keep the last value until the table grows.
    static let leapSeconds: [(since: Int64, taiMinusUTC: Double)] = [
        (1972, 1, 10), (1972, 7, 11), (1973, 1, 12), (1974, 1, 13), (1975, 1, 14), (1976, 1, 15),
        (1977, 1, 16), (1978, 1, 17), (1979, 1, 18), (1980, 1, 19), (1981, 7, 20), (1982, 7, 21),
        (1983, 7, 22), (1985, 7, 23), (1988, 1, 24), (1990, 1, 25), (1991, 1, 26), (1992, 7, 27),
        (1993, 7, 28), (1994, 7, 29), (1996, 1, 30), (1997, 7, 31), (1999, 1, 32), (2006, 1, 33),
        (2009, 1, 34), (2012, 7, 35), (2015, 7, 36), (2017, 1, 37),
    ].map { entry in
        let days = CivilCalendar.daysFromEpoch(year: entry.0, month: entry.1, day: 1)
        return (Int64(days) * 86_400_000, Double(entry.2))
    }

    /// TT − UTC in seconds at `instant` (step A-4). Before 1972 the 1972 value (10 s) is used.
    public static func terrestrialTimeOffset(at instant: Instant) -> Double {
        var tai = 10.0
        for entry in leapSeconds where instant.unixMillis >= entry.since { tai = entry.taiMinusUTC }
        return tai + 32.184
    }

    /// Julian date in UT (step 1).
    public static func julianDateUT(at instant: Instant) -> Double {
        unixEpochJulianDate + Double(instant.unixMillis) / 86_400_000
    }

    /// Julian date in TT (steps 2–3).
    public static func julianDateTT(at instant: Instant) -> Double {
        julianDateUT(at: instant) + terrestrialTimeOffset(at: instant) / 86_400
    }

    /// Days since J2000 in TT, Δt (step 3).
    static func daysSinceJ2000(at instant: Instant) -> Double {
        julianDateTT(at: instant) - j2000
    }

    /// Mars Sol Date (step 4).
    public static func marsSolDate(at instant: Instant) -> Double {
        (daysSinceJ2000(at: instant) - 4.5) / 1.027_491_251_7 + 44_796.0 - 0.000_962_6
    }

    /// Coordinated Mars Time, the mean solar time at Mars' prime meridian (step 5).
    public static func coordinatedMarsTime(at instant: Instant) -> MarsClockTime {
        MarsClockTime(hours: positiveRemainder(24 * marsSolDate(at: instant), 24))
    }

    /// Local mean solar time at `eastLongitude` degrees (step 6).
    public static func localMeanSolarTime(at instant: Instant, eastLongitude: Double) -> MarsClockTime {
        let mtc = positiveRemainder(24 * marsSolDate(at: instant), 24)
        return MarsClockTime(hours: positiveRemainder(mtc + eastLongitude / 15, 24))
    }

    /// Areocentric solar longitude Ls, the Mars season (step 7), in `0..<360`.
    public static func solarLongitude(at instant: Instant) -> Double {
        let dt = daysSinceJ2000(at: instant)
        let meanAnomaly = 19.3871 + 0.524_020_73 * dt
        let fictitiousMeanSun = 270.3871 + 0.524_038_496 * dt
        let perturbers: [(a: Double, tau: Double, phi: Double)] = [
            (0.0071, 2.2353, 49.409), (0.0057, 2.7543, 168.173), (0.0039, 1.1177, 191.837),
            (0.0037, 15.7866, 21.736), (0.0021, 2.1354, 15.704), (0.0020, 2.4694, 95.528),
            (0.0018, 32.8493, 49.095),
        ]
        let pbs = perturbers.reduce(0.0) { sum, p in sum + p.a * cosDegrees(0.985_626 * dt / p.tau + p.phi) }
        let m = meanAnomaly
        let equationOfCenter = (10.691 + 3.0e-7 * dt) * sinDegrees(m) + 0.623 * sinDegrees(2 * m)
            + 0.050 * sinDegrees(3 * m) + 0.005 * sinDegrees(4 * m) + 0.0005 * sinDegrees(5 * m) + pbs
        return positiveRemainder(fictitiousMeanSun + equationOfCenter, 360)
    }

    /// The UTC instant of a Mars Sol Date: the inverse of ``marsSolDate(at:)``.
    ///
    /// TT − UTC depends on the UTC instant itself, so the offset is found by a second pass.
    /// The result is rounded *up* to the millisecond, so that converting it back gives a Mars
    /// time no earlier than `msd`: `sol 12, 14:02` reads back as `14:02`, never `14:01:59`.
    public static func instant(marsSolDate msd: Double) -> Instant {
        let dt = (msd - 44_796.0 + 0.000_962_6) * 1.027_491_251_7 + 4.5
        let julianTT = dt + j2000
        var utc = instant(julianDateUT: julianTT - terrestrialTimeOffset(at: instant(julianDateUT: julianTT)) / 86_400)
        utc = instant(julianDateUT: julianTT - terrestrialTimeOffset(at: utc) / 86_400)
        return utc
    }

    static func instant(julianDateUT: Double) -> Instant {
        let millis = (julianDateUT - unixEpochJulianDate) * 86_400_000
        // Absorb floating-point noise before rounding up, so an exact millisecond stays itself.
        return Instant(unixMillis: Int64((millis - 1e-4).rounded(.up)))
    }
}

func positiveRemainder(_ value: Double, _ modulus: Double) -> Double {
    let r = value.truncatingRemainder(dividingBy: modulus)
    return r < 0 ? r + modulus : r
}

private func sinDegrees(_ degrees: Double) -> Double { sin(degrees * .pi / 180) }
private func cosDegrees(_ degrees: Double) -> Double { cos(degrees * .pi / 180) }
