/// Parses `.stories` files (Simon's format) into stories.
///
/// The grammar, where every line is trimmed and may end in `.,;:!?`, which
/// is dropped; keywords are matched in any case:
///
/// ```ebnf
/// file     = { blank | comment | tags | story } ;
/// blank    = "" ;
/// comment  = "#" , { any } ;
/// tags     = "@" , word , { " " , "@" , word } ;      (* tag the next story *)
/// story    = title , step , { step | blank | comment } ;
/// title    = ( "Story" | "Story:" ) , name ;
/// step     = keyword , " " , text ;
/// keyword  = "As" | "Given" | "When" | "Then" | "And" | "But" ;
/// (* order: Story → As | Given;  As → Given | When;  Given → When | Then | And;
///    When → Then | And;  Then → And | Story;  And and But keep the kind before *)
/// ```
///
/// Every bad line is reported; a story with a bad line is not run, and the
/// others are.
struct StoriesParser {
    private let path: String
    private(set) var stories: [Story] = []
    private(set) var diagnostics: [Diagnostic] = []

    private var pending: PendingStory?
    private var pendingTags: [String] = []
    private var pendingTagsLine: Int = 0
    /// The diagnostic of a tag line above the next story that was rejected.
    private var rejectedTags: Int?

    /// A story whose steps are still being read.
    private struct PendingStory {
        var name: String
        var tags: [String]
        var location: SourceLocation
        var steps: [Step] = []
        var lastKind: Step.Kind?
        var isRejected = false
    }

