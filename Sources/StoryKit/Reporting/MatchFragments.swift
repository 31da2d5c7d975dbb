/// The bytes a report writes for the step definition a step matched (its
/// pattern and place, escaped), made once per definition of the run rather
/// than once per step: thousands of steps match each definition, and
/// escaping its pattern and cutting its path was a good part of a report's
/// work for each step.
///
/// A class, so that a reporter's non-mutating methods can fill it; a
/// reporter owns its own and uses it on its thread alone.
final class MatchFragments {
    /// The fragments, by definition id (``MatchInfo/definitionID``).
    private var fragments: [[UInt8]?] = []
    /// The largest definition id kept; larger ones are written each time.
    static let idLimit = 1 << 16

    /// Appends the fragment for a match, which `make` appends the first
    /// time the match's definition is seen. A match without a definition id
    /// (read back from a report by `merge`) is written by `make` every time.
    func append(_ match: MatchInfo, into out: inout [UInt8], make: (MatchInfo, inout [UInt8]) -> Void) {
        guard let id = match.definitionID, id >= 0, id < Self.idLimit else { return make(match, &out) }
        if id < fragments.count, let known = fragments[id] {
            out += known
            return
        }
        var fragment: [UInt8] = []
        make(match, &fragment)
        out += fragment
        if id >= fragments.count { fragments += Array(repeating: nil, count: id + 1 - fragments.count) }
        fragments[id] = fragment
    }
}
