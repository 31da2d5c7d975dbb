import Foundation

/// A story file as the editor holds it, parsed and matched as a run would.
struct StoryDocument {
    /// One compiled step of a story, matched: a step line of a Scenario
    /// Outline has one use per Examples row, a background step one per story.
    struct StepUse {
        /// The step, placeholders filled in.
        var step: Step
        /// The story it belongs to (for an outline, its Examples row).
        var story: Story
        /// Every definition that matches it.
        var result: MatchResult
        /// Why the winner's arguments do not convert, if they do not.
        var conversionError: ArgumentConversionError?
    }

    /// The document's URI, as the editor names it.
    let uri: String
    /// The file's path (from a `file:` URI), used as the stories' file.
    let path: String
    /// The editor's version of the text.
    var version: Int
    /// The lines, without line ends.
    let lines: [String]
    /// Whether the file is Gherkin (`.feature`) rather than `.stories`.
    let isFeature: Bool
    /// The stories the text compiles to (none for a `.feature` file with errors).
    let stories: [Story]
    /// The parser's diagnostics.
    let parseDiagnostics: [Diagnostic]
    /// The matched steps, by line (from 1).
    let usesByLine: [Int: [StepUse]]
    /// The lines classified.
    let outline: StoryOutline

    /// Parses and matches a document's text.
    init(uri: String, version: Int, text: String, matcher: inout CachingMatcher) {
        self.uri = uri
        self.version = version
        path = Self.path(ofURI: uri)
        isFeature = path.hasSuffix(".feature")
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        let parsed = StoryLoader.parse(text, path: path)
        stories = parsed.stories
        parseDiagnostics = parsed.diagnostics
        usesByLine = Self.match(parsed.stories, matcher: &matcher)
        outline = StoryOutline(lines: lines, isFeature: isFeature)
    }

    /// Matches every step of the stories and converts the winners' arguments.
    static func match(_ stories: [Story], matcher: inout CachingMatcher) -> [Int: [StepUse]] {
        var uses: [Int: [StepUse]] = [:]
        for story in stories {
            for step in story.steps {
                let result = matcher.matches(step)
                var error: ArgumentConversionError?
                if let winner = result.winner, case .failure(let failure) = winner.definition.convertedArguments(winner.inputs, step: step) {
                    error = failure
                }
                uses[step.location.line, default: []].append(StepUse(step: step, story: story, result: result, conversionError: error))
            }
        }
        return uses
    }

    /// The first use of the step on a line (from 1), if the line is a step.
    func use(atLine line: Int) -> StepUse? {
        usesByLine[line]?.first
    }

    /// The path a `file:` URI names; other URIs are kept as they are.
    static func path(ofURI uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        let rest = String(uri.dropFirst("file://".count))
        return rest.removingPercentEncoding ?? rest
    }

    /// The `file:` URI of a path.
    static func uri(ofPath path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let allowed = CharacterSet.urlPathAllowed
        return "file://" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute)
    }
}

extension StoryDocument {
    /// The LSP range of a whole line (from 1), from its first non-blank character.
    func lineRange(_ line: Int, fromColumn column: Int = 0) -> JSONValue {
        let text = line >= 1 && line <= lines.count ? lines[line - 1] : ""
        let indent = text.prefix { $0 == " " || $0 == "\t" }
        var start = indent.utf16.count
        if column > 1 { start = String(text.unicodeScalars.prefix(column - 1)).utf16.count }
        let trimmedEnd = text.utf16.count - text.reversed().prefix { $0 == " " || $0 == "\t" }.count
        let end = max(trimmedEnd, start)
        return Self.range(line: line - 1, start: start, end: end)
    }

    /// An LSP range on one line (from 0), in UTF-16 units.
    static func range(line: Int, start: Int, end: Int) -> JSONValue {
        ["start": ["line": .number(line), "character": .number(start)], "end": ["line": .number(line), "character": .number(end)]]
    }

    /// The UTF-16 offset where a step line's text starts, after its keyword.
    func textStart(ofLine line: Int, keyword: String) -> Int {
        guard line >= 1, line <= lines.count else { return 0 }
        let text = lines[line - 1]
        guard let range = text.range(of: keyword) else { return 0 }
        var index = range.upperBound
        while index < text.endIndex, text[index] == " " || text[index] == "\t" { index = text.index(after: index) }
        return text[..<index].utf16.count
    }
}
