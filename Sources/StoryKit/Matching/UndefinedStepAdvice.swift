import Foundation

/// What a run tells about an undefined step that depends only on the
/// registry, made once, when the first undefined step asks: the
/// definitions' skeletons the "did you mean" search compares
/// (``Suggestion/Candidates``), the step classes and the words of their
/// patterns a snippet's class is chosen by, and the number types snippets
/// take (``Snippet/Numbers``).
///
/// Before, each undefined step made all of it again from every definition:
/// a story of 10,000 undefined steps took 20 s in a release build.
final class UndefinedStepAdvice: @unchecked Sendable {
    // Unchecked: `made` is read and written only under `lock`, and what it
    // holds never changes once made.
    private let lock = NSLock()
    private let definitions: [StepDefinition]
    private var made: Made?
    /// How many times it was made (once at most), for tests that count work.
    private(set) var madeCount = 0

    struct Made: Sendable {
        let candidates: Suggestion.Candidates
        /// The step classes, in the order their first definition came.
        let owners: [String]
        /// Each definition's step class and the telling words of its
        /// pattern (only when there are several classes to choose from).
        let words: [(owner: String, words: Set<String>)]
        let numbers: Snippet.Numbers
    }

    init(definitions: [StepDefinition]) {
        self.definitions = definitions
    }

    /// The advice, made on first use.
    var value: Made {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        var owners: [String] = []
        var seen: Set<String> = []
        for definition in definitions where seen.insert(definition.ownerName).inserted { owners.append(definition.ownerName) }
        let made = Made(
            candidates: Suggestion.Candidates(definitions.prefix(Suggestion.Candidates.limit).map(\.pattern)),
            owners: owners,
            words: owners.count > 1 ? definitions.map { ($0.ownerName, Set(Snippet.words($0.pattern))) } : [],
            numbers: .used(in: definitions))
        self.made = made
        madeCount += 1
        return made
    }

    var candidates: Suggestion.Candidates { value.candidates }
}
