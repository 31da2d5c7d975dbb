import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SimpleRegexTests {
    static let patterns = [
        "^the widget7 has (\\d+) parts and (\\d+) bolts$", ".* I add (\\d+) (.*) to the basket", "I have (\\d+) items",
        "^Given an empty basket$", "the total is (-?\\d+) euros", "^(\\w+) says \"([^\"]*)\"$", "(\\S+) and (\\S+)",
        "(.+) or (.*)", "^(.*)$", "a\\.b (\\d*)x", "the basket holds (\\S+) (.*)", "^I add (.*) to the basket in a hurry$",
        "(-?\\d+)(\\d+)", "x(.*)y(.*)z", "it's '([^']*)'", "a.+b(.*)", ".*x.*y",
    ]
    static let texts = [
        "Given the widget7 has 12 parts and 3 bolts", "the widget7 has 12 parts and 3 bolts", "THE WIDGET7 HAS 1 PARTS AND 2 BOLTS",
        "the widget7 has 12 parts and 3 bolts!", "the widget70 has 1 parts and 2 bolts", "When I add 3 apples to the basket",
        "When I add 3 big apples to the basket and to the basket", "I have 12 items and I have 3 items", "Given an empty basket",
        "the total is -12 euros", "the total is --12 euros", "Ada says \"hello there\"", "ada_b says \"\"", "x and y and z",
        " and ", "a or b or c", "", "a.b 12x", "aXb 12x", "a.b x", "the basket holds abc apples", "-123", "123", "1",
        "xyz", "x1y2z3", "xyyzz", "it's 'fine' it's 'ok'", "tab\there (x) or y", "I add 3 apples to the basket in a hurry",
    ]

    @Test("The fast matcher understands the common patterns")
    func understands() {
        for pattern in Self.patterns { #expect(SimpleRegex(pattern) != nil, "\(pattern)") }
        for pattern in ["a|b", "(?:a)", "a+", "[ab]", "(\\d+)?", "\\bword", "(a)", "é", ".*?x", "a.b", ".*+"] {
            #expect(SimpleRegex(pattern) == nil, "\(pattern)")
        }
    }

    @Test("The fast matcher finds exactly what NSRegularExpression finds")
    func parity() throws {
        for source in Self.patterns {
            let pattern = try Pattern(regex: source)
            #expect(pattern.isSimple)
            let simple = try #require(SimpleRegex(source))
            for text in Self.texts {
                #expect(simple.captures(in: text) == pattern.regexCaptures(in: text), "\(source) in \(text)")
            }
        }
    }

    @Test("Random texts give the same answers as NSRegularExpression")
    func randomParity() throws {
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("ab -1 2xyz\"'.AB")
        for source in Self.patterns + ["^a(\\d+)b$", "(\\w+) (\\w+)", "a(.*)b", "\"([^\"]*)\" (-?\\d+)"] {
            let pattern = try Pattern(regex: source)
            let simple = try #require(SimpleRegex(source))
            for _ in 0..<300 {
                let length = Int.random(in: 0..<14, using: &generator)
                let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
                #expect(simple.captures(in: text) == pattern.regexCaptures(in: text), "\(source) in \(text)")
            }
        }
    }

    @Test("The fast matcher's group spans are the group tree's that Messages wrote")
    func rangesMatchTheTree() throws {
        for source in Self.patterns {
            let pattern = try Pattern(regex: source)
            let tree = try TreeRegex(source, compiling: "(?i)" + source)
            for text in Self.texts {
                let ranges = pattern.located(in: text).map { found in (0..<found.spans.count).compactMap { found.spans[$0] } }
                let root = tree.match(text)
                #expect((ranges == nil) == (root == nil), "\(source) in \(text)")
                guard let ranges, let root else { continue }
                let bytes = Array(text.utf8)
                #expect(root.children.map(\.start) == ranges.map(\.lowerBound), "\(source) in \(text)")
                #expect(root.children.map(\.value) == ranges.map { String(decoding: bytes[$0], as: UTF8.self) }, "\(source) in \(text)")
                #expect(root.children.allSatisfy { $0.children.isEmpty })
            }
        }
    }
}
