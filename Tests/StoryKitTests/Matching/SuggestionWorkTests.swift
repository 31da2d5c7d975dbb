import Testing
@testable import StoryKit

/// The "did you mean" search and snippets for many undefined steps: the
/// same answers as the plain search, for work that does not grow with the
/// registry for each step (a story of 10,000 undefined steps took 20 s in
/// a release build when each step made every definition's skeleton again
/// and computed every full edit distance on `Character`s).
@Suite(.timeLimit(.minutes(10))) struct SuggestionWorkTests {
    /// The search as it was: every definition's full distance to both
    /// texts, the first smallest, named when close enough.
    static func plainClosest(to step: Step, in patterns: [String]) -> Int? {
        let texts = [step.text.lowercased(), step.line.lowercased()].map { (text: $0, count: $0.count) }
        var best: (index: Int, distance: Int, length: Int)?
        for (index, pattern) in patterns.enumerated() {
            let skeleton = Suggestion.skeleton(of: pattern)
            for (text, count) in texts {
                guard abs(skeleton.count - count) <= max(count / 3, 2) else { continue }
                let distance = text.editDistance(to: skeleton)
                if distance < (best?.distance ?? Int.max) { best = (index, distance, count) }
            }
        }
        guard let best, best.distance <= max(best.length / 4, 2) else { return nil }
        return best.index
    }

    /// A fixed sequence of numbers, so a failure can be run again.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        mutating func text(from alphabet: [Character], length: Int) -> String {
            String((0..<length).map { _ in alphabet[next(alphabet.count)] })
        }
    }

    static let alphabet: [Character] = Array("abcde XYZ12")
    static let wide: [Character] = Array("abé e\u{301}\r\nZ")

    @Test("The bounded distance is the plain one when it is at most the bound, and nil past it")
    func boundedDistance() {
        var random = Seeded(state: 29)
        var distances = BoundedEditDistance()
        for _ in 0..<3_000 {
            let a = random.text(from: Self.alphabet, length: random.next(14)).lowercased()
            let b = random.text(from: Self.alphabet, length: random.next(14)).lowercased()
            let plain = a.editDistance(to: b)
            let bound = random.next(12)
            let bounded = distances.distance(Array(a.utf8), Array(b.utf8), atMost: bound)
            #expect(bounded == (plain <= bound ? plain : nil), "\(a) / \(b) at most \(bound)")
            #expect(ByteCounts(Array(a.utf8)).lowerBound(to: ByteCounts(Array(b.utf8))) <= plain)
        }
    }

    @Test("The search names what the plain search named, ASCII or not")
    func sameAnswers() {
        var random = Seeded(state: 7)
        for alphabet in [Self.alphabet, Self.wide] {
            for _ in 0..<300 {
                let patterns = (0..<1 + random.next(6)).map { _ in
                    "^" + random.text(from: alphabet, length: 4 + random.next(10)) + " (\\d+) " + random.text(from: alphabet, length: random.next(6)) + "$"
                }
                // Steps near a pattern (a few characters changed) and not.
                var text = Suggestion.skeleton(of: patterns[random.next(patterns.count)])
                for _ in 0..<random.next(5) where !text.isEmpty {
                    let at = text.index(text.startIndex, offsetBy: random.next(text.count))
                    text.replaceSubrange(at...at, with: String(alphabet[random.next(alphabet.count)]))
                }
                for candidate in [text, random.text(from: alphabet, length: random.next(20))] {
                    let step = StepRegistryTests.step("Given", candidate)
                    var work = Suggestion.Work()
                    let found = Suggestion.Candidates(patterns).closest(to: step, work: &work)
                    #expect(found == Self.plainClosest(to: step, in: patterns), "\(candidate) in \(patterns)")
                }
            }
        }
    }

    static let widgets = (0..<10).map { "^the widget\($0) has (\\d+) parts and (\\d+) bolts$" }

    @Test("A step like no definition is ruled out without computing a distance; a near one computes few, each cut short")
    func workCounted() {
        let candidates = Suggestion.Candidates(Self.widgets)
        var far = Suggestion.Work()
        for index in 0..<1_000 {
            let step = StepRegistryTests.step("And", "a completely unrelated line number \(index) about the weather in town")
            let found = candidates.closest(to: step, work: &far)
            #expect(found == nil)
        }
        #expect(far.distances == 0)
        var near = Suggestion.Work()
        for index in 0..<1_000 {
            let step = StepRegistryTests.step("And", "the widget\(index % 10) has \(index % 97) parts and \(index % 89) screws")
            let found = candidates.closest(to: step, work: &near)
            #expect(found == index % 10)
        }
        // The plain search computed 20 full distances a step (10 definitions,
        // 2 texts each); here about 3 (3,150 in all): the line with its
        // keyword is ruled out by its byte counts, and once one definition
        // is close, most others by the best so far.
        #expect(near.distances <= 4_000)
    }

    @Test("A registry's skeletons, step classes and number types are made once for all its undefined steps")
    func madeOnce() {
        let (registry, _) = StepRegistryTests.registry([RegistrySteps.self])
        #expect(registry.undefinedStepAdvice.madeCount == 0)
        for index in 0..<2_000 {
            let step = StepRegistryTests.step("Given", "I have \(index % 10) itemz")
            #expect(Suggestion.closest(to: step, in: registry)?.pattern == "^I have (\\d+) items$")
            _ = Snippet.suggested(for: step, in: registry).code()
        }
        #expect(registry.undefinedStepAdvice.madeCount == 1)
    }
}
