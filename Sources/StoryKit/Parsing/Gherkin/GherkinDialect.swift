/// The keywords of one spoken language of Gherkin, as listed in
/// `gherkin-languages.json` (`# language: fr` picks one).
///
/// Besides the keyword lists, a dialect keeps the UTF-8 forms the line
/// matcher compares with, so matching a line never builds a string.
struct GherkinDialect: Sendable {
    /// A step keyword in the order the matcher tries it: longest first.
    struct StepKeyword: Sendable {
        /// The keyword as written in the dialect, trailing blank included.
        let keyword: String
        /// The keyword's UTF-8 bytes.
        let bytes: [UInt8]
        /// The keyword's type; `.unknown` when it is listed under several types.
        let type: GherkinStep.KeywordType
        /// The keyword's first byte (0 for an empty keyword), compared
        /// before the rest so that most keywords are passed over at once.
        var first: UInt8 { firstByte }
        private let firstByte: UInt8

        init(keyword: String, bytes: [UInt8], type: GherkinStep.KeywordType) {
            self.keyword = keyword
            self.bytes = bytes
            self.type = type
            firstByte = bytes.first ?? 0
        }
    }

    /// A title keyword (`Feature`, `Scenario`, …) with its colon, as UTF-8.
    struct TitleKeyword: Sendable {
        /// The keyword as written in the dialect, without the colon.
        let keyword: String
        /// The keyword's UTF-8 bytes followed by `:`.
        let bytesWithColon: [UInt8]
        /// The first of those bytes, compared before the rest.
        var first: UInt8 { bytesWithColon[0] }
    }

    /// The language code (`en`, `fr`, `zh-CN`).
    let code: String
    /// The language's English name.
    let name: String
    /// The language's own name for itself.
    let native: String
    /// The `Feature` keywords, each followed by `:` in a file.
    let featureKeywords: [TitleKeyword]
    /// The `Rule` keywords.
    let ruleKeywords: [TitleKeyword]
    /// The `Background` keywords.
    let backgroundKeywords: [TitleKeyword]
    /// The `Scenario` keywords followed by the `Scenario Outline` keywords.
    let scenarioKeywords: [TitleKeyword]
    /// The `Examples` keywords.
    let examplesKeywords: [TitleKeyword]
    /// Every step keyword, longest first (the order the matcher tries them).
    let stepKeywords: [StepKeyword]
    /// The bytes that a title keyword (of any kind) starts with.
    let titleStarts: ByteSet
    /// The bytes that a step keyword starts with.
    let stepStarts: ByteSet
    /// Every keyword list as `gherkin-languages.json` names it, in its order
    /// (`feature`, `background`, …, `but`), for `--i18n-keywords`.
    let keywordLists: [(kind: String, keywords: [String])]

    /// Creates a dialect from the keyword lists of `gherkin-languages.json`.
    init(
        code: String, name: String, native: String, feature: [String], rule: [String],
        background: [String], scenario: [String], scenarioOutline: [String],
        examples: [String], given: [String], when: [String], then: [String],
        and: [String], but: [String]
    ) {
        self.code = code
        self.name = name
        self.native = native
        func titles(_ keywords: [String]) -> [TitleKeyword] {
            keywords.map { TitleKeyword(keyword: $0, bytesWithColon: Array($0.utf8) + [UInt8(ascii: ":")]) }
        }
        featureKeywords = titles(feature)
        ruleKeywords = titles(rule)
        backgroundKeywords = titles(background)
        scenarioKeywords = titles(scenario + scenarioOutline)
        examplesKeywords = titles(examples)

        var types: [String: [GherkinStep.KeywordType]] = [:]
        for (list, type) in [
            (given, GherkinStep.KeywordType.context), (when, .action), (then, .outcome),
            (and, .conjunction), (but, .conjunction),
        ] {
            for keyword in list { types[keyword, default: []].append(type) }
        }
        let all = given + when + then + and + but
        // A stable sort, longest first, so a keyword that is a prefix of
        // another never hides it.
        let ordered = all.enumerated().sorted { left, right in
            let (l, r) = (left.element.unicodeScalars.count, right.element.unicodeScalars.count)
            return l != r ? l > r : left.offset < right.offset
        }
        stepKeywords = ordered.map { entry in
            let listed = types[entry.element] ?? []
            return StepKeyword(
                keyword: entry.element, bytes: Array(entry.element.utf8),
                type: listed.count == 1 ? listed[0] : .unknown)
        }
        titleStarts = ByteSet(firstBytesOf: (feature + rule + background + scenario + scenarioOutline + examples).map { Array($0.utf8) })
        stepStarts = ByteSet(firstBytesOf: stepKeywords.map(\.bytes))
        keywordLists = [
            ("feature", feature), ("rule", rule), ("background", background), ("scenario", scenario),
            ("scenarioOutline", scenarioOutline), ("examples", examples), ("given", given), ("when", when),
            ("then", then), ("and", and), ("but", but),
        ]
    }

    /// The English dialect, the default when a file names no language.
    static let english: GherkinDialect = make(code: "en")!

    /// Returns the dialect for a language code, or `nil` when there is none.
    static func named(_ code: String) -> GherkinDialect? {
        code == "en" ? english : make(code: code)
    }
}
