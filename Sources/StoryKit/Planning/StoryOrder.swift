/// The order stories run in: as written (files sorted, stories in file
/// order), reversed (the last story first, as Cucumber's `--order reverse`),
/// or shuffled with a seed that is printed so a run can be repeated.
enum StoryOrder: Equatable, Sendable {
    case defined
    case reverse
    case random(seed: UInt64)

    /// Reads `defined`, `reverse`, `random` or `random:SEED`.
    init?(_ text: String) {
        if text == "defined" {
            self = .defined
        } else if text == "reverse" {
            self = .reverse
        } else if text == "random" {
            self = .random(seed: UInt64.random(in: 1...99_999))
        } else if text.hasPrefix("random:"), let seed = UInt64(text.dropFirst(7)) {
            self = .random(seed: seed)
        } else {
            return nil
        }
    }

    /// The stories in this order.
    func apply<Element>(to stories: [Element]) -> [Element] {
        if self == .reverse { return stories.reversed() }
        guard case .random(let seed) = self else { return stories }
        var generator = SplitMix64(seed: seed)
        return stories.shuffled(using: &generator)
    }
}

/// A small deterministic random number generator, so a seed always gives
/// the same order.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
