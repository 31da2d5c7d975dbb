import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct PatternIndexTests {
    @Test("Required words are literal words with a boundary on both sides", arguments: [
        (".* I add (\\d+) (.*) to the basket", ["i", "add", "to", "the"]),
        ("^I have (\\d+) items$", ["i", "have", "items"]),
        ("I have", []),
        ("^Given an empty basket$", ["given", "an", "empty", "basket"]),
        ("colou?r of the (\\w+) car", ["of", "the"]),
        ("a|b c d", []),
        ("(?:the|a) red car", ["red"]),
        ("file\\.txt is open", ["txt", "is"]),
        ("items+ here", []),
        ("^items+ here$", ["here"]),
        ("[Tt]he total is (\\d+)", ["total", "is"]),
        ("\\Qa b c\\E", []),
        ("x{2} and y", ["and"]),
        ("an? apple", []),
        ("café au lait", ["au"]),
    ])
    func requiredWords(pattern: String, words: [String]) {
        #expect(RequiredWords.of(regex: pattern) == words)
    }

    static let patterns = [
        ".* I add (\\d+) (.*) to the basket", "^I have (\\d+) items$", "I have", "^Given an empty basket$",
        "colou?r of the (\\w+) car", "a|b c d", "(?:the|a) red car", "file\\.txt is open", "items+ here",
        "[Tt]he total is (\\d+)", "x{2} and y", "an? apple", "café au lait", "(?i)STRANGE", "^(?!not).*okay$",
        "the kelvin", "^when", "basket$", "\\bdone\\b", "(\\d+) apples? and (\\d+) pears?",
    ]
    static let texts = [
        "When I add 3 apples to the basket", "Given I have 3 items", "Given I HAVE 3 ITEMS", "Given an empty basket",
        "Then the colour of the red car is red", "Then the color of the blue car", "Then a", "And b c d",
        "Given the red car", "And file.txt is open", "And filextxt is open", "Then itemss here", "Then The total is 12",
        "xx and y", "an apple", "a apple", "Café au lait", "CAFÉ AU LAIT", "strange things", "okay", "not okay",
        "the \u{212A}elvin", "the kelvin", "When it rains", "Whenever", "the basket", "done", "undone", "3 apples and 4 pears",
        "padd 3 x to the basket", "I add 3 apples to the baskets",
    ]

    @Test("The index gives exactly the answers of trying every definition in order")
    func parity() throws {
        let definitions = try Self.patterns.enumerated().map { id, pattern in
            StepDefinition(
                id: id, pattern: pattern, syntax: .regex, location: .init(file: "f", line: id), ownerName: "T",
                parameterTypes: [], matcher: .regex(try Pattern(regex: pattern)), invoke: { _, _, _ in },
                requiredWords: RequiredWords.of(regex: pattern))
        }
        let registry = StepRegistry(definitions: definitions)
        for line in Self.texts {
            let text = String(line.drop { $0 != " " }.dropFirst())
            let indexed = registry.matches(line: line, text: text, attachment: nil).map(\.definition.id)
            let all = registry.matchesWithoutIndex(line: line, text: text, attachment: nil).map(\.definition.id)
            #expect(indexed == all, "\(line)")
        }
    }

    /// The ids the scan offers that match, as ``StepRegistry`` would try them.
    static func scanned(_ scan: PrefixScan, _ registry: StepRegistry, line: String, text: String) -> [Int] {
        var ids: [Int] = []
        scan.forEachCandidate(line: line, text: text) { id in
            if registry.definitions[id].matcher.match(line: line, text: text, attachment: nil) != nil { ids.append(id) }
        }
        return ids
    }

    @Test("The first lookups' scan gives exactly the answers of trying every definition in order")
    func scanParity() throws {
        let patterns = Self.patterns + Self.patterns.map { "^" + $0 } + ["^I have", "^i HAVE (\\d+)", "^the kelvin", "^caf"]
        let definitions = try patterns.enumerated().map { id, pattern in
            StepDefinition(
                id: id, pattern: pattern, syntax: .regex, location: .init(file: "f", line: id), ownerName: "T",
                parameterTypes: [], matcher: .regex(try Pattern(regex: pattern)), invoke: { _, _, _ in })
        }
        let registry = StepRegistry(definitions: definitions)
        let scan = PrefixScan(definitions: definitions)
        for line in Self.texts + Self.texts.map({ "Given " + $0 }) {
            let text = String(line.drop { $0 != " " }.dropFirst())
            let all = registry.matchesWithoutIndex(line: line, text: text, attachment: nil).map(\.definition.id)
            #expect(Self.scanned(scan, registry, line: line, text: text) == all, "\(line)")
        }
        // Most of these patterns have no literal prefix: a run builds the index at once.
        #expect(!PrefixScan.pays(for: definitions))
    }

    @Test("Non-ASCII text bypasses the index")
    func nonASCII() {
        var hashes: [UInt64] = []
        #expect(!RequiredWords.forEachWordHash(of: "the \u{212A}elvin") { _ in })
        #expect(RequiredWords.forEachWordHash(of: "Then I-have 3") { hashes.append($0) })
        #expect(hashes == ["then", "i", "have", "3"].map(RequiredWords.hash))
    }

    @Test("On many definitions that share words, the index gives the answers of trying every one")
    func parityAtScale() throws {
        // The bench's neutral shapes: shared literal words, each definition's
        // own number, numbers in the texts that name other definitions.
        var random = SystemRandomNumberGenerator()
        let words = ["hotel", "widget", "garden", "river", "stone", "paper", "Window", "lamp"]
        let templates = (0..<300).map { index -> String in
            let a = words[index % words.count], b = words[(index / 3) % words.count]
            switch index % 4 {
            case 0: return "user (\\d+) adds (\\d+) \(a) \(b)s to cart \(index) after (\\d+) seconds"
            case 1: return "the \(a) \(index) holds (\\d+) \(b)s"
            case 2: return "order (\\d+) ships \(a) parcel \(index) to (\\d+) \(b) street"
            default: return "\(a) account \(index) has (\\d+) \(b) credits and (\\d+) points"
            }
        }
        let definitions = try templates.enumerated().map { id, template in
            let pattern = id % 5 == 0 ? template : "^\(template)$"
            return StepDefinition(
                id: id, pattern: pattern, syntax: .regex, location: .init(file: "f", line: id), ownerName: "T",
                parameterTypes: [], matcher: .regex(try Pattern(regex: pattern)), invoke: { _, _, _ in })
        }
        let registry = StepRegistry(definitions: definitions)
        let scan = PrefixScan(definitions: definitions)
        // Every pattern anchored: a run's first lookups scan, the rest use the index.
        let anchored = try templates.enumerated().map { id, template in
            StepDefinition(
                id: id, pattern: "^\(template)$", syntax: .regex, location: .init(file: "f", line: id), ownerName: "T",
                parameterTypes: [], matcher: .regex(try Pattern(regex: "^\(template)$")), invoke: { _, _, _ in })
        }
        let anchoredRegistry = StepRegistry(definitions: anchored)
        #expect(PrefixScan.pays(for: anchored))
        var found = 0
        for _ in 0..<1_000 {
            // A definition's text with numbers that are often other definitions' numbers,
            // sometimes with a word swapped for another definition's.
            var text = templates[Int.random(in: 0..<templates.count, using: &random)]
            while let group = text.range(of: "(\\d+)") { text.replaceSubrange(group, with: String(Int.random(in: 0..<400, using: &random))) }
            if Bool.random(using: &random) { text = text.replacingOccurrences(of: words.randomElement(using: &random)!, with: words.randomElement(using: &random)!) }
            let line = "Given " + text
            let indexed = registry.matches(line: line, text: text, attachment: nil).map(\.definition.id)
            let all = registry.matchesWithoutIndex(line: line, text: text, attachment: nil).map(\.definition.id)
            #expect(indexed == all, "\(line)")
            #expect(Self.scanned(scan, registry, line: line, text: text) == all, "\(line)")
            #expect(
                anchoredRegistry.matches(line: line, text: text, attachment: nil).map(\.definition.id)
                    == anchoredRegistry.matchesWithoutIndex(line: line, text: text, attachment: nil).map(\.definition.id),
                "\(line)")
            found += all.count
        }
        // The texts do match: the comparison is not between two empty lists.
        #expect(found > 300)
    }
}
