extension Suggestion {
    /// Definitions' skeletons, made once, searched for the one closest to
    /// a step.
    ///
    /// The answer is the one the plain search gives (every definition's
    /// full edit distance to the step's text and to its line, the first
    /// smallest, named when at most a quarter of that text's length, or
    /// 2): a distance is computed only up to what could still win, past a
    /// cheap lower bound, and on bytes where both texts are ASCII.
    struct Candidates: Sendable {
        /// The most definitions searched (the first ones registered).
        static let limit = 5_000

        struct Candidate: Sendable {
            let skeleton: String
            let count: Int
            /// The skeleton's bytes and their counts, when it is ASCII.
            let bytes: [UInt8]?
            let counts: ByteCounts?
        }

        let candidates: [Candidate]

        /// The candidates for `patterns`, in order (the caller keeps to ``limit``).
        init(_ patterns: [String]) {
            candidates = patterns.map { pattern in
                let skeleton = Suggestion.skeleton(of: pattern)
                let bytes = BoundedEditDistance.bytes(skeleton)
                return Candidate(skeleton: skeleton, count: skeleton.count, bytes: bytes, counts: bytes.map(ByteCounts.init))
            }
        }

        /// A step text as the search compares it.
        private struct Text {
            let text: String
            let count: Int
            let bytes: [UInt8]?
            let counts: ByteCounts?

            init(_ text: String) {
                self.text = text
                count = text.count
                bytes = BoundedEditDistance.bytes(text)
                counts = bytes.map(ByteCounts.init)
            }
        }

        /// The index of the closest candidate, when it is close enough.
        func closest(to step: Step, work: inout Work) -> Int? {
            // A pattern may include the keyword (Simon) or not (Cucumber).
            // Counted once: counting the characters of a 20 MB step for each
            // definition took seconds.
            let texts = [Text(step.text.lowercased()), Text(step.line.lowercased())]
            // No distance past this is ever named, whichever text it is to.
            let namable = texts.map { max($0.count / 4, 2) }.max() ?? 2
            var distances = BoundedEditDistance()
            var best: (index: Int, distance: Int, length: Int)?
            for (index, candidate) in candidates.enumerated() {
                for text in texts {
                    // Lengths alone rule most definitions out cheaply.
                    guard abs(candidate.count - text.count) <= max(text.count / 3, 2) else { continue }
                    // Only a distance below the best so far could win.
                    let bound = min(namable, (best?.distance ?? Int.max) - 1)
                    guard let distance = Self.distance(text, candidate, atMost: bound, using: &distances, work: &work) else { continue }
                    best = (index, distance, text.count)
                }
            }
            guard let best, best.distance <= max(best.length / 4, 2) else { return nil }
            return best.index
        }

        /// The distance when it is at most `bound`, else nil.
        private static func distance(
            _ text: Text, _ candidate: Candidate, atMost bound: Int, using distances: inout BoundedEditDistance, work: inout Work
        ) -> Int? {
            guard bound >= 0 else { return nil }
            guard let textBytes = text.bytes, let textCounts = text.counts, let bytes = candidate.bytes, let counts = candidate.counts else {
                // Beyond ASCII: the plain distance on `Character`s.
                work.distances += 1
                let distance = text.text.editDistance(to: candidate.skeleton)
                return distance <= bound ? distance : nil
            }
            guard abs(text.count - candidate.count) <= bound, textCounts.lowerBound(to: counts) <= bound else {
                work.ruledOut += 1
                return nil
            }
            work.distances += 1
            return distances.distance(textBytes, bytes, atMost: bound)
        }
    }
}
