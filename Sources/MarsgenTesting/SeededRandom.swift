/// A small, fast random generator (SplitMix64) that gives the same sequence for the same
/// seed on every machine, for reproducible tests, generated sites and benchmarks.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed always gives the same numbers.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound`.
    ///
    /// - Warning: `bound` must be positive.
    public mutating func next(_ bound: Int) -> Int {
        Int(next() % UInt64(max(1, bound)))
    }
}
