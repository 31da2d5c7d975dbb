import Foundation

/// Reads a feature file into a ``GherkinDocument`` with a hand-written
/// state machine over Gherkin's grammar, collecting every error.
///
/// The grammar (the official `gherkin.berp`, one line a rule; `#X` is a
/// line the matcher classifies, and comments and blank lines may appear
/// almost anywhere):
///
/// ```
/// GherkinDocument    = [Feature] ;
/// Feature            = FeatureHeader [Background] {ScenarioDefinition} {Rule} ;
/// FeatureHeader      = [#Language] [Tags] #FeatureLine DescriptionHelper ;
/// Rule               = RuleHeader [Background] {ScenarioDefinition} ;
/// RuleHeader         = [Tags] #RuleLine DescriptionHelper ;
/// Background         = #BackgroundLine DescriptionHelper {Step} ;
/// ScenarioDefinition = [Tags] Scenario ;          (tags: look ahead for #ScenarioLine)
/// Scenario           = #ScenarioLine DescriptionHelper {Step} {ExamplesDefinition} ;
/// ExamplesDefinition = [Tags] Examples ;          (tags: look ahead for #ExamplesLine)
/// Examples           = #ExamplesLine DescriptionHelper [#TableRow {#TableRow}] ;
/// Step               = #StepLine [DataTable [DocString] | DocString [DataTable]] ;
/// DataTable          = #TableRow {#TableRow} ;
/// DocString          = #DocStringSeparator {#Other} #DocStringSeparator ;
/// Tags               = #TagLine {#TagLine} ;
/// DescriptionHelper  = {#Empty} [(#Other | #Comment) {#Other | #Comment}] ;
/// ```
///
/// Each state lists the token kinds it accepts, in the order it tries
/// them; a line none of them matches is an error that names that list, and
/// the parser stays in its state and goes on with the next line.
struct GherkinParser {
    /// A block of the grammar that has a keyword line and a description.
    enum Block: Hashable, Sendable {
        case feature, rule, background, scenario, examples

        /// The block's number, 0 to 4.
        var index: Int {
            switch self {
            case .feature: 0
            case .rule: 1
            case .background: 2
            case .scenario: 3
            case .examples: 4
            }
        }
    }

    /// Where a step is in its arguments.
    enum StepPhase: Hashable, Sendable {
        /// Just after the step line.
        case line
        /// In a data table (written after a doc string, or not).
        case table(afterDocString: Bool)
        /// Inside a doc string (written after a data table, or not).
        case docString(afterTable: Bool)
        /// After a doc string's closing fence.
        case docStringEnd(afterTable: Bool)

        /// The phase's number, 0 to 6.
        var index: Int {
            switch self {
            case .line: 0
            case .table(let afterDocString): afterDocString ? 2 : 1
            case .docString(let afterTable): afterTable ? 4 : 3
            case .docStringEnd(let afterTable): afterTable ? 6 : 5
            }
        }
    }

    /// A state of the parser: where in the grammar the last line left it.
    enum State: Hashable, Sendable {
        case start, afterLanguage, featureTags
        /// After the tags of a rule, scenario or examples.
        case tags(Block)
        /// After a block's keyword line, or in its description.
        case header(Block, isInDescription: Bool)
        /// After a step of a background or scenario.
        case step(Block, StepPhase)
        /// In an examples table.
        case examplesTable
        case finished

        /// The number of distinct states.
        static let tableSize = 55

        /// A distinct number for each state, below ``tableSize``.
        var tableIndex: Int {
            switch self {
            case .start: 0
            case .afterLanguage: 1
            case .featureTags: 2
            case .examplesTable: 3
            case .finished: 4
            case .tags(let block): 5 + block.index
            case .header(let block, let isInDescription): 10 + block.index * 2 + (isInDescription ? 1 : 0)
            case .step(let block, let phase): 20 + block.index * 7 + phase.index
            }
        }
    }

    /// The file's UTF-8 bytes.
    let bytes: GherkinLine.Bytes
    var matcher = GherkinTokenMatcher()
    var builder = GherkinASTBuilder()
    private(set) var state = State.start
    private var expected = Self.candidates(.start)
    /// The number of the line being read.
    var lineNumber = 1
    /// Where the line after the one being read starts.
    var nextStart = 0

    private init(_ bytes: GherkinLine.Bytes) {
        self.bytes = bytes
    }

    /// Returns the line that starts at byte `start`, and where the next one
    /// starts; `nil` at the end of the file.
    func line(at start: Int, number: Int) -> (line: GherkinLine, next: Int)? {
        let count = bytes.count
        guard start < count else { return nil }
        var end = count
        if let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, count - start) {
            end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        return (GherkinLine(bytes: bytes, start: start, end: end, number: number), end + 1)
    }

    /// Parses a feature file.
    ///
    /// - Returns: The document (`nil` when there are errors), every error
    ///   in the order found, and the next free id for the pickle compiler.
    /// - Parameter markdown: Whether the file is Gherkin in Markdown (`.feature.md`).
    static func parse(_ text: String, markdown: Bool = false) -> (document: GherkinDocument?, errors: [GherkinError], nextID: Int) {
        var text = text
        return text.withUTF8 { bytes in
            var parser = GherkinParser(bytes)
            parser.matcher.isMarkdown = markdown
            // A UTF-8 byte order mark (as SpecFlow's tools save one) is
            // not text, as cucumber-jvm reads it.
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            while !parser.builder.isStopped {
                let next = parser.line(at: start, number: parser.lineNumber)
                parser.nextStart = next?.next ?? start
                parser.read(next?.line)
                if next == nil { break }
                start = parser.nextStart
                parser.lineNumber += 1
            }
            var document = parser.builder.finish()
            let errors = parser.builder.errors
            if errors.isEmpty, !parser.builder.descriptionLines.isEmpty {
                document.keywordTypos = GherkinKeywordTypos.find(
                    in: parser.builder.descriptionLines, of: document, dialect: parser.matcher.dialect)
            }
            return (errors.isEmpty ? document : nil, errors, parser.builder.nextID)
        }
    }

    /// Matches one line (or the end of the file) in the current state.
    private mutating func read(_ line: GherkinLine?) {
        for kind in expected where matcher.mayMatch(kind, line) {
            do {
                if let token = try matcher.match(kind, line, lineNumber: lineNumber) {
                    apply(token)
                    return
                }
            } catch {
                builder.record(error)
            }
        }
        builder.record(.unexpected(line, lineNumber: lineNumber, expected: expected))
    }

    mutating func enter(_ newState: State) {
        if newState != state {
            state = newState
            expected = Self.candidateTable[newState.tableIndex]
        }
    }
}
