/// What a report needs of a definition to place a match's arguments from
/// the spans the match carries (``MatchInfo/spans``): the nesting of its
/// regex's groups, and a Cucumber Expression's parameter type names. Made
/// once per definition; no report matches a step again (issue 29, item 3).
struct GroupLayout {
    /// The parent of each group (``GroupShape/parents``); empty when flat.
    let parents: [Int32]
    /// The groups with no parent, in order: a Cucumber Expression's
    /// parameters, when a parameter type's regex has groups of its own.
    private let topLevel: [Int]
    /// A Cucumber Expression's parameter type names, one per argument.
    let parameterTypeNames: [String]?

    /// A layout of groups that do not nest, as a merged report's matches
    /// have (no definition is known).
    static let flat = GroupLayout(parents: [], parameterTypeNames: nil)

    init(parents: [Int32], parameterTypeNames: [String]?) {
        self.parents = parents
        self.parameterTypeNames = parameterTypeNames
        topLevel = parents.indices.filter { parents[$0] < 0 }
    }

    init(_ definition: StepDefinition?) {
        switch definition?.matcher {
        case .regex(let pattern): self.init(parents: pattern.groupParents, parameterTypeNames: nil)
        case .expression(let expression, _): self.init(parents: expression.groupParents, parameterTypeNames: expression.parameterTypes.map(\.name))
        case nil: self.init(parents: [], parameterTypeNames: nil)
        }
    }

    /// The index in `match.spans` of argument `index`'s group; nil when
    /// the spans do not place it (none carried, or not this layout's).
    /// A regex's arguments are all its groups; a Cucumber Expression's
    /// only the top-level ones.
    func group(ofArgument index: Int, in match: MatchInfo) -> Int? {
        let count = match.spans.count
        if count == match.arguments.count { return index }
        guard parents.count == count, topLevel.count == match.arguments.count else { return nil }
        return topLevel[index]
    }

    /// Whether group `child` is directly inside group `parent`.
    func isChild(_ child: Int, of parent: Int) -> Bool {
        child < parents.count && parents[child] == Int32(parent)
    }
}

/// Offsets in a step text, from the UTF-8 offsets spans hold to the units
/// reports count in.
enum TextOffsets {
    /// Unicode scalars before UTF-8 offset `offset` (Cucumber JSON's `offset`).
    static func scalars(before offset: Int, in text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var count = 0
            for byte in bytes.prefix(offset) where byte & 0xC0 != 0x80 { count += 1 }
            return count
        }
    }

    /// UTF-16 code units before UTF-8 offset `offset` (Cucumber Messages' `start`).
    static func utf16Units(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes.prefix(offset) where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 2 : 1 }
        return count
    }
}

/// The run's definitions' ``GroupLayout``s by id, each made once.
final class GroupLayouts {
    private let byID: [(pattern: String, layout: GroupLayout)?]

    init(registry: StepRegistry?) {
        var byID: [(pattern: String, layout: GroupLayout)?] = []
        for definition in registry?.definitions ?? [] where definition.id >= 0 {
            if byID.count <= definition.id { byID += Array(repeating: nil, count: definition.id + 1 - byID.count) }
            byID[definition.id] = (definition.pattern, GroupLayout(definition))
        }
        self.byID = byID
    }

    /// The layout of the match's definition; flat when the match names
    /// none of this run's (a merged report's).
    func layout(of match: MatchInfo) -> GroupLayout {
        guard let id = match.definitionID, id >= 0, id < byID.count, let known = byID[id], known.pattern == match.pattern else { return .flat }
        return known.layout
    }
}

extension GroupSpans {
    /// The spans of arguments a report placed (`merge` reads them): each
    /// text at its start, counted in Unicode scalars (Cucumber JSON) or
    /// UTF-16 code units (Messages); an argument the text does not hold
    /// there is unplaced. None when no argument is placed.
    init(placing arguments: [String?], starts: [Int?], in text: String, countingUTF16: Bool) {
        guard starts.count == arguments.count, starts.contains(where: { $0 != nil }) else {
            self = .none
            return
        }
        // The UTF-8 offset of each unit offset that starts a scalar.
        var utf8Offsets: [Int: Int] = [:]
        var units = 0, bytes = 0
        for scalar in text.unicodeScalars {
            utf8Offsets[units] = bytes
            units += countingUTF16 ? scalar.utf16.count : 1
            bytes += scalar.utf8.count
        }
        utf8Offsets[units] = bytes
        let utf8 = Array(text.utf8)
        self.init(count: arguments.count) { index in
            guard let start = starts[index], let argument = arguments[index], let from = utf8Offsets[start] else { return nil }
            let end = from + argument.utf8.count
            return end <= utf8.count && utf8[from..<end].elementsEqual(argument.utf8) ? from..<end : nil
        }
        if isEmptyOfPlaces { self = .none }
    }

    /// Whether no group has a place.
    private var isEmptyOfPlaces: Bool {
        (0..<count).allSatisfy { self[$0] == nil }
    }
}