    /// Parses the text of a `.stories` file.
    /// - Parameter readsPlainLines: Whether plain lines are read from their
    ///   bytes (``readPlain(_:number:)``); the tests turn it off to compare.
    static func parse(_ text: String, path: String, readsPlainLines: Bool = true) -> (stories: [Story], diagnostics: [Diagnostic]) {
        var parser = StoriesParser(path: path)
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        // Classic Mac OS line ends (a lone CR) are line ends too.
        if body.utf8.withContiguousStorageIfAvailable({ $0.contains(0x0D) }) ?? body.utf8.contains(0x0D),
            zip(body.utf8, body.utf8.dropFirst().lazy + [0]).contains(where: { $0 == 0x0D && $1 != 0x0A })
        {
            body = Substring(body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n"))
        }
        // Lines are split on "\n" bytes: "\r\n" is one Character in Swift,
        // and splitting bytes is much faster than splitting Characters.
        // In place where the text is contiguous (it nearly always is): a
        // Substring's own byte search goes an index at a time.
        var lineNumber = 0
        let isSplit = body.utf8.withContiguousStorageIfAvailable { (bytes: UnsafeBufferPointer<UInt8>) -> Void in
            var start = 0
            while true {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                if !readsPlainLines || !parser.readPlain(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber) {
                    let base = body.utf8.startIndex
                    parser.read(body[body.utf8.index(base, offsetBy: start)..<body.utf8.index(base, offsetBy: end)], number: lineNumber)
                }
                guard end < bytes.count else { break }
                start = end + 1
            }
        } != nil
        var lineStart = body.utf8.startIndex
        let end = body.utf8.endIndex
        while !isSplit && lineStart <= end {
            let lineEnd = body.utf8[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? end
            lineNumber += 1
            parser.read(body[lineStart..<lineEnd], number: lineNumber)
            guard lineEnd < end else { break }
            lineStart = body.utf8.index(after: lineEnd)
        }
        parser.finishStory()
        parser.finishTags()
        return (parser.stories, parser.diagnostics)
    }

    private init(path: String) {
        self.path = path
    }

    /// Reads a plain line from its bytes as ``read(_:number:)`` would, with
    /// no ``StoryLine`` made: nearly every line of a suite is a blank, a
    /// comment, a Story line or a step in order, in ASCII. For any other
    /// line (a tag line, a problem, a non-ASCII letter) it does nothing
    /// and returns false; the line then goes to ``read(_:number:)``.
    private mutating func readPlain(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) -> Bool {
        guard let (start, end, wordEnd, restStart) = StoryLine.asciiFields(of: bytes) else { return false }
        if start == end || bytes[start] == UInt8(ascii: "#") { return true }
        func text(_ from: Int, _ to: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) }
        let word = UnsafeBufferPointer(rebasing: bytes[start..<wordEnd])
        if let nameStart = StoryLine.storyNameStart(word: word, restStart: restStart - start, in: UnsafeBufferPointer(rebasing: bytes[start..<end])) {
            guard start + nameStart < end else { return false }
            finishStory()
            startStory(name: text(start + nameStart, end), location: SourceLocation(file: path, line: number, column: start + 1), line: nil)
            return true
        }
        guard let keyword = StepKeyword(ascii: word), let lastKind = pending.map({ $0.lastKind }),
            OrderRule.allows(keyword, after: lastKind)
        else { return false }
        finishTags()
        let kind = keyword.kind ?? lastKind ?? .context
        pending!.lastKind = kind
        pending!.steps.append(
            Step(keyword: text(start, wordEnd), kind: kind, text: text(restStart, end), location: SourceLocation(file: path, line: number, column: start + 1)))
        return true
    }

    private mutating func read(_ rawLine: Substring, number: Int) {
        let line = StoryLine(rawLine)
        guard !line.isBlank, !line.isComment else { return }
        let location = SourceLocation(file: path, line: number, column: line.column)
        if line.isTagLine {
            readTags(line, location: location)
        } else if let name = line.storyName {
            finishStory()
            startStory(name: name, location: location, line: line)
        } else if let keyword = StepKeyword(line.firstWord) {
            readStep(keyword: keyword, line: line, location: location)
        } else {
            reject(.unknownKeyword(String(line.firstWord)), at: location, line: line)
        }
    }

    private mutating func readTags(_ line: StoryLine, location: SourceLocation) {
        let words = line.text.split(whereSeparator: \.isWhitespace)
        guard words.allSatisfy({ $0.hasPrefix("@") && $0.count > 1 }) else {
            // The tags are for the next story, which is not run: run without
            // its tags, it would slip past `--tags "not @wip"`.
            diagnostics.append(Diagnostic(
                at: location, problem: StoriesParser.Problem.badTag.message, help: StoriesParser.Problem.badTag.help,
                sourceLine: String(line.original)))
            if pendingTags.isEmpty { pendingTagsLine = location.line }
            rejectedTags = diagnostics.count - 1
            return
        }
        if pendingTags.isEmpty { pendingTagsLine = location.line }
        pendingTags += words.map(String.init)
    }

    /// `line` is needed only for a story without a name (which the bytes'
    /// way leaves to the Characters' way).
    private mutating func startStory(name: String, location: SourceLocation, line: StoryLine?) {
        pending = PendingStory(name: name, tags: pendingTags, location: location, isRejected: rejectedTags != nil)
        if let rejectedTags {
            diagnostics[rejectedTags].notes.append(.init(location: location, message: "story \"\(name)\" is not run"))
        }
        pendingTags = []
        rejectedTags = nil
        if name.isEmpty { reject(.storyWithoutName, at: location, line: line) }
    }

    private mutating func readStep(keyword: StepKeyword, line: StoryLine, location: SourceLocation) {
        finishTags()
        // The pending story is changed in place: a copy would copy its steps.
        guard let lastKind = pending.map({ $0.lastKind }) else {
            reject(.stepBeforeStory(String(line.text)), at: location, line: line)
            return
        }
        let kind = keyword.kind ?? lastKind ?? .context
        pending!.lastKind = kind
        if let problem = OrderRule.check(keyword: keyword, previous: lastKind) {
            pending!.isRejected = true  // read on as if the order were right, to avoid cascading errors
            reject(problem, at: location, line: line)
            return
        }
        pending!.steps.append(
            Step(keyword: String(line.firstWord), kind: kind, text: String(line.rest), location: location))
    }

    private mutating func finishStory() {
        guard let story = pending else { return }
        pending = nil
        if story.steps.isEmpty && !story.isRejected {
            reject(.storyWithoutSteps(story.name), at: story.location, line: nil)
            return
        }
        guard !story.isRejected else { return }
        stories.append(
            Story(name: story.name, tags: story.tags, location: story.location, steps: story.steps))
    }

    /// Reports tags that no story follows. Tags among a story's steps make
    /// that story not run: run without them, it could slip past a
    /// `--tags "not @wip"` they were meant for.
    private mutating func finishTags() {
        defer { rejectedTags = nil }
        guard !pendingTags.isEmpty else { return }
        var notes: [Diagnostic.Note] = []
        if let story = pending {
            pending!.isRejected = true
            notes.append(.init(location: story.location, message: "story \"\(story.name)\" is not run"))
        }
        diagnostics.append(
            Diagnostic(
                at: SourceLocation(file: path, line: pendingTagsLine, column: 1),
                problem: "tags \(pendingTags.joined(separator: " ")) are not followed by a Story line",
                help: "put tag lines directly above the Story line they tag", notes: notes))
        pendingTags = []
    }

    private mutating func reject(_ problem: StoriesParser.Problem, at location: SourceLocation, line: StoryLine?) {
        var notes: [Diagnostic.Note] = []
        if let story = pending, story.location != location {
            notes.append(.init(location: story.location, message: "story \"\(story.name)\" is not run"))
        }
        pending?.isRejected = true
        diagnostics.append(
            Diagnostic(at: location, problem: problem.message, help: problem.help, notes: notes, sourceLine: line.map { String($0.original) }))
    }
}
